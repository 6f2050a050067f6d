// SPDX-License-Identifier: GPL-2.0-only
/*
 * ethtool's text output as a sosreport keeps it: -i, -g, -l, -c, -k, -S and the plain settings.
 *
 * Tested against (tests/fixtures/sos/README.md, tests/unit/parsers/test_ethtool_text.c):
 * ethtool 6.1 (Debian 12, netlink printers: "n/a", "RX Buf Len", "CQE Size", "TX Push", "TCP
 * data split", "CQE mode RX"), the 6.1-6.3 two-tab ring layout insights-core records, the pre-5.8
 * ioctl printers (zeros instead of "n/a", "Adaptive RX: off  TX: off"), ethtool 5.x settings
 * with "netlink error: Operation not permitted" in the middle, and -S with the indented
 * "     rx_queue_0_packets: 12" lines, dotted names and a name with a blank. The 6.4+ layout
 * re-aligned every label to three tabs: the parser splits at ':' and trims, so tab counts do
 * not matter.
 */
#include "sos_text.h"
#include "linkmode.h"
#include "parse_util.h"
#include "text_util.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* The verdict of a parse that found `found` values and `bad` unreadable ones. */
static int verdict(const char *buf, size_t len, unsigned found, unsigned bad)
{
	int e;

	if (found)
		return bad ? -EBADMSG : 0;
	if (!len)
		return -ENODATA;
	e = np_text_tool_error(buf, len);
	return e ? e : -EINVAL;
}

int np_parse_ethtool_i(const char *buf, size_t len, struct np_ethtool *e)
{
	size_t pos = 0, ll;
	const char *l;
	unsigned found = 0;

	len = np_text_len(buf, len);
	while (np_line_next(buf, len, &pos, &l, &ll)) {
		struct np_slice k, v;

		if (!np_kv_split(l, ll, false, &k, &v))
			continue;
		if (np_slice_eq(k, "driver") && v.n) {
			np_slice_copy(e->driver, sizeof(e->driver), v);
			found++;
		} else if (np_slice_eq(k, "version")) {
			np_slice_copy(e->version, sizeof(e->version), v);
		} else if (np_slice_eq(k, "firmware-version")) {
			np_slice_copy(e->fw_version, sizeof(e->fw_version), v);
		} else if (np_slice_eq(k, "bus-info")) {
			np_slice_copy(e->bus_info, sizeof(e->bus_info), v);
		}
	}
	return verdict(buf, len, found, 0);
}

/* Where a "Label: value" line of -g / -l goes. */
struct field {
	const char *label;
	uint64_t *max, *cur;
};

/*
 * -g and -l share a layout: "Pre-set maximums:" then "Current hardware settings:", each a list
 * of "Label:<tabs>value". A kind whose maximum is 0 (the ioctl printers) or n/a (netlink) is
 * not supported by the driver: both values stay NP_NA, as the live collectors leave them.
 */
static int two_sections(const char *buf, size_t len, const struct field *f, size_t nf,
			unsigned *found, unsigned *bad)
{
	size_t pos = 0, ll;
	const char *l;
	int section = 0;	/* 0 before any, 1 maximums, 2 current */
	uint64_t max[8], cur[8];

	for (size_t i = 0; i < nf; i++)
		max[i] = cur[i] = NP_NA;
	while (np_line_next(buf, len, &pos, &l, &ll)) {
		struct np_slice k, v;
		uint64_t x;
		int r;

		if (!np_kv_split(l, ll, false, &k, &v))
			continue;
		if (np_slice_eq(k, "Pre-set maximums")) {
			section = 1;
			continue;
		}
		if (np_slice_eq(k, "Current hardware settings")) {
			section = 2;
			continue;
		}
		if (!section)
			continue;
		for (size_t i = 0; i < nf; i++) {
			if (!np_slice_eq(k, f[i].label))
				continue;
			r = np_slice_u64(v, &x);
			if (r < 0) {
				(*bad)++;
				break;
			}
			if (r > 0)
				*(section == 1 ? &max[i] : &cur[i]) = x;
			(*found)++;
			break;
		}
	}
	for (size_t i = 0; i < nf; i++) {
		if (!f[i].max) {	/* a current-only value (RX Buf Len) */
			*f[i].cur = cur[i];
			continue;
		}
		if (!np_has(max[i]) || max[i] == 0)
			continue;
		*f[i].max = max[i];
		*f[i].cur = cur[i];
	}
	return 0;
}

