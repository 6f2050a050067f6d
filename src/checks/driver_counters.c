// SPDX-License-Identifier: GPL-2.0-only
/* What a driver counter witnesses: its driver's table (driver_counter_tables.c), else generic
 * patterns over the name. */
#include "driver_counter_tables.h"

#include <ctype.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *const meaning_names[NP_DRV__COUNT] = {
	[NP_DRV_NONE] = "none",
	[NP_DRV_RING_EMPTY] = "ring_empty",
	[NP_DRV_PORT_DISCARD] = "port_discard",
	[NP_DRV_ALLOC_FAIL] = "alloc_fail",
	[NP_DRV_QUEUE_DROP] = "queue_drop",
	[NP_DRV_XDP_DROP] = "xdp_drop",
	[NP_DRV_PAUSE_TX] = "pause_tx",
	[NP_DRV_PAUSE_RX] = "pause_rx",
	[NP_DRV_CLOUD_ALLOWANCE] = "cloud_allowance",
	[NP_DRV_PHY_ERROR] = "phy_error",
	[NP_DRV_OVERSIZE] = "oversize",
};

const char *np_drv_meaning_name(enum np_drv_meaning m)
{
	return (unsigned)m < NP_DRV__COUNT ? meaning_names[m] : "none";
}

/* Whole-name glob with the rules above; *q gets the last %-capture. */
static bool glob(const char *p, const char *s, int *q)
{
	for (; *p; p++, s++) {
		if (*p == '*') {
			for (const char *t = s;; t++) {
				if (glob(p + 1, t, q))
					return true;
				if (!*t)
					return false;
			}
		}
		if (*p == '%' || *p == '#') {
			long v = 0;

			if (!isdigit((unsigned char)*s))
				return false;
			for (; isdigit((unsigned char)*s); s++)
				v = v < 100000 ? v * 10 + (*s - '0') : v;
			if (*p == '%')
				*q = (int)v;
			s--;
			continue;
		}
		if (tolower((unsigned char)*s) != *p)
			return false;
	}
	return *s == '\0';
}

static bool is_wild(char c)
{
	return c == '*' || c == '%' || c == '#';
}

/* The name's direction: its first rx/tx-ish token ("rx", "rx3", "rxq", "tx", "tx0", "xmit"). */
static int name_dir(const char *name)
{
	const char *s = name;

	while (*s) {
		const char *t;
		size_t n;

		while (*s && !isalnum((unsigned char)*s))
			s++;
		for (t = s; *t && isalnum((unsigned char)*t); t++)
			;
		n = (size_t)(t - s);
		if (n >= 2 && (s[0] == 'r' || s[0] == 't') && s[1] == 'x') {
			size_t k = 2;

			if (k < n && s[k] == 'q')
				k++;
			while (k < n && isdigit((unsigned char)s[k]))
				k++;
			if (k == n)
				return s[0] == 't' ? NP_DRV_DIR_TX : NP_DRV_DIR_RX;
		}
		if (n == 4 && strncmp(s, "xmit", 4) == 0)
			return NP_DRV_DIR_TX;
		s = t;
	}
	return NP_DRV_DIR_RX;	/* no direction named: port counters are receive-side by habit */
}

/* The queue in "rx_queue_3_", "queue_3_", "rx3_", "rxq3", "rx-3.", "q3_", "[3]: ", or -1. */
static int name_queue(const char *name)
{
	static const char *const pre[] = { "queue_", "queue-", "queue", "rxq", "txq", "rx-",
					   "tx-", "rx", "tx", "q" };

	for (const char *s = name; *s; s++) {
		if (*s == '[' && isdigit((unsigned char)s[1])) {
			char *end;
			long v = strtol(s + 1, &end, 10);

			if (*end == ']' && v >= 0 && v < 100000)
				return (int)v;
		}
		if (s != name && isalnum((unsigned char)s[-1]))
			continue;	/* prefixes start a token: "prio3" is no queue */
		for (size_t i = 0; i < sizeof(pre) / sizeof(pre[0]); i++) {
			size_t n;

			if (*s != pre[i][0])
				continue;
			n = strlen(pre[i]);
			const char *d = s + n;
			const char *e = d;

			if (strncmp(s, pre[i], n) != 0 || !isdigit((unsigned char)*d))
				continue;
			while (isdigit((unsigned char)*e))
				e++;
			if (isalpha((unsigned char)*e) || e - d > 5)
				continue;	/* "rx64b..." is a size bucket, not a queue */
			return atoi(d);
		}
	}
	return -1;
}

