// SPDX-License-Identifier: GPL-2.0-only
/* np_parse_softnet: 11/13/15-column layouts, CPU mapping, and malformed files. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>

#include "fixture.h"
#include "parse.h"

static int parse_fixture(const char *name, const struct np_cpuset *online, struct np_softnet *sn)
{
	size_t len;
	char *buf = load_fixture(name, &len);
	char *exact;
	int err;

	assert_non_null(buf);
	exact = exact_copy(buf, len);
	err = np_parse_softnet(exact, len, online, sn);
	free(exact);
	free(buf);
	return err;
}

static int parse_str(const char *s, const struct np_cpuset *online, struct np_softnet *sn)
{
	return np_parse_softnet(s, strlen(s), online, sn);
}

static void assert_empty(const struct np_softnet *sn)
{
	assert_null(sn->rows);
	assert_int_equal(sn->n, 0);
	assert_int_equal(sn->ncols, 0);
	assert_false(sn->cpu_from_column);
}

static void test_11col_offline(void **state)
{
	struct np_softnet sn;
	struct np_cpuset online;

	(void)state;
	assert_int_equal(np_parse_cpulist("0,2-3", &online), 0);
	assert_int_equal(parse_fixture("softnet_11col_offline.txt", &online, &sn), 0);
	assert_int_equal(sn.ncols, 11);
	assert_false(sn.cpu_from_column);
	assert_int_equal(sn.n, 3);
	/* CPU1 is offline: the second row is CPU2, not CPU1. */
	assert_int_equal(sn.rows[0].cpu, 0);
	assert_int_equal(sn.rows[1].cpu, 2);
	assert_int_equal(sn.rows[2].cpu, 3);
	assert_int_equal(sn.rows[0].processed, 0xa1b2);
	assert_int_equal(sn.rows[0].dropped, 3);
	assert_int_equal(sn.rows[0].time_squeeze, 0x1f);
	assert_int_equal(sn.rows[0].received_rps, 0x10);
	assert_int_equal(sn.rows[0].flow_limit_count, 2);
	/* Raw 32-bit value, not sign-extended. */
	assert_true(sn.rows[2].processed == 0xffffffffu);
	assert_true(sn.rows[0].backlog_len == NP_NA);
	assert_true(sn.rows[0].input_qlen == NP_NA);
	assert_true(sn.rows[0].process_qlen == NP_NA);
	free(sn.rows);
}

static void test_11col_no_online(void **state)
{
	struct np_softnet sn;

	(void)state;
	assert_int_equal(parse_fixture("softnet_11col_offline.txt", NULL, &sn), 0);
	assert_int_equal(sn.n, 3);
	for (size_t i = 0; i < sn.n; i++)
		assert_int_equal(sn.rows[i].cpu, (int)i);
	free(sn.rows);
}

static void test_11col_too_few_online(void **state)
{
	struct np_softnet sn;
	struct np_cpuset online;

	(void)state;
	/* Three rows, two online CPUs: no honest mapping exists. */
	assert_int_equal(np_parse_cpulist("0,2", &online), 0);
	assert_int_equal(parse_fixture("softnet_11col_offline.txt", &online, &sn), -EINVAL);
	assert_empty(&sn);
}

static void test_13col(void **state)
{
	struct np_softnet sn;
	struct np_cpuset online;

	(void)state;
	/* With a CPU column the online set is not consulted: give a wrong one on purpose. */
	assert_int_equal(np_parse_cpulist("5", &online), 0);
	assert_int_equal(parse_fixture("softnet_13col.txt", &online, &sn), 0);
	assert_int_equal(sn.ncols, 13);
	assert_true(sn.cpu_from_column);
	assert_int_equal(sn.n, 3);
	assert_int_equal(sn.rows[0].cpu, 0);
	assert_int_equal(sn.rows[1].cpu, 1);
	assert_int_equal(sn.rows[2].cpu, 3);
	assert_int_equal(sn.rows[1].processed, 0x2000);
	assert_int_equal(sn.rows[1].dropped, 5);
	assert_int_equal(sn.rows[1].received_rps, 7);
	assert_int_equal(sn.rows[1].backlog_len, 3);
	assert_int_equal(sn.rows[2].time_squeeze, 9);
	assert_int_equal(sn.rows[2].flow_limit_count, 1);
	assert_true(sn.rows[1].input_qlen == NP_NA);
	assert_true(sn.rows[1].process_qlen == NP_NA);
	free(sn.rows);
}

static void test_15col(void **state)
{
	struct np_softnet sn;

	(void)state;
	assert_int_equal(parse_fixture("softnet_15col.txt", NULL, &sn), 0);
	assert_int_equal(sn.ncols, 15);
	assert_true(sn.cpu_from_column);
	assert_int_equal(sn.n, 2);
	assert_int_equal(sn.rows[1].cpu, 1);
	assert_int_equal(sn.rows[1].processed, 0x37e);
	assert_int_equal(sn.rows[1].dropped, 0x11);
	assert_int_equal(sn.rows[1].time_squeeze, 0x22);
	assert_int_equal(sn.rows[1].received_rps, 0x33);
	assert_int_equal(sn.rows[1].flow_limit_count, 0x44);
	assert_int_equal(sn.rows[1].backlog_len, 0x55);
	assert_int_equal(sn.rows[1].input_qlen, 0x66);
	assert_int_equal(sn.rows[1].process_qlen, 0x77);
	free(sn.rows);
}

