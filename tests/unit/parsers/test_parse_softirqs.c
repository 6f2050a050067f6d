// SPDX-License-Identifier: GPL-2.0-only
/* np_parse_softirqs: NET_RX/NET_TX per CPU column, and malformed files. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>

#include "fixture.h"
#include "parse.h"

static void free_si(struct np_softirqs *si)
{
	free(si->cpu);
	free(si->net_rx);
	free(si->net_tx);
}

static void assert_empty(const struct np_softirqs *si)
{
	assert_int_equal(si->n, 0);
	assert_null(si->cpu);
	assert_null(si->net_rx);
	assert_null(si->net_tx);
}

static void test_real_capture(void **state)
{
	struct np_softirqs si;
	size_t len;
	char *buf = load_fixture("softirqs.real.txt", &len);
	char *p;

	(void)state;
	assert_non_null(buf);
	p = exact_copy(buf, len);
	assert_int_equal(np_parse_softirqs(p, len, &si), 0);
	/* Values of the capture in tests/fixtures/parsers/softirqs.real.txt. */
	assert_int_equal(si.n, 2);
	assert_int_equal(si.cpu[0], 0);
	assert_int_equal(si.cpu[1], 1);
	assert_int_equal(si.net_rx[0], 386);
	assert_int_equal(si.net_rx[1], 574);
	assert_int_equal(si.net_tx[0], 4);
	assert_int_equal(si.net_tx[1], 0);
	free_si(&si);
	free(p);
	free(buf);
}

/* Offline CPUs are absent from the header: columns map to the CPU named above them. */
static void test_offline_columns(void **state)
{
	static const char s[] = "                    CPU0       CPU2       CPU7\n"
				"          HI:          0          0          0\n"
				"      NET_TX:          1          2          3\n"
				"      NET_RX:         10         20 4294967295";
	struct np_softirqs si;

	(void)state;
	assert_int_equal(np_parse_softirqs(s, sizeof(s) - 1, &si), 0);
	assert_int_equal(si.n, 3);
	assert_int_equal(si.cpu[1], 2);
	assert_int_equal(si.cpu[2], 7);
	assert_int_equal(si.net_tx[2], 3);
	assert_int_equal(si.net_rx[1], 20);
	assert_int_equal(si.net_rx[2], 4294967295u);
	free_si(&si);
}

static void test_malformed(void **state)
{
	static const char *const bad[] = {
		"",
		"garbage\n",
		/* no NET_TX row */
		"  CPU0\nNET_RX: 1\n",
		/* no NET_RX row */
		"  CPU0\nNET_TX: 1\n",
		/* header is not CPUn */
		"  CPU0 CPUX\nNET_RX: 1 2\nNET_TX: 1 2\n",
		"  CPU0 GPU1\nNET_RX: 1 2\nNET_TX: 1 2\n",
		/* truncated row */
		"  CPU0 CPU1\nNET_RX: 1 2\nNET_TX: 1",
		/* too many columns in a row */
		"  CPU0 CPU1\nNET_RX: 1 2 3\nNET_TX: 1 2\n",
		/* non-numeric and overflowing counts */
		"  CPU0\nNET_RX: x\nNET_TX: 1\n",
		"  CPU0\nNET_RX: -1\nNET_TX: 1\n",
		"  CPU0\nNET_RX: 99999999999999999999\nNET_TX: 1\n",
		/* duplicated row */
		"  CPU0\nNET_RX: 1\nNET_RX: 1\nNET_TX: 1\n",
		/* CPU id beyond a cpuset */
		"  CPU8192\nNET_RX: 1\nNET_TX: 1\n",
	};
	struct np_softirqs si;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		size_t len = strlen(bad[i]);
		char *p = exact_copy(bad[i], len);

		assert_int_equal(np_parse_softirqs(p, len, &si), -EINVAL);
		assert_empty(&si);
		free(p);
	}
	assert_int_equal(np_parse_softirqs(NULL, 0, &si), -EINVAL);
	assert_empty(&si);
}

static void test_long_line(void **state)
{
	struct np_softirqs si;
	size_t len = 1 << 20;
	char *p = malloc(len);

	(void)state;
	assert_non_null(p);
	/* A 1 MiB header of "CPU0 CPU0 ...": more columns than CPUs can exist. */
	for (size_t i = 0; i < len; i++)
		p[i] = "CPU0 "[i % 5];
	assert_int_equal(np_parse_softirqs(p, len, &si), -EINVAL);
	assert_empty(&si);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_capture),
		cmocka_unit_test(test_offline_columns),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_long_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