/*
 * A name and the pairs of adjacent bytes it holds, hashed into 256 bits: a word whose first two
 * bytes are not among them cannot occur in it, so most of the ~45 strstr calls of generic() are
 * skipped with a bit test (issue #35). A set bit only sends the word on to strstr.
 */
struct name_pairs {
	const char *s;
	uint64_t bits[4];
};

#define PAIR_HASH(a, b) (((unsigned char)(a) * 31u + (unsigned char)(b)) & 255u)

static inline __attribute__((always_inline)) unsigned pair_hash(unsigned char a, unsigned char b)
{
	return PAIR_HASH(a, b);
}

/* A generic word with the hash of its first two bytes, computed by the compiler. */
struct gword {
	const char *w;
	unsigned char h;
};

#define W(s) { s, PAIR_HASH((s)[0], (s)[1]) }

static void name_pairs_init(struct name_pairs *np, const char *s)
{
	memset(np->bits, 0, sizeof(np->bits));
	np->s = s;
	for (; s[0] && s[1]; s++) {
		unsigned h = pair_hash((unsigned char)s[0], (unsigned char)s[1]);

		np->bits[h >> 6] |= (uint64_t)1 << (h & 63);
	}
}

static inline __attribute__((always_inline)) bool has(const struct name_pairs *np, const char *word)
{
	if (word[0] && word[1]) {
		unsigned h = pair_hash((unsigned char)word[0], (unsigned char)word[1]);

		if (!(np->bits[h >> 6] & ((uint64_t)1 << (h & 63))))
			return false;
	}
	return strstr(np->s, word) != NULL;
}

static bool has_any(const struct name_pairs *np, const struct gword *words)
{
	for (; words->w; words++)
		if ((np->bits[words->h >> 6] & ((uint64_t)1 << (words->h & 63))) &&
		    strstr(np->s, words->w))
			return true;
	return false;
}

/* "missed" words that are not lost packets: lookups that fell back, timers, interrupts. */
static const struct gword miss_benign[] = {
	W("irq"), W("intr"), W("fdir"), W("filter"), W("steer"), W("cache"), W("cmpl"),
	W("compl"), W("arfs"), W("flow"), W("hash"), W("lookup"), W("bp_"), W("timer"),
	{ NULL, 0 } };
static const struct gword ring_words[] = {
	W("out_of_buffer"), W("no_buffer"), W("no_buf"), W("nobuf"), W("no_dma"), W("no_desc"),
	W("overrun"), W("empty_rx_ring"), { NULL, 0 } };
static const struct gword phy_words[] = {
	W("crc"), W("fcs"), W("symbol"), W("align"), W("jabber"), W("undersize"), W("runt"),
	W("fragments"), W("illegal"), W("uncorrectable"), { NULL, 0 } };
static const struct gword over_words[] = {
	W("oversize"), W("too_long"), W("toolong"), W("long_length"), W("giant"), W("mtu_err"),
	{ NULL, 0 } };
static const struct gword port_words[] = {
	W("port"), W("phy"), W(".nic"), W("mac"), W("cos"), W("prio"), W("pb_"), { NULL, 0 } };

/* The generic patterns, on a lowercased name. */
static enum np_drv_meaning generic(const char *lc, int dir, bool *tx_out)
{
	struct name_pairs np;
	const struct name_pairs *s = &np;

	name_pairs_init(&np, lc);
	if (has(s, "allowance_exceeded") || (has(s, "ratelimit") && !has(s, "bytes"))) {
		if (has(s, "bw_out") || has(s, "_out_allowance"))
			*tx_out = true;
		return NP_DRV_CLOUD_ALLOWANCE;
	}
	if ((has(s, "pause") || has(s, "xoff") || has(s, "pfc")) && !has(s, "xon") &&
	    !has(s, "duration") && !has(s, "transition") && !has(s, "bytes")) {
		*tx_out = false;	/* pause frames we send witness OUR receive congestion */
		return dir == NP_DRV_DIR_TX ? NP_DRV_PAUSE_TX : NP_DRV_PAUSE_RX;
	}
	if (has(s, "xdp") && (has(s, "drop") || has(s, "abort") || has(s, "err") ||
			      has(s, "full")))
		return NP_DRV_XDP_DROP;
	if ((has(s, "alloc") && (has(s, "fail") || has(s, "err"))) || has(s, "oom"))
		return NP_DRV_ALLOC_FAIL;
	if (has_any(s, ring_words) || (has(s, "miss") && !has_any(s, miss_benign)))
		return NP_DRV_RING_EMPTY;
	if (has_any(s, phy_words) && !has(s, "corrected"))
		return NP_DRV_PHY_ERROR;
	if (has_any(s, over_words))
		return NP_DRV_OVERSIZE;
	if (has(s, "fifo") || (has(s, "discard") && has_any(s, port_words)))
		return NP_DRV_PORT_DISCARD;
	if (has(s, "drop") || has(s, "discard"))
		return NP_DRV_QUEUE_DROP;
	return NP_DRV_NONE;
}

