// SPDX-License-Identifier: GPL-2.0-only
/*
 * NIC-side checks of stage "nic" on synthetic snapshots: port discards, cloud allowances
 * (ENA), drops concentrated on some queues, pause frames and XDP drops. Counter names are ones
 * whose classification is unambiguous in the driver table.
 */
#include "synth.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nic_driver_fixture.h"

static void test_port_discards(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	pair(&p, &c, "mlx5_core");
	drv(&p, "rx_discards_phy", 1000);
	drv(&c, "rx_discards_phy", 1400);	/* 200/s */
	c.eth.pause = (struct np_pause){ 1, 1, 0, NP_NA, NP_NA };
	synth_run(&run, "nic.port-discards", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
	f = synth_first(&run);
	assert_true(synth_has_ev(f, "rx_discards_phy"));
	assert_true(synth_has_ev(f, "pause"));
	assert_non_null(strstr(f->detail, "flow control is off"));
	assert_non_null(strstr(f->remedy, "Cost:"));
	synth_run_free(&run);

	/* Quiet when the counter stays at zero. */
	drv(&p, "rx_discards_phy", 0);
	drv(&c, "rx_discards_phy", 0);
	synth_run(&run, "nic.port-discards", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	assert_int_equal(synth_state(&run), NP_CHECK_PASSED);
	synth_run_free(&run);

	/* Since boot only: info. */
	drv(&c, "rx_discards_phy", 5000000);
	synth_run(&run, "nic.port-discards", NULL, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);
	free2(&p, &c);
}

static void test_port_discards_skipped(void **state)
{
	struct np_snapshot c;
	struct synth_run run;

	(void)state;
	synth_init(&c, 0);
	snprintf(c.eth.driver, sizeof(c.eth.driver), "mlx5_core");
	drv(&c, "rx_packets", 100);		/* nothing that witnesses port discards */
	synth_run(&run, "nic.port-discards", NULL, &c, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	assert_non_null(strstr(skip_reason(&run), "mlx5_core"));
	synth_run_free(&run);

	unsupported(&c, NP_SRC_DRIVER_STATS, "driver has no private statistics");
	synth_run(&run, "nic.port-discards", NULL, &c, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	assert_string_equal(skip_reason(&run), "driver has no private statistics");
	synth_run_free(&run);
	np_snapshot_free(&c);
}

static void test_cloud_allowance(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	pair(&p, &c, "ena");
	np_srcp(&p, NP_SRC_QSTATS)->status = np_srcp(&c, NP_SRC_QSTATS)->status = NP_SRC_UNSUPPORTED;
	drv(&p, "bw_in_allowance_exceeded", 0);
	drv(&c, "bw_in_allowance_exceeded", 60);	/* 30/s */
	drv(&p, "pps_allowance_exceeded", 10);
	drv(&c, "pps_allowance_exceeded", 50);		/* 20/s */
	synth_run(&run, "nic.cloud-allowance", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	f = synth_first(&run);
	assert_non_null(strstr(f->summary, "50 packets/s"));
	assert_non_null(strstr(f->summary, "bw_in_allowance_exceeded"));
	assert_true(synth_has_ev(f, "bw_in_allowance_exceeded"));
	assert_true(synth_has_ev(f, "pps_allowance_exceeded"));
	assert_non_null(strstr(f->remedy, "ENA Express"));
	synth_run_free(&run);

	drv(&c, "bw_in_allowance_exceeded", 0);
	drv(&c, "pps_allowance_exceeded", 10);
	synth_run(&run, "nic.cloud-allowance", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);	/* history only */
	synth_run_free(&run);

	drv(&c, "pps_allowance_exceeded", 90000);
	synth_run(&run, "nic.cloud-allowance", NULL, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);	/* since boot: never more */
	synth_run_free(&run);
	free2(&p, &c);
}

static void test_cloud_allowance_not_ena(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;

	(void)state;
	pair(&p, &c, "mlx5_core");
	unsupported(&c, NP_SRC_QSTATS, "no qstats");
	drv(&c, "rx_packets", 1);
	synth_run(&run, "nic.cloud-allowance", NULL, &c, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);

	/* A device rate limit through qstats fires even without ENA counters. */
	np_srcp(&c, NP_SRC_QSTATS)->status = NP_SRC_OK;
	qstats(&p, 1);
	qstats(&c, 1);
	p.eth.qstats[0].rx_hw_drop_ratelimits = 0;
	c.eth.qstats[0].rx_hw_drop_ratelimits = 400;	/* 200/s */
	synth_run(&run, "nic.cloud-allowance", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
	assert_true(synth_has_ev(synth_first(&run), "qstats_rx_hw_drop_ratelimits"));
	synth_run_free(&run);
	free2(&p, &c);
}

static void test_queue_drops_concentrated(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	pair(&p, &c, "ice");
	unsupported(&p, NP_SRC_DRIVER_STATS, "x");
	unsupported(&c, NP_SRC_DRIVER_STATS, "x");
	qstats(&p, 4);
	qstats(&c, 4);
	for (int i = 0; i < 4; i++) {
		p.eth.qstats[i].rx_hw_drops = 0;
		c.eth.qstats[i].rx_hw_drops = 6;
	}
	c.eth.qstats[3].rx_hw_drops = 300;	/* 300 of 318 on queue 3; 159/s in all */
	synth_run(&run, "nic.queue-drops", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
	f = synth_first(&run);
	assert_non_null(strstr(f->summary, "on queue 3 of 4"));
	assert_true(synth_has_ev(f, "top_queue_share"));
	assert_non_null(strstr(f->remedy, "ethtool -x eth0"));
	assert_non_null(strstr(f->detail, "elephant"));
	/* Traffic the NIC cannot hash apart (one flow, PPPoE, GRE): RPS, with its cost, as
	 * irq.cpu-rate proposes it. */
	assert_non_null(strstr(f->remedy, "/sys/class/net/eth0/queues/rx-*"));
	assert_non_null(strstr(f->remedy, "rps_cpus"));
	assert_non_null(strstr(f->remedy, "PPPoE"));
	assert_non_null(strstr(f->remedy, "inter-CPU interrupt"));
	synth_run_free(&run);

	/* rps_cpus already set on a queue: not proposed again, said instead. */
	c.dev.n_rxq = 1;
	c.dev.rxq = calloc(1, sizeof(*c.dev.rxq));
	assert_non_null(c.dev.rxq);
	c.dev.rxq[0].has_rps = true;
	np_cpuset_set(&c.dev.rxq[0].rps_cpus, 1);
	synth_run(&run, "nic.queue-drops", &p, &c, NAN, NAN);
	f = synth_first(&run);
	assert_null(strstr(f->remedy, "> $q/rps_cpus"));
	assert_non_null(strstr(f->detail, "RPS is already set"));
	synth_run_free(&run);

	/* Spread evenly: still drops, but no hashing story. */
	c.eth.qstats[3].rx_hw_drops = 6;	/* 24 in 2 s = 12/s */
	synth_run(&run, "nic.queue-drops", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	f = synth_first(&run);
	assert_null(strstr(f->summary, "on queue"));
	assert_non_null(strstr(f->detail, "spread"));
	synth_run_free(&run);

	/* Since boot only, concentrated: named, but info. */
	c.eth.qstats[3].rx_hw_drops = 900000;
	synth_run(&run, "nic.queue-drops", NULL, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	assert_non_null(strstr(synth_first(&run)->summary, "on queue 3"));
	synth_run_free(&run);

	/* One queue only: concentration means nothing. */
	qstats(&c, 1);
	qstats(&p, 1);
	p.eth.qstats[0].rx_hw_drops = 0;
	c.eth.qstats[0].rx_hw_drops = 100;
	synth_run(&run, "nic.queue-drops", &p, &c, NAN, NAN);
	assert_null(strstr(synth_first(&run)->summary, "on queue"));
	synth_run_free(&run);

	p.eth.qstats[0].rx_hw_drops = c.eth.qstats[0].rx_hw_drops = 0;
	synth_run(&run, "nic.queue-drops", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);

	unsupported(&c, NP_SRC_QSTATS, "x");
	synth_run(&run, "nic.queue-drops", &p, &c, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	free2(&p, &c);
}

static void test_queue_drops_driver(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	pair(&p, &c, "virtio_net");
	unsupported(&c, NP_SRC_QSTATS, "x");
	drv(&p, "rx0_drops", 0);
	drv(&p, "rx1_drops", 0);
	drv(&c, "rx0_drops", 2);
	drv(&c, "rx1_drops", 38);	/* 95% on queue 1; 20/s */
	synth_run(&run, "nic.queue-drops", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	f = synth_first(&run);
	assert_non_null(strstr(f->summary, "on queue 1 of 2"));
	assert_true(synth_has_ev(f, "rx1_drops"));
	synth_run_free(&run);

	/* virtio keeps rx_drops = sum of rxN_drops, but rxN_hw_drops has no device total:
	 * 40 driver drops + 360 device drops in 2 s = 200/s, not 20/s and not 220/s. */
	drv(&p, "rx_drops", 0);
	drv(&c, "rx_drops", 40);
	drv(&p, "rx0_hw_drops", 0);
	drv(&c, "rx0_hw_drops", 360);
	synth_run(&run, "nic.queue-drops", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
	f = synth_first(&run);
	assert_non_null(strstr(f->summary, "200 packets/s"));
	assert_non_null(strstr(f->summary, "on queue 0 of 2"));
	synth_run_free(&run);

	/* Only the device total moved (same events): counted once. */
	drv(&c, "rx0_hw_drops", 0);
	drv(&c, "rx_drops", 40);
	synth_run(&run, "nic.queue-drops", &p, &c, NAN, NAN);
	assert_non_null(strstr(synth_first(&run)->summary, "20 packets/s"));
	synth_run_free(&run);
	free2(&p, &c);
}

static void test_pause_frames(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	pair(&p, &c, "ixgbe");
	p.eth.pause = (struct np_pause){ 1, 1, 1, 0, 0 };
	c.eth.pause = (struct np_pause){ 1, 1, 1, 100, 0 };	/* we sent 50/s */
	synth_run(&run, "nic.pause-frames", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	assert_int_equal(run.r.n, 1);
	f = synth_first(&run);
	assert_true(synth_has_ev(f, "pause_tx_frames"));
	assert_non_null(strstr(f->summary, "sends pause frames"));
	assert_non_null(strstr(f->detail, "upstream"));
	synth_run_free(&run);

	c.eth.pause.tx_frames = 4000;		/* 2000/s: critical */
	synth_run(&run, "nic.pause-frames", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
	synth_run_free(&run);

	/* Received pauses: the peer's problem; warning at most even at a high rate. */
	c.eth.pause.tx_frames = 0;
	c.eth.pause.rx_frames = 100000;
	synth_run(&run, "nic.pause-frames", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	assert_non_null(strstr(synth_first(&run)->summary, "receives pause frames"));
	synth_run_free(&run);

	/* Since boot only: info, however large. */
	c.eth.pause.tx_frames = 10000000;
	synth_run(&run, "nic.pause-frames", NULL, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);

	c.eth.pause.tx_frames = c.eth.pause.rx_frames = 0;
	synth_run(&run, "nic.pause-frames", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	assert_int_equal(synth_state(&run), NP_CHECK_PASSED);
	synth_run_free(&run);
	free2(&p, &c);
}

static void test_pause_frames_driver_and_skip(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;

	(void)state;
	pair(&p, &c, "mlx5_core");
	/* No ETHTOOL_FLAG_STATS counts (pre-5.10): the driver's own counter stands in. */
	drv(&p, "tx_pause_ctrl_phy", 0);
	drv(&c, "tx_pause_ctrl_phy", 40);	/* 20/s */
	synth_run(&run, "nic.pause-frames", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	assert_true(synth_has_ev(synth_first(&run), "tx_pause_ctrl_phy"));
	synth_run_free(&run);

	np_counters_free(&c.eth.drv_stats);
	drv(&c, "rx_packets", 1);
	synth_run(&run, "nic.pause-frames", &p, &c, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);

	unsupported(&c, NP_SRC_ETHTOOL_PAUSE, "driver does not report pause");
	unsupported(&c, NP_SRC_DRIVER_STATS, "x");
	synth_run(&run, "nic.pause-frames", &p, &c, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	assert_string_equal(skip_reason(&run), "driver does not report pause");
	synth_run_free(&run);
	free2(&p, &c);
}

static void test_xdp_drops(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	pair(&p, &c, "mlx5_core");
	c.rtnl.xdp_attached = 1;
	c.rtnl.xdp_prog_id = 42;
	drv(&p, "rx_xdp_drop", 0);
	drv(&c, "rx_xdp_drop", 100000);	/* 50000/s: still a warning, never critical */
	synth_run(&run, "nic.xdp-drops", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	f = synth_first(&run);
	assert_non_null(strstr(f->remedy, "bpftool prog show id 42"));
	assert_true(synth_has_ev(f, "xdp_prog_id"));
	assert_true(synth_has_ev(f, "rx_xdp_drop"));
	synth_run_free(&run);

	c.rtnl.xdp_attached = 0;
	synth_run(&run, "nic.xdp-drops", NULL, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	assert_non_null(strstr(synth_first(&run)->detail, "No program is attached now"));
	synth_run_free(&run);

	drv(&c, "rx_xdp_drop", 0);
	synth_run(&run, "nic.xdp-drops", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);

	np_counters_free(&c.eth.drv_stats);
	drv(&c, "rx_packets", 5);
	synth_run(&run, "nic.xdp-drops", &p, &c, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	free2(&p, &c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_port_discards),
		cmocka_unit_test(test_port_discards_skipped),
		cmocka_unit_test(test_cloud_allowance),
		cmocka_unit_test(test_cloud_allowance_not_ena),
		cmocka_unit_test(test_queue_drops_concentrated),
		cmocka_unit_test(test_queue_drops_driver),
		cmocka_unit_test(test_pause_frames),
		cmocka_unit_test(test_pause_frames_driver_and_skip),
		cmocka_unit_test(test_xdp_drops),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
