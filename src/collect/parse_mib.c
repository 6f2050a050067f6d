// SPDX-License-Identifier: GPL-2.0-only
/* /proc/net/{snmp,netstat,snmp6} into nstat-style counter names ("TcpExtListenOverflows"). */
#include "parse.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static bool next_tok(const char *l, size_t ll, size_t *i, const char **t, size_t *tl)
{
	while (*i < ll && is_blank(l[*i]))
		(*i)++;
	if (*i == ll)
		return false;
	*t = l + *i;
	while (*i < ll && !is_blank(l[*i]))
		(*i)++;
	*tl = (size_t)(l + *i - *t);
	return true;
}

static bool next_line(const char *buf, size_t len, size_t *pos, const char **l, size_t *ll)
{
	const char *nl;

	if (*pos >= len)
		return false;
	*l = buf + *pos;
	nl = memchr(*l, '\n', len - *pos);
	*ll = nl ? (size_t)(nl - *l) : len - *pos;
	*pos += *ll + (nl ? 1 : 0);
	return true;
}

/* Decimal, optionally negative. Negative values (Tcp MaxConn -1: "no limit") are not counts. */
static bool mib_value(const char *t, size_t tl, uint64_t *v)
{
	bool neg = tl && t[0] == '-';
	uint64_t x = 0;

	if (neg) {
		t++;
		tl--;
	}
	if (!tl)
		return false;
	for (size_t i = 0; i < tl; i++) {
		if (t[i] < '0' || t[i] > '9')
			return false;
		if (x > (UINT64_MAX - (uint64_t)(t[i] - '0')) / 10)
			return false;
		x = x * 10 + (uint64_t)(t[i] - '0');
	}
	*v = neg ? NP_NA : x;
	return true;
}

static size_t count_toks(const char *l, size_t ll, size_t i)
{
	const char *t;
	size_t tl, n = 0;

	while (next_tok(l, ll, &i, &t, &tl))
		n++;
	return n;
}

/* A "Prefix:" line: *p, *pl = the prefix without the colon, *i past the prefix token. */
static bool prefixed(const char *l, size_t ll, const char **p, size_t *pl, size_t *i)
{
	size_t tl;

	*i = 0;
	if (!next_tok(l, ll, i, p, &tl) || tl < 2 || (*p)[tl - 1] != ':')
		return false;
	*pl = tl - 1;
	return true;
}

/* A header names fields; one whose first field is a number is a value line out of place. */
static bool is_header(const char *l, size_t ll, size_t i)
{
	const char *t;
	size_t tl;

	if (!next_tok(l, ll, &i, &t, &tl))
		return true;
	return !(t[0] == '-' || (t[0] >= '0' && t[0] <= '9'));
}

struct hdr {
	const char *l, *p;
	size_t ll, i, pl;	/* line, prefix, offset after the prefix token, prefix length */
};

/* Validates the whole pair before adding anything, so a bad pair leaves no trace. */
static int add_pair(const struct hdr *h, const char *vl, size_t vll, size_t vi,
		    struct np_counters *t)
{
	const char *name, *val;
	size_t nl, vtl, hi = h->i;
	uint64_t v;

	if (count_toks(h->l, h->ll, h->i) != count_toks(vl, vll, vi))
		return -EBADMSG;
	for (size_t i = vi; next_tok(vl, vll, &i, &val, &vtl);)
		if (!mib_value(val, vtl, &v))
			return -EBADMSG;
	while (next_tok(h->l, h->ll, &hi, &name, &nl) && next_tok(vl, vll, &vi, &val, &vtl)) {
		char key[NP_COUNTER_NAME_MAX];

		mib_value(val, vtl, &v);
		snprintf(key, sizeof(key), "%.*s%.*s", (int)h->pl, h->p,
			 (int)nl, name);
		if (np_counters_append(t, key, v))
			return -ENOMEM;
	}
	return 0;
}

/* snmp6: "Ip6InReceives   123". */
static int add_single(const char *l, size_t ll, struct np_counters *t)
{
	const char *name, *val, *extra;
	size_t nl, vtl, xl, i = 0;
	char key[NP_COUNTER_NAME_MAX];
	uint64_t v;

	if (!next_tok(l, ll, &i, &name, &nl) || !next_tok(l, ll, &i, &val, &vtl) ||
	    next_tok(l, ll, &i, &extra, &xl) || !mib_value(val, vtl, &v) ||
	    !((name[0] >= 'A' && name[0] <= 'Z') || (name[0] >= 'a' && name[0] <= 'z')))
		return -EBADMSG;
	snprintf(key, sizeof(key), "%.*s", (int)nl, name);
	return np_counters_append(t, key, v) ? -ENOMEM : 0;
}

static int parse(const char *buf, size_t len, struct np_counters *t)
{
	const char *l;
	size_t ll, pos = 0;
	struct hdr h = { 0 };
	bool pending = false;
	int ret = 0, err;

	while (next_line(buf, len, &pos, &l, &ll)) {
		const char *p;
		size_t i = 0, pl;

		if (!count_toks(l, ll, 0))
			continue;
		if (!prefixed(l, ll, &p, &pl, &i)) {
			if (pending)
				ret = -EBADMSG;
			pending = false;
			err = add_single(l, ll, t);
			if (err == -ENOMEM)
				return err;
			if (err)
				ret = err;
			continue;
		}
		if (pending && pl == h.pl && !memcmp(p, h.p, pl)) {
			pending = false;
			err = add_pair(&h, l, ll, i, t);
			if (err == -ENOMEM)
				return err;
			if (err)
				ret = err;
			continue;
		}
		/* A header without its value line: drop it and see if this line starts a pair. */
		if (pending)
			ret = -EBADMSG;
		pending = is_header(l, ll, i);
		if (!pending)
			ret = -EBADMSG;
		h = (struct hdr){ .l = l, .p = p, .ll = ll, .i = i, .pl = pl };
	}
	if (pending)
		ret = -EBADMSG;
	return ret;
}

/*
 * Adds to out (snmp, netstat and snmp6 share one table; their names do not overlap) and sorts it.
 * A pair whose lines disagree (different field counts, a non-number) is left out and the result
 * is -EBADMSG, but the good pairs are kept: one odd line should not hide every other counter.
 * -EINVAL when nothing at all could be parsed; out is then unchanged.
 */
int np_parse_mib(const char *buf, size_t len, struct np_counters *out)
{
	struct np_counters t = { 0 };
	int err;

	if (!buf)
		return -EINVAL;
	err = parse(buf, len, &t);
	if (err == -ENOMEM)
		goto fail;
	if (!t.n) {
		err = -EINVAL;
		goto fail;
	}
	if (!out->e && !out->n) {
		*out = t;
	} else {
		size_t n0 = out->n;
		int sorted0 = out->sorted;

		for (size_t k = 0; k < t.n; k++) {
			if (np_counters_append(out, t.e[k].name, t.e[k].value)) {
				/* Appends only grow the tail: cutting it restores the table. */
				out->n = n0;
				out->sorted = sorted0;
				err = -ENOMEM;
				goto fail;
			}
		}
		np_counters_free(&t);
	}
	np_counters_sort(out);
	return err;
fail:
	np_counters_free(&t);
	return err;
}
