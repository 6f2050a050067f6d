// SPDX-License-Identifier: GPL-2.0-only
/* irq.cpu-rate on synthetic snapshots: where the queue interrupts land, one busy queue, one
 * queue, placements already in force. */
#include "irq_fixture.h"

static void test_cpu_rate(void **state)
{
	static const int zero[4] = { 0, 0, 0, 0 };
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	synth_init(&p, 0);
	synth_init(&c, 2);
	irqs(&p, 4, 4, zero);
	irqs(&c, 4, 4, zero);
	/* Two busy queues, both delivered to and interrupting CPU 0: 10,000/s there. The
	 * remedy moves the second one away (the first keeps CPU 0). */
	c.irqs.lines[0].count[0] = 10000;
	c.irqs.lines[1].count[0] = 10000;
	synth_run(&run, "irq.cpu-rate", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	f = synth_first(&run);
	assert_true(synth_has_ev(f, "cpu0.interrupts"));
	assert_true(has_text(f->summary, "100% of eth0's queue interrupts"));
	assert_true(has_text(f->remedy, "smp_affinity_list"));
	assert_false(has_text(f->remedy, "/proc/irq/100/"));
	synth_run_free(&run);

	/* One busy queue: the traffic hashes to one queue; info, and no pinning advice. */
	c.irqs.lines[1].count[0] = 0;
	synth_run(&run, "irq.cpu-rate", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	assert_true(has_text(synth_first(&run)->detail, "single large flow"));
	synth_run_free(&run);

	/* Spread evenly: quiet. */
	for (int i = 0; i < 4; i++)
		c.irqs.lines[i].count[i] = 5000;
	c.irqs.lines[0].count[0] = 5000;
	synth_run(&run, "irq.cpu-rate", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);

	/* Nearly idle: quiet even when all on one CPU. */
	for (int i = 0; i < 4; i++)
		c.irqs.lines[i].count[i] = 0;
	c.irqs.lines[0].count[0] = 50;
	c.irqs.lines[1].count[0] = 50;
	synth_run(&run, "irq.cpu-rate", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);

	/* No interval: the since-boot columns; 100 interrupts in all say nothing. */
	synth_run(&run, "irq.cpu-rate", NULL, &c, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_PASSED);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);

	/* No interval, but since boot every queue interrupt landed on CPU 0: info, with the
	 * since-boot counts as evidence, never more than info. */
	for (int i = 0; i < 4; i++)
		c.irqs.lines[i].count[0] = 40000;
	synth_run(&run, "irq.cpu-rate", NULL, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	f = synth_first(&run);
	assert_true(has_text(f->summary, "Since boot 100% of eth0's queue interrupts"));
	assert_true(synth_has_ev(f, "interrupts_since_boot"));
	assert_true(has_text(f->detail, "not a rate"));
	synth_run_free(&run);

	/* With an interval too idle to judge (nothing moved), the since-boot picture still
	 * stands (info). */
	for (int i = 0; i < 4; i++)
		for (int k = 0; k < 4; k++)
			p.irqs.lines[i].count[k] = c.irqs.lines[i].count[k];
	synth_run(&run, "irq.cpu-rate", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

static void test_cpu_rate_columns_by_cpu(void **state)
{
	static const int spread[2] = { 0, 1 };
	struct np_snapshot p, c;
	struct synth_run run;

	(void)state;
	synth_init(&p, 0);
	synth_init(&c, 1);
	/* CPU 1 was offline in the first snapshot: columns are CPU 0 and CPU 2 there. */
	irqs(&p, 2, 2, spread);
	p.irqs.col_cpu[1] = 2;
	p.irqs.lines[0].count[1] = 1000000;	/* CPU 2's old count */
	p.irqs.lines[1].count[1] = 1000000;
	irqs(&c, 3, 2, spread);
	c.irqs.lines[0].count[2] = 1005000;	/* +5000 on CPU 2 */
	c.irqs.lines[1].count[2] = 1005000;
	c.irqs.lines[0].count[1] = 7;		/* CPU 1: new column, no baseline */
	synth_run(&run, "irq.cpu-rate", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	assert_true(synth_has_ev(synth_first(&run), "cpu2.interrupts"));
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

static double ev_value(const struct np_finding *f, const char *key)
{
	for (size_t i = 0; i < f->nev; i++)
		if (strcmp(f->ev[i].key, key) == 0)
			return f->ev[i].value;
	fail_msg("no evidence %s", key);
	return NAN;
}

/* The kernel's per-CPU counts are unsigned int: between two samples CPU 3's count wrapped
 * past 2^32. The interval is still 6,000 interrupts there (not 0, and not 2^32 - 6,000): 32-bit
 * storage keeps every bit the kernel has, and the delta is taken modulo 2^32. */
static void test_cpu_rate_wraps(void **state)
{
	static const int spread[2] = { 3, 3 };
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	synth_init(&p, 0);
	synth_init(&c, 2);
	irqs(&p, 4, 2, spread);
	irqs(&c, 4, 2, spread);
	p.irqs.lines[0].count[3] = 4294967295u - 999;	/* 1,000 before the wrap */
	c.irqs.lines[0].count[3] = 2000;		/* +3,000 across it */
	p.irqs.lines[1].count[3] = 4294967295u;		/* the largest count the kernel prints */
	c.irqs.lines[1].count[3] = 2999;		/* +3,000 */
	c.irqs.lines[0].count[1] = 4294967295u;		/* CPU 1: unchanged at 2^32 - 1 */
	p.irqs.lines[0].count[1] = 4294967295u;
	synth_run(&run, "irq.cpu-rate", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	f = synth_first(&run);
	assert_true(has_text(f->summary, "100% of eth0's queue interrupts (3,000/s"));
	assert_true(ev_value(f, "interrupt_rate") == 3000.0);
	assert_true(ev_value(f, "cpu3.interrupts") == 3000.0);
	assert_int_equal(ev_value(f, "active_queue_irqs"), 2);
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

/* 4096 CPUs, counts stored sparse (what the parser keeps for a pinned queue IRQ): the interval
 * per CPU comes out as with dense storage, at the last column too. */
static void test_cpu_rate_sparse_4096(void **state)
{
	static const int spread[2] = { 4095, 2048 };
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;
	uint64_t *v = calloc(4096, sizeof(*v));

	(void)state;
	assert_non_null(v);
	synth_init(&p, 0);
	synth_init(&c, 1);
	irqs(&p, 4096, 2, spread);
	irqs(&c, 4096, 2, spread);
	for (int i = 0; i < 2; i++) {
		v[spread[i]] = 4000000000u;
		assert_int_equal(np_irq_set_counts(&p.irqs.lines[i], v, 4096), 0);
		v[spread[i]] += i ? 10000 : 90000;	/* 90% on CPU 4095 */
		assert_int_equal(np_irq_set_counts(&c.irqs.lines[i], v, 4096), 0);
		v[spread[i]] = 0;
		assert_non_null(c.irqs.lines[i].cols);	/* sparse */
		assert_int_equal(c.irqs.lines[i].ncount, 1);
	}
	synth_run(&run, "irq.cpu-rate", &p, &c, NAN, NAN);
	/* 90% is the warning threshold, not above it: nothing; then 95%. */
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	v[4095] = 4000000000u + 190000;
	assert_int_equal(np_irq_set_counts(&c.irqs.lines[0], v, 4096), 0);
	synth_run(&run, "irq.cpu-rate", &p, &c, NAN, NAN);
	/* 95% from the queue IRQ alone on CPU 4095: the traffic lands in one queue (info). */
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	f = synth_first(&run);
	assert_true(has_text(f->summary, "come from one of its 2 queue IRQs"));
	assert_true(ev_value(f, "cpu4095.interrupts") == 190000.0);
	assert_true(ev_value(f, "cpu2048.interrupts") == 10000.0);
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
	free(v);
}

static void test_cpu_rate_pinned_one_busy(void **state)
{
	static const int own[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	synth_init(&p, 0);
	synth_init(&c, 2);
	synth_softnet(&c, 16);
	irqs(&p, 16, 8, own);
	irqs(&c, 16, 8, own);
	c.irqs.lines[0].count[0] = 800000;
	for (int i = 1; i < 8; i++)
		c.irqs.lines[i].count[i] = 28000;	/* 2.8% each */
	synth_run(&run, "irq.cpu-rate", NULL, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);

	/* The interval: queue 0 takes 95% of 200,000/s. */
	for (int i = 0; i < 8; i++)
		p.irqs.lines[i].count[i] = c.irqs.lines[i].count[i];
	c.irqs.lines[0].count[0] += 380000;
	for (int i = 1; i < 8; i++)
		c.irqs.lines[i].count[i] += 2857;
	synth_run(&run, "irq.cpu-rate", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	f = synth_first(&run);
	assert_true(has_text(f->summary, "come from one of its 8 queue IRQs (eth0-TxRx-0)"));
	assert_false(has_text(f->summary, "land on CPU"));
	assert_false(has_text(f->remedy, "smp_affinity_list"));
	assert_true(has_text(f->remedy, "rx-flow-hash udp4"));
	assert_true(has_text(f->remedy, "rps_cpus"));
	assert_true(has_text(f->detail, "PPPoE"));
	assert_true(has_text(f->detail, "already has a CPU of its own"));
	assert_true(ev_value(f, "busiest_queue_irq") == 100.0);
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

/* Since boot, busy queues sharing CPU 0 while their affinity in force already gives each a CPU
 * of its own (they were moved since): the finding stands (where they were served) but no echo
 * proposes the placement already in force. */
static void test_cpu_rate_no_placement_in_force(void **state)
{
	static const int own[4] = { 0, 1, 2, 3 };
	struct np_snapshot c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	synth_init(&c, 0);
	irqs(&c, 4, 4, own);
	for (int i = 0; i < 4; i++)
		c.irqs.lines[i].count[0] = 40000;
	synth_run(&run, "irq.cpu-rate", NULL, &c, NAN, NAN);
	f = synth_first(&run);
	assert_non_null(f);
	assert_false(has_text(f->remedy, "smp_affinity_list"));
	assert_true(has_text(f->detail, "nothing to move"));
	synth_run_free(&run);
	np_snapshot_free(&c);
}

/* One queue IRQ (virtio_net with one queue pair enabled), all on CPU 1 since boot: the fix is
 * the channel count and the hypervisor's queue count, or RPS; never pinning. */
static void test_cpu_rate_single_queue(void **state)
{
	static const int one[1] = { 1 };
	struct np_snapshot c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	synth_init(&c, 0);
	irqs(&c, 4, 1, one);
	snprintf(c.irqs.lines[0].name, sizeof(c.irqs.lines[0].name), "virtio0-input.0");
	snprintf(c.dev.driver, sizeof(c.dev.driver), "virtio_net");
	c.irqs.lines[0].count[1] = 500000;
	synth_run(&run, "irq.cpu-rate", NULL, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	f = synth_first(&run);
	assert_true(has_text(f->detail, "one queue IRQ"));
	assert_true(has_text(f->remedy, "ethtool -L eth0 combined N"));
	assert_true(has_text(f->remedy, "queues='N'"));
	assert_true(has_text(f->remedy, "rps_cpus"));
	assert_false(has_text(f->remedy, "smp_affinity_list"));
	synth_run_free(&run);

	/* RPS already set: not proposed again, the detail says so. */
	c.dev.n_rxq = 1;
	c.dev.rxq = calloc(1, sizeof(*c.dev.rxq));
	assert_non_null(c.dev.rxq);
	c.dev.rxq[0].has_rps = true;
	np_cpuset_set(&c.dev.rxq[0].rps_cpus, 2);
	synth_run(&run, "irq.cpu-rate", NULL, &c, NAN, NAN);
	f = synth_first(&run);
	assert_false(has_text(f->remedy, "rps_cpus"));
	assert_true(has_text(f->detail, "RPS is already set"));
	synth_run_free(&run);
	np_snapshot_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_rate),
		cmocka_unit_test(test_cpu_rate_columns_by_cpu),
		cmocka_unit_test(test_cpu_rate_wraps),
		cmocka_unit_test(test_cpu_rate_sparse_4096),
		cmocka_unit_test(test_cpu_rate_pinned_one_busy),
		cmocka_unit_test(test_cpu_rate_no_placement_in_force),
		cmocka_unit_test(test_cpu_rate_single_queue),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
