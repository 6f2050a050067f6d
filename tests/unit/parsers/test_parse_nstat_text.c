// SPDX-License-Identifier: GPL-2.0-only
/* np_parse_nstat_text: iproute2 `nstat -zas` layout (sos nstat_-zas), malformed, truncated, huge. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>

#include "counters.h"
#include "fixture.h"
#include "parse.h"

static int parse_str(const char *s, struct np_counters *c)
{
	size_t len = strlen(s);
	char *p = exact_copy(s, len);
	int err = np_parse_nstat_text(p, len, c);

	free(p);
	return err;
}

/* Layout of `nstat -zas` (iproute2 misc/nstat.c): "#kernel", then name, value, rate. The
 * UdpMemErrors value is the one of issue #32's syslog receiver (1.95 M). */
static void test_layout(void **state)
{
	struct np_counters c = { 0 };

	(void)state;
	assert_int_equal(parse_str("#kernel\n"
				   "IpInReceives                    8741226            0.0\n"
				   "UdpInErrors                     1953207            0.0\n"
				   "UdpRcvbufErrors                 0                  0.0\n"
				   "UdpMemErrors                    1953207            0.0\n"
				   "TcpExtListenOverflows           12                 0.0\n", &c), 0);
	np_counters_sort(&c);
	assert_int_equal(np_counters_get(&c, "UdpMemErrors"), 1953207);
	assert_int_equal(np_counters_get(&c, "UdpRcvbufErrors"), 0);
	assert_int_equal(np_counters_get(&c, "TcpExtListenOverflows"), 12);
	np_counters_free(&c);
}

/* Without the rate column (nstat -a -s on old iproute2 prints it; accept both). */
static void test_two_columns(void **state)
{
	struct np_counters c = { 0 };

	(void)state;
	assert_int_equal(parse_str("UdpMemErrors 5", &c), 0);
	np_counters_sort(&c);
	assert_int_equal(np_counters_get(&c, "UdpMemErrors"), 5);
	np_counters_free(&c);
}

static void test_malformed(void **state)
{
	struct np_counters c = { 0 };

	(void)state;
	assert_int_equal(parse_str("", &c), -EINVAL);
	np_counters_free(&c);
	c = (struct np_counters){ 0 };
	assert_int_equal(parse_str("Tcp: RtoAlgorithm RtoMin\nTcp: 1 200\n", &c), -EINVAL);
	np_counters_free(&c);
	c = (struct np_counters){ 0 };
	/* Truncated mid-line: the good line is kept, the cut one flagged. */
	assert_int_equal(parse_str("UdpInErrors 7 0.0\nUdpMemErr", &c), -EBADMSG);
	np_counters_sort(&c);
	assert_int_equal(np_counters_get(&c, "UdpInErrors"), 7);
	np_counters_free(&c);
	c = (struct np_counters){ 0 };
	assert_int_equal(parse_str("UdpInErrors 7 0.0 junk\nX 99999999999999999999999 0.0\n", &c),
			 -EINVAL);
	np_counters_free(&c);
}

/* A huge file (100k lines) parses in linear time and keeps every line. */
static void test_huge(void **state)
{
	struct np_counters c = { 0 };
	size_t n = 100000, len = 0;
	char *buf = malloc(n * 32);

	(void)state;
	assert_non_null(buf);
	for (size_t i = 0; i < n; i++)
		len += (size_t)sprintf(buf + len, "C%zu %zu 0.0\n", i, i);
	assert_int_equal(np_parse_nstat_text(buf, len, &c), 0);
	assert_int_equal(c.n, n);
	np_counters_free(&c);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_two_columns),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_huge),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