static void test_real_capture(void **state)
{
	struct np_softnet sn;

	(void)state;
	/* This machine (6.x) prints 15 columns, one row per online CPU, ids in order. */
	assert_int_equal(parse_fixture("softnet_stat.real.txt", NULL, &sn), 0);
	assert_int_equal(sn.ncols, 15);
	assert_true(sn.n >= 1);
	for (size_t i = 1; i < sn.n; i++)
		assert_true(sn.rows[i].cpu > sn.rows[i - 1].cpu);
	free(sn.rows);
}

static void test_no_trailing_newline_and_blank_lines(void **state)
{
	struct np_softnet sn;

	(void)state;
	assert_int_equal(parse_str("\n00000001 0 0 0 0 0 0 0 0 0 0\n\n00000002 0 0 0 0 0 0 0 0 0 0",
				   NULL, &sn), 0);
	assert_int_equal(sn.n, 2);
	assert_int_equal(sn.rows[1].processed, 2);
	assert_int_equal(sn.rows[1].cpu, 1);
	free(sn.rows);
}

/* A future kernel with 16 columns still parses; the extra column is ignored. */
static void test_wider_future_layout(void **state)
{
	struct np_softnet sn;

	(void)state;
	assert_int_equal(parse_str("1 2 3 0 0 0 0 0 0 4 5 6 7 8 9 a\n", NULL, &sn), 0);
	assert_int_equal(sn.ncols, 16);
	assert_int_equal(sn.rows[0].cpu, 7);
	assert_int_equal(sn.rows[0].process_qlen, 9);
	free(sn.rows);
}

/*
 * Real files of every layout (tests/fixtures/parsers/SOURCES.md): the width decides the
 * layout, each column keeps its meaning, and columns a kernel does not print are NP_NA.
 */
static void test_real_layouts(void **state)
{
	static const struct {
		const char *file;
		unsigned ncols, nrows;
		const char *layout;
	} real[] = {
		{ "softnet_real_9col_2.6.32.txt", 9, 6, "2.6.32-2.6.34" },
		{ "softnet_real_9col_insights.txt", 9, 1, "2.6.32-2.6.34" },
		{ "softnet_real_10col_2.6.36.txt", 10, 6, "2.6.35-3.10" },
		{ "softnet_real_10col_insights.txt", 10, 4, "2.6.35-3.10" },
		{ "softnet_real_11col_3.11.txt", 11, 8, "3.11-5.9" },
		{ "softnet_real_13col_5.10.txt", 13, 2, "5.10-6.3" },
		{ "softnet_real_15col_6.4.txt", 15, 2, "6.4 and later" },
	};
	struct np_softnet sn;

	(void)state;
	for (size_t i = 0; i < sizeof(real) / sizeof(real[0]); i++) {
		assert_int_equal(parse_fixture(real[i].file, NULL, &sn), 0);
		assert_int_equal(sn.ncols, real[i].ncols);
		assert_int_equal(sn.n, real[i].nrows);
		assert_non_null(sn.layout);
		assert_non_null(strstr(sn.layout, real[i].layout));
		assert_int_equal(sn.cpu_from_column, real[i].ncols >= 13);
		if (real[i].ncols < 10)
			assert_int_equal(sn.rows[0].received_rps, NP_NA);
		else
			assert_int_not_equal(sn.rows[0].received_rps, NP_NA);
		if (real[i].ncols < 11)
			assert_int_equal(sn.rows[0].flow_limit_count, NP_NA);
		else
			assert_int_not_equal(sn.rows[0].flow_limit_count, NP_NA);
		/* Without cpu/online, rows of the old layouts are CPUs 0, 1, 2... */
		assert_int_equal(sn.rows[sn.n - 1].cpu, real[i].ncols >= 13 ? sn.rows[sn.n - 1].cpu :
				 (int)sn.n - 1);
		free(sn.rows);
	}
	/* The 2.6.32 sample: processed, dropped, time_squeeze of the first row. */
	assert_int_equal(parse_fixture("softnet_real_9col_2.6.32.txt", NULL, &sn), 0);
	assert_int_equal(sn.rows[0].processed, 0x6dcad223);
	assert_int_equal(sn.rows[0].time_squeeze, 1);
	free(sn.rows);
	/* RHEL 6 (insights): the 10th column is received_rps, the 9th (cpu_collision) is not. */
	assert_int_equal(parse_fixture("softnet_real_10col_insights.txt", NULL, &sn), 0);
	assert_int_equal(sn.rows[0].dropped, 0x12);
	assert_int_equal(sn.rows[0].received_rps, 5);
	free(sn.rows);
}