int np_parse_ethtool_g(const char *buf, size_t len, struct np_rings *r)
{
	const struct field f[] = {
		{ "RX", &r->rx_max, &r->rx },
		{ "RX Mini", &r->rx_mini_max, &r->rx_mini },
		{ "RX Jumbo", &r->rx_jumbo_max, &r->rx_jumbo },
		{ "TX", &r->tx_max, &r->tx },
		{ "RX Buf Len", NULL, &r->rx_buf_len },
	};
	unsigned found = 0, bad = 0;

	len = np_text_len(buf, len);
	two_sections(buf, len, f, sizeof(f) / sizeof(f[0]), &found, &bad);
	return verdict(buf, len, found, bad);
}

int np_parse_ethtool_l(const char *buf, size_t len, struct np_channels *c)
{
	const struct field f[] = {
		{ "RX", &c->rx_max, &c->rx },
		{ "TX", &c->tx_max, &c->tx },
		{ "Other", &c->other_max, &c->other },
		{ "Combined", &c->combined_max, &c->combined },
	};
	unsigned found = 0, bad = 0;

	len = np_text_len(buf, len);
	two_sections(buf, len, f, sizeof(f) / sizeof(f[0]), &found, &bad);
	return verdict(buf, len, found, bad);
}

/* "on" 1, "off" 0, "n/a" (or anything else) -1. */
static int on_off(struct np_slice v)
{
	return np_slice_starts(v, "on") ? 1 : np_slice_starts(v, "off") ? 0 : -1;
}

/* "Adaptive RX: on  TX: off" (also "n/a"). */
static bool adaptive(const char *l, size_t ll, struct np_coalesce *c)
{
	struct np_slice s = np_trim((struct np_slice){ l, ll });
	const char *tx;

	if (!np_slice_starts(s, "Adaptive RX:"))
		return false;
	s.p += 12;
	s.n -= 12;
	s = np_trim(s);
	c->adaptive_rx = on_off(s);
	for (tx = s.p; tx + 3 <= s.p + s.n; tx++)
		if (memcmp(tx, "TX:", 3) == 0) {
			c->adaptive_tx = on_off(np_trim((struct np_slice){ tx + 3,
					 (size_t)(s.p + s.n - tx - 3) }));
			break;
		}
	return true;
}

int np_parse_ethtool_c(const char *buf, size_t len, struct np_coalesce *c)
{
	const struct {
		const char *label;
		uint64_t *v;
	} f[] = {
		{ "rx-usecs", &c->rx_usecs }, { "rx-frames", &c->rx_max_frames },
		{ "tx-usecs", &c->tx_usecs }, { "tx-frames", &c->tx_max_frames },
	};
	size_t pos = 0, ll;
	const char *l;
	unsigned found = 0, bad = 0;

	len = np_text_len(buf, len);
	while (np_line_next(buf, len, &pos, &l, &ll)) {
		struct np_slice k, v;

		if (adaptive(l, ll, c)) {
			found++;
			continue;
		}
		if (!np_kv_split(l, ll, false, &k, &v))
			continue;
		for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
			uint64_t x;
			int r;

			if (!np_slice_eq(k, f[i].label))
				continue;
			r = np_slice_u64(v, &x);
			if (r < 0)
				bad++;
			else
				found++;
			*f[i].v = r > 0 ? x : NP_NA;
			break;
		}
	}
	return verdict(buf, len, found, bad);
}

int np_parse_ethtool_k(const char *buf, size_t len, struct np_features *feat)
{
	const struct {
		const char *label;
		int *v;
	} f[] = {
		{ "generic-receive-offload", &feat->gro },
		{ "large-receive-offload", &feat->lro },
		{ "rx-gro-hw", &feat->gro_hw },
		{ "rx-checksumming", &feat->rx_checksum },
		{ "receive-hashing", &feat->rxhash },
		{ "ntuple-filters", &feat->ntuple },
	};
	size_t pos = 0, ll;
	const char *l;
	unsigned found = 0, bad = 0;

	len = np_text_len(buf, len);
	while (np_line_next(buf, len, &pos, &l, &ll)) {
		struct np_slice k, v;

		if (!np_kv_split(l, ll, false, &k, &v))
			continue;
		for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
			if (!np_slice_eq(k, f[i].label))
				continue;
			/* "off [requested on]", "on [fixed]": the first word is the state. */
			*f[i].v = on_off(v);
			if (*f[i].v < 0)
				bad++;
			else
				found++;
			break;
		}
	}
	return verdict(buf, len, found, bad);
}

