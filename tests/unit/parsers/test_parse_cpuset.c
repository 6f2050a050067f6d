// SPDX-License-Identifier: GPL-2.0-only
/* np_parse_cpulist / np_parse_cpumask: the formats of sysfs cpulists and smp_affinity masks. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>

#include "parse.h"

static void fmt_is(const struct np_cpuset *s, const char *want)
{
	char buf[256];

	np_cpuset_format(s, buf, sizeof(buf));
	assert_string_equal(buf, want);
}

static void test_cpulist_ok(void **state)
{
	struct np_cpuset s;

	(void)state;
	assert_int_equal(np_parse_cpulist("0-3,8,10-11\n", &s), 0);
	fmt_is(&s, "0-3,8,10-11");
	assert_int_equal(np_cpuset_count(&s), 7);
	assert_int_equal(np_parse_cpulist("5", &s), 0);
	fmt_is(&s, "5");
	assert_int_equal(np_parse_cpulist("  1,0  \n", &s), 0);
	fmt_is(&s, "0-1");
	assert_int_equal(np_parse_cpulist("8191", &s), 0);
	assert_true(np_cpuset_has(&s, 8191));
	assert_int_equal(np_parse_cpulist("0-8191", &s), 0);
	assert_int_equal(np_cpuset_count(&s), NP_MAX_CPUS);
}

static void test_cpulist_empty(void **state)
{
	struct np_cpuset s;

	(void)state;
	np_cpuset_zero(&s);
	np_cpuset_set(&s, 3);
	assert_int_equal(np_parse_cpulist("", &s), 0);
	assert_int_equal(np_cpuset_count(&s), 0);
	np_cpuset_set(&s, 3);
	assert_int_equal(np_parse_cpulist("\n", &s), 0);
	assert_int_equal(np_cpuset_count(&s), 0);
}

static void test_cpulist_bad(void **state)
{
	static const char *const bad[] = { "abc", "1-", "-1", "3-1", "1,,2", "1,", ",1", "1 2",
					   "1-2-3", "0x3", "1;2", "1-2garbage" };
	struct np_cpuset s;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(np_parse_cpulist(bad[i], &s), -EINVAL);
		/* Whatever was set before the error is gone. */
		assert_int_equal(np_cpuset_count(&s), 0);
	}
	assert_int_equal(np_parse_cpulist("8192", &s), -ERANGE);
	assert_int_equal(np_parse_cpulist("0-99999999999999999999", &s), -ERANGE);
	assert_int_equal(np_cpuset_count(&s), 0);
	assert_int_equal(np_parse_cpulist(NULL, &s), -EINVAL);
}

/* "top,00000000,...": n groups in all. */
static void mask_groups(char *buf, const char *top, int n)
{
	size_t len = (size_t)sprintf(buf, "%s", top);

	for (int g = 1; g < n; g++)
		len += (size_t)sprintf(buf + len, ",00000000");
}

static void test_cpumask_ok(void **state)
{
	static char buf[300 * 9 + 1];
	struct np_cpuset s;

	(void)state;
	assert_int_equal(np_parse_cpumask("ff,00000001\n", &s), 0);
	fmt_is(&s, "0,32-39");
	assert_int_equal(np_parse_cpumask("0", &s), 0);
	assert_int_equal(np_cpuset_count(&s), 0);
	assert_int_equal(np_parse_cpumask("00000000,00000000,80000000", &s), 0);
	fmt_is(&s, "31");
	assert_int_equal(np_parse_cpumask("A", &s), 0);
	fmt_is(&s, "1,3");
	/* 256 groups = 8192 CPUs: the top bit is the last CPU we can hold. */
	mask_groups(buf, "80000000", 256);
	assert_int_equal(np_parse_cpumask(buf, &s), 0);
	fmt_is(&s, "8191");
	/* A leading zero group beyond the limit is harmless... */
	mask_groups(buf, "00000000", 257);
	assert_int_equal(np_parse_cpumask(buf, &s), 0);
	assert_int_equal(np_cpuset_count(&s), 0);
	/* ...a set bit there is not. */
	mask_groups(buf, "00000001", 257);
	assert_int_equal(np_parse_cpumask(buf, &s), -ERANGE);
	assert_int_equal(np_cpuset_count(&s), 0);
}

static void test_cpumask_bad(void **state)
{
	static const char *const bad[] = { "", "\n", "g", "ff,", ",ff", "ff,,1", "123456789",
					   "ff 1", "0x1", "-1" };
	struct np_cpuset s;

	(void)state;
	np_cpuset_zero(&s);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		np_cpuset_set(&s, 1);
		assert_int_equal(np_parse_cpumask(bad[i], &s), -EINVAL);
		assert_int_equal(np_cpuset_count(&s), 0);
	}
	assert_int_equal(np_parse_cpumask(NULL, &s), -EINVAL);
}

/* np_cpuset_count skips sixteen zero words at a time: a CPU in any word of any group, alone or
 * among others, is counted (a bit by bit count is the reference). */
static void test_count_every_word(void **state)
{
	struct np_cpuset s;
	uint32_t x = 12345;

	(void)state;
	for (unsigned cpu = 0; cpu < NP_MAX_CPUS; cpu += 61) {
		np_cpuset_zero(&s);
		np_cpuset_set(&s, cpu);
		assert_int_equal(np_cpuset_count(&s), 1);
	}
	np_cpuset_zero(&s);
	np_cpuset_set(&s, NP_MAX_CPUS - 1);
	np_cpuset_set(&s, 1023);
	np_cpuset_set(&s, 1024);
	assert_int_equal(np_cpuset_count(&s), 3);
	for (int round = 0; round < 20; round++) {
		unsigned want = 0;

		np_cpuset_zero(&s);
		for (int k = 0; k < 50 * round; k++) {
			x = x * 1103515245u + 12345u;
			np_cpuset_set(&s, (x >> 8) % NP_MAX_CPUS);
		}
		for (unsigned cpu = 0; cpu < NP_MAX_CPUS; cpu++)
			want += np_cpuset_has(&s, cpu);
		assert_int_equal(np_cpuset_count(&s), want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpulist_ok),
		cmocka_unit_test(test_cpulist_empty),
		cmocka_unit_test(test_cpulist_bad),
		cmocka_unit_test(test_cpumask_ok),
		cmocka_unit_test(test_cpumask_bad),
		cmocka_unit_test(test_count_every_word),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
