// SPDX-License-Identifier: GPL-2.0-only
/*
 * NIC-side checks of stage "nic" on synthetic snapshots: ring sizes (alone, escalated by
 * missed packets, from qstats overruns or a driver counter, skipped) and buffer allocation
 * failures. (Port discards, cloud allowances, queue drops, pause frames, XDP:
 * test_check_nic_driver_drops.c.) Counter names are ones whose classification is unambiguous
 * in the driver table.
 */
#include "synth.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nic_driver_fixture.h"

static void rings(struct np_snapshot *s, uint64_t rx, uint64_t max)
{
	s->eth.rings.rx = rx;
	s->eth.rings.rx_max = max;
}

static void test_ring_size_info_alone(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	pair(&p, &c, "mlx5_core");
	rings(&p, 512, 4096);
	rings(&c, 512, 4096);
	c.eth.channels.combined = 8;
	drv(&p, "rx_out_of_buffer", 7);
	drv(&c, "rx_out_of_buffer", 7);		/* history, not moving */
	synth_run(&run, "nic.ring-size", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	f = synth_first(&run);
	assert_non_null(strstr(f->summary, "rx ring 512 of 4096"));
	assert_non_null(strstr(f->remedy, "ethtool -G eth0 rx 2048"));
	assert_non_null(strstr(f->remedy, "Cost:"));
	/* 1536 more descriptors x ~2048 bytes x 8 queues = 24 MiB */
	assert_non_null(strstr(f->remedy, "24 MiB"));
	assert_true(synth_has_ev(f, "rx_ring_max"));
	synth_run_free(&run);

	/* At the maximum and nothing moving: nothing to say. */
	rings(&c, 4096, 4096);
	synth_run(&run, "nic.ring-size", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	assert_int_equal(synth_state(&run), NP_CHECK_PASSED);
	synth_run_free(&run);
	free2(&p, &c);
}

static void test_ring_size_escalates_on_missed(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	pair(&p, &c, "virtio_net");
	rings(&p, 256, 1024);
	rings(&c, 256, 1024);
	p.rtnl.has_stats64 = c.rtnl.has_stats64 = true;
	p.rtnl.stats64.rx_missed_errors = 1000;
	c.rtnl.stats64.rx_missed_errors = 1400;	/* 200/s: critical */
	synth_run(&run, "nic.ring-size", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
	f = synth_first(&run);
	assert_non_null(strstr(f->summary, "200 packets/s"));
	assert_true(synth_has_ev(f, "rtnl_rx_missed_errors"));
	/* Critical: straight to the maximum. */
	assert_non_null(strstr(f->remedy, "ethtool -G eth0 rx 1024"));
	synth_run_free(&run);

	/* 2/s: warning, 4x the current size. */
	c.rtnl.stats64.rx_missed_errors = 1004;
	synth_run(&run, "nic.ring-size", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	assert_non_null(strstr(synth_first(&run)->remedy, "ethtool -G eth0 rx 1024"));
	synth_run_free(&run);

	/* Since boot only (no interval): a million misses are history, never critical. */
	c.rtnl.stats64.rx_missed_errors = 1000000;
	synth_run(&run, "nic.ring-size", NULL, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	assert_non_null(strstr(synth_first(&run)->summary, "since boot"));
	synth_run_free(&run);

	/* At the maximum but still running empty: nothing to grow, so nic.ring-size stays
	 * quiet and nic.missed alone reports the loss (one finding per loss). */
	rings(&c, 1024, 1024);
	c.rtnl.stats64.rx_missed_errors = 1400;
	synth_run(&run, "nic.ring-size", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	assert_int_equal(synth_state(&run), NP_CHECK_PASSED);
	synth_run_free(&run);
	synth_run(&run, "nic.missed", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
	assert_non_null(strstr(synth_first(&run)->detail, "maximum"));
	assert_null(strstr(synth_first(&run)->remedy, "ethtool -G"));
	synth_run_free(&run);
	free2(&p, &c);
}

static void test_ring_size_qstats_overruns(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;

	(void)state;
	pair(&p, &c, "ice");
	rings(&p, 512, 8160);
	rings(&c, 512, 8160);
	qstats(&p, 2);
	qstats(&c, 2);
	p.eth.qstats[1].rx_hw_drop_overruns = 0;
	c.eth.qstats[1].rx_hw_drop_overruns = 20;	/* 10/s */
	synth_run(&run, "nic.ring-size", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	assert_true(synth_has_ev(synth_first(&run), "qstats_rx_hw_drop_overruns"));
	assert_non_null(strstr(synth_first(&run)->remedy, "rx 2048"));
	synth_run_free(&run);
	free2(&p, &c);
}

static void test_ring_size_driver_counter(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	pair(&p, &c, "mlx5_core");
	rings(&p, 1024, 8192);
	rings(&c, 1024, 8192);
	drv(&p, "rx_out_of_buffer", 100);
	drv(&c, "rx_out_of_buffer", 110);	/* 5/s */
	synth_run(&run, "nic.ring-size", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	f = synth_first(&run);
	assert_true(synth_has_ev(f, "rx_out_of_buffer"));
	assert_non_null(strstr(f->summary, "5 packets/s"));
	synth_run_free(&run);

	/* mlx5 folds rx_out_of_buffer into rx_missed_errors: the same drops, never added. */
	p.rtnl.has_stats64 = c.rtnl.has_stats64 = true;
	p.rtnl.stats64.rx_missed_errors = 100;
	c.rtnl.stats64.rx_missed_errors = 110;
	synth_run(&run, "nic.ring-size", &p, &c, NAN, NAN);
	assert_non_null(strstr(synth_first(&run)->summary, "5 packets/s"));
	synth_run_free(&run);
	free2(&p, &c);
}

static void test_ring_size_skipped(void **state)
{
	struct np_snapshot c;
	struct synth_run run;

	(void)state;
	synth_init(&c, 0);
	unsupported(&c, NP_SRC_ETHTOOL_RINGS, "driver does not report rings");
	synth_run(&run, "nic.ring-size", NULL, &c, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	assert_string_equal(skip_reason(&run), "driver does not report rings");
	synth_run_free(&run);

	/* Read, but the driver left the maximum out: not a ring of size 0. */
	np_srcp(&c, NP_SRC_ETHTOOL_RINGS)->status = NP_SRC_OK;
	rings(&c, 256, NP_NA);
	synth_run(&run, "nic.ring-size", NULL, &c, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&c);
}

static void test_alloc_failures(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	pair(&p, &c, "mlx5_core");
	/* mlx5 keeps a device total and per-queue copies: 10/s, not 20/s. */
	drv(&p, "rx_buff_alloc_err", 0);
	drv(&c, "rx_buff_alloc_err", 20);
	drv(&p, "rx0_buff_alloc_err", 0);
	drv(&c, "rx0_buff_alloc_err", 20);
	synth_sysctl(&c, "vm.min_free_kbytes", "67584");
	c.dev.mtu = 9000;
	synth_run(&run, "nic.alloc-failures", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	f = synth_first(&run);
	assert_non_null(strstr(f->summary, "10/s"));
	assert_true(synth_has_ev(f, "vm.min_free_kbytes"));
	assert_non_null(strstr(f->remedy, "sysctl -w vm.min_free_kbytes=135168"));
	assert_non_null(strstr(f->detail, "MTU 9000"));
	synth_run_free(&run);

	drv(&c, "rx_buff_alloc_err", 0);
	drv(&c, "rx0_buff_alloc_err", 0);
	synth_run(&run, "nic.alloc-failures", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	free2(&p, &c);
}

static void test_alloc_failures_qstats(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;

	(void)state;
	pair(&p, &c, "virtio_net");
	unsupported(&p, NP_SRC_DRIVER_STATS, "x");
	unsupported(&c, NP_SRC_DRIVER_STATS, "x");
	qstats(&p, 2);
	qstats(&c, 2);
	p.eth.qstats[0].rx_alloc_fail = p.eth.qstats[1].rx_alloc_fail = 0;
	c.eth.qstats[0].rx_alloc_fail = 300;
	c.eth.qstats[1].rx_alloc_fail = 100;	/* 200/s over both queues */
	synth_run(&run, "nic.alloc-failures", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
	assert_true(synth_has_ev(synth_first(&run), "qstats_rx_alloc_fail"));
	synth_run_free(&run);

	synth_run(&run, "nic.alloc-failures", NULL, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);

	unsupported(&c, NP_SRC_QSTATS, "netdev family has no qstats-get");
	synth_run(&run, "nic.alloc-failures", NULL, &c, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	free2(&p, &c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ring_size_info_alone),
		cmocka_unit_test(test_ring_size_escalates_on_missed),
		cmocka_unit_test(test_ring_size_qstats_overruns),
		cmocka_unit_test(test_ring_size_driver_counter),
		cmocka_unit_test(test_ring_size_skipped),
		cmocka_unit_test(test_alloc_failures),
		cmocka_unit_test(test_alloc_failures_qstats),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
