// SPDX-License-Identifier: GPL-2.0-only
/* Checks of stage "nic" on synthetic snapshots. */
#include "synth.h"

#include <stdio.h>
#include <string.h>

static void test_missed(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	synth_init(&p, 0);
	synth_init(&c, 2);
	p.dev.stats.rx_missed_errors = 1000;
	c.dev.stats.rx_missed_errors = 1400;	/* 200/s: critical */
	p.dev.stats.rx_fifo_errors = c.dev.stats.rx_fifo_errors = 0;
	p.dev.stats.rx_packets = 0;
	c.dev.stats.rx_packets = 2000000;
	synth_run(&run, "nic.missed", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
	f = synth_first(&run);
	assert_true(synth_has_ev(f, "rx_missed_errors"));
	assert_true(synth_has_ev(f, "missed_share"));
	assert_non_null(strstr(f->summary, "200 packets/s"));
	assert_non_null(strstr(f->remedy, "ethtool -g eth0"));
	assert_non_null(strstr(f->remedy, "ethtool -G eth0 rx"));
	assert_non_null(strstr(f->remedy, "Cost:"));
	assert_non_null(strstr(f->detail, "ethtool"));
	synth_run_free(&run);

	/* FIFO overruns alone count too: 2/s is a warning. */
	c.dev.stats.rx_missed_errors = 1000;
	c.dev.stats.rx_fifo_errors = 4;
	synth_run(&run, "nic.missed", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	synth_run_free(&run);

	/* Since boot only: never critical. */
	c.dev.stats.rx_missed_errors = 50000000;
	synth_run(&run, "nic.missed", NULL, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);

	c.dev.stats.rx_missed_errors = p.dev.stats.rx_missed_errors = 0;
	c.dev.stats.rx_fifo_errors = 0;
	synth_run(&run, "nic.missed", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	assert_int_equal(synth_state(&run), NP_CHECK_PASSED);
	synth_run_free(&run);

	c.dev.stats.rx_missed_errors = c.dev.stats.rx_fifo_errors = NP_NA;
	synth_run(&run, "nic.missed", &p, &c, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

/* prev at t=0, cur at t=2 (rates = delta / 2), driver counters from `driver`. */
static void pair(struct np_snapshot *p, struct np_snapshot *c, const char *driver)
{
	synth_init(p, 0);
	synth_init(c, 2);
	snprintf(p->eth.driver, sizeof(p->eth.driver), "%s", driver);
	snprintf(c->eth.driver, sizeof(c->eth.driver), "%s", driver);
}

static void drv(struct np_snapshot *s, const char *name, uint64_t v)
{
	assert_int_equal(np_counters_set(&s->eth.drv_stats, name, v), 0);
}

static void rings(struct np_snapshot *s, uint64_t rx, uint64_t max)
{
	s->eth.rings.rx = rx;
	s->eth.rings.rx_max = max;
}

/* The same missed count in sysfs and rtnl stats64, as the kernel reports it. */
static void missed(struct np_snapshot *s, uint64_t v)
{
	s->dev.stats.rx_missed_errors = s->rtnl.stats64.rx_missed_errors = v;
	s->dev.stats.rx_fifo_errors = s->rtnl.stats64.rx_fifo_errors = 0;
	s->rtnl.has_stats64 = true;
}

/* nic.ring-size and nic.missed never both report the same ring-empty drops. */
static void test_missed_one_finding_per_loss(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	pair(&p, &c, "mlx5_core");
	rings(&p, 512, 4096);
	rings(&c, 512, 4096);
	missed(&p, 1000);
	missed(&c, 1400);			/* 200/s, also in the driver's own counter */
	drv(&p, "rx_out_of_buffer", 1000);
	drv(&c, "rx_out_of_buffer", 1400);

	/* Below the maximum: nic.ring-size carries the escalation, nic.missed is quiet. */
	synth_run(&run, "nic.ring-size", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
	synth_run_free(&run);
	synth_run(&run, "nic.missed", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	assert_int_equal(synth_state(&run), NP_CHECK_PASSED);
	synth_run_free(&run);

	/* FIFO overruns that nic.ring-size does not count stay nic.missed's: 10/s. */
	p.dev.stats.rx_fifo_errors = p.rtnl.stats64.rx_fifo_errors = 0;
	c.dev.stats.rx_fifo_errors = c.rtnl.stats64.rx_fifo_errors = 20;
	synth_run(&run, "nic.missed", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	f = synth_first(&run);
	assert_non_null(strstr(f->summary, "10 packets/s beyond the ring-empty drops"));
	assert_non_null(strstr(f->detail, "nic.ring-size"));
	assert_null(strstr(f->remedy, "ethtool -G"));
	assert_null(strstr(f->detail, "did not read"));
	synth_run_free(&run);
	c.dev.stats.rx_fifo_errors = c.rtnl.stats64.rx_fifo_errors = 0;

	/* At the maximum: nic.missed carries it, and never suggests a bigger ring. */
	rings(&c, 4096, 4096);
	synth_run(&run, "nic.ring-size", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	synth_run(&run, "nic.missed", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
	f = synth_first(&run);
	assert_non_null(strstr(f->summary, "200 packets/s"));
	assert_non_null(strstr(f->detail, "hardware maximum (4096"));
	assert_null(strstr(f->remedy, "ethtool -G"));
	assert_null(strstr(f->detail, "did not read"));
	assert_non_null(strstr(f->remedy, "ethtool -L eth0"));
	synth_run_free(&run);

	/* Rings not read at all (--root): nic.missed carries it and says why it cannot tell. */
	np_srcp(&c, NP_SRC_ETHTOOL_RINGS)->status = NP_SRC_SKIPPED;
	synth_run(&run, "nic.missed", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
	f = synth_first(&run);
	assert_non_null(strstr(f->detail, "Ring sizes come from ethtool, which this run did "
					  "not read"));
	assert_non_null(strstr(f->remedy, "ethtool -G eth0 rx"));
	synth_run_free(&run);
	synth_run(&run, "nic.ring-size", &p, &c, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);

	/* The driver does not report rings: no claim that this run skipped them. */
	np_srcp(&c, NP_SRC_ETHTOOL_RINGS)->status = NP_SRC_UNSUPPORTED;
	synth_run(&run, "nic.missed", &p, &c, NAN, NAN);
	assert_null(strstr(synth_first(&run)->detail, "did not read"));
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

/* rtnetlink stats64 first (both snapshots alike), the larger of overlapping witnesses. */
static void test_missed_witnesses(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	pair(&p, &c, "ixgbe");
	np_srcp(&c, NP_SRC_ETHTOOL_RINGS)->status = np_srcp(&p, NP_SRC_ETHTOOL_RINGS)->status = NP_SRC_SKIPPED;
	p.rtnl.has_stats64 = c.rtnl.has_stats64 = true;
	p.dev.stats.rx_missed_errors = c.dev.stats.rx_missed_errors = 1000;	/* stale */
	p.rtnl.stats64.rx_missed_errors = 1000;
	c.rtnl.stats64.rx_missed_errors = 1400;	/* 200/s */
	synth_run(&run, "nic.missed", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
	f = synth_first(&run);
	assert_non_null(strstr(f->summary, "200 packets/s"));
	synth_run_free(&run);

	/* prev without stats64: no rate from sysfs-then-rtnl, only the since-boot total. */
	p.rtnl.has_stats64 = false;
	synth_run(&run, "nic.missed", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);
	p.rtnl.has_stats64 = true;

	/* ixgbe counts ring-full drops in rx_no_dma_resources too: 500/s there, 200/s in
	 * rx_missed_errors; the larger witness, not their sum (700/s). */
	drv(&p, "rx_no_dma_resources", 0);
	drv(&c, "rx_no_dma_resources", 1000);
	synth_run(&run, "nic.missed", &p, &c, NAN, NAN);
	f = synth_first(&run);
	assert_non_null(strstr(f->summary, "500 packets/s"));
	assert_non_null(strstr(f->summary, "rx_no_dma_resources"));
	assert_true(synth_has_ev(f, "rx_no_dma_resources"));
	assert_true(synth_has_ev(f, "rx_missed_errors"));
	synth_run_free(&run);

	/* Per-queue copies of the device total (igb rx_fifo_errors = sum of rx_queue_N_drops)
	 * count once: 100/s, not 200/s. */
	np_snapshot_free(&p);
	np_snapshot_free(&c);
	pair(&p, &c, "igb");
	np_srcp(&c, NP_SRC_ETHTOOL_RINGS)->status = NP_SRC_SKIPPED;
	drv(&p, "rx_fifo_errors", 0);
	drv(&c, "rx_fifo_errors", 200);
	drv(&p, "rx_queue_0_drops", 0);
	drv(&c, "rx_queue_0_drops", 120);
	drv(&p, "rx_queue_1_drops", 0);
	drv(&c, "rx_queue_1_drops", 80);
	synth_run(&run, "nic.missed", &p, &c, NAN, NAN);
	assert_non_null(strstr(synth_first(&run)->summary, "100 packets/s"));
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

static void test_rx_dropped(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	synth_init(&p, 0);
	synth_init(&c, 1);
	synth_softnet(&p, 2);
	synth_softnet(&c, 2);
	p.dev.stats.rx_packets = 0;
	c.dev.stats.rx_packets = 9500;
	p.dev.stats.rx_dropped = 0;
	c.dev.stats.rx_dropped = 500;		/* 5% of the traffic: warning */
	c.dev.stats.rx_nohandler = p.dev.stats.rx_nohandler = 3;
	synth_run(&run, "nic.rx-dropped", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	f = synth_first(&run);
	assert_non_null(strstr(f->summary, "5.00% of received packets"));
	assert_true(synth_has_ev(f, "rx_dropped"));
	assert_true(synth_has_ev(f, "rx_nohandler"));
	assert_true(synth_has_ev(f, "softnet_dropped_all_cpus"));
	assert_non_null(strstr(f->detail, "not backlog overflow"));
	assert_non_null(strstr(f->remedy, "tcpdump -i eth0"));
	assert_non_null(strstr(f->remedy, "Cost:"));
	synth_run_free(&run);

	/* Softnet drops move too: attributed to the backlog. */
	c.hs->softnet.rows[1].dropped = 400;
	synth_run(&run, "nic.rx-dropped", &p, &c, NAN, NAN);
	assert_non_null(strstr(synth_first(&run)->detail, "softnet.backlog-drops"));
	synth_run_free(&run);

	/* A small share (unknown protocols, typically): info however high the count. */
	c.dev.stats.rx_packets = 10000000;
	synth_run(&run, "nic.rx-dropped", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);

	synth_run(&run, "nic.rx-dropped", NULL, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);

	c.dev.stats.rx_dropped = 0;
	synth_run(&run, "nic.rx-dropped", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);

	c.dev.stats.rx_dropped = NP_NA;
	synth_run(&run, "nic.rx-dropped", &p, &c, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

/* Frames for another host's MAC (reproduced: a veth whose sender had a wrong neighbour entry,
 * rx_packets 871,454 of which rx_otherhost_dropped 871,448, rx_dropped 0): named as such,
 * never as NIC loss; and beside a growing rx_dropped, told apart from it. */
static void test_rx_dropped_apart(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	synth_init(&p, 0);
	synth_init(&c, 1);
	synth_softnet(&p, 2);
	synth_softnet(&c, 2);
	p.dev.stats.rx_packets = 6;
	c.dev.stats.rx_packets = 871454;
	p.dev.stats.rx_dropped = c.dev.stats.rx_dropped = 0;
	p.dev.stats.rx_otherhost_dropped = 0;
	c.dev.stats.rx_otherhost_dropped = 871448;
	p.dev.stats.rx_nohandler = c.dev.stats.rx_nohandler = 0;
	synth_run(&run, "nic.rx-dropped", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	f = synth_first(&run);
	assert_non_null(strstr(f->summary, "eth0 turns away 871,448/s for another host's MAC "
				"(rx_otherhost_dropped), not NIC loss (100.00% of received"));
	assert_non_null(strstr(f->detail, "PACKET_OTHERHOST"));
	assert_null(strstr(f->detail, "rx_nohandler:"));
	assert_non_null(strstr(f->remedy, "ip neigh show"));
	synth_run_free(&run);

	/* Both apart counters and rx_dropped grow: each named with its own rate. */
	c.dev.stats.rx_dropped = 500;
	c.dev.stats.rx_nohandler = 20;
	synth_run(&run, "nic.rx-dropped", &p, &c, NAN, NAN);
	f = synth_first(&run);
	assert_non_null(strstr(f->summary, "eth0 rx_dropped grows 500/s"));
	assert_non_null(strstr(f->summary, "besides, 871,448/s for another host's MAC "
				"(rx_otherhost_dropped) and 20/s with no protocol handler (rx_nohandler)"));
	assert_non_null(strstr(f->detail, "inactive bond slave"));
	synth_run_free(&run);

	/* A small share for other hosts (a promiscuous port): info. */
	c.dev.stats.rx_dropped = 0;
	c.dev.stats.rx_nohandler = 0;
	c.dev.stats.rx_otherhost_dropped = 5;
	synth_run(&run, "nic.rx-dropped", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

/* rx_dropped from rtnetlink stats64; fields a short stats64 lacks come from sysfs. */
static void test_rx_dropped_rtnl(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	synth_init(&p, 0);
	synth_init(&c, 1);
	p.rtnl.has_stats64 = c.rtnl.has_stats64 = true;
	p.rtnl.stats64.rx_packets = 0;
	c.rtnl.stats64.rx_packets = 9500;
	p.rtnl.stats64.rx_dropped = 0;
	c.rtnl.stats64.rx_dropped = 500;	/* 5%: warning; sysfs did not report it */
	c.dev.stats.rx_nohandler = p.dev.stats.rx_nohandler = 3;	/* 184-byte stats64 */
	synth_run(&run, "nic.rx-dropped", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	f = synth_first(&run);
	assert_non_null(strstr(f->summary, "5.00% of received packets"));
	assert_true(synth_has_ev(f, "rx_nohandler"));
	assert_false(synth_has_ev(f, "rx_otherhost_dropped"));
	synth_run_free(&run);

	/* Neither source reports it: skipped, not 0. */
	c.rtnl.stats64.rx_dropped = NP_NA;
	synth_run(&run, "nic.rx-dropped", &p, &c, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_missed),
		cmocka_unit_test(test_missed_one_finding_per_loss),
		cmocka_unit_test(test_missed_witnesses),
		cmocka_unit_test(test_rx_dropped),
		cmocka_unit_test(test_rx_dropped_apart),
		cmocka_unit_test(test_rx_dropped_rtnl),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
