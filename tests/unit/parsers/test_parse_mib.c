// SPDX-License-Identifier: GPL-2.0-only
/* np_parse_mib: snmp/netstat pairs, snmp6 lines, one shared table, and broken pairs. */
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
	err = np_parse_mib(p, len, c);
	free(p);
	free(buf);
	return err;
}

static int parse_str(const char *s, struct np_counters *c)
{
	size_t len = strlen(s);
	char *p = exact_copy(s, len);
	int err = np_parse_mib(p, len, c);

	free(p);
	return err;
}

static uint64_t get(const struct np_counters *c, const char *name)
{
	return np_counters_get(c, name);
}

/* snmp + netstat + snmp6 into one table, as the collector does. */
static void test_real_captures(void **state)
{
	struct np_counters c = { 0 };

	(void)state;
	assert_int_equal(parse_fixture("snmp.real.txt", &c), 0);
	assert_int_equal(c.n, 83);
	assert_true(c.sorted);
	assert_int_equal(get(&c, "IpForwarding"), 2);
	assert_int_equal(get(&c, "IpDefaultTTL"), 64);
	assert_int_equal(get(&c, "IpInReceives"), 904);
	assert_int_equal(get(&c, "TcpRtoMin"), 200);
	assert_int_equal(get(&c, "TcpInSegs"), 877);
	assert_int_equal(get(&c, "IcmpMsgInType3"), 1);
	assert_int_equal(get(&c, "UdpRcvbufErrors"), 0);
	/* MaxConn -1 means "no limit", not a count. */
	assert_true(get(&c, "TcpMaxConn") == NP_NA);

	assert_int_equal(parse_fixture("netstat.real.txt", &c), 0);
	assert_int_equal(c.n, 83 + 229);
	assert_int_equal(get(&c, "TcpExtListenOverflows"), 0);
	assert_int_equal(get(&c, "TcpExtTCPHPHits"), 8);
	assert_int_equal(get(&c, "IpExtInOctets"), 42335351);
	/* The first file's counters are still there and still found. */
	assert_int_equal(get(&c, "TcpInSegs"), 877);

	assert_int_equal(parse_fixture("snmp6.real.txt", &c), 0);
	assert_int_equal(c.n, 83 + 229 + 90);
	assert_int_equal(get(&c, "Ip6InReceives"), 1);
	assert_int_equal(get(&c, "UdpLite6MemErrors"), 0);
	assert_true(get(&c, "NoSuchCounter") == NP_NA);
	/* Sorted: every lookup is a bsearch, so order must be strict. */
	for (size_t i = 1; i < c.n; i++)
		assert_true(strcmp(c.e[i - 1].name, c.e[i].name) < 0);
	np_counters_free(&c);
}

/* The same three files left in their order and indexed (doctor's table) hold the same entries
 * as the sorted table, in the files' order, and every lookup answers alike. */
static void test_unsorted_indexed(void **state)
{
	static const char *const files[] = { "snmp.real.txt", "netstat.real.txt",
					     "snmp6.real.txt" };
	struct np_counters sorted = { 0 }, indexed = { 0 };

	(void)state;
	for (size_t f = 0; f < 3; f++) {
		size_t len;
		char *buf = load_fixture(files[f], &len);

		assert_non_null(buf);
		assert_int_equal(np_parse_mib(buf, len, &sorted), 0);
		assert_int_equal(np_parse_mib_unsorted(buf, len, &indexed), 0);
		free(buf);
	}
	np_counters_index(&indexed);
	assert_false(indexed.sorted);
	assert_int_equal(indexed.n, sorted.n);
	/* The files' order: snmp's first header line is Ip's. */
	assert_string_equal(indexed.e[0].name, "IpForwarding");
	for (size_t i = 0; i < sorted.n; i++)
		assert_int_equal(get(&indexed, sorted.e[i].name), sorted.e[i].value);
	assert_true(get(&indexed, "NoSuchCounter") == NP_NA);
	/* Parsed in place: a file with nothing, or a broken pair, leaves no trace. */
	{
		static const char none[] = "no counters here\n", broken[] = "Tcp: A B\nTcp: 1 x\n";
		size_t n = indexed.n;

		assert_int_equal(np_parse_mib_unsorted(none, sizeof(none) - 1, &indexed), -EINVAL);
		assert_int_equal(np_parse_mib_unsorted(broken, sizeof(broken) - 1, &indexed),
				 -EINVAL);
		assert_int_equal(indexed.n, n);
		assert_int_equal(get(&indexed, "TcpInSegs"), 877);
	}
	np_counters_free(&indexed);
	np_counters_free(&sorted);
}

static void test_no_trailing_newline(void **state)
{
	struct np_counters c = { 0 };

	(void)state;
	assert_int_equal(parse_str("Udp: InDatagrams RcvbufErrors\n"
				   "Udp: 5 18446744073709551614", &c), 0);
	assert_int_equal(get(&c, "UdpInDatagrams"), 5);
	assert_true(get(&c, "UdpRcvbufErrors") == UINT64_MAX - 1);
	np_counters_free(&c);
}

