// SPDX-License-Identifier: GPL-2.0-only
/* Checks of stage "irq" on synthetic snapshots: placement, NUMA, irqbalance (irq.cpu-rate's
 * tests are in test_check_irq_rate.c). */
#include "irq_fixture.h"

static void test_affinity_all_on_one(void **state)
{
	static const int zero[4] = { 0, 0, 0, 0 };
	static const int spread[4] = { 0, 1, 2, 3 };
	static const int halves[4] = { 0, 0, 1, 1 };
	static const int three[4] = { 0, 1, 2, 2 };
	struct np_snapshot s;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	synth_init(&s, 0);
	synth_softnet(&s, 8);
	irqs(&s, 8, 4, zero);
	s.hs->host.irqbalance = 1;
	synth_run(&run, "irq.affinity", NULL, &s, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	f = synth_first(&run);
	assert_true(has_text(f->summary, "All 4 queue IRQs"));
	assert_true(synth_has_ev(f, "irq_cpus"));
	/* IRQ 100 is already on CPU 0: an echo would change nothing, so none is printed. */
	assert_false(has_text(f->remedy, "/proc/irq/100/"));
	assert_true(has_text(f->remedy, "echo 1 > /proc/irq/101/smp_affinity_list"));
	assert_true(has_text(f->remedy, "echo 3 > /proc/irq/103/smp_affinity_list"));
	assert_true(has_text(f->remedy, "banirq"));
	assert_true(has_text(f->remedy, "ethtool -L eth0"));	/* managed IRQs */
	assert_true(has_text(f->remedy, "Cost:"));
	synth_run_free(&run);
	np_snapshot_free(&s);

	/* NUMA-local CPUs 4-7: the remedy pins there. */
	synth_init(&s, 0);
	synth_softnet(&s, 8);
	irqs(&s, 8, 4, zero);
	local_cpus(&s, 1, 4, 7);
	synth_run(&run, "irq.affinity", NULL, &s, NAN, NAN);
	f = synth_first(&run);
	assert_true(has_text(f->remedy, "echo 4 > /proc/irq/100/smp_affinity_list"));
	assert_true(has_text(f->remedy, "echo 7 > /proc/irq/103/smp_affinity_list"));
	synth_run_free(&run);
	np_snapshot_free(&s);

	/* One IRQ per CPU: quiet. */
	synth_init(&s, 0);
	synth_softnet(&s, 8);
	irqs(&s, 8, 4, spread);
	synth_run(&run, "irq.affinity", NULL, &s, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	assert_int_equal(synth_state(&run), NP_CHECK_PASSED);
	synth_run_free(&run);
	np_snapshot_free(&s);

	/* Four IRQs on two CPUs: warning; on three: info. */
	synth_init(&s, 0);
	synth_softnet(&s, 8);
	irqs(&s, 8, 4, halves);
	synth_run(&run, "irq.affinity", NULL, &s, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	assert_true(has_text(synth_first(&run)->summary, "share 2 CPUs"));
	synth_run_free(&run);
	np_snapshot_free(&s);
	synth_init(&s, 0);
	synth_softnet(&s, 8);
	irqs(&s, 8, 4, three);
	synth_run(&run, "irq.affinity", NULL, &s, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);
	np_snapshot_free(&s);
}

static void test_affinity_hot_cpus(void **state)
{
	static const int spread[4] = { 0, 1, 2, 3 };
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	synth_init(&p, 0);
	synth_init(&c, 1);
	synth_softnet(&p, 16);
	synth_softnet(&c, 16);
	irqs(&c, 16, 4, spread);
	for (int i = 0; i < 4; i++)
		c.hs->softnet.rows[i].dropped = 50;	/* 200/s on the IRQ CPUs */
	synth_run(&run, "irq.affinity", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
	f = synth_first(&run);
	assert_true(has_text(f->summary, "4 CPUs serving eth0"));
	assert_true(synth_has_ev(f, "softnet_drops_on_irq_cpus"));
	assert_true(has_text(f->remedy, "ethtool -L eth0 combined 16"));
	/* Each IRQ already owns its CPU: no echo lines that would change nothing, but more
	 * queues or RPS to the other CPUs (4-15 = fff0), and the managed-IRQ note. */
	assert_false(has_text(f->remedy, "smp_affinity_list"));
	assert_true(has_text(f->detail, "pinning will not help"));
	assert_true(has_text(f->remedy, "echo fff0 > $q/rps_cpus"));
	assert_true(has_text(f->remedy, "Input/output error"));
	synth_run_free(&run);

	/* Two IRQs share CPU 1: only the one that moves gets an echo line. */
	c.irqs.lines[2].effective.w[0] = c.irqs.lines[2].affinity.w[0] = 1ull << 1;
	synth_run(&run, "irq.affinity", &p, &c, NAN, NAN);
	f = synth_first(&run);
	assert_false(has_text(f->detail, "pinning will not help"));
	assert_true(has_text(f->remedy, "echo 2 > /proc/irq/102/smp_affinity_list"));
	assert_false(has_text(f->remedy, "/proc/irq/100/"));
	assert_false(has_text(f->remedy, "/proc/irq/101/"));
	assert_false(has_text(f->remedy, "/proc/irq/103/"));
	synth_run_free(&run);
	c.irqs.lines[2].effective.w[0] = c.irqs.lines[2].affinity.w[0] = 1ull << 2;

	for (int i = 0; i < 4; i++)
		c.hs->softnet.rows[i].dropped = i == 0 ? 5 : 0;
	synth_run(&run, "irq.affinity", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	synth_run_free(&run);

	/* Drops elsewhere (not on the IRQ CPUs): not this finding, and the spread is fine. */
	c.hs->softnet.rows[0].dropped = 0;
	c.hs->softnet.rows[9].dropped = 500;
	synth_run(&run, "irq.affinity", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

static void test_affinity_skips(void **state)
{
	static const int zero[2] = { 0, 0 };
	struct np_snapshot s;
	struct synth_run run;

	(void)state;
	synth_init(&s, 0);
	synth_softnet(&s, 4);
	synth_run(&run, "irq.affinity", NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);	/* no queue IRQs */
	synth_run_free(&run);

	irqs(&s, 4, 2, zero);
	s.irqs.lines[0].role = s.irqs.lines[1].role = NP_IRQ_OTHER;
	synth_run(&run, "irq.affinity", NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);

	s.irqs.lines[0].role = s.irqs.lines[1].role = NP_IRQ_RX;
	np_srcp(&s, NP_SRC_IRQ_AFFINITY)->status = NP_SRC_DENIED;
	synth_run(&run, "irq.affinity", NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);

	np_srcp(&s, NP_SRC_IRQ_AFFINITY)->status = NP_SRC_OK;
	np_srcp(&s, NP_SRC_INTERRUPTS)->status = NP_SRC_ABSENT;
	synth_run(&run, "irq.affinity", NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&s);
}

static void test_numa(void **state)
{
	static const int remote[4] = { 0, 1, 8, 9 };
	static const int local[4] = { 0, 1, 2, 3 };
	struct np_snapshot s;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	synth_init(&s, 0);
	synth_softnet(&s, 16);
	irqs(&s, 16, 4, remote);
	local_cpus(&s, 0, 0, 7);
	synth_run(&run, "irq.numa", NULL, &s, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	f = synth_first(&run);
	assert_true(has_text(f->summary, "2 of 4 queue IRQs"));
	assert_true(synth_has_ev(f, "irq102"));
	assert_true(synth_has_ev(f, "irq103"));
	assert_false(synth_has_ev(f, "irq100"));
	assert_true(has_text(f->remedy, "echo 0 > /proc/irq/102/smp_affinity_list"));
	assert_true(has_text(f->remedy, "echo 1 > /proc/irq/103/smp_affinity_list"));
	assert_false(has_text(f->remedy, "/proc/irq/100/"));
	synth_run_free(&run);
	np_snapshot_free(&s);

	/* All local: quiet. */
	synth_init(&s, 0);
	synth_softnet(&s, 16);
	irqs(&s, 16, 4, local);
	local_cpus(&s, 0, 0, 7);
	synth_run(&run, "irq.numa", NULL, &s, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);

	/* A configured mask spanning both nodes without effective affinity: not provably remote. */
	s.irqs.lines[0].has_effective = false;
	for (unsigned cpu = 0; cpu < 16; cpu++)
		np_cpuset_set(&s.irqs.lines[0].affinity, cpu);
	synth_run(&run, "irq.numa", NULL, &s, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	np_snapshot_free(&s);

	/* Single node (local = all online): quiet. Unknown locality: skipped. */
	synth_init(&s, 0);
	synth_softnet(&s, 16);
	irqs(&s, 16, 4, remote);
	local_cpus(&s, 0, 0, 15);
	synth_run(&run, "irq.numa", NULL, &s, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	s.dev.has_local_cpus = false;
	synth_run(&run, "irq.numa", NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&s);
}

static void test_irqbalance(void **state)
{
	static const int zero[4] = { 0, 0, 0, 0 };
	static const int spread[4] = { 0, 1, 2, 3 };
	struct np_snapshot s;
	struct synth_run run;

	(void)state;
	synth_init(&s, 0);
	synth_softnet(&s, 8);
	irqs(&s, 8, 4, zero);
	synth_run(&run, "irq.irqbalance", NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);	/* unknown */
	synth_run_free(&run);

	s.hs->host.irqbalance = 1;
	synth_run(&run, "irq.irqbalance", NULL, &s, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	assert_true(has_text(synth_first(&run)->remedy, "banirq"));
	synth_run_free(&run);

	s.hs->host.irqbalance = 0;
	synth_run(&run, "irq.irqbalance", NULL, &s, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	assert_true(has_text(synth_first(&run)->summary, "not running"));
	synth_run_free(&run);
	np_snapshot_free(&s);

	/* Not running, but the IRQs are spread: nothing to say. */
	synth_init(&s, 0);
	synth_softnet(&s, 8);
	irqs(&s, 8, 4, spread);
	s.hs->host.irqbalance = 0;
	synth_run(&run, "irq.irqbalance", NULL, &s, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	assert_int_equal(synth_state(&run), NP_CHECK_PASSED);
	synth_run_free(&run);
	np_snapshot_free(&s);
}

/*
 * 8 queue IRQs already pinned one per CPU (0-7) on a 16-CPU host, queue 0 busier than the rest
 * (the setup of openwrt/openwrt#13493: eth3-fp-0..7 bound to CPUs 0-7, the traffic on the
 * first queue). Since boot this is no placement problem: nothing says the queues "landed on 1
 * CPU" and no echo re-proposes the placement in force. Over an interval with queue 0 at 95%,
 * the finding names the cause (one queue) and its fixes, never pinning.
 */
int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_affinity_all_on_one),
		cmocka_unit_test(test_affinity_hot_cpus),
		cmocka_unit_test(test_affinity_skips),
		cmocka_unit_test(test_numa),
		cmocka_unit_test(test_irqbalance),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
