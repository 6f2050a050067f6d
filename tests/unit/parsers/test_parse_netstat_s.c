// SPDX-License-Identifier: GPL-2.0-only
/*
 * np_parse_netstat_s: net-tools `netstat -s` text on real outputs published elsewhere
 * (tests/fixtures/parsers/nettools_netstat_*.txt, sources in tests/fixtures/sos/README.md):
 *   nettools_netstat_s_insights_rhel7.txt   RedHatInsights/insights-core
 *       insights/tests/parsers/test_netstat.py NETSTAT_S (net-tools 2.0 snapshot wording:
 *       "segments send out", "segments retransmited", "active connections openings")
 *   nettools_netstat_su_sc4s_memerrors.txt  splunk/splunk-connect-for-syslog issue #2604
 *       (`netstat -anus` on Ubuntu 22.04: MemErrors 1945378, receive buffer errors 0; the
 *       paste's prompt and "[...]" lines kept)
 *   nettools_netstat_suna_solana_1.60.txt   solana-labs/solana issue #1091 (`netstat -suna`,
 *       net-tools 1.60: RcvbufErrors as "Name: value", IcmpMsg, empty UdpLite:)
 *   nettools_netstat_st_shh_listen.txt      freeformz/shh issue #41 (Tcp/TcpExt, blank lines,
 *       listen queue overflows, pruning)
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>

#include "counters.h"
#include "fixture.h"
#include "parse.h"

static int parse_file(const char *name, struct np_counters *c, unsigned *sections)
{
	size_t len;
	char *buf = load_fixture(name, &len), *p;
	int err;

	assert_non_null(buf);
	p = exact_copy(buf, len);
	free(buf);
	err = np_parse_netstat_s(p, len, c, sections);
	free(p);
	np_counters_sort(c);
	return err;
}

static int parse_str(const char *s, struct np_counters *c, unsigned *sections)
{
	size_t len = strlen(s);
	char *p = exact_copy(s, len);
	int err = np_parse_netstat_s(p, len, c, sections);

	free(p);
	np_counters_sort(c);
	return err;
}

/* Issue #32's syslog receiver: UDP lost to udp_mem, not to rmem. */
static void test_sc4s_memerrors(void **state)
{
	struct np_counters c = { 0 };
	unsigned sec;

	(void)state;
	assert_int_equal(parse_file("nettools_netstat_su_sc4s_memerrors.txt", &c, &sec), 0);
	assert_int_equal(sec, NP_NETSTAT_S_SNMP);
	assert_int_equal(np_counters_get(&c, "UdpMemErrors"), 1945378);
	assert_int_equal(np_counters_get(&c, "UdpRcvbufErrors"), 0);
	assert_int_equal(np_counters_get(&c, "UdpInErrors"), 1945378);
	assert_int_equal(np_counters_get(&c, "UdpNoPorts"), 287775);
	assert_int_equal(np_counters_get(&c, "UdpInDatagrams"), 6834146);
	assert_int_equal(np_counters_get(&c, "UdpOutDatagrams"), 1305);
	assert_int_equal(np_counters_get(&c, "UdpSndbufErrors"), 0);
	assert_int_equal(c.n, 7);	/* nothing from the prompt or "[...]" */
	np_counters_free(&c);
}

/* net-tools 1.60: no "receive buffer errors" sentence; the kernel's name instead. */
static void test_solana_160(void **state)
{
	struct np_counters c = { 0 };
	unsigned sec;

	(void)state;
	assert_int_equal(parse_file("nettools_netstat_suna_solana_1.60.txt", &c, &sec), 0);
	assert_int_equal(sec, NP_NETSTAT_S_SNMP | NP_NETSTAT_S_EXT);
	assert_int_equal(np_counters_get(&c, "UdpRcvbufErrors"), 4238702717ULL);
	assert_int_equal(np_counters_get(&c, "UdpInErrors"), 4238702717ULL);
	assert_int_equal(np_counters_get(&c, "UdpNoPorts"), 8315);
	assert_int_equal(np_counters_get(&c, "UdpIgnoredMulti"), 6);
	assert_int_equal(np_counters_get(&c, "IcmpMsgInType3"), 4486);
	assert_int_equal(np_counters_get(&c, "IpExtInNoECTPkts"), 8728358653ULL);
	assert_true(np_counters_get(&c, "UdpMemErrors") == NP_NA);	/* left out: zero */
	np_counters_free(&c);
}

/* The RHEL 7 wording, ICMP histograms ignored (they would be ambiguous), TcpExt both forms. */
static void test_insights_rhel7(void **state)
{
	struct np_counters c = { 0 };
	unsigned sec;

	(void)state;
	assert_int_equal(parse_file("nettools_netstat_s_insights_rhel7.txt", &c, &sec), 0);
	assert_int_equal(sec, NP_NETSTAT_S_SNMP | NP_NETSTAT_S_EXT);
	assert_int_equal(np_counters_get(&c, "IpInReceives"), 3405107);
	assert_int_equal(np_counters_get(&c, "IpOutDiscards"), 456);
	assert_int_equal(np_counters_get(&c, "IpFragOKs"), 4);
	assert_int_equal(np_counters_get(&c, "IcmpInErrors"), 0);
	assert_int_equal(np_counters_get(&c, "TcpActiveOpens"), 1648);
	assert_int_equal(np_counters_get(&c, "TcpOutSegs"), 2890303);
	assert_int_equal(np_counters_get(&c, "TcpRetransSegs"), 428);
	assert_int_equal(np_counters_get(&c, "TcpInErrs"), 0);
	assert_int_equal(np_counters_get(&c, "UdpNoPorts"), 107);
	assert_int_equal(np_counters_get(&c, "TcpExtTW"), 1239);
	assert_int_equal(np_counters_get(&c, "TcpExtDelayedACKLost"), 9);
	assert_int_equal(np_counters_get(&c, "TcpExtTCPPrequeued"), 999263);
	assert_int_equal(np_counters_get(&c, "TcpExtTCPHPHitsToUser"), 339500);
	assert_int_equal(np_counters_get(&c, "TcpExtTCPDeferAcceptDrop"), 537);
	assert_int_equal(np_counters_get(&c, "TcpExtIPReversePathFilter"), 1);
	assert_int_equal(np_counters_get(&c, "IpExtInNoRoutes"), 9);
	assert_true(np_counters_get(&c, "IcmpInDestUnreachs") == NP_NA);
	assert_true(np_counters_get(&c, "IcmpDestination") == NP_NA);
	np_counters_free(&c);
}

