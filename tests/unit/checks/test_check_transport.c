// SPDX-License-Identifier: GPL-2.0-only
/* Checks of stage "transport" on synthetic snapshots. */
#include "mib_cases.h"

static void test_udp_no_ports(void **state)
{
	(void)state;
	/* Not a loss: info at most, only while it moves. */
	assert_info_counter("transport.udp-no-ports", "UdpNoPorts");
	assert_info_counter("transport.udp-no-ports", "Udp6NoPorts");
}

static void test_checksum(void **state)
{
	(void)state;
	assert_drop_counter("transport.checksum", "TcpInCsumErrors");
	assert_drop_counter("transport.checksum", "UdpInCsumErrors");
}

static void test_backlog_drop(void **state)
{
	struct synth_run run;

	(void)state;
	assert_drop_counter("transport.tcp-backlog-drop", "TcpExtTCPBacklogDrop");

	/* tcp_rmem comes with the evidence when known. */
	np_snapshot_free(&mc_prev);
	np_snapshot_free(&mc_cur);
	synth_init(&mc_prev, 0);
	synth_init(&mc_cur, 1);
	synth_mib(&mc_prev, "TcpExtTCPBacklogDrop", 0);
	synth_mib(&mc_cur, "TcpExtTCPBacklogDrop", 10);
	synth_sysctl(&mc_cur, "net.ipv4.tcp_rmem", "4096 131072 6291456");
	synth_run(&run, "transport.tcp-backlog-drop", &mc_prev, &mc_cur, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	assert_true(synth_has_ev(synth_first(&run), "tcp_rmem[2]"));
	synth_run_free(&run);
}

static void test_prune(void **state)
{
	struct synth_run run;

	(void)state;
	/* Actual drops: the usual drop-counter verdict. */
	assert_drop_counter("transport.tcp-prune", "TcpExtTCPRcvQDrop");
	assert_drop_counter("transport.tcp-prune", "TcpExtTCPOFODrop");

	/* Collapsing without loss: info while it happens, quiet as history. */
	assert_int_equal(mib_case(&run, "transport.tcp-prune", "TcpExtTCPRcvCollapsed", 0, 5000,
				  true), NP_SEV_INFO);
	assert_non_null(strstr(synth_first(&run)->summary, "no data dropped"));
	synth_run_free(&run);
	assert_int_equal(mib_case(&run, "transport.tcp-prune", "TcpExtPruneCalled", 9, 9, true),
			 NP_SEV_OK);
	synth_run_free(&run);
	assert_int_equal(mib_case(&run, "transport.tcp-prune", "TcpExtPruneCalled", 0, 900, false),
			 NP_SEV_OK);
	synth_run_free(&run);
	assert_skipped_without_mib("transport.tcp-prune");
}

static void test_zero_window(void **state)
{
	(void)state;
	assert_drop_counter("transport.tcp-zero-window", "TcpExtTCPZeroWindowDrop");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_udp_no_ports),
		cmocka_unit_test(test_checksum),
		cmocka_unit_test(test_backlog_drop),
		cmocka_unit_test(test_prune),
		cmocka_unit_test(test_zero_window),
	};

	return cmocka_run_group_tests(tests, NULL, mib_cases_teardown);
}
