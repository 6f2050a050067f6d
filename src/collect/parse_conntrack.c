// SPDX-License-Identifier: GPL-2.0-only
/* /proc/net/stat/nf_conntrack: a header of names, then one %08x row per CPU, read by name. */
#include "parse.h"
#include "parse_util.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A column: its value in the row being read, and where its sum lives in the table (NO_SUM for
 * "entries", which is taken from the first row only). */
struct col {
	uint64_t v;
	size_t at;
};

#define NO_SUM SIZE_MAX

/* Columns held on the stack: the kernel's header has 17 (16 before 5.x). */
#define COLS_ON_STACK 32

/* The row's fields into col[].v, one pass: false unless every field is hex and there is one
 * per header name. */
static bool row_vals(const char *l, size_t ll, size_t ncols, struct col *col)
{
	const char *t;
	size_t tl, i = 0, n = 0;

	while (np_tok_next(l, ll, &i, &t, &tl)) {
		if (n == ncols || !np_tok_hex64(t, tl, &col[n].v))
			return false;
		n++;
	}
	return n == ncols;
}

/* The header's fields, counted: *all_hex when every one is hex (then it is a row, not names). */
static size_t header_cols(const char *l, size_t ll, bool *all_hex)
{
	const char *t;
	size_t tl, i = 0, n = 0;
	uint64_t v;

	*all_hex = true;
	while (np_tok_next(l, ll, &i, &t, &tl)) {
		if (*all_hex && !np_tok_hex64(t, tl, &v))
			*all_hex = false;
		n++;
	}
	return n;
}

/*
 * The table from the first good row, as adding each column's value by name and sorting would
 * make it, without a lookup per name: each name is pushed with its column's number as the
 * value, the table sorted (stably: a repeated name's copies stay in column order), then the
 * copies of a name folded into one entry holding their sum, while col[].at learns where each
 * column's sum now lives. "entries" is nf_conntrack_count, the one global table size, printed
 * again on every CPU's row: summing it would report ncpu times the real count, so it is marked
 * to be taken from this row only.
 */
static int first_row(const char *h, size_t hl, struct col *col, struct np_counters *t)
{
	const char *name;
	size_t nl, hi = 0, w = 0;

	while (np_tok_next(h, hl, &hi, &name, &nl))
		if (np_counters_push_join(t, name, nl, "", 0, t->n))
			return -ENOMEM;
	np_counters_sort(t);
	for (size_t i = 0; i < t->n; i++) {
		size_t k = (size_t)t->e[i].value;

		if (w && !strcmp(t->e[w - 1].name, t->e[i].name)) {
			t->e[w - 1].value += col[k].v;
		} else {
			if (w != i)
				t->e[w] = t->e[i];
			t->e[w++].value = col[k].v;
		}
		col[k].at = strcmp(t->e[w - 1].name, "entries") ? w - 1 : NO_SUM;
	}
	np_counters_truncate(t, w, 1);
	return 0;
}

static int parse(const char *buf, size_t len, struct np_counters *t)
{
	const char *l, *h = NULL;
	size_t ll, hl = 0, ncols = 0, pos = 0, rows = 0;
	struct col stack[COLS_ON_STACK], *col = stack;
	int ret = 0;

	while (np_line_next(buf, len, &pos, &l, &ll)) {
		size_t i = 0;
		const char *t0;
		size_t tl;

		if (!np_tok_next(l, ll, &i, &t0, &tl))
			continue;
		if (!h) {
			bool all_hex;

			/* Without the header we cannot know which column is which: names moved. */
			ncols = header_cols(l, ll, &all_hex);
			if (all_hex)
				return -EINVAL;
			h = l;
			hl = ll;
			if (ncols > COLS_ON_STACK && !(col = malloc(ncols * sizeof(*col))))
				return -ENOMEM;
			continue;
		}
		if (!row_vals(l, ll, ncols, col)) {
			ret = -EBADMSG;
			continue;
		}
		if (rows++) {
			for (size_t k = 0; k < ncols; k++)
				if (col[k].at != NO_SUM)
					t->e[col[k].at].value += col[k].v;
			continue;
		}
		if (first_row(h, hl, col, t)) {
			ret = -ENOMEM;
			break;
		}
	}
	if (col != stack)
		free(col);
	return ret == -ENOMEM || rows ? ret : -EINVAL;
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