int np_parse_ethtool_a(const char *buf, size_t len, struct np_pause *pa)
{
	size_t pos = 0, ll;
	const char *l;
	unsigned found = 0, bad = 0;

	len = np_text_len(buf, len);
	while (np_line_next(buf, len, &pos, &l, &ll)) {
		struct np_slice k, v;
		int *dst;

		if (!np_kv_split(l, ll, false, &k, &v))
			continue;
		/* "Autonegotiate:" (also "Autonegotiate :" in some versions: k is trimmed). */
		dst = np_slice_eq(k, "Autonegotiate") ? &pa->autoneg : np_slice_eq(k, "RX") ? &pa->rx :
		      np_slice_eq(k, "TX") ? &pa->tx : NULL;
		if (!dst)
			continue;
		*dst = on_off(v);
		if (*dst < 0)
			bad++;
		else
			found++;
	}
	return verdict(buf, len, found, bad);
}

/*
 * A repeated name (the ioctl collector's "name#2") keeps both values: the repeat becomes
 * "PREFIX#N", PREFIX the name's first 55 bytes and N the smallest from 2 whose name is not
 * taken (N stops at 99999, which is then used even if taken). `next` remembers per PREFIX the
 * N below which every name is taken, so that each repeat starts where the last one stopped:
 * scanning from 2 each time made 4,000 repeats of one name take 8 million lookups (#29).
 */
static int rename_repeat(const struct np_counters *t, struct np_counters *next,
			 char name[NP_COUNTER_NAME_MAX])
{
	char prefix[56], alt[NP_COUNTER_NAME_MAX];
	uint64_t n;

	snprintf(prefix, sizeof(prefix), "%.55s", name);
	n = np_counters_get(next, prefix);
	if (!np_has(n))
		n = 2;
	for (;; n++) {
		snprintf(alt, sizeof(alt), "%s#%u", prefix, (unsigned)n);
		if (n >= 99999 || !np_has(np_counters_get(t, alt)))
			break;
	}
	memcpy(name, alt, NP_COUNTER_NAME_MAX);
	/* The caller takes alt: every name below n is taken, n itself now too. */
	return np_counters_set(next, prefix, n);
}

int np_parse_ethtool_S(const char *buf, size_t len, struct np_counters *out)
{
	struct np_counters t = { 0 }, next = { 0 };
	size_t pos = 0, ll;
	const char *l;
	unsigned found = 0, bad = 0;
	bool header = false;

	len = np_text_len(buf, len);
	while (np_line_next(buf, len, &pos, &l, &ll)) {
		struct np_slice k, v;
		char name[NP_COUNTER_NAME_MAX];
		uint64_t x;

		if (!np_kv_split(l, ll, true, &k, &v))
			continue;
		if (np_slice_eq(k, "NIC statistics") && !v.n) {
			header = true;
			continue;
		}
		if (!header)
			continue;
		if (!k.n || np_slice_u64(v, &x) <= 0) {
			bad++;
			continue;
		}
		np_slice_copy(name, sizeof(name), k);
		if (np_has(np_counters_get(&t, name)) && rename_repeat(&t, &next, name) < 0)
			goto nomem;
		if (np_counters_append(&t, name, x) < 0)
			goto nomem;
		found++;
	}
	np_counters_free(&next);
	if (!found) {
		np_counters_free(&t);
		/* "NIC statistics:" and nothing after it: a driver with no counters. */
		return header && !bad ? -EOPNOTSUPP : verdict(buf, len, 0, bad);
	}
	np_counters_sort(&t);
	np_counters_free(out);
	*out = t;
	return bad ? -EBADMSG : 0;
nomem:
	np_counters_free(&next);
	np_counters_free(&t);
	return -ENOMEM;
}