/* A refused file says what was seen, for the report. */
static void test_refusal_says_why(void **state)
{
	struct np_softnet sn;

	(void)state;
	assert_int_equal(parse_str("1 2 3 4 5 6 7 8 9 a b c\n", NULL, &sn), -EINVAL);
	assert_non_null(strstr(sn.error, "12 fields per row"));
	assert_int_equal(parse_str("1 2 3 4 5 6 7 8 9 a b\n1 2 3 4 5 6 7\n", NULL, &sn), -EINVAL);
	assert_non_null(strstr(sn.error, "row 2 has 7 fields, row 1 has 11"));
	assert_int_equal(parse_str("1 2 zz 4 5 6 7 8 9 a b\n", NULL, &sn), -EINVAL);
	assert_non_null(strstr(sn.error, "row 1, field 3"));
	assert_int_equal(parse_str("\x1b[2J 2 3 4 5 6 7 8 9 a b\n", NULL, &sn), -EINVAL);
	assert_null(strchr(sn.error, 0x1b));
}

static void test_malformed(void **state)
{
	static const char *const bad[] = {
		"",
		"\n\n",
		"hello world\n",
		/* non-hex field */
		"0000000g 0 0 0 0 0 0 0 0 0 0\n",
		"00000001 0 0 0 0 0 0 0 0 0 -1\n",
		/* truncated line (10 fields) */
		"00000001 0 0 0 0 0 0 0 0 0 0\n00000001 0 0 0 0 0 0 0 0 0",
		/* inconsistent widths: 13 then 11 */
		"1 0 0 0 0 0 0 0 0 0 0 0 0\n1 0 0 0 0 0 0 0 0 0 0\n",
		/* 12 and 14 columns are no kernel's layout (8 neither) */
		"1 0 0 0 0 0 0 0\n",
		"1 0 0 0 0 0 0 0 0 0 0 0\n",
		"1 0 0 0 0 0 0 0 0 0 0 0 0 0\n",
		/* a field wider than 32 bits */
		"100000000 0 0 0 0 0 0 0 0 0 0\n",
		/* CPU column beyond what a cpuset holds */
		"1 0 0 0 0 0 0 0 0 0 0 0 ffffffff\n",
		/* NUL inside the data */
		"00000001 0 0 0 0\0 0 0 0 0 0 0\n",
	};
	static const size_t bad_len[] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 30 };
	struct np_softnet sn;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		size_t len = bad_len[i] ? bad_len[i] : strlen(bad[i]);
		char *p = exact_copy(bad[i], len);

		assert_int_equal(np_parse_softnet(p, len, NULL, &sn), -EINVAL);
		assert_empty(&sn);
		free(p);
	}
	assert_int_equal(np_parse_softnet(NULL, 0, NULL, &sn), -EINVAL);
	assert_empty(&sn);
}

static void test_too_many_columns_and_long_line(void **state)
{
	struct np_softnet sn;
	size_t len = 1 << 20;
	char *p = malloc(len);

	(void)state;
	assert_non_null(p);
	/* 1 MiB of "0 ": far more columns than any layout. */
	for (size_t i = 0; i < len; i++)
		p[i] = i % 2 ? ' ' : '0';
	assert_int_equal(np_parse_softnet(p, len, NULL, &sn), -EINVAL);
	assert_empty(&sn);
	/* 1 MiB of blanks after a valid row: still one row. */
	memcpy(p, "1 0 0 0 0 0 0 0 0 0 0", 21);
	memset(p + 21, ' ', len - 21);
	assert_int_equal(np_parse_softnet(p, len, NULL, &sn), 0);
	assert_int_equal(sn.n, 1);
	free(sn.rows);
	free(p);
}

/* Many rows force the row array to grow several times. */
static void test_many_rows(void **state)
{
	static const char row[] = "00000001 0 0 0 0 0 0 0 0 0 0 0 ";
	struct np_softnet sn;
	size_t n = 4096, len = 0;
	char *p = malloc(n * (sizeof(row) + 16));

	(void)state;
	assert_non_null(p);
	for (size_t i = 0; i < n; i++)
		len += (size_t)sprintf(p + len, "%s%08zx\n", row, i);
	assert_int_equal(np_parse_softnet(p, len, NULL, &sn), 0);
	assert_int_equal(sn.n, n);
	assert_int_equal(sn.rows[n - 1].cpu, (int)(n - 1));
	free(sn.rows);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_layouts),
		cmocka_unit_test(test_refusal_says_why),
		cmocka_unit_test(test_11col_offline),
		cmocka_unit_test(test_11col_no_online),
		cmocka_unit_test(test_11col_too_few_online),
		cmocka_unit_test(test_13col),
		cmocka_unit_test(test_15col),
		cmocka_unit_test(test_real_capture),
		cmocka_unit_test(test_no_trailing_newline_and_blank_lines),
		cmocka_unit_test(test_wider_future_layout),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_too_many_columns_and_long_line),
		cmocka_unit_test(test_many_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
