// SPDX-License-Identifier: GPL-2.0-only
/*
 * core/strjoin.h against snprintf itself: for every buffer size from 0 to past the text, the
 * same bytes in the whole buffer (nothing written past the cut), the same return value (the
 * callers' truncation test), and np_udec / np_sdec against "%llu" / "%lld" (issue #35).
 */
#include "strjoin.h"

#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#define BUF 48

static void same_as_snprintf(const char *a, const char *b, const char *c)
{
	for (size_t size = 0; size <= BUF; size++) {
		char x[BUF + 8], y[BUF + 8];
		int rx, ry;

		memset(x, 0x5a, sizeof(x));
		memset(y, 0x5a, sizeof(y));
		rx = snprintf(x, size, "%s/%s%s", a, b, c);
		ry = np_strjoin(y, size, a, "/", b, c);
		assert_int_equal(rx, ry);
		assert_memory_equal(x, y, sizeof(x));
	}
}

static void test_join(void **state)
{
	(void)state;
	same_as_snprintf("class/net", "eth0", "/device");
	same_as_snprintf("", "", "");
	same_as_snprintf("a", "", "b");
	same_as_snprintf("devices/pci0000:00/0000:00:03.0/virtio0", "net", "/statistics/rx_bytes");
}

static void test_single_and_literal(void **state)
{
	char x[8], y[8];
	volatile size_t size = sizeof(x);	/* no truncation warning for the known cut */

	(void)state;
	memset(x, 1, sizeof(x));
	memset(y, 1, sizeof(y));
	assert_int_equal(np_strjoin(y, sizeof(y), "loopback"), snprintf(x, size, "loopback"));
	assert_memory_equal(x, y, sizeof(x));
	assert_string_equal(y, "loopba" "c");
	assert_int_equal(np_strjoin(y, sizeof(y), "/"), 1);
	assert_string_equal(y, "/");
}

static void test_udec(void **state)
{
	static const unsigned long long v[] = { 0, 1, 9, 10, 99, 100, 4294967295ULL,
						4294967296ULL, ULLONG_MAX };
	char buf[NP_UDEC_MAX], want[32];

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		snprintf(want, sizeof(want), "%llu", v[i]);
		assert_string_equal(np_udec(buf, v[i]), want);
	}
	static const long long sv[] = { 0, -1, 7, -42, 2147483647LL, -2147483647LL - 1,
					LLONG_MAX, LLONG_MIN };

	for (size_t i = 0; i < sizeof(sv) / sizeof(sv[0]); i++) {
		snprintf(want, sizeof(want), "%lld", sv[i]);
		assert_string_equal(np_sdec(buf, sv[i]), want);
	}
	char path[16];

	assert_int_equal(np_strjoin(path, sizeof(path), "irq/", np_udec(buf, 12345),
				    "/smp_affinity_list"), 27);
	assert_string_equal(path, "irq/12345/smp_a");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_join),
		cmocka_unit_test(test_single_and_literal),
		cmocka_unit_test(test_udec),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
