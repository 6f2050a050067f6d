// SPDX-License-Identifier: GPL-2.0-only
/* Moments, spans and sizes as admins write them (core/when.c): every form the man page lists,
 * local time under fixed POSIX time zones (no tzdata needed), and the refusals. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "when.h"

/* 2026-11-28 03:12:00 UTC */
#define T0 1795835520.0

static void zone(const char *tz)
{
	setenv("TZ", tz, 1);
	tzset();
}

static double when(const char *s, double now)
{
	char err[160] = "";
	double t = -1;

	if (np_parse_when(s, now, &t, err, sizeof(err)) != 0)
		fail_msg("'%s' refused: %s", s, err);
	return t;
}

static void refused(const char *s)
{
	char err[160] = "";
	double t = 0;

	if (np_parse_when(s, T0, &t, err, sizeof(err)) != -EINVAL)
		fail_msg("'%s' accepted as %f", s, t);
	assert_non_null(strstr(err, "not a time") ? err : strstr(err, "@SECONDS"));
}

static void test_calendar_utc(void **state)
{
	(void)state;
	zone("UTC0");
	assert_true(when("2026-11-28 03:12", 0) == T0);
	assert_true(when("2026-11-28 03:12:40", 0) == T0 + 40);
	assert_true(when("2026-11-28", 0) == 1795824000.0);
	assert_true(when("2026-11-28T03:12:00Z", 0) == T0);
	assert_true(when("2026-11-28T04:12:00+01:00", 0) == T0);
	assert_true(when("2026-11-28T01:42:00-0130", 0) == T0);
	assert_true(when("2026-11-28T03:12:00.25Z", 0) == T0 + 0.25);
	/* a clock alone: today */
	assert_true(when("03:12", T0 + 3600) == T0);
	assert_true(when("03:12:05", T0 + 3600) == T0 + 5);
}

/* Without an offset the time is local: CET is UTC+1 in November, CEST UTC+2 in July. */
static void test_calendar_local(void **state)
{
	(void)state;
	zone("CET-1CEST,M3.5.0,M10.5.0/3");
	assert_true(when("2026-11-28 04:12", 0) == T0);
	assert_true(when("2026-07-01 12:00", 0) == 1782900000.0);
	/* an explicit offset wins over the zone */
	assert_true(when("2026-11-28T03:12:00Z", 0) == T0);
	assert_true(when("today", T0) == 1795824000.0 - 3600);
	assert_true(when("yesterday", T0) == 1795824000.0 - 3600 - 86400);
	zone("UTC0");
}

static void test_relative(void **state)
{
	(void)state;
	assert_true(when("now", T0) == T0);
	assert_true(when("-10min", T0) == T0 - 600);
	assert_true(when("-1h30min", T0) == T0 - 5400);
	assert_true(when("-2d", T0) == T0 - 172800);
	assert_true(when("-90", T0) == T0 - 90);
	assert_true(when("10min ago", T0) == T0 - 600);
	assert_true(when("@1795835520", 0) == T0);
	assert_true(when("@1795835520.5", 0) == T0 + 0.5);
}

static void test_refusals(void **state)
{
	static const char *bad[] = {
		"", "-", "@", "@-5", "@12x", "tomorrow", "2026-02-30", "2026-13-01", "2026-11-28 25:00",
		"2026-11-28 03:60", "2026-11-28T03:12+25:00", "2026-11-28T03:12Zed", "2026-1-28",
		"-10parsecs", "10min later", "03:12:99", "2026-11-28 03:12:00.", "--10min",
	};

	(void)state;
	zone("UTC0");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		refused(bad[i]);
}

static void test_spans(void **state)
{
	char err[160];
	double v;

	(void)state;
	assert_int_equal(np_parse_span("90", &v, err, sizeof(err)), 0);
	assert_true(v == 90);
	assert_int_equal(np_parse_span("10min", &v, err, sizeof(err)), 0);
	assert_true(v == 600);
	assert_int_equal(np_parse_span("7d", &v, err, sizeof(err)), 0);
	assert_true(v == 604800);
	assert_int_equal(np_parse_span("1w", &v, err, sizeof(err)), 0);
	assert_true(v == 604800);
	assert_int_equal(np_parse_span("1h 30min", &v, err, sizeof(err)), 0);
	assert_true(v == 5400);
	assert_int_equal(np_parse_span("0", &v, err, sizeof(err)), -EINVAL);
	assert_int_equal(np_parse_span("-5", &v, err, sizeof(err)), -EINVAL);
	assert_int_equal(np_parse_span("5x", &v, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not a duration"));
	assert_int_equal(np_parse_span("", &v, err, sizeof(err)), -EINVAL);
}

static void test_sizes(void **state)
{
	char err[160];
	uint64_t v;

	(void)state;
	assert_int_equal(np_parse_size("4096", &v, err, sizeof(err)), 0);
	assert_true(v == 4096);
	assert_int_equal(np_parse_size("500M", &v, err, sizeof(err)), 0);
	assert_true(v == 500ull << 20);
	assert_int_equal(np_parse_size("2G", &v, err, sizeof(err)), 0);
	assert_true(v == 2ull << 30);
	assert_int_equal(np_parse_size("20MB", &v, err, sizeof(err)), 0);
	assert_true(v == 20ull << 20);
	assert_int_equal(np_parse_size("1GiB", &v, err, sizeof(err)), 0);
	assert_true(v == 1ull << 30);
	assert_int_equal(np_parse_size("0", &v, err, sizeof(err)), -EINVAL);
	assert_int_equal(np_parse_size("5X", &v, err, sizeof(err)), -EINVAL);
	assert_int_equal(np_parse_size("1Gx", &v, err, sizeof(err)), -EINVAL);
	assert_int_equal(np_parse_size("-1G", &v, err, sizeof(err)), -EINVAL);
	assert_int_equal(np_parse_size("99999999999999999999", &v, err, sizeof(err)), -EINVAL);
	assert_int_equal(np_parse_size("20000000T", &v, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "too large"));
}

static void test_format(void **state)
{
	char buf[64];

	(void)state;
	zone("UTC0");
	np_when_format(T0 + 40.7, buf, sizeof(buf));
	assert_string_equal(buf, "2026-11-28 03:12:40");
	zone("CET-1CEST,M3.5.0,M10.5.0/3");
	np_when_format(T0, buf, sizeof(buf));
	assert_string_equal(buf, "2026-11-28 04:12:00");
	/* what it prints, it reads back */
	assert_true(when(buf, 0) == T0);
	zone("UTC0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_calendar_utc),
		cmocka_unit_test(test_calendar_local),
		cmocka_unit_test(test_relative),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_spans),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