int np_ethtool_mode_bit(const char *name, size_t nl)
{
	const char *b = NULL, *slash = NULL;
	uint64_t mbps = 0;
	int duplex;

	for (size_t i = 0; i + 4 <= nl; i++)
		if (memcmp(name + i, "base", 4) == 0) {
			b = name + i;
			break;
		}
	slash = memchr(name, '/', nl);
	if (!b || !slash || b == name)
		return -1;
	for (const char *p = name; p < b; p++) {
		if (*p < '0' || *p > '9' || mbps > 100000000)
			return -1;
		mbps = mbps * 10 + (uint64_t)(*p - '0');
	}
	if (np_slice_eq((struct np_slice){ slash + 1, nl - (size_t)(slash + 1 - name) }, "Full"))
		duplex = 1;
	else if (np_slice_eq((struct np_slice){ slash + 1, nl - (size_t)(slash + 1 - name) }, "Half"))
		duplex = 0;
	else
		return -1;
	/* The text names a medium too (baseT, baseSR4...); the bitmap keeps its speed and duplex:
	 * the first bit of that speed and duplex stands for it, which is what the checks use. */
	for (unsigned bit = 0; bit < NP_LINKMODE_KNOWN_BITS; bit++) {
		int d;

		if (np_linkmode_speed(bit, &d) == mbps && d == duplex)
			return (int)bit;
	}
	return -1;
}

/* "10baseT/Half 10baseT/Full" (and continuation lines) into a bitmap. */
static void modes(struct np_slice v, uint64_t *bits, bool *has)
{
	size_t i = 0;
	const char *t;
	size_t tl;

	while (np_tok_next(v.p, v.n, &i, &t, &tl)) {
		int bit = np_ethtool_mode_bit(t, tl);

		if (bit >= 0) {
			bits[bit / 64] |= 1ULL << (bit % 64);
			*has = true;
		}
	}
}

int np_parse_ethtool_settings(const char *buf, size_t len, struct np_linkmodes *lm, int *link)
{
	size_t pos = 0, ll;
	const char *l;
	unsigned found = 0, bad = 0;
	uint64_t *cont = NULL;	/* the bitmap a continuation line adds to */
	bool *cont_has = NULL;

	len = np_text_len(buf, len);
	*link = -1;
	while (np_line_next(buf, len, &pos, &l, &ll)) {
		struct np_slice k, v;

		if (!np_kv_split(l, ll, false, &k, &v)) {
			/* "                        100baseT/Half 100baseT/Full" */
			if (cont)
				modes(np_trim((struct np_slice){ l, ll }), cont, cont_has);
			continue;
		}
		cont = NULL;
		if (np_slice_eq(k, "Supported link modes")) {
			modes(v, lm->supported, &lm->has_supported);
			cont = lm->supported;
			cont_has = &lm->has_supported;
			found++;
		} else if (np_slice_eq(k, "Advertised link modes")) {
			modes(v, lm->advertised, &lm->has_advertised);
			cont = lm->advertised;
			cont_has = &lm->has_advertised;
		} else if (np_slice_eq(k, "Link partner advertised link modes")) {
			modes(v, lm->peer, &lm->has_peer);
			cont = lm->peer;
			cont_has = &lm->has_peer;
		} else if (np_slice_eq(k, "Speed")) {
			uint64_t x = 0;
			const char *mb = v.n > 4 ? v.p + v.n - 4 : NULL;

			/* "1000Mb/s"; "Unknown!" when the link is down or the driver does not say. */
			if (mb && memcmp(mb, "Mb/s", 4) == 0 &&
			    np_slice_u64((struct np_slice){ v.p, v.n - 4 }, &x) > 0)
				lm->speed_mbps = x;
			else if (!np_slice_starts(v, "Unknown"))
				bad++;
			found++;
		} else if (np_slice_eq(k, "Duplex")) {
			lm->duplex = np_slice_eq(v, "Full") ? 1 : np_slice_eq(v, "Half") ? 0 : -1;
			found++;
		} else if (np_slice_eq(k, "Auto-negotiation")) {
			lm->autoneg = on_off(v);
		} else if (np_slice_eq(k, "Link detected")) {
			*link = np_slice_eq(v, "yes") ? 1 : np_slice_eq(v, "no") ? 0 : -1;
			found++;
		}
	}
	return verdict(buf, len, found, bad);
}
