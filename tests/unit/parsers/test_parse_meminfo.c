// SPDX-License-Identifier: GPL-2.0-only
/* np_parse_meminfo: kB to bytes, MemAvailable optional, page_size left alone. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>

#include "fixture.h"
#include "parse.h"

static int parse_str(const char *s, struct np_meminfo *m)
{
	size_t len = strlen(s);
	char *p = exact_copy(s, len);
	int err = np_parse_meminfo(p, len, m);

	free(p);
	return err;
}

static void test_real_capture(void **state)
{
	struct np_meminfo m = { .page_size = 65536, .page_size_assumed = true };
	size_t len;
	char *buf = load_fixture("meminfo.real.txt", &len);
	char *p;

	(void)state;
	assert_non_null(buf);
	p = exact_copy(buf, len);
	assert_int_equal(np_parse_meminfo(p, len, &m), 0);
	assert_int_equal(m.mem_total, 24684092ull * 1024);
	assert_int_equal(m.mem_available, 24432028ull * 1024);
	assert_int_equal(m.page_size, 65536);
	assert_true(m.page_size_assumed);
	free(p);
	free(buf);
}

static void test_old_kernel_no_available(void **state)
{
	struct np_meminfo m;

	(void)state;
	assert_int_equal(parse_str("MemTotal:       24570956 kB\nMemFree:  1 kB", &m), 0);
	assert_int_equal(m.mem_total, 24570956ull * 1024);
	assert_true(m.mem_available == NP_NA);
	/* A value without unit is taken as bytes. */
	assert_int_equal(parse_str("MemTotal: 4096\n", &m), 0);
	assert_int_equal(m.mem_total, 4096);
}

static void test_bad_available(void **state)
{
	struct np_meminfo m;

	(void)state;
	assert_int_equal(parse_str("MemTotal: 1 kB\nMemAvailable: x kB\n", &m), -EBADMSG);
	assert_int_equal(m.mem_total, 1024);
	assert_true(m.mem_available == NP_NA);
}

static void test_malformed(void **state)
{
	static const char *const bad[] = {
		"", "garbage\n", "MemFree: 1 kB\n", "MemTotal:\n", "MemTotal: x kB\n",
		"MemTotal: 1 MB\n", "MemTotal: 1 kB extra\n", "MemTotal 1 kB\n",
		"MemTotal: -1 kB\n",
	};
	struct np_meminfo m;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		m.mem_total = m.mem_available = 5;
		assert_int_equal(parse_str(bad[i], &m), -EINVAL);
		assert_true(m.mem_total == NP_NA);
		assert_true(m.mem_available == NP_NA);
	}
	assert_int_equal(parse_str("MemTotal: 18446744073709551615 kB\n", &m), -ERANGE);
	assert_true(m.mem_total == NP_NA);
	assert_int_equal(np_parse_meminfo(NULL, 0, &m), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_capture),
		cmocka_unit_test(test_old_kernel_no_available),
		cmocka_unit_test(test_bad_available),
		cmocka_unit_test(test_malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