static void test_shh_listen(void **state)
{
	struct np_counters c = { 0 };
	unsigned sec;

	(void)state;
	assert_int_equal(parse_file("nettools_netstat_st_shh_listen.txt", &c, &sec), 0);
	assert_int_equal(np_counters_get(&c, "TcpExtListenOverflows"), 5191585);
	assert_int_equal(np_counters_get(&c, "TcpExtListenDrops"), 5191585);
	assert_int_equal(np_counters_get(&c, "TcpExtPruneCalled"), 2397);
	assert_true(np_counters_get(&c, "TcpExtRcvPruned") == NP_NA);
	assert_int_equal(np_counters_get(&c, "TcpExtPAWSEstab"), 296549);
	assert_int_equal(np_counters_get(&c, "TcpExtTCPAbortOnData"), 599402);
	assert_int_equal(np_counters_get(&c, "TcpInErrs"), 15511);
	np_counters_free(&c);
}

/* Every wording change net-tools made, old and new, names the same counter. */
static void test_wordings(void **state)
{
	struct np_counters c = { 0 };
	unsigned sec;

	(void)state;
	assert_int_equal(parse_str("Tcp:\n    5 segments retransmitted\n    6 segments sent out\n"
				   "Ip:\n    7 packet reassembles failed\n"
				   "    8 outgoing packets failed fragmentation\n"
				   "TcpExt:\n    9 SYNs to LISTEN sockets ignored\n"
				   "    10 packets pruned from receive queue\n"
				   "    TCP ran low on memory 11 times\n"
				   "    12 packets collapsed in receive queue due to low socket buffer\n"
				   "Udp6:\n    13 receive buffer errors\n    Udp6MemErrors: 14\n"
				   "Ip6:\n    15 incoming packets discarded\n", &c, &sec), 0);
	assert_int_equal(np_counters_get(&c, "TcpRetransSegs"), 5);
	assert_int_equal(np_counters_get(&c, "TcpOutSegs"), 6);
	assert_int_equal(np_counters_get(&c, "IpReasmFails"), 7);
	assert_int_equal(np_counters_get(&c, "IpFragFails"), 8);
	assert_int_equal(np_counters_get(&c, "TcpExtListenDrops"), 9);
	assert_int_equal(np_counters_get(&c, "TcpExtRcvPruned"), 10);
	assert_int_equal(np_counters_get(&c, "TcpExtTCPMemoryPressures"), 11);
	assert_int_equal(np_counters_get(&c, "TcpExtTCPRcvCollapsed"), 12);
	assert_int_equal(np_counters_get(&c, "Udp6RcvbufErrors"), 13);
	assert_int_equal(np_counters_get(&c, "Udp6MemErrors"), 14);
	assert_int_equal(np_counters_get(&c, "Ip6InDiscards"), 15);
	np_counters_free(&c);
}

/* What must not be read: a sentence out of its section, a sentence with a word changed,
 * negative values (old %d printers), histograms, lines before any section, a value too big. */
static void test_never_misread(void **state)
{
	struct np_counters c = { 0 };
	unsigned sec;

	(void)state;
	assert_int_equal(parse_str("3 packet receive errors\n"
				   "Tcp:\n    4 packet receive errors\n"
				   "    5 segments retransmitted twice\n"
				   "    -6 segments retransmitted\n"
				   "    redirects: 7\n"
				   "    Forwarding is enabled\n"
				   "    MemErrors: 99999999999999999999999\n"
				   "    MemErrors: 8 9\n"
				   "Udp:\n", &c, &sec), -EINVAL);
	assert_int_equal(c.n, 0);
	np_counters_free(&c);
	c = (struct np_counters){ 0 };
	assert_int_equal(parse_str("", &c, &sec), -EINVAL);
	assert_int_equal(sec, 0);
	np_counters_free(&c);
	c = (struct np_counters){ 0 };
	/* Truncated mid-line: the cut sentence is not a sentence of the table. */
	assert_int_equal(parse_str("Udp:\n    12 packet receive errors\n    5 receive buf", &c,
				   &sec), 0);
	assert_int_equal(c.n, 1);
	assert_int_equal(np_counters_get(&c, "UdpInErrors"), 12);
	np_counters_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sc4s_memerrors),
		cmocka_unit_test(test_solana_160),
		cmocka_unit_test(test_insights_rhel7),
		cmocka_unit_test(test_shh_listen),
		cmocka_unit_test(test_wordings),
		cmocka_unit_test(test_never_misread),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
