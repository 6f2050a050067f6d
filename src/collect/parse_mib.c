// SPDX-License-Identifier: GPL-2.0-only
/* /proc/net/{snmp,netstat,snmp6} into nstat-style counter names ("TcpExtListenOverflows"). */
#include "parse.h"
#include "parse_util.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

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

/*
 * A value token from *i (a non-blank): decimal, optionally negative (Tcp MaxConn -1, "no
 * limit", is not a count: NP_NA), converted as it is scanned; *i then lies past it. Nineteen
 * digits cannot overflow; a longer run (leading zeros, or too big) is read again by
 * np_tok_u64, which says which.
 */
static inline bool value_tok(const char *l, size_t ll, size_t *i, uint64_t *v)
{
	size_t k = *i, s;
	bool neg = l[k] == '-';
	uint64_t x = 0;

	k += neg;
	s = k;
	for (unsigned d; k < ll && (d = (unsigned)(unsigned char)l[k] - '0') < 10; k++)
		x = x * 10 + d;
	if (k == s || (k < ll && !np_blank(l[k])))
		return false;
	if (k - s > 19 && !np_tok_u64(l + s, k - s, &x))
		return false;
	*v = neg ? NP_NA : x;
	*i = k;
	return true;
}

/*
 * The token at *i (a non-blank) copied to dst, at most room bytes of it: how many. *i then lies
 * past the whole token. Eight bytes at a time while both the line and dst have them: a word
 * without a byte below '!' is all name. A NUL in the token is copied like any byte: the name
 * as a string ends there, as np_counters_push_join cuts it.
 */
static inline size_t copy_tok(const char *l, size_t ll, size_t *i, char *dst, size_t room)
{
	size_t k = *i, m = 0;

	while (k + 8 <= ll && m + 8 <= room) {
		uint64_t z = np_word_below(np_le64(l + k), '!');

		memcpy(dst + m, l + k, 8);
		if (z) {
			unsigned at = np_word_first(z);

			k += at;
			m += at;
			if (np_blank(l[k])) {
				*i = k;
				return m;
			}
			break;	/* a control byte within the name: the bytes go one by one */
		}
		k += 8;
		m += 8;
	}
	for (; k < ll && !np_blank(l[k]); k++)
		if (m < room)
			dst[m++] = l[k];
	*i = k;
	return m;
}

/* Header and value line walked together, once, each name written into the table in place
 * ("%.*s%.*s" of the prefix and the header's name, cut as np_counters_push_join cuts it). A bad
 * pair (field counts differ, a value not a number) takes back what it added, so it leaves no
 * trace. */
static int add_pair(const struct hdr *h, const char *vl, size_t vll, size_t vi,
		    struct np_counters *t)
{
	size_t n0 = t->n, hi = h->i, pn;
	int sorted0 = t->sorted;
	char pre[NP_COUNTER_NAME_MAX] = "";

	pn = strnlen(h->p, h->pl < sizeof(pre) - 1 ? h->pl : sizeof(pre) - 1);
	memcpy(pre, h->p, pn);
	for (;;) {
		struct np_counter *e;
		uint64_t v;
		size_t m;

		while (hi < h->ll && np_blank(h->l[hi]))
			hi++;
		while (vi < vll && np_blank(vl[vi]))
			vi++;
		if (hi == h->ll && vi == vll)
			return 0;
		if (hi == h->ll || vi == vll || !value_tok(vl, vll, &vi, &v)) {
			np_counters_truncate(t, n0, sorted0);
			return -EBADMSG;
		}
		e = np_counters_next(t);
		if (!e)
			return -ENOMEM;
		/* The prefix's words only (pre is zero past it): copy_tok writes from pn on. */
		for (size_t j = 0; j < pn; j += 8)
			memcpy(e->name + j, pre + j, 8);
		m = copy_tok(h->l, h->ll, &hi, e->name + pn, sizeof(pre) - 1 - pn);
		e->name[pn + m] = '\0';
		e->value = v;
		np_counters_commit(t);
	}
}

/* Past the blanks from k, eight spaces at a time first: snmp6 pads each name to 32 columns. */
static inline size_t skip_pad(const char *l, size_t ll, size_t k)
{
	for (uint64_t w; k + 8 <= ll; k += 8) {
		memcpy(&w, l + k, 8);
		if (w != 0x2020202020202020ULL)
			break;
	}
	while (k < ll && np_blank(l[k]))
		k++;
	return k;
}

/* snmp6: "Ip6InReceives   123", the name l[i..end) (label() found its end). */
static int add_single(const char *l, size_t ll, size_t i, size_t end, struct np_counters *t)
{
	size_t k, m = end - i;
	struct np_counter *e;
	uint64_t v;

	if (!((l[i] >= 'A' && l[i] <= 'Z') || (l[i] >= 'a' && l[i] <= 'z')))
		return -EBADMSG;
	k = skip_pad(l, ll, end);
	if (k == ll || !value_tok(l, ll, &k, &v))
		return -EBADMSG;
	while (k < ll && np_blank(l[k]))
		k++;
	if (k < ll)
		return -EBADMSG;	/* a third field */
	e = np_counters_next(t);
	if (!e)
		return -ENOMEM;
	if (m > NP_COUNTER_NAME_MAX - 1)
		m = NP_COUNTER_NAME_MAX - 1;
	/* Whole words when the line has them past the name (its value does): the name field
	 * has room for a word from any offset below its length. A NUL within the name is
	 * copied like any byte, as copy_tok does; the name as a string ends there. */
	if (i + ((m + 7) & ~(size_t)7) <= ll)
		for (size_t j = 0; j < m; j += 8)
			memcpy(e->name + j, l + i + j, 8);
	else
		memcpy(e->name, l + i, m);
	e->name[m] = '\0';
	e->value = v;
	np_counters_commit(t);
	return 0;
}

/* np_line_label from i, the line's first non-blank: "Tcp:" gives "Tcp" and i after it. *end is
 * where that first token ends, label or not (an snmp6 line's name). */
static bool label(const char *l, size_t ll, const char **p, size_t *pl, size_t *i, size_t *end)
{
	size_t k = np_tok_end(l, ll, *i);

	*end = k;
	if (k - *i < 2 || l[k - 1] != ':')
		return false;
	*p = l + *i;
	*pl = k - *i - 1;
	*i = k;
	return true;
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
		size_t i = 0, pl, end;

		while (i < ll && np_blank(l[i]))
			i++;
		if (i == ll)
			continue;
		if (!label(l, ll, &p, &pl, &i, &end)) {
			if (pending)
				ret = -EBADMSG;
			pending = false;
			err = add_single(l, ll, i, end, t);
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
