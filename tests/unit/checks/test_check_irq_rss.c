// SPDX-License-Identifier: GPL-2.0-only
/* NIC-side checks of stage "irq" (RSS, coalescing, GRO/LRO) on synthetic snapshots. */
#include "synth.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *skip_reason(const struct synth_run *run)
{
	for (size_t i = 0; i < run->r.nres; i++)
		if (run->r.res[i].state != NP_CHECK_NOT_RUN)
			return run->r.res[i].skip_reason;
	return "";
}

static const struct np_evidence *ev(const struct np_finding *f, const char *key)
{
	for (size_t i = 0; i < f->nev; i++)
		if (!strcmp(f->ev[i].key, key))
			return &f->ev[i];
	fail_msg("no evidence %s", key);
	return NULL;
}

/* A 16-CPU host whose NIC uses 4 of 16 combined channels. */
static void four_of_sixteen(struct np_snapshot *s, double t)
{
	synth_init(s, t);
	synth_softnet(s, 16);
	s->eth.channels.combined = 4;
	s->eth.channels.combined_max = 16;
	s->eth.channels.rx = s->eth.channels.tx = 0;
	s->eth.channels.rx_max = s->eth.channels.tx_max = 0;
	s->dev.stats.rx_missed_errors = 100;
	s->dev.stats.rx_fifo_errors = 0;
}

