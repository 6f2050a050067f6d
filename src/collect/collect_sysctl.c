// SPDX-License-Identifier: GPL-2.0-only
/* sysctl collector: the receive-path knobs under /proc/sys/net (and vm), read by name. */
#include "collect.h"
#include "overlay.h"
#include "parse.h"
#include "parse_util.h"
#include "sos.h"
#include "strjoin.h"
#include "sos_text.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Everything the checks may consult: the registry's rows (sysctl_registry.h), in its order.
 * A key missing on this kernel is recorded (ENOENT), not an error: e.g. netdev_budget_usecs
 * appeared in 4.12, conntrack keys need nf_conntrack. HOST keys hold one value for the host:
 * inside another network namespace their files are absent (the kernel registers them for
 * init_net), or, for rmem_max and the like, 0444 mirrors on recent kernels only (older ones
 * have no file there either), so they are the ones --netns reads before entering and lends. */
enum key_scope { NETNS, HOST };

static const char *key_of(size_t i)
{
	return np_sysctl_defs[i].key;
}

static enum key_scope scope_of(size_t i)
{
	return np_sysctl_defs[i].owner == NP_SYSCTL_OWNER_HOST ? HOST : NETNS;
}

#define NKEYS ((size_t)NP_SYSCTL__COUNT)

/* "net.core.x" -> "sys/net/core/x". An interface name may itself hold dots (eth0.100), so the
 * per-interface keys pass their path explicitly. */
static void key_to_path(const char *key, char *path, size_t size)
{
	np_sysctl_key_path(key, strnlen(key, size), path, size);
}

/* The registry's key lengths, known when compiling: its rows' paths need no strlen. */
static const unsigned char key_len[NKEYS] = {
#define KEY_LEN(id, k, u, f, o, stage) [NP_SYSCTL_##id] = sizeof(k) - 1,
	NP_SYSCTLS(KEY_LEN)
#undef KEY_LEN
};

#define KEY_FITS(id, k, u, f, o, stage) \
	_Static_assert(sizeof(k) - 1 <= 255, "key_len holds " k "'s length");
NP_SYSCTLS(KEY_FITS)
#undef KEY_FITS

/* Row i's path. */
static void row_path(size_t i, char *path, size_t size)
{
	np_sysctl_key_path(key_of(i), key_len[i], path, size);
}

/*
 * A sosreport keeps no /proc/sys/net: its sysctl -a output stands in, walked once for every
 * key (it holds thousands of lines, per interface), not once per key. Row i's result is in
 * r[i] and text[i]; the device's key is the row after the registry's (DEV).
 */
#define DEV NKEYS

struct sysctl_a {
	int r[NKEYS + 1];		/* 0 found, -ENOENT, -ERANGE, -ENODATA (empty file) */
	char text[NKEYS + 1][256];
	char dev_key[128];		/* as sysctl -a spells it; "" without a device */
	unsigned char by_key[NKEYS];	/* the rows sorted by key, for bsearch */
};

_Static_assert(NP_SYSCTL__COUNT <= 256, "by_key holds a row in a byte");

/* The key of a row, given as the (key, length) of a sysctl -a line: strcmp's order. */
struct key_ref {
	const char *k;
	size_t kl;
};

static int key_cmp(const void *ref, const void *row)
{
	const struct key_ref *kr = ref;
	const char *key = key_of(*(const unsigned char *)row);
	int c = strncmp(kr->k, key, kr->kl);

	return c ? c : -(unsigned char)key[kr->kl];
}

static int row_cmp(const void *a, const void *b)
{
	return strcmp(key_of(*(const unsigned char *)a), key_of(*(const unsigned char *)b));
}

/* The first line of a key counts. */
static int sa_line(const char *k, size_t kl, const char *v, size_t vl, void *arg)
{
	struct sysctl_a *sa = arg;
	struct key_ref kr = { k, kl };
	const unsigned char *row = bsearch(&kr, sa->by_key, NKEYS, 1, key_cmp);
	size_t i = row ? *row : DEV;

	if (!row && (!sa->dev_key[0] || strlen(sa->dev_key) != kl ||
		     memcmp(sa->dev_key, k, kl) != 0))
		return 0;
	if (sa->r[i] == -ENOENT)
		sa->r[i] = np_parse_sysctl_a_value(v, vl, sa->text[i], sizeof(sa->text[i]));
	return 0;
}

