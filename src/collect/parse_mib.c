// SPDX-License-Identifier: GPL-2.0-only
/* /proc/net/{snmp,netstat,snmp6} into nstat-style counter names ("TcpExtListenOverflows"). */
#include "parse.h"
#include "parse_util.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Decimal, optionally negative. Negative values (Tcp MaxConn -1: "no limit") are not counts. */
static bool mib_value(const char *t, size_t tl, uint64_t *v)
{
	bool neg = tl && t[0] == '-';
	uint64_t x;

	if (neg) {
		t++;
		tl--;
	}
	if (!np_tok_u64(t, tl, &x))
		return false;
	*v = neg ? NP_NA : x;
	return true;
}

/* A header names fields; one whose first field is a number is a value line out of place. */
static bool is_header(const char *l, size_t ll, size_t i)
{
	const char *t;
	size_t tl;

	if (!np_tok_next(l, ll, &i, &t, &tl))
		return true;
	return !(t[0] == '-' || (t[0] >= '0' && t[0] <= '9'));
}

struct hdr {
	const char *l, *p;
	size_t ll, i, pl;	/* line, prefix, offset after the prefix token, prefix length */
};

/* np_tok_next's blanks, inline: the pair loop below is most of a MIB parse. */
static inline bool blank(char c)
{
	/* Most bytes are letters and digits: one comparison rejects them. */
	return (unsigned char)c <= ' ' &&
	       (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f');
}

/* The next token of l from *i (np_tok_next inline): its length, 0 at the end of the line. */
static inline size_t tok(const char *l, size_t ll, size_t *i, const char **t)
{
	size_t k = *i, s;

	while (k < ll && blank(l[k]))
		k++;
	s = k;
	while (k < ll && !blank(l[k]))
		k++;
	*t = l + s;
	*i = k;
	return k - s;
}

/* Header and value line walked together, once. A bad pair (field counts differ, a value not a
 * number) takes back what it added, so it leaves no trace. */
static int add_pair(const struct hdr *h, const char *vl, size_t vll, size_t vi,
		    struct np_counters *t)
{
	size_t n0 = t->n, hi = h->i;
	int sorted0 = t->sorted;

	for (;;) {
		const char *name, *val;
		size_t nl = tok(h->l, h->ll, &hi, &name), vtl = tok(vl, vll, &vi, &val);
		uint64_t v;

		if (!nl && !vtl)
			return 0;
		if (!nl || !vtl || !mib_value(val, vtl, &v)) {
			np_counters_truncate(t, n0, sorted0);
			return -EBADMSG;
		}
		/* "%.*s%.*s" of the prefix and the name, written into the table in place */
		if (np_counters_push_join(t, h->p, h->pl, name, nl, v))
			return -ENOMEM;
	}
}

/* snmp6: "Ip6InReceives   123". */
static int add_single(const char *l, size_t ll, struct np_counters *t)
{
	const char *name, *val, *extra;
	size_t nl, vtl, xl, i = 0;
	uint64_t v;

	if (!np_tok_next(l, ll, &i, &name, &nl) || !np_tok_next(l, ll, &i, &val, &vtl) ||
	    np_tok_next(l, ll, &i, &extra, &xl) || !mib_value(val, vtl, &v) ||
	    !((name[0] >= 'A' && name[0] <= 'Z') || (name[0] >= 'a' && name[0] <= 'z')))
		return -EBADMSG;
	return np_counters_push_join(t, name, nl, "", 0, v) ? -ENOMEM : 0;
}

static int parse(const char *buf, size_t len, struct np_counters *t)
{
	const char *l;
	size_t ll, pos = 0;
	struct hdr h = { 0 };
	bool pending = false;
	int ret = 0, err;

	while (np_line_next(buf, len, &pos, &l, &ll)) {
		const char *p;
		size_t i = 0, pl;

		while (i < ll && blank(l[i]))
			i++;
		if (i == ll)
			continue;
		if (!np_line_label(l, ll, &p, &pl, &i)) {
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
/* Every counter takes at least four bytes (a name, a blank, a value, a blank or newline, in
 * either layout): the table's size before parsing, so that it is allocated once. An over-count
 * costs address space only, the pages past the last entry are never touched (counting words
 * exactly was 14 instructions a byte, a fifth of a parse). */
size_t np_mib_bound(size_t len)
{
	return len / 4 + 1;
}

int np_parse_mib(const char *buf, size_t len, struct np_counters *out)
{
	struct np_counters t = { 0 };
	int err;

	if (!buf)
		return -EINVAL;
	if (np_counters_reserve(&t, np_mib_bound(len)))
		return -ENOMEM;
	err = parse(buf, len, &t);
	if (err == -ENOMEM)
		goto fail;
	if (!t.n) {
		err = -EINVAL;
		goto fail;
	}
	/* Each file sorted alone, then merged: the table is never sorted whole again. */
	if (np_counters_merge(out, &t))
		err = -ENOMEM;
	else
		return err;
fail:
	np_counters_free(&t);
	return err;
}

int np_parse_mib_unsorted(const char *buf, size_t len, struct np_counters *out)
{
	size_t n0 = out->n;
	int sorted0 = out->sorted, err;

	if (!buf)
		return -EINVAL;
	/* Straight into out (the caller reserves; it grows by doubling past that), which is
	 * left unsorted: what failed is taken back. */
	err = parse(buf, len, out);
	if (err == -ENOMEM || out->n == n0) {
		np_counters_truncate(out, n0, sorted0);
		return err == -ENOMEM ? err : -EINVAL;
	}
	return err;
}