/* Decision: a bad pair is dropped alone and reported as -EBADMSG; good pairs are kept. */
static void test_mismatched_pair(void **state)
{
	struct np_counters c = { 0 };

	(void)state;
	assert_int_equal(parse_str("Ip: Forwarding DefaultTTL\nIp: 1 64\n"
				   "Tcp: RtoAlgorithm RtoMin RtoMax\nTcp: 1 200\n"
				   "Udp: InDatagrams\nUdp: 7\n", &c), -EBADMSG);
	assert_int_equal(c.n, 3);
	assert_int_equal(get(&c, "IpDefaultTTL"), 64);
	assert_int_equal(get(&c, "UdpInDatagrams"), 7);
	assert_true(get(&c, "TcpRtoAlgorithm") == NP_NA);
	assert_true(get(&c, "TcpRtoMin") == NP_NA);
	np_counters_free(&c);
}

static void test_broken_pairs(void **state)
{
	struct np_counters c = { 0 };

	(void)state;
	/* Value line missing: the next header still pairs with its own values. */
	assert_int_equal(parse_str("Ip: A B\nTcp: C\nTcp: 3\n", &c), -EBADMSG);
	assert_int_equal(c.n, 1);
	assert_int_equal(get(&c, "TcpC"), 3);
	np_counters_free(&c);
	/* Value line first (a file cut at the start): resync on the next header. */
	assert_int_equal(parse_str("Ip: 1 2\nTcp: C\nTcp: 3\n", &c), -EBADMSG);
	assert_int_equal(get(&c, "TcpC"), 3);
	assert_int_equal(c.n, 1);
	np_counters_free(&c);
	/* Non-numeric value: the whole pair is dropped. */
	assert_int_equal(parse_str("Ip: A B\nIp: 1 x\nTcp: C\nTcp: 3\n", &c), -EBADMSG);
	assert_int_equal(c.n, 1);
	np_counters_free(&c);
	/* Header at EOF. */
	assert_int_equal(parse_str("Tcp: C\nTcp: 3\nUdp: D", &c), -EBADMSG);
	assert_int_equal(c.n, 1);
	np_counters_free(&c);
	/* Overflowing value. */
	assert_int_equal(parse_str("Tcp: C\nTcp: 3\nUdp: D\nUdp: 18446744073709551616\n", &c),
			 -EBADMSG);
	assert_int_equal(c.n, 1);
	np_counters_free(&c);
}

static void test_snmp6_lines(void **state)
{
	struct np_counters c = { 0 };

	(void)state;
	assert_int_equal(parse_str("Ip6InReceives  \t 12\nIcmp6InMsgs 3\n", &c), 0);
	assert_int_equal(get(&c, "Ip6InReceives"), 12);
	assert_int_equal(get(&c, "Icmp6InMsgs"), 3);
	np_counters_free(&c);
	/* A three-token line or a non-number is not an snmp6 line. */
	assert_int_equal(parse_str("Ip6InReceives 12\nIp6Foo 1 2\nIp6Bar x\n", &c), -EBADMSG);
	assert_int_equal(c.n, 1);
	np_counters_free(&c);
}

static void test_malformed(void **state)
{
	static const char *const bad[] = {
		"", "\n\n", "garbage\n", "hello world\n", "Tcp:\nTcp:\n", "Tcp: A B\nTcp: 1\n",
		"12 34\n", ": :\n",
	};
	struct np_counters c = { 0 };

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse_str(bad[i], &c), -EINVAL);
		assert_int_equal(c.n, 0);
		assert_null(c.e);
	}
	assert_int_equal(np_parse_mib(NULL, 0, &c), -EINVAL);
}

/* A failed parse leaves a table that already holds counters unchanged. */
static void test_failure_keeps_existing(void **state)
{
	struct np_counters c = { 0 };

	(void)state;
	assert_int_equal(parse_str("Tcp: A\nTcp: 1\n", &c), 0);
	assert_int_equal(parse_str("garbage\n", &c), -EINVAL);
	assert_int_equal(c.n, 1);
	assert_int_equal(get(&c, "TcpA"), 1);
	np_counters_free(&c);
}

static void test_long_names_and_lines(void **state)
{
	struct np_counters c = { 0 };
	static char p[100000 + 64];
	size_t len = 0;

	(void)state;
	/* A 100 KB field name is truncated to the table's name size. */
	memcpy(p, "Tcp: ", 5);
	len += 5;
	memset(p + len, 'N', 100000);
	len += 100000;
	memcpy(p + len, "\nTcp: 1\n", 8);
	len += 8;
	assert_int_equal(np_parse_mib(p, len, &c), 0);
	assert_int_equal(c.n, 1);
	assert_int_equal(strlen(c.e[0].name), NP_COUNTER_NAME_MAX - 1);
	assert_memory_equal(c.e[0].name, "TcpNNN", 6);
	np_counters_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_captures),
		cmocka_unit_test(test_unsorted_indexed),
		cmocka_unit_test(test_no_trailing_newline),
		cmocka_unit_test(test_mismatched_pair),
		cmocka_unit_test(test_broken_pairs),
		cmocka_unit_test(test_snmp6_lines),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_failure_keeps_existing),
		cmocka_unit_test(test_long_names_and_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
