// SPDX-License-Identifier: GPL-2.0-only
/* np_parse_conntrack_stat: sums per CPU by header name, old and new header names. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>

#include "fixture.h"
#include "parse.h"

static int parse_fixture(const char *name, struct np_counters *c)
{
	size_t len;
	char *buf = load_fixture(name, &len);
	char *p;
	int err;

	assert_non_null(buf);
	p = exact_copy(buf, len);
	err = np_parse_conntrack_stat(p, len, c);
	free(p);
	free(buf);
	return err;
}

static int parse_str(const char *s, struct np_counters *c)
{
	size_t len = strlen(s);
	char *p = exact_copy(s, len);
	int err = np_parse_conntrack_stat(p, len, c);

	free(p);
	return err;
}

static void test_old_names(void **state)
{
	struct np_counters c = { 0 };

	(void)state;
	assert_int_equal(parse_fixture("conntrack_old.txt", &c), 0);
	assert_int_equal(c.n, 17);
	assert_int_equal(np_counters_get(&c, "found"), 0x1e);
	assert_int_equal(np_counters_get(&c, "new"), 11);
	assert_int_equal(np_counters_get(&c, "invalid"), 2);
	assert_int_equal(np_counters_get(&c, "insert_failed"), 5);
	assert_int_equal(np_counters_get(&c, "drop"), 1);
	assert_int_equal(np_counters_get(&c, "searched"), 0);
	assert_true(np_counters_get(&c, "clashres") == NP_NA);
	/* The table size is repeated on each CPU's row: taken once, not summed. */
	assert_int_equal(np_counters_get(&c, "entries"), 0x2a);
	np_counters_free(&c);
}

static void test_new_names(void **state)
{
	struct np_counters c = { 0 };

	(void)state;
	assert_int_equal(parse_fixture("conntrack_new.txt", &c), 0);
	assert_int_equal(c.n, 17);
	assert_int_equal(np_counters_get(&c, "clashres"), 3);
	assert_int_equal(np_counters_get(&c, "invalid"), 0x100);
	assert_int_equal(np_counters_get(&c, "insert_failed"), 5);
	assert_int_equal(np_counters_get(&c, "search_restart"), 2);
	assert_int_equal(np_counters_get(&c, "chainlength"), 0);
	assert_int_equal(np_counters_get(&c, "entries"), 0x10);
	assert_true(np_counters_get(&c, "searched") == NP_NA);
	np_counters_free(&c);
}

static void test_real_capture(void **state)
{
	struct np_counters c = { 0 };

	(void)state;
	assert_int_equal(parse_fixture("stat_nf_conntrack.real.txt", &c), 0);
	assert_true(np_has(np_counters_get(&c, "insert_failed")));
	assert_true(np_has(np_counters_get(&c, "drop")));
	assert_true(np_has(np_counters_get(&c, "early_drop")));
	np_counters_free(&c);
}

static void test_bad_rows(void **state)
{
	struct np_counters c = { 0 };

	(void)state;
	/* Short row, non-hex row: left out; the good row counts. -EBADMSG says "partial". */
	assert_int_equal(parse_str("entries drop\n00000001 00000002\n00000001\n0000000x 00000001\n"
				   "00000001 00000003", &c), -EBADMSG);
	assert_int_equal(np_counters_get(&c, "drop"), 5);
	assert_int_equal(np_counters_get(&c, "entries"), 1);
	np_counters_free(&c);
}

static void test_malformed(void **state)
{
	static const char *const bad[] = {
		"",
		"\n\n",
		/* missing header line: the first line is a row */
		"00000001 00000002\n00000001 00000002\n",
		/* header only */
		"entries drop\n",
		/* every row has the wrong width */
		"entries drop\n00000001\n00000001 00000002 00000003\n",
		/* garbage */
		"hello world\nfoo bar\n",
	};
	struct np_counters c = { 0 };

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse_str(bad[i], &c), -EINVAL);
		assert_int_equal(c.n, 0);
		assert_null(c.e);
	}
	assert_int_equal(np_parse_conntrack_stat(NULL, 0, &c), -EINVAL);
}

