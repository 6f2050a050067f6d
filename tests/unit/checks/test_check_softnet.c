// SPDX-License-Identifier: GPL-2.0-only
/*
 * Checks of stage "softnet" on synthetic snapshots: the backlog (drops, which interface's
 * load to spread, inside a network namespace, flow limit, netdev_max_backlog). (Time squeeze
 * and single-CPU processing: test_check_softnet_squeeze.c.)
 */
#include "synth.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "softnet_fixture.h"

static void test_backlog_drops(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	pair(&p, &c, 2, 4);
	synth_sysctl(&c, "net.core.netdev_max_backlog", "1000");
	p.hs->softnet.rows[2].dropped = 1000;
	c.hs->softnet.rows[2].dropped = 1400;	/* 200/s on CPU 2: above crit */
	synth_run(&run, "softnet.backlog-drops", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
	f = synth_first(&run);
	assert_true(synth_has_ev(f, "cpu2.dropped"));
	assert_true(synth_has_ev(f, "netdev_max_backlog"));
	assert_true(has_text(f->summary, "CPU 2: 200/s"));
	assert_true(has_text(f->detail, "host-global"));
	assert_true(has_text(f->detail, "spreading"));	/* all on one of 4 CPUs */
	assert_true(has_text(f->remedy, "sysctl -w net.core.netdev_max_backlog=4096"));
	assert_true(has_text(f->remedy, "Cost:"));
	assert_true(f->rank > 199 && f->rank < 201);
	synth_run_free(&run);

	/* 10G+: at least 16384. Drops spread over all CPUs: no "spreading" advice. */
	c.dev.speed_mbps = 25000;
	for (size_t i = 0; i < 4; i++) {
		p.hs->softnet.rows[i].dropped = 10;
		c.hs->softnet.rows[i].dropped = 14;	/* 2/s per CPU, 8/s in all: warning */
	}
	synth_run(&run, "softnet.backlog-drops", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	f = synth_first(&run);
	assert_true(has_text(f->remedy, "netdev_max_backlog=16384"));
	assert_false(has_text(f->detail, "spreading"));
	synth_run_free(&run);

	/* A 32-bit wrap is one wrap, not a huge negative number: 32 drops in 2 s. */
	for (size_t i = 0; i < 4; i++)
		p.hs->softnet.rows[i].dropped = c.hs->softnet.rows[i].dropped = 0;
	p.hs->softnet.rows[1].dropped = 0xfffffff0ull;
	c.hs->softnet.rows[1].dropped = 0x10;
	synth_run(&run, "softnet.backlog-drops", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	assert_int_equal(synth_first(&run)->ev[0].delta, 32);
	synth_run_free(&run);

	/* Since boot only: never critical. */
	c.hs->softnet.rows[1].dropped = 5000000;
	synth_run(&run, "softnet.backlog-drops", NULL, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);

	/* Past drops, none during the sample: info; no CPU dropped during the sample, so no
	 * empty "()" where the list of CPUs would be. */
	p.hs->softnet.rows[1].dropped = 5000000;
	synth_run(&run, "softnet.backlog-drops", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	assert_true(has_text(synth_first(&run)->summary, "none during the sample"));
	assert_false(has_text(synth_first(&run)->summary, "()"));
	synth_run_free(&run);

	/* Never dropped: quiet. */
	p.hs->softnet.rows[1].dropped = c.hs->softnet.rows[1].dropped = 0;
	synth_run(&run, "softnet.backlog-drops", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	assert_int_equal(synth_state(&run), NP_CHECK_PASSED);
	synth_run_free(&run);

	/* No softnet_stat: skipped. */
	np_srcp(&c, NP_SRC_SOFTNET)->status = NP_SRC_ABSENT;
	synth_run(&run, "softnet.backlog-drops", &p, &c, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	free_pair(&p, &c);
}

/* Inside a network namespace netdev_max_backlog (host-global) is not readable: the summary
 * must not print the assumed default as if it had been read (scenario 2 set it to 8). */
static void test_backlog_drops_netns(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;
	struct np_sysctl *e;

	(void)state;
	pair(&p, &c, 2, 2);
	p.hs->softnet.rows[1].dropped = 1000;
	c.hs->softnet.rows[1].dropped = 4000;	/* 1,500/s on CPU 1 */
	/* What the sysctl collector records inside a child namespace. */
	e = np_sysctl_add(&c.hs->sysctl, "net.core.netdev_max_backlog");
	assert_non_null(e);
	e->err = ENOENT;
	e->host_wide = true;
	synth_run(&run, "softnet.backlog-drops", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
	f = synth_first(&run);
	assert_true(has_text(f->summary, "CPU 1: 1,500/s"));
	assert_false(has_text(f->summary, "netdev_max_backlog=1000"));
	assert_true(has_text(f->summary,
			     "netdev_max_backlog host-wide, not visible in this network namespace"));
	assert_false(synth_has_ev(f, "netdev_max_backlog"));
	assert_true(synth_has_ev(f, "netdev_max_backlog_assumed"));
	synth_run_free(&run);
	/* Read: the real value, under its own key. */
	synth_sysctl(&c, "net.core.netdev_max_backlog", "8");
	synth_run(&run, "softnet.backlog-drops", &p, &c, NAN, NAN);
	f = synth_first(&run);
	assert_true(has_text(f->summary, "netdev_max_backlog=8"));
	assert_true(synth_has_ev(f, "netdev_max_backlog"));
	assert_false(synth_has_ev(f, "netdev_max_backlog_assumed"));
	synth_run_free(&run);
	free_pair(&p, &c);
}

/* eth0's queue IRQs 100.., IRQ i delivered to CPU cpus[i]. */
static void queue_irqs(struct np_snapshot *s, size_t ncpu, size_t nq, const int *cpus)
{
	s->irqs.ncols = ncpu;
	s->irqs.col_cpu = calloc(ncpu, sizeof(int));
	s->irqs.n = nq;
	s->irqs.lines = calloc(nq, sizeof(*s->irqs.lines));
	assert_non_null(s->irqs.col_cpu);
	assert_non_null(s->irqs.lines);
	for (size_t c = 0; c < ncpu; c++)
		s->irqs.col_cpu[c] = (int)c;
	for (size_t i = 0; i < nq; i++) {
		struct np_irq_line *l = &s->irqs.lines[i];

		l->irq = 100 + (unsigned)i;
		snprintf(l->name, sizeof(l->name), "eth0-TxRx-%zu", i);
		l->role = NP_IRQ_TXRX;
		l->count = calloc(ncpu, sizeof(*l->count));	/* dense */
		assert_non_null(l->count);
		l->ncount = ncpu;
		l->has_effective = l->has_affinity = true;
		np_cpuset_set(&l->effective, (unsigned)cpus[i]);
		np_cpuset_set(&l->affinity, (unsigned)cpus[i]);
	}
}

/* "Spread the load of eth0" only when the dropping CPUs serve eth0. */
static void test_backlog_drops_which_interface(void **state)
{
	static const int irq_cpus[2] = { 0, 1 };
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	pair(&p, &c, 2, 4);
	queue_irqs(&c, 4, 2, irq_cpus);
	rxqs(&c, 2);
	c.hs->softnet.rows[2].dropped = 400;	/* 200/s, all on CPU 2 */

	/* eth0's IRQs are on CPUs 0-1 and RPS is off: CPU 2's backlog is fed by something else. */
	synth_run(&run, "softnet.backlog-drops", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
	f = synth_first(&run);
	assert_false(has_text(f->remedy, "ethtool -L eth0"));
	assert_false(has_text(f->remedy, "/sys/class/net/eth0/queues"));
	assert_true(has_text(f->detail, "CPU 2 does not serve eth0"));
	assert_true(has_text(f->detail, "CPUs 0-1"));
	assert_true(has_text(f->detail, "host-wide"));
	assert_true(has_text(f->remedy, "land on CPU 2"));
	assert_true(has_text(f->remedy, "netdev_max_backlog"));
	synth_run_free(&run);

	/* RPS of eth0 targets CPU 2: the drops are eth0's to spread. */
	np_cpuset_set(&c.dev.rxq[0].rps_cpus, 2);
	synth_run(&run, "softnet.backlog-drops", &p, &c, NAN, NAN);
	f = synth_first(&run);
	assert_true(has_text(f->remedy, "ethtool -L eth0 combined N"));
	assert_false(has_text(f->detail, "does not serve"));
	synth_run_free(&run);
	np_cpuset_zero(&c.dev.rxq[0].rps_cpus);

	/* A queue IRQ of eth0 on CPU 2: likewise. */
	np_cpuset_zero(&c.irqs.lines[1].effective);
	np_cpuset_set(&c.irqs.lines[1].effective, 2);
	synth_run(&run, "softnet.backlog-drops", &p, &c, NAN, NAN);
	f = synth_first(&run);
	assert_true(has_text(f->remedy, "ethtool -L eth0 combined N"));
	assert_false(has_text(f->detail, "does not serve"));
	synth_run_free(&run);
	free_pair(&p, &c);
}

static void test_flow_limit(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	pair(&p, &c, 1, 2);
	synth_sysctl(&c, "net.core.flow_limit_cpu_bitmap", "3");
	c.hs->softnet.rows[1].flow_limit_count = 50;
	synth_run(&run, "softnet.flow-limit", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	f = synth_first(&run);
	assert_true(synth_has_ev(f, "flow_limit_count"));
	assert_true(synth_has_ev(f, "flow_limit_cpu_bitmap"));
	assert_true(has_text(f->detail, "flow_limit_cpu_bitmap"));
	assert_true(has_text(f->remedy, "Cost:"));
	synth_run_free(&run);

	synth_run(&run, "softnet.flow-limit", NULL, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);

	c.hs->softnet.rows[1].flow_limit_count = 0;
	synth_run(&run, "softnet.flow-limit", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);

	np_srcp(&c, NP_SRC_SOFTNET)->status = NP_SRC_ABSENT;
	synth_run(&run, "softnet.flow-limit", &p, &c, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	free_pair(&p, &c);
}

static void test_max_backlog(void **state)
{
	struct np_snapshot s;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	synth_init(&s, 0);
	synth_sysctl(&s, "net.core.netdev_max_backlog", "1000");
	s.dev.speed_mbps = 10000;
	synth_run(&run, "softnet.max-backlog", NULL, &s, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	f = synth_first(&run);
	assert_true(synth_has_ev(f, "netdev_max_backlog"));
	assert_true(has_text(f->remedy, "netdev_max_backlog=16384"));
	assert_true(has_text(f->remedy, "Cost:"));
	synth_run_free(&run);

	s.dev.speed_mbps = 1000;
	synth_run(&run, "softnet.max-backlog", NULL, &s, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);

	s.dev.speed_mbps = 25000;
	synth_sysctl(&s, "net.core.netdev_max_backlog", "8192");
	synth_run(&run, "softnet.max-backlog", NULL, &s, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);

	s.dev.speed_mbps = NP_NA;
	synth_run(&run, "softnet.max-backlog", NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&s);

	synth_init(&s, 0);
	s.dev.speed_mbps = 10000;
	synth_run(&run, "softnet.max-backlog", NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);

	/* Read inside a network namespace: the file is absent because the key is host-wide, and
	 * the skip says so (and what to do) instead of a bare "not readable". */
	{
		struct np_sysctl *e = np_sysctl_add(&s.hs->sysctl, "net.core.netdev_max_backlog");
		const char *why = NULL;

		assert_non_null(e);
		e->err = ENOENT;
		e->host_wide = true;
		synth_run(&run, "softnet.max-backlog", NULL, &s, NAN, NAN);
		assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
		for (size_t i = 0; i < run.r.nres; i++)
			if (run.r.res[i].state == NP_CHECK_SKIPPED)
				why = run.r.res[i].skip_reason;
		assert_non_null(why);
		assert_true(has_text(why, "host-wide"));
		assert_true(has_text(why, "--netns"));
		synth_run_free(&run);
	}
	np_snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_backlog_drops),
		cmocka_unit_test(test_backlog_drops_netns),
		cmocka_unit_test(test_backlog_drops_which_interface),
		cmocka_unit_test(test_flow_limit),
		cmocka_unit_test(test_max_backlog),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
