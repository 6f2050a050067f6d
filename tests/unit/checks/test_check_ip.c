// SPDX-License-Identifier: GPL-2.0-only
/* Checks of stage "ip" on synthetic snapshots. */
#include "mib_cases.h"

static void test_rp_filter(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	assert_drop_counter("ip.rp-filter", "TcpExtIPReversePathFilter");

	synth_init(&p, 0);
	synth_init(&c, 2);
	synth_mib(&p, "TcpExtIPReversePathFilter", 10);
	synth_mib(&c, "TcpExtIPReversePathFilter", 50);
	synth_sysctl(&c, "net.ipv4.conf.all.rp_filter", "1");
	synth_sysctl(&c, "net.ipv4.conf.eth0.rp_filter", "0");
	synth_run(&run, "ip.rp-filter", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	f = synth_first(&run);
	assert_true(synth_has_ev(f, "effective rp_filter"));
	/* max(all=1, eth0=0) = 1: strict. */
	assert_non_null(strstr(f->summary, "rp_filter=1 (strict)"));
	assert_non_null(strstr(f->remedy, "net.ipv4.conf.eth0.rp_filter=2"));
	assert_non_null(strstr(f->remedy, "Cost:"));
	synth_run_free(&run);

	/* Loose on the interface wins over strict in all. */
	synth_sysctl(&c, "net.ipv4.conf.eth0.rp_filter", "2");
	synth_run(&run, "ip.rp-filter", &p, &c, NAN, NAN);
	assert_non_null(strstr(synth_first(&run)->summary, "rp_filter=2 (loose)"));
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

static void test_no_route(void **state)
{
	(void)state;
	assert_drop_counter("ip.no-route", "IpExtInNoRoutes");
}

static void test_header_errors(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;

	(void)state;
	assert_drop_counter("ip.header-errors", "IpInHdrErrors");
	assert_drop_counter("ip.header-errors", "IpExtInCsumErrors");

	/* The damage counters add up: 60 + 50 per second crosses 100/s. */
	synth_init(&p, 0);
	synth_init(&c, 1);
	synth_mib(&p, "IpInHdrErrors", 0);
	synth_mib(&c, "IpInHdrErrors", 60);
	synth_mib(&p, "IpExtInTruncatedPkts", 0);
	synth_mib(&c, "IpExtInTruncatedPkts", 50);
	synth_run(&run, "ip.header-errors", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
	assert_true(synth_has_ev(synth_first(&run), "IpExtInTruncatedPkts"));
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

static void test_addr_errors(void **state)
{
	(void)state;
	/* Informational only, even at a high rate; quiet on history. */
	assert_info_counter("ip.addr-errors", "IpInAddrErrors");
	assert_info_counter("ip.addr-errors", "IpInUnknownProtos");
}

static void test_in_discards(void **state)
{
	(void)state;
	assert_drop_counter("ip.in-discards", "IpInDiscards");
	assert_drop_counter("ip.in-discards", "Ip6InDiscards");
}

static void test_reassembly(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	assert_drop_counter("ip.reassembly", "IpReasmFails");

	synth_init(&p, 0);
	synth_init(&c, 1);
	synth_mib(&p, "IpReasmFails", 0);
	synth_mib(&c, "IpReasmFails", 20);
	synth_mib(&p, "IpReasmTimeout", 0);
	synth_mib(&c, "IpReasmTimeout", 20);
	synth_sysctl(&c, "net.ipv4.ipfrag_high_thresh", "4194304");
	synth_run(&run, "ip.reassembly", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	f = synth_first(&run);
	assert_true(synth_has_ev(f, "IpReasmTimeout"));
	assert_true(synth_has_ev(f, "ipfrag_high_thresh"));
	assert_non_null(strstr(f->remedy, "ipfrag_high_thresh=8388608"));
	assert_non_null(strstr(f->remedy, "MTU"));
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rp_filter),
		cmocka_unit_test(test_no_route),
		cmocka_unit_test(test_header_errors),
		cmocka_unit_test(test_addr_errors),
		cmocka_unit_test(test_in_discards),
		cmocka_unit_test(test_reassembly),
	};

	return cmocka_run_group_tests(tests, NULL, mib_cases_teardown);
}
