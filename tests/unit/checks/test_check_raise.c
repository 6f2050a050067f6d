// SPDX-License-Identifier: GPL-2.0-only
/*
 * Remedies that raise a value know the box (issue #32): a fix never proposes a value at or
 * below the one in force (a box already at rmem_max 2 GiB was told to set 8 MiB), and where
 * the value in force is not in the evidence the line says so ("not in this capture: raise to
 * at least N if lower"). Over the checks that propose sysctls: socket.udp-rcvbuf,
 * softnet.backlog-drops, softnet.time-squeeze, and the rule itself (raise.h).
 */
#include "softnet_fixture.h"
#include "raise.h"

static void udp_drops(struct np_snapshot *p, struct np_snapshot *c)
{
	synth_init(p, 0);
	synth_init(c, 1);
	synth_mib(p, "UdpRcvbufErrors", 12);
	synth_mib(c, "UdpRcvbufErrors", 50012);
	synth_mib(p, "UdpInErrors", 12);
	synth_mib(c, "UdpInErrors", 50012);
}

/* The rule: at or above is "already", unknown is unknown, only lower is raised. */
static void test_rule(void **state)
{
	(void)state;
	assert_int_equal(np_raise_cmp(true, 2147483647, 8388608), NP_RAISE_ALREADY);
	assert_int_equal(np_raise_cmp(true, 8388608, 8388608), NP_RAISE_ALREADY);
	assert_int_equal(np_raise_cmp(true, 212992, 8388608), NP_RAISE_UP);
	assert_int_equal(np_raise_cmp(false, 0, 8388608), NP_RAISE_UNKNOWN);
}

/* A box already at rmem_max 2 GiB - 1 and rmem_default 8 MiB: neither is proposed again (nor
 * doubled past what the kernel holds); the finding says they are already there. */
static void test_udp_box_already_large(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	udp_drops(&p, &c);
	synth_sysctl(&c, "net.core.rmem_max", "2147483647");
	synth_sysctl(&c, "net.core.rmem_default", "8388608");
	synth_run(&run, "socket.udp-rcvbuf", &p, &c, NAN, NAN);
	f = synth_first(&run);
	assert_null(strstr(f->remedy, "net.core.rmem_max="));
	assert_null(strstr(f->remedy, "net.core.rmem_default="));
	assert_non_null(strstr(f->detail, "net.core.rmem_max is already 2147483647"));
	assert_non_null(strstr(f->detail, "net.core.rmem_default is already 8388608"));
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

/* XTLS/Xray-core#6563 (and remnawave/node#43): hosts with rmem_max 64 MiB and rmem_default
 * 6 MiB whose Udp_RcvbufErrors grow. Before, the fix proposed rmem_default=4194304, a lowering;
 * now rmem_default is left alone (already above) and rmem_max doubles to 128 MiB. */
static void test_udp_xray_hosts(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	udp_drops(&p, &c);
	synth_sysctl(&c, "net.core.rmem_max", "67108864");
	synth_sysctl(&c, "net.core.rmem_default", "6291456");
	synth_run(&run, "socket.udp-rcvbuf", &p, &c, NAN, NAN);
	f = synth_first(&run);
	assert_null(strstr(f->remedy, "net.core.rmem_default="));
	assert_non_null(strstr(f->remedy, "sysctl -w net.core.rmem_max=134217728"));
	assert_non_null(strstr(f->detail, "net.core.rmem_default is already 6291456"));
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

/* A capture without the sysctls (a sosreport without sysctl -a): the proposal says that the
 * value in force is not known. */
static void test_udp_not_in_capture(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	udp_drops(&p, &c);
	p.captured = c.captured = true;
	synth_run(&run, "socket.udp-rcvbuf", &p, &c, NAN, NAN);
	f = synth_first(&run);
	assert_non_null(strstr(f->remedy, "sysctl -w net.core.rmem_max=8388608   # "
				"net.core.rmem_max is not in this capture: raise to at least "
				"8388608 if lower"));
	assert_non_null(strstr(f->remedy, "net.core.rmem_default is not in this capture"));
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

/* Backlog drops with netdev_max_backlog not in the capture: 4096 "if lower", not a bare 4096
 * (the box may run 100000). */
static void test_backlog_not_in_capture(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	pair(&p, &c, 2, 4);
	p.captured = c.captured = true;
	p.hs->softnet.rows[2].dropped = 1000;
	c.hs->softnet.rows[2].dropped = 1400;
	synth_run(&run, "softnet.backlog-drops", &p, &c, NAN, NAN);
	f = synth_first(&run);
	assert_non_null(strstr(f->remedy, "net.core.netdev_max_backlog is not in this capture: "
				"raise to at least 4096 if lower"));
	synth_run_free(&run);
	free_pair(&p, &c);
}

/* Time squeeze with netdev_budget unknown (300 assumed): the proposal of 600 says so. */
static void test_budget_not_in_capture(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	pair(&p, &c, 1, 2);
	p.captured = c.captured = true;
	c.hs->softnet.rows[0].time_squeeze = 200;
	c.hs->softnet.rows[0].processed = 30000;
	synth_run(&run, "softnet.time-squeeze", &p, &c, NAN, NAN);
	f = synth_first(&run);
	assert_non_null(strstr(f->remedy, "net.core.netdev_budget is not in this capture: raise "
				"to at least 600 if lower"));
	synth_run_free(&run);
	free_pair(&p, &c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rule),
		cmocka_unit_test(test_udp_box_already_large),
		cmocka_unit_test(test_udp_xray_hosts),
		cmocka_unit_test(test_udp_not_in_capture),
		cmocka_unit_test(test_backlog_not_in_capture),
		cmocka_unit_test(test_budget_not_in_capture),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