/* KEY as sysctl -a spells it: a '.' inside a name component (eth0.100) as '/'. */
static void sa_spelling(const char *key, const char *ifname, char *k, size_t size)
{
	np_strjoin(k, size, key);
	if (ifname && strchr(ifname, '.')) {
		char *at = strstr(k, ifname);

		for (size_t i = 0; at && i < strlen(ifname); i++)
			if (at[i] == '.')
				at[i] = '/';
	}
}

/* Every row (and ifname's key, when set) from the text, in one walk. */
static void sa_scan(struct sysctl_a *sa, const char *buf, size_t len, const char *ifname)
{
	char key[96];
	int r;

	for (size_t i = 0; i < NKEYS; i++)
		sa->by_key[i] = (unsigned char)i;
	qsort(sa->by_key, NKEYS, 1, row_cmp);
	for (size_t i = 0; i <= DEV; i++)
		sa->r[i] = -ENOENT;
	sa->dev_key[0] = '\0';
	if (ifname && ifname[0]) {
		np_strjoin(key, sizeof(key), "net.ipv4.conf.", ifname, ".rp_filter");
		sa_spelling(key, ifname, sa->dev_key, sizeof(sa->dev_key));
	}
	r = np_parse_sysctl_a_each(buf, len, sa_line, sa);
	for (size_t i = 0; r < 0 && i <= DEV; i++)
		sa->r[i] = r;
}

/* One key into t; *borrowed when the value is the initial namespace's: inside --netns (or a
 * capture taken so) a HOST key's file is absent and ctx->overlay holds the one read before
 * entering (np_host_sysctls_overlay, np_host_sysctls_load). */
static int read_one(const struct np_ctx *ctx, struct np_sysctls *t, const char *key,
		    const char *path, enum key_scope scope, bool *borrowed,
		    const struct sysctl_a *sa, size_t row)
{
	struct np_sysctl *e = np_sysctl_add(t, key);
	char text[256];
	int r;

	*borrowed = false;
	if (!e)
		return -ENOMEM;
	if (sa) {
		r = sa->r[row];
		if (r == 0)
			np_strjoin(text, sizeof(text), sa->text[row]);
	} else {
		r = np_read_str_overlaid(ctx, NP_PROC, path, text, sizeof(text), borrowed);
	}
	if (r >= 0)
		r = np_parse_sysctl_value(text, e);
	e->err = r < 0 ? -r : 0;
	e->host_wide = scope == HOST;
	return r;
}

void np_collect_host_sysctls(const struct np_ctx *ctx, struct np_sysctls *out)
{
	char path[128];

	bool borrowed;

	for (size_t i = 0; i < NKEYS; i++) {
		if (scope_of(i) != HOST)
			continue;
		row_path(i, path, sizeof(path));
		if (read_one(ctx, out, key_of(i), path, HOST, &borrowed, NULL, i) == -ENOMEM)
			return;
	}
}

static bool host_key(const char *key)
{
	for (size_t i = 0; i < NKEYS; i++)
		if (scope_of(i) == HOST && !strcmp(key_of(i), key))
			return true;
	return false;
}

int np_host_sysctls_overlay(const struct np_sysctls *h, struct np_overlay *o)
{
	char path[128];

	for (size_t i = 0; i < h->n; i++) {
		if (h->e[i].err || !host_key(h->e[i].key))
			continue;
		key_to_path(h->e[i].key, path, sizeof(path));
		if (np_overlay_add(o, NP_PROC, path, h->e[i].raw, strlen(h->e[i].raw)) < 0)
			return -ENOMEM;
	}
	return 0;
}

int np_host_sysctls_load(struct np_overlay *o, const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	struct np_sysctl e;
	char path[128];

	/* Untrusted: lines that are too long, not a host-wide key or not a value are skipped;
	 * the first good line of a key counts. */
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char line[256], *tab;

		if (l < sizeof(line)) {
			memcpy(line, p, l);
			line[l] = '\0';
			tab = strchr(line, '\t');
			if (tab) {
				*tab = '\0';
				key_to_path(line, path, sizeof(path));
				if (host_key(line) && np_parse_sysctl_value(tab + 1, &e) >= 0 &&
				    np_overlay_add(o, NP_PROC, path, e.raw, strlen(e.raw)) < 0)
					return -ENOMEM;
			}
		}
		p += l + 1;
	}
	return 0;
}

