// SPDX-License-Identifier: GPL-2.0-only
/* /proc/net/stat/nf_conntrack: a header of names, then one %08x row per CPU, read by name. */
#include "parse.h"
#include "parse_util.h"
#include "strcopy.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every field of the row is hex and there is one per header name. */
static bool row_ok(const char *l, size_t ll, size_t ncols)
{
	const char *t;
	size_t tl, i = 0, n = 0;
	uint64_t v;

	while (np_tok_next(l, ll, &i, &t, &tl)) {
		if (!np_tok_hex64(t, tl, &v))
			return false;
		n++;
	}
	return n == ncols;
}

/*
 * "entries" is nf_conntrack_count, the one global table size, printed again on every CPU's row:
 * summing it would report ncpu times the real count, so it is taken from the first row only.
 * The first row adds by name; col[] then keeps where each column's sum lives (a repeated name's
 * columns share one), so that the other rows, one per CPU, add without a lookup.
 */
static int add_first_row(const char *h, size_t hl, const char *l, size_t ll,
			 struct np_counters *t)
{
	const char *name, *val;
	size_t nl, vl, hi = 0, i = 0;
	uint64_t v;

	while (np_tok_next(h, hl, &hi, &name, &nl) && np_tok_next(l, ll, &i, &val, &vl)) {
		char key[NP_COUNTER_NAME_MAX];

		np_tok_hex64(val, vl, &v);
		np_strcopy_n(key, sizeof(key), name, nl);
		if (np_counters_add(t, key, v))
			return -ENOMEM;
	}
	return 0;
}

/* Each column's sum in t (sorted, every name in it): NULL for "entries". */
static void map_columns(const char *h, size_t hl, struct np_counters *t, uint64_t **col)
{
	const char *name;
	size_t nl, hi = 0;

	for (size_t k = 0; np_tok_next(h, hl, &hi, &name, &nl); k++) {
		char key[NP_COUNTER_NAME_MAX];

		np_strcopy_n(key, sizeof(key), name, nl);
		/* t is not const here: where its lookup finds the value, this row adds to it. */
		col[k] = strcmp(key, "entries") ? (uint64_t *)np_counters_ref(t, key) : NULL;
	}
}

static void add_row(const char *l, size_t ll, uint64_t *const *col)
{
	const char *val;
	size_t vl, i = 0;
	uint64_t v;

	for (size_t k = 0; np_tok_next(l, ll, &i, &val, &vl); k++) {
		np_tok_hex64(val, vl, &v);
		if (col[k])
			*col[k] += v;
	}
}

static int parse(const char *buf, size_t len, struct np_counters *t)
{
	const char *l, *h = NULL;
	size_t ll, hl = 0, ncols = 0, pos = 0, rows = 0;
	uint64_t **col = NULL;
	int ret = 0;

	while (np_line_next(buf, len, &pos, &l, &ll)) {
		if (!np_tok_count(l, ll, 0))
			continue;
		if (!h) {
			/* Without the header we cannot know which column is which: names moved. */
			if (row_ok(l, ll, np_tok_count(l, ll, 0)))
				return -EINVAL;
			h = l;
			hl = ll;
			ncols = np_tok_count(l, ll, 0);
			continue;
		}
		if (!row_ok(l, ll, ncols)) {
			ret = -EBADMSG;
			continue;
		}
		if (rows++) {
			add_row(l, ll, col);
			continue;
		}
		/* Every name exists after the first row: sorted, then mapped by column. */
		col = malloc(ncols * sizeof(*col));
		if (!col || add_first_row(h, hl, l, ll, t)) {
			free(col);
			return -ENOMEM;
		}
		np_counters_sort(t);
		map_columns(h, hl, t, col);
	}
	free(col);
	return rows ? ret : -EINVAL;
}

/*
 * Adds into out (which may already hold counters). A malformed row is left out with -EBADMSG;
 * -EINVAL (out unchanged) without a header or without any good row.
 */
int np_parse_conntrack_stat(const char *buf, size_t len, struct np_counters *out)
{
	struct np_counters t = { 0 };
	int err;

	if (!buf)
		return -EINVAL;
	err = parse(buf, len, &t);
	if (err && err != -EBADMSG)
		goto out;
	if (!out->e && !out->n) {
		*out = t;
		t = (struct np_counters){ 0 };
	} else {
		for (size_t k = 0; k < t.n; k++) {
			if (np_counters_add(out, t.e[k].name, t.e[k].value)) {
				/* Some adds may have landed; the caller frees out either way. */
				err = -ENOMEM;
				break;
			}
		}
	}
	if (out->n)
		np_counters_sort(out);
out:
	np_counters_free(&t);
	return err;
}