static void test_rss_channels_info_and_warning(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;

	(void)state;
	four_of_sixteen(&p, 0);
	four_of_sixteen(&c, 2);
	/* Nothing moves: headroom, info, with the exact command. */
	synth_run(&run, "irq.rss-channels", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	assert_non_null(strstr(synth_first(&run)->summary, "4 of 16"));
	assert_non_null(strstr(synth_first(&run)->remedy, "ethtool -L eth0 combined 16"));
	assert_non_null(strstr(synth_first(&run)->remedy, "Cost:"));
	assert_true(ev(synth_first(&run), "rx_channels_in_use")->value == 4);
	synth_run_free(&run);

	/* Ring drops during the sample: warning, with the rate as evidence. */
	c.dev.stats.rx_missed_errors = 300;
	synth_run(&run, "irq.rss-channels", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	assert_true(ev(synth_first(&run), "ring_drops")->sampled);
	assert_true(ev(synth_first(&run), "ring_drops")->rate == 100);
	synth_run_free(&run);

	/* Softnet backlog drops on some CPU: warning too. */
	c.dev.stats.rx_missed_errors = 100;
	c.hs->softnet.rows[3].dropped = 50;
	synth_run(&run, "irq.rss-channels", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	synth_run_free(&run);

	/* Since boot only, even with big totals: info, never more. */
	c.hs->softnet.rows[3].dropped = 1000000;
	c.dev.stats.rx_missed_errors = 5000000;
	synth_run(&run, "irq.rss-channels", NULL, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);

	/* The NIC's NUMA node has 8 CPUs: suggest 8, not 16. */
	c.dev.has_local_cpus = true;
	np_cpuset_zero(&c.dev.local_cpus);
	for (unsigned i = 0; i < 8; i++)
		np_cpuset_set(&c.dev.local_cpus, i);
	synth_run(&run, "irq.rss-channels", NULL, &c, NAN, NAN);
	assert_non_null(strstr(synth_first(&run)->remedy, "combined 8 "));
	synth_run_free(&run);

	/* 8 queues already serve those 8 local CPUs: quiet. */
	c.eth.channels.combined = 8;
	synth_run(&run, "irq.rss-channels", NULL, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	assert_int_equal(synth_state(&run), NP_CHECK_PASSED);
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

static void test_rss_channels_quiet_and_skipped(void **state)
{
	struct np_snapshot s;
	struct synth_run run;

	(void)state;
	four_of_sixteen(&s, 0);
	s.eth.channels.combined = 16;		/* all in use */
	synth_run(&run, "irq.rss-channels", NULL, &s, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);

	s.eth.channels.combined = 1;		/* a 2-CPU box: nothing worth adding */
	synth_softnet(&s, 2);
	synth_run(&run, "irq.rss-channels", NULL, &s, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);

	synth_softnet(&s, 16);			/* a single-queue virtual NIC (max 1) */
	s.eth.channels.combined_max = 1;
	synth_run(&run, "irq.rss-channels", NULL, &s, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);

	/* Separate RX channels: the remedy uses "rx". */
	s.eth.channels.combined = 0;
	s.eth.channels.combined_max = 0;
	s.eth.channels.rx = 2;
	s.eth.channels.rx_max = 8;
	synth_run(&run, "irq.rss-channels", NULL, &s, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	assert_non_null(strstr(synth_first(&run)->remedy, "ethtool -L eth0 rx 8"));
	synth_run_free(&run);

	/* The driver does not report channels: skipped with the collector's reason. */
	np_src_set(&s, NP_SRC_ETHTOOL_CHANNELS, -EOPNOTSUPP, "driver does not report channels");
	synth_run(&run, "irq.rss-channels", NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	assert_non_null(strstr(skip_reason(&run), "driver does not report channels"));
	synth_run_free(&run);

	/* Source fine but no values: skipped, not "0 queues". */
	np_src_set(&s, NP_SRC_ETHTOOL_CHANNELS, 0, NULL);
	s.eth.channels.rx = s.eth.channels.combined = NP_NA;
	synth_run(&run, "irq.rss-channels", NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&s);
}

static void set_table(struct np_snapshot *s, size_t n, const uint32_t *v, uint32_t mod)
{
	free(s->eth.rss_indir);
	s->eth.rss_indir = calloc(n, sizeof(*s->eth.rss_indir));
	assert_non_null(s->eth.rss_indir);
	s->eth.rss_size = n;
	for (size_t i = 0; i < n; i++)
		s->eth.rss_indir[i] = v ? v[i] : (uint32_t)(i % mod);
}

static void test_rss_indirection(void **state)
{
	struct np_snapshot s;
	struct synth_run run;
	uint32_t t[128];

	(void)state;
	synth_init(&s, 0);
	s.eth.channels.combined = 4;
	s.eth.channels.rx = 0;
	set_table(&s, 128, NULL, 4);		/* the default equal spread */
	synth_run(&run, "irq.rss-indirection", NULL, &s, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	assert_int_equal(synth_state(&run), NP_CHECK_PASSED);
	synth_run_free(&run);

	s.eth.channels.combined = 3;		/* 43/43/42: uneven but fair */
	set_table(&s, 128, NULL, 3);
	synth_run(&run, "irq.rss-indirection", NULL, &s, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);

	/* Queues 2 and 3 missing from the table. */
	s.eth.channels.combined = 4;
	set_table(&s, 128, NULL, 2);
	synth_run(&run, "irq.rss-indirection", NULL, &s, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	assert_string_equal(ev(synth_first(&run), "queues_without_entries")->text, "2,3");
	assert_non_null(strstr(synth_first(&run)->remedy, "ethtool -X eth0 equal 4"));
	synth_run_free(&run);

	/* Every queue present, but queue 0 holds 80 of 128 (fair share 32). */
	for (size_t i = 0; i < 128; i++)
		t[i] = i < 80 ? 0 : (uint32_t)(1 + i % 3);
	set_table(&s, 128, t, 0);
	synth_run(&run, "irq.rss-indirection", NULL, &s, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	assert_true(ev(synth_first(&run), "busiest_queue_share")->value == 62.5);
	synth_run_free(&run);

	/* Channel count unknown: the table's highest queue counts; one queue = nothing to skew. */
	s.eth.channels.combined = NP_NA;
	set_table(&s, 128, NULL, 1);
	synth_run(&run, "irq.rss-indirection", NULL, &s, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);

	/* No table: skipped. */
	free(s.eth.rss_indir);
	s.eth.rss_indir = NULL;
	s.eth.rss_size = 0;
	synth_run(&run, "irq.rss-indirection", NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_src_set(&s, NP_SRC_ETHTOOL_RSS, -EOPNOTSUPP, NULL);
	synth_run(&run, "irq.rss-indirection", NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	assert_non_null(strstr(skip_reason(&run), "driver does not report"));
	synth_run_free(&run);
	np_snapshot_free(&s);
}

/* One RX queue IRQ with the given total interrupt count. */
static void set_irq(struct np_snapshot *s, uint64_t total)
{
	if (!s->irqs.lines) {
		s->irqs.lines = calloc(1, sizeof(*s->irqs.lines));
		assert_non_null(s->irqs.lines);
		s->irqs.n = 1;
		s->irqs.lines[0].irq = 42;
		s->irqs.lines[0].role = NP_IRQ_TXRX;
		snprintf(s->irqs.lines[0].name, sizeof(s->irqs.lines[0].name), "eth0-TxRx-0");
	}
	s->irqs.lines[0].total = total;
}

static void per_packet(struct np_snapshot *s, double t)
{
	synth_init(s, t);
	s->eth.coalesce.rx_usecs = 0;
	s->eth.coalesce.rx_max_frames = 1;
	s->eth.coalesce.adaptive_rx = 0;
}

static void test_coalescing_per_packet(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;

	(void)state;
	per_packet(&p, 0);
	per_packet(&c, 2);
	/* Configuration only: info. */
	synth_run(&run, "irq.coalescing", NULL, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	assert_non_null(strstr(synth_first(&run)->remedy, "ethtool -C eth0 adaptive-rx on"));
	synth_run_free(&run);

	/* 30,000 interrupts/s on the queue: warning with the rate. */
	set_irq(&p, 1000);
	set_irq(&c, 61000);
	synth_run(&run, "irq.coalescing", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	assert_true(ev(synth_first(&run), "busiest_queue_interrupts")->value == 30000);
	synth_run_free(&run);

	/* 5,000/s: worth an info. */
	set_irq(&c, 11000);
	synth_run(&run, "irq.coalescing", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);

	/* 100/s: measured and negligible, quiet. */
	set_irq(&c, 1200);
	synth_run(&run, "irq.coalescing", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);

	/* Adaptive moderation on: the static values do not apply. */
	c.eth.coalesce.adaptive_rx = 1;
	set_irq(&c, 61000);
	synth_run(&run, "irq.coalescing", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);

	/* Moderate values: quiet. */
	c.eth.coalesce.adaptive_rx = 0;
	c.eth.coalesce.rx_usecs = 50;
	c.eth.coalesce.rx_max_frames = 64;
	synth_run(&run, "irq.coalescing", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);

	/* Nothing reported: skipped. */
	c.eth.coalesce.rx_usecs = c.eth.coalesce.rx_max_frames = NP_NA;
	synth_run(&run, "irq.coalescing", &p, &c, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_src_set(&c, NP_SRC_ETHTOOL_COALESCE, -EOPNOTSUPP, "driver does not report coalescing");
	synth_run(&run, "irq.coalescing", &p, &c, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

static void test_coalescing_large(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;

	(void)state;
	synth_init(&p, 0);
	synth_init(&c, 1);
	c.eth.coalesce.rx_usecs = 500;
	c.eth.coalesce.rx_max_frames = 32;
	c.eth.coalesce.adaptive_rx = 0;
	c.eth.rings.rx = 512;
	c.dev.speed_mbps = 10000;
	c.dev.has_device = true;
	p.dev.stats.rx_missed_errors = c.dev.stats.rx_missed_errors = 10;
	p.dev.stats.rx_fifo_errors = c.dev.stats.rx_fifo_errors = 0;
	synth_run(&run, "irq.coalescing", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	/* 512 full-size frames at 10 Gbit/s fill the ring in ~630 us, close to rx-usecs 500. */
	assert_true(ev(synth_first(&run), "ring_fill_time_line_rate")->value > 600);
	synth_run_free(&run);

	c.dev.stats.rx_missed_errors = 510;	/* the ring overflows now */
	synth_run(&run, "irq.coalescing", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	assert_true(ev(synth_first(&run), "ring_drops")->rate == 500);
	synth_run_free(&run);

	/* Since boot only: info. */
	synth_run(&run, "irq.coalescing", NULL, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);

	/* rx-frames above the ring size: said in the detail. */
	c.eth.coalesce.rx_usecs = 100;
	c.eth.coalesce.rx_max_frames = 1024;
	synth_run(&run, "irq.coalescing", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	assert_non_null(strstr(synth_first(&run)->detail, "can never fire"));
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

static void test_gro_lro(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;

	(void)state;
	synth_init(&p, 0);
	synth_init(&c, 1);
	c.eth.features.gro = 0;
	c.eth.features.lro = 0;
	c.dev.speed_mbps = 1000;
	c.dev.has_device = true;
	synth_run(&run, "irq.gro", NULL, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	assert_non_null(strstr(synth_first(&run)->remedy, "ethtool -K eth0 gro on"));
	synth_run_free(&run);

	/* Under load (200,000 packets/s): warning. */
	p.dev.stats.rx_packets = 1000;
	c.dev.stats.rx_packets = 201000;
	synth_run(&run, "irq.gro", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	assert_true(ev(synth_first(&run), "rx_packets")->value == 200000);
	synth_run_free(&run);

	c.dev.speed_mbps = 25000;		/* a 25G link, load unknown: warning */
	synth_run(&run, "irq.gro", NULL, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	synth_run_free(&run);

	/* A veth (nominal 10000 Mbit/s, GRO off by default): quiet unless busy, then info. */
	c.dev.has_device = false;
	c.dev.speed_mbps = 10000;
	synth_run(&run, "irq.gro", NULL, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	synth_run(&run, "irq.gro", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	assert_non_null(strstr(synth_first(&run)->detail, "veth"));
	synth_run_free(&run);

	c.eth.features.gro = 1;			/* GRO on, LRO off: quiet */
	synth_run(&run, "irq.gro", NULL, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);

	/* LRO on: harmless on an end host, a warning on a router. */
	c.eth.features.lro = 1;
	synth_sysctl(&c, "net.ipv4.ip_forward", "0");
	synth_sysctl(&c, "net.ipv6.conf.all.forwarding", "0");
	synth_run(&run, "irq.gro", NULL, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	synth_sysctl(&c, "net.ipv4.ip_forward", "1");
	synth_run(&run, "irq.gro", NULL, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	assert_non_null(strstr(synth_first(&run)->remedy, "lro off"));
	assert_true(synth_has_ev(synth_first(&run), "net.ipv4.ip_forward"));
	synth_run_free(&run);

	/* Unknown features: skipped. */
	c.eth.features.gro = c.eth.features.lro = -1;
	synth_run(&run, "irq.gro", NULL, &c, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rss_channels_info_and_warning),
		cmocka_unit_test(test_rss_channels_quiet_and_skipped),
		cmocka_unit_test(test_rss_indirection),
		cmocka_unit_test(test_coalescing_per_packet),
		cmocka_unit_test(test_coalescing_large),
		cmocka_unit_test(test_gro_lro),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
