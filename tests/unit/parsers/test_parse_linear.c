// SPDX-License-Identifier: GPL-2.0-only
/*
 * Parsers do work linear in their input (#29): the name comparisons of the counter tables
 * (np_counters_seam) are bounded by a multiple of the lines parsed, for the shapes that were
 * quadratic: many distinct names, one name repeated many times, a conntrack header as wide as
 * the file. Counted, never timed.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "parse.h"
#include "snapshot.h"
#include "sos_text.h"

/* "NIC statistics:" and `lines` counters; name i is "stat_<i % distinct>". */
static char *ethtool_S_text(size_t lines, size_t distinct, size_t *len)
{
	size_t cap = 32 + lines * 48, n;
	char *b = malloc(cap);

	assert_non_null(b);
	n = (size_t)snprintf(b, cap, "NIC statistics:\n");
	for (size_t i = 0; i < lines; i++)
		n += (size_t)snprintf(b + n, cap - n, "     stat_%zu: %zu\n", i % distinct, i);
	*len = n;
	return b;
}

static unsigned long long compares_of_S(size_t lines, size_t distinct, struct np_counters *c)
{
	size_t len;
	char *b = ethtool_S_text(lines, distinct, &len);
	unsigned long long before = np_counters_seam.compares;

	assert_int_equal(np_parse_ethtool_S(b, len, c), 0);
	free(b);
	assert_int_equal(c->n, lines);
	return np_counters_seam.compares - before;
}

static void test_ethtool_S_distinct(void **state)
{
	struct np_counters c = { 0 };
	const size_t lines = 20000;

	(void)state;
	/* A scan of the names before each line: lines^2 / 2 = 200 M comparisons. */
	assert_true(compares_of_S(lines, lines, &c) < 10 * lines);
	assert_int_equal(np_counters_get(&c, "stat_12345"), 12345);
	np_counters_free(&c);
}

static void test_ethtool_S_repeated(void **state)
{
	struct np_counters c = { 0 };
	const size_t lines = 1000;

	(void)state;
	/* Each repeat tried "stat_0#2", "#3"... from 2 again, each try a scan: lines^3 / 6. */
	assert_true(compares_of_S(lines, 1, &c) < 20 * lines);
	assert_int_equal(np_counters_get(&c, "stat_0"), 0);
	assert_int_equal(np_counters_get(&c, "stat_0#2"), 1);
	assert_int_equal(np_counters_get(&c, "stat_0#1000"), 999);
	np_counters_free(&c);
	/* Ten names each repeated: every one numbered on its own. */
	assert_true(compares_of_S(lines, 10, &c) < 20 * lines);
	assert_int_equal(np_counters_get(&c, "stat_3#100"), 993);
	np_counters_free(&c);
}

/* The numbering the linear version must keep: the smallest free N, literal "#N" names taken
 * into account, names cut to 55 bytes before "#N", and 99999 as the last N. */
static void test_ethtool_S_numbering(void **state)
{
	struct np_counters c = { 0 };
	const char *t = "NIC statistics:\n a: 1\n a#3: 2\n a: 3\n a: 4\n a#2: 5\n a: 6\n";
	char *b, longname[80];
	size_t n, cap = 200000 * 16;

	(void)state;
	assert_int_equal(np_parse_ethtool_S(t, strlen(t), &c), 0);
	assert_int_equal(np_counters_get(&c, "a"), 1);
	assert_int_equal(np_counters_get(&c, "a#3"), 2);
	assert_int_equal(np_counters_get(&c, "a#2"), 3);
	assert_int_equal(np_counters_get(&c, "a#4"), 4);
	assert_int_equal(np_counters_get(&c, "a#2#2"), 5);
	assert_int_equal(np_counters_get(&c, "a#5"), 6);
	np_counters_free(&c);
	/* Two 60-byte names sharing their first 55 bytes share the numbers. */
	memset(longname, 'x', 60);
	longname[60] = '\0';
	b = malloc(cap);
	assert_non_null(b);
	n = (size_t)snprintf(b, cap, "NIC statistics:\n %s: 1\n %s: 2\n", longname, longname);
	longname[59] = 'y';
	n += (size_t)snprintf(b + n, cap - n, " %s: 3\n %s: 4\n", longname, longname);
	assert_int_equal(np_parse_ethtool_S(b, n, &c), 0);
	longname[55] = '\0';
	strcat(longname, "#2");
	assert_int_equal(np_counters_get(&c, longname), 2);
	longname[55] = '\0';
	strcat(longname, "#3");
	assert_int_equal(np_counters_get(&c, longname), 4);
	np_counters_free(&c);
	/* Past "#99999" a repeat is kept under that name again (first one found). */
	n = (size_t)snprintf(b, cap, "NIC statistics:\n");
	for (size_t i = 0; i < 100001; i++)
		n += (size_t)snprintf(b + n, cap - n, "z: %zu\n", i);
	assert_int_equal(np_parse_ethtool_S(b, n, &c), 0);
	assert_int_equal(c.n, 100001);
	assert_int_equal(np_counters_get(&c, "z#99998"), 99997);
	/* Sorted, the two "z#99999" are neighbours and bsearch may find either. */
	assert_true(np_counters_get(&c, "z#99999") == 99998 ||
		    np_counters_get(&c, "z#99999") == 100000);
	assert_string_equal(c.e[c.n - 1].name, "z#99999");
	assert_string_equal(c.e[c.n - 2].name, "z#99999");
	free(b);
	np_counters_free(&c);
}

/* /proc/net/stat/nf_conntrack with `cols` columns (named `tag` and a number; not a hex digit, or the header reads as a row) and two rows. */
static char *conntrack_text(size_t cols, const char *tag, size_t *len)
{
	size_t cap = 64 + cols * 40, n = 0;
	char *b = malloc(cap);

	assert_non_null(b);
	for (size_t i = 0; i < cols; i++)
		n += (size_t)snprintf(b + n, cap - n, "%s%s%zu", i ? " " : "", tag, i);
	for (int row = 0; row < 2; row++) {
		b[n++] = '\n';
		for (size_t i = 0; i < cols; i++)
			n += (size_t)snprintf(b + n, cap - n, "%s%08zx", i ? " " : "", i);
	}
	b[n++] = '\n';
	*len = n;
	return b;
}

/* A header as wide as the file: its first row adds each name after looking for it. */
static void test_conntrack_wide(void **state)
{
	struct np_counters c = { 0 };
	const size_t cols = 20000;
	unsigned long long before;
	size_t len;
	char *b = conntrack_text(cols, "n", &len);

	(void)state;
	before = np_counters_seam.compares;
	assert_int_equal(np_parse_conntrack_stat(b, len, &c), 0);
	/* The first row: a scan per name, cols^2 / 2 = 200 M comparisons; the second bsearch. */
	assert_true(np_counters_seam.compares - before < 40 * cols);
	assert_int_equal(np_counters_get(&c, "n4242"), 2 * 4242);
	free(b);
	/* A second file adds into the sorted table, every name of it new. */
	b = conntrack_text(cols, "m", &len);
	before = np_counters_seam.compares;
	assert_int_equal(np_parse_conntrack_stat(b, len, &c), 0);
	assert_true(np_counters_seam.compares - before < 80 * cols);
	assert_int_equal(c.n, 2 * cols);
	assert_int_equal(np_counters_get(&c, "m4242"), 2 * 4242);
	free(b);
	np_counters_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ethtool_S_distinct),
		cmocka_unit_test(test_ethtool_S_repeated),
		cmocka_unit_test(test_ethtool_S_numbering),
		cmocka_unit_test(test_conntrack_wide),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