static enum np_stage default_stage(enum np_drv_meaning m)
{
	switch (m) {
	case NP_DRV_XDP_DROP:
		return NP_STAGE_INGRESS;
	case NP_DRV_PHY_ERROR:
	case NP_DRV_OVERSIZE:
		return NP_STAGE_LINK;
	default:
		return NP_STAGE_NIC;
	}
}

/* Driver-private names of per-queue received packets (bnxt splits them by cast type), in the
 * pattern syntax above. Not losses, so apart from the tables: watch's per-queue rates. */
static const char *const rx_packets_pats[] = {
	"rx_queue_%_packets",	/* ixgbe, igb, ice, virtio_net <= 6.9 */
	"rx%_packets",		/* mlx5, virtio_net with per-queue stats */
	"rx-%.packets",		/* i40e */
	"queue_%_rx_cnt",	/* ena */
	"[%]: rx_ucast_packets", "[%]: rx_mcast_packets", "[%]: rx_bcast_packets",	/* bnxt */
};

int np_drv_rx_packets_queue(const char *name)
{
	for (size_t i = 0; i < sizeof(rx_packets_pats) / sizeof(rx_packets_pats[0]); i++) {
		int q = -1;

		if (glob(rx_packets_pats[i], name, &q))
			return q;
	}
	return -1;
}

bool np_drv_classify(const char *driver, const char *name, struct np_drv_class *out)
{
	return np_drv_classify_in(np_drv_patterns(driver), name, out);
}

bool np_drv_classify_in(const struct np_drv_pat *tab, const char *name, struct np_drv_class *out)
{
	char lc[128];
	size_t n;
	int dir;
	bool wild = false;

	memset(out, 0, sizeof(*out));
	out->meaning = NP_DRV_NONE;
	out->stage = NP_STAGE_NIC;
	out->queue = -1;
	if (!name)
		return false;
	/* The ioctl collector renames repeated labels "name#2", "name#3": same meaning. */
	n = strlen(name);
	for (size_t i = n; i > 0; i--) {
		if (isdigit((unsigned char)name[i - 1]))
			continue;
		if (name[i - 1] == '#' && i < n && i > 1)
			n = i - 1;
		break;
	}
	if (n >= sizeof(lc))
		n = sizeof(lc) - 1;
	for (size_t i = 0; i < n; i++) {
		lc[i] = (char)tolower((unsigned char)name[i]);
		wild |= is_wild(lc[i]);
	}
	lc[n] = '\0';
	dir = name_dir(lc);

	for (const struct np_drv_pat *p = tab; p && p->pat; p++) {
		int q = -1;
		size_t i = p->len, j = n;

		/* The pattern's literal tail must end the name (lc is lowercase): most names fail
		 * here in a byte or two, and a pattern without wildcards is decided here. A name
		 * without wildcard characters cannot equal a pattern's wildcard, so the walk stops
		 * at it without testing each byte for one (issue #35). */
		if (!wild)
			while (i > 0 && j > 0 && p->pat[i - 1] == lc[j - 1])
				i--, j--;
		else
			while (i > 0 && j > 0 && p->pat[i - 1] == lc[j - 1] && !is_wild(p->pat[i - 1]))
				i--, j--;
		if (i > 0 ? !is_wild(p->pat[i - 1]) : j > 0)
			continue;
		if (i > 0 && !glob(p->pat, lc, &q))
			continue;
		out->meaning = p->meaning;
		out->stage = p->stage;
		out->queue = q;
		out->is_tx = p->dir == NP_DRV_DIR_TX || (p->dir == NP_DRV_DIR_NAME && dir == NP_DRV_DIR_TX);
		return out->meaning != NP_DRV_NONE;
	}
	out->is_tx = dir == NP_DRV_DIR_TX;
	out->meaning = generic(lc, dir, &out->is_tx);
	out->stage = default_stage(out->meaning);
	if (out->meaning != NP_DRV_NONE)
		out->queue = name_queue(lc);
	return out->meaning != NP_DRV_NONE;
}