/* Adds into a table that already has counters (e.g. another namespace's file). */
static void test_adds_into_existing(void **state)
{
	struct np_counters c = { 0 };

	(void)state;
	assert_int_equal(parse_str("entries drop\n1 2\n", &c), 0);
	assert_int_equal(parse_str("entries drop\n1 3\n", &c), 0);
	assert_int_equal(np_counters_get(&c, "drop"), 5);
	assert_int_equal(c.n, 2);
	np_counters_free(&c);
}

/* Many CPUs' rows, a repeated column name (both columns sum into one counter) and "entries"
 * taken from the first row only: rows after the first add by column, not by name. */
static void test_rows_by_column(void **state)
{
	struct np_counters c = { 0 };
	char text[4096];
	size_t n = 0;

	(void)state;
	n += (size_t)snprintf(text + n, sizeof(text) - n, "drop entries drop insert\n");
	for (int cpu = 0; cpu < 64; cpu++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%08x %08x %08x %08x\n", 1, 7,
				      2, cpu);
	assert_int_equal(parse_str(text, &c), 0);
	assert_int_equal(np_counters_get(&c, "drop"), 64 * 3);
	assert_int_equal(np_counters_get(&c, "entries"), 7);
	assert_int_equal(np_counters_get(&c, "insert"), 63 * 64 / 2);
	assert_int_equal(c.n, 3);
	np_counters_free(&c);
}

/* The first row's table is built by sorting the header's names and folding repeats, not by a
 * lookup per name: it must equal adding each column by name in column order (every name's
 * sum, "entries" from the first row only, a name cut at the table's width meeting its twin). */
static void test_fold_equals_add_by_name(void **state)
{
	static const char *const names[] = {
		"search_restart", "entries", "drop", "found", "drop", "entries", "a", "zz",
		"x123456789012345678901234567890123456789012345678901234567890_LONG_A",
		"x123456789012345678901234567890123456789012345678901234567890_LONG_B", "drop",
	};
	const size_t nc = sizeof(names) / sizeof(names[0]);
	struct np_counters c = { 0 }, want = { 0 };
	char text[8192];
	size_t n = 0;

	(void)state;
	for (size_t k = 0; k < nc; k++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%s%s", k ? " " : "", names[k]);
	for (unsigned row = 0; row < 5; row++) {
		text[n++] = '\n';
		for (size_t k = 0; k < nc; k++) {
			uint64_t v = 1000 * row + 7 * k + 1;

			n += (size_t)snprintf(text + n, sizeof(text) - n, "%s%08llx", k ? " " : "",
					      (unsigned long long)v);
			if (!row || strcmp(names[k], "entries"))
				assert_int_equal(np_counters_add(&want, names[k], v), 0);
		}
	}
	text[n] = '\0';
	np_counters_sort(&want);
	assert_int_equal(parse_str(text, &c), 0);
	assert_int_equal(c.n, want.n);
	assert_int_equal(c.n, 7);	/* the two long names are one counter */
	for (size_t i = 0; i < c.n; i++) {
		assert_string_equal(c.e[i].name, want.e[i].name);
		assert_int_equal(c.e[i].value, want.e[i].value);
	}
	np_counters_free(&c);
	np_counters_free(&want);
}

/* More columns than the parser keeps on its stack. */
static void test_wide_header(void **state)
{
	struct np_counters c = { 0 };
	char text[8192];
	size_t n = 0;

	(void)state;
	for (int k = 0; k < 100; k++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%sn%d", k ? " " : "", k);
	for (int row = 0; row < 3; row++) {
		text[n++] = '\n';
		for (int k = 0; k < 100; k++)
			n += (size_t)snprintf(text + n, sizeof(text) - n, "%s%x", k ? " " : "", k);
	}
	text[n] = '\0';
	assert_int_equal(parse_str(text, &c), 0);
	assert_int_equal(c.n, 100);
	assert_int_equal(np_counters_get(&c, "n99"), 3 * 99);
	assert_int_equal(np_counters_get(&c, "n0"), 0);
	np_counters_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_old_names),
		cmocka_unit_test(test_new_names),
		cmocka_unit_test(test_real_capture),
		cmocka_unit_test(test_bad_rows),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_adds_into_existing),
		cmocka_unit_test(test_rows_by_column),
		cmocka_unit_test(test_fold_equals_add_by_name),
		cmocka_unit_test(test_wide_header),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