int np_host_sysctls_text(const struct np_overlay *o, char **text, size_t *len)
{
	const struct np_overlay_file *f;
	struct np_sysctl e;
	char path[128];
	FILE *m = open_memstream(text, len);

	if (!m)
		return -ENOMEM;
	for (size_t i = 0; i < NKEYS; i++) {
		if (scope_of(i) != HOST)
			continue;
		row_path(i, path, sizeof(path));
		f = np_overlay_find(o, NP_PROC, path);
		if (f && np_parse_sysctl_value(f->text, &e) >= 0)
			fprintf(m, "%s\t%s\n", key_of(i), e.raw);
	}
	if (fclose(m) != 0) {
		free(*text);
		*text = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* The namespace's keys into s->sysctl, with how they read (nok, ndenied, nborrowed). */
static void read_table(const struct np_ctx *ctx, struct np_snapshot *s,
		       const struct sysctl_a *sa)
{
	struct np_sysctls *t = &s->hs->sysctl;
	char path[128];
	bool borrowed;

	for (size_t i = 0; i < NKEYS; i++) {
		int r;

		row_path(i, path, sizeof(path));
		r = read_one(ctx, t, key_of(i), path, scope_of(i), &borrowed, sa, i);
		t->nborrowed += borrowed;
		t->nok += r >= 0;
		t->ndenied += r == -EACCES || r == -EPERM;
	}
}

/* The device's own keys into s->dev_sysctl and the source's verdict over both tables. */
static void read_device(const struct np_ctx *ctx, struct np_snapshot *s,
			const struct sysctl_a *sa, bool use_sa, int sa_err)
{
	const struct np_sysctls *t = &s->hs->sysctl;
	int nok = t->nok;
	char key[96], path[128];
	bool borrowed;

	if (s->ifname[0]) {
		np_strjoin(key, sizeof(key), "net.ipv4.conf.", s->ifname, ".rp_filter");
		np_strjoin(path, sizeof(path), "sys/net/ipv4/conf/", s->ifname, "/rp_filter");
		nok += read_one(ctx, &s->dev_sysctl, key, path, NETNS, &borrowed, sa, DEV) >= 0;
	}
	if (nok)
		np_src_set(s, NP_SRC_SYSCTL, 0, NULL);
	else
		np_src_set(s, NP_SRC_SYSCTL, t->ndenied ? -EACCES : -ENOENT, NULL);
	if (nok && t->ndenied) {
		np_srcp(s, NP_SRC_SYSCTL)->status = NP_SRC_PARTIAL;
		snprintf(np_srcp(s, NP_SRC_SYSCTL)->detail, sizeof(np_srcp(s, 0)->detail),
			 "%d keys unreadable (permission denied)", t->ndenied);
	} else if (t->nborrowed) {
		snprintf(np_srcp(s, NP_SRC_SYSCTL)->detail, sizeof(np_srcp(s, 0)->detail),
			 "%d host-wide keys read in the initial namespace", t->nborrowed);
	}
	if (use_sa && nok)
		snprintf(np_srcp(s, NP_SRC_SYSCTL)->detail, sizeof(np_srcp(s, 0)->detail),
			 "from sosreport sysctl_-a (%d keys)", nok);
	else if (use_sa)
		snprintf(np_srcp(s, NP_SRC_SYSCTL)->detail, sizeof(np_srcp(s, 0)->detail), "%s",
			 sa_err == -ENOENT ? "the sosreport has no sos_commands/kernel/sysctl_-a "
			 "(and no proc/sys/net)" : "sosreport sysctl_-a holds none of the keys");
}

static void collect(const struct np_ctx *ctx, struct np_snapshot *s, bool table)
{
	int sa_err = 0;
	struct sysctl_a *sa = NULL;
	char *buf = NULL;
	size_t len = 0;
	bool use_sa = np_ctx_is_sos(ctx) && !np_exists(ctx, NP_PROC, "sys/net");

	/* A device's run that shares the table reads sysctl -a only for its own key. Without the
	 * file, the tree's own files are read (a sosreport may still hold proc/sys/vm). */
	if (use_sa && (table || s->ifname[0]))
		sa_err = np_read_file(ctx, NP_TOP, NP_SOS_SYSCTL_A, &buf, &len);
	if (buf) {
		sa = malloc(sizeof(*sa));
		if (sa)
			sa_scan(sa, buf, len, s->ifname);
		else
			sa_err = -ENOMEM;
		free(buf);
	}
	if (table)
		read_table(ctx, s, sa);
	read_device(ctx, s, sa, use_sa, sa_err);
	free(sa);
}

void np_collect_sysctls(const struct np_ctx *ctx, struct np_snapshot *s)
{
	collect(ctx, s, true);
}

void np_collect_device_sysctls(const struct np_ctx *ctx, struct np_snapshot *s)
{
	collect(ctx, s, false);
}
