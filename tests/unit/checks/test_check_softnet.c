// SPDX-License-Identifier: GPL-2.0-only
/* Checks of stage "softnet" on synthetic snapshots. */
#include "synth.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* /proc/softirqs NET_RX counts for CPUs 0..n-1, all zero. */
static void softirqs(struct np_snapshot *s, size_t n)
{
	s->softirqs.n = n;
	s->softirqs.cpu = calloc(n, sizeof(int));
	s->softirqs.net_rx = calloc(n, sizeof(uint64_t));
	s->softirqs.net_tx = calloc(n, sizeof(uint64_t));
	assert_non_null(s->softirqs.cpu);
	assert_non_null(s->softirqs.net_rx);
	assert_non_null(s->softirqs.net_tx);
	for (size_t i = 0; i < n; i++)
		s->softirqs.cpu[i] = (int)i;
}

/* n rx queues, RPS off (rps_cpus readable and empty). */
static void rxqs(struct np_snapshot *s, size_t n)
{
	s->dev.n_rxq = n;
	s->dev.rxq = calloc(n, sizeof(*s->dev.rxq));
	assert_non_null(s->dev.rxq);
	for (size_t i = 0; i < n; i++)
		s->dev.rxq[i].has_rps = true;
}

static bool has_text(const char *hay, const char *needle)
{
	return strstr(hay, needle) != NULL;
}

static void pair(struct np_snapshot *p, struct np_snapshot *c, double dt, size_t ncpu)
{
	synth_init(p, 0);
	synth_init(c, dt);
	synth_softnet(p, ncpu);
	synth_softnet(c, ncpu);
}

static void free_pair(struct np_snapshot *p, struct np_snapshot *c)
{
	np_snapshot_free(p);
	np_snapshot_free(c);
}

static void test_backlog_drops(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	pair(&p, &c, 2, 4);
	synth_sysctl(&c, "net.core.netdev_max_backlog", "1000");
	p.softnet.rows[2].dropped = 1000;
	c.softnet.rows[2].dropped = 1400;	/* 200/s on CPU 2: above crit */
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
		p.softnet.rows[i].dropped = 10;
		c.softnet.rows[i].dropped = 14;	/* 2/s per CPU, 8/s in all: warning */
	}
	synth_run(&run, "softnet.backlog-drops", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	f = synth_first(&run);
	assert_true(has_text(f->remedy, "netdev_max_backlog=16384"));
	assert_false(has_text(f->detail, "spreading"));
	synth_run_free(&run);

	/* A 32-bit wrap is one wrap, not a huge negative number: 32 drops in 2 s. */
	for (size_t i = 0; i < 4; i++)
		p.softnet.rows[i].dropped = c.softnet.rows[i].dropped = 0;
	p.softnet.rows[1].dropped = 0xfffffff0ull;
	c.softnet.rows[1].dropped = 0x10;
	synth_run(&run, "softnet.backlog-drops", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	assert_int_equal(synth_first(&run)->ev[0].delta, 32);
	synth_run_free(&run);

	/* Since boot only: never critical. */
	c.softnet.rows[1].dropped = 5000000;
	synth_run(&run, "softnet.backlog-drops", NULL, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);

	/* Past drops, none during the sample: info; no CPU dropped during the sample, so no
	 * empty "()" where the list of CPUs would be. */
	p.softnet.rows[1].dropped = 5000000;
	synth_run(&run, "softnet.backlog-drops", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	assert_true(has_text(synth_first(&run)->summary, "none during the sample"));
	assert_false(has_text(synth_first(&run)->summary, "()"));
	synth_run_free(&run);

	/* Never dropped: quiet. */
	p.softnet.rows[1].dropped = c.softnet.rows[1].dropped = 0;
	synth_run(&run, "softnet.backlog-drops", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	assert_int_equal(synth_state(&run), NP_CHECK_PASSED);
	synth_run_free(&run);

	/* No softnet_stat: skipped. */
	c.src[NP_SRC_SOFTNET].status = NP_SRC_ABSENT;
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
	p.softnet.rows[1].dropped = 1000;
	c.softnet.rows[1].dropped = 4000;	/* 1,500/s on CPU 1 */
	/* What the sysctl collector records inside a child namespace. */
	e = np_sysctl_add(&c.sysctl, "net.core.netdev_max_backlog");
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
	c.softnet.rows[2].dropped = 400;	/* 200/s, all on CPU 2 */

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

static void test_time_squeeze_budget_binds(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	pair(&p, &c, 1, 2);
	softirqs(&p, 2);
	softirqs(&c, 2);
	synth_sysctl(&c, "net.core.netdev_budget", "300");
	synth_sysctl(&c, "net.core.netdev_budget_usecs", "2000");
	c.softnet.rows[0].time_squeeze = 200;	/* 200/s: above warn */
	c.softnet.rows[0].processed = 30000;
	c.softirqs.net_rx[0] = 100;		/* 300 packets per run: the budget */
	synth_run(&run, "softnet.time-squeeze", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	f = synth_first(&run);
	assert_true(has_text(f->summary, "packet budget"));
	assert_true(has_text(f->summary, "CPU 0: 200/s"));
	assert_true(synth_has_ev(f, "packets_per_net_rx_run"));
	assert_true(synth_has_ev(f, "cpu0.time_squeeze"));
	assert_true(has_text(f->detail, "not a drop"));
	assert_true(has_text(f->remedy, "sysctl -w net.core.netdev_budget=600"));
	assert_true(has_text(f->remedy, "Cost:"));
	synth_run_free(&run);

	/* Few packets per run and most runs squeeze: the time limit binds. */
	c.softnet.rows[0].processed = 2000;
	c.softirqs.net_rx[0] = 200;
	synth_run(&run, "softnet.time-squeeze", &p, &c, NAN, NAN);
	f = synth_first(&run);
	assert_true(has_text(f->summary, "out of time"));
	assert_true(has_text(f->detail, "will not help"));
	assert_false(has_text(f->remedy, "netdev_budget=600"));
	assert_true(has_text(f->remedy, "netdev_budget_usecs=4000"));
	synth_run_free(&run);

	/* Same skbs, but rx_packets shows GRO merged 30 frames each: the budget binds. */
	p.dev.stats.rx_packets = 0;
	c.dev.stats.rx_packets = 60000;
	synth_run(&run, "softnet.time-squeeze", &p, &c, NAN, NAN);
	f = synth_first(&run);
	assert_true(has_text(f->summary, "packet budget"));
	assert_true(synth_has_ev(f, "gro_merge_factor"));
	synth_run_free(&run);

	/* Without /proc/softirqs the binding limit is not guessed. Threaded NAPI is named. */
	c.src[NP_SRC_SOFTIRQS].status = NP_SRC_ABSENT;
	c.dev.threaded = 1;
	synth_run(&run, "softnet.time-squeeze", &p, &c, NAN, NAN);
	f = synth_first(&run);
	assert_true(has_text(f->summary, "budget or time"));
	assert_true(has_text(f->detail, "Threaded NAPI"));
	assert_false(synth_has_ev(f, "packets_per_net_rx_run"));
	synth_run_free(&run);
	free_pair(&p, &c);
}

/* Before 4.12 there is no netdev_budget_usecs: never suggest it, say the limit is fixed. */
static void test_time_squeeze_no_budget_usecs(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;
	struct np_sysctl *e;

	(void)state;
	pair(&p, &c, 1, 2);
	softirqs(&p, 2);
	softirqs(&c, 2);
	synth_sysctl(&c, "net.core.netdev_budget", "300");
	e = np_sysctl_add(&c.sysctl, "net.core.netdev_budget_usecs");
	assert_non_null(e);
	e->err = ENOENT;			/* what the collector records on 4.9 */
	snprintf(c.host.kernel, sizeof(c.host.kernel), "4.9.0-19-amd64");
	c.softnet.rows[0].time_squeeze = 200;
	c.softnet.rows[0].processed = 30000;
	c.softirqs.net_rx[0] = 100;		/* 300 packets per run: the budget binds */
	synth_run(&run, "softnet.time-squeeze", &p, &c, NAN, NAN);
	f = synth_first(&run);
	assert_true(has_text(f->summary, "packet budget"));
	assert_true(has_text(f->remedy, "sysctl -w net.core.netdev_budget=600"));
	assert_false(has_text(f->remedy, "netdev_budget_usecs"));
	assert_true(has_text(f->detail, "fixed at 2 jiffies"));
	assert_true(has_text(f->remedy, "Cost:"));
	synth_run_free(&run);

	/* The time limit binds and cannot be raised here: find the per-packet cost instead. */
	c.softnet.rows[0].processed = 2000;
	c.softirqs.net_rx[0] = 200;
	synth_run(&run, "softnet.time-squeeze", &p, &c, NAN, NAN);
	f = synth_first(&run);
	assert_true(has_text(f->summary, "out of time"));
	assert_false(has_text(f->remedy, "sysctl -w"));
	assert_true(has_text(f->remedy, "perf top -C 0"));
	assert_true(has_text(f->detail, "fixed at 2 jiffies"));
	synth_run_free(&run);

	/* The same absence on a 6.x kernel inside a container (netdev_max_backlog is missing
	 * too): the sysctl is host-wide, not "before 4.12". */
	snprintf(c.host.kernel, sizeof(c.host.kernel), "6.18.44");
	e = np_sysctl_add(&c.sysctl, "net.core.netdev_max_backlog");
	assert_non_null(e);
	e->err = ENOENT;
	e->host_wide = true;
	((struct np_sysctl *)np_sysctl_find(&c, NP_SYSCTL_NETDEV_BUDGET_USECS))->host_wide = true;
	synth_run(&run, "softnet.time-squeeze", &p, &c, NAN, NAN);
	f = synth_first(&run);
	assert_false(has_text(f->detail, "4.12"));
	assert_true(has_text(f->detail, "host-wide"));
	synth_run_free(&run);

	/* A capture that lacks the file: "not in this capture", no kernel story. */
	c.captured = true;
	synth_run(&run, "softnet.time-squeeze", &p, &c, NAN, NAN);
	f = synth_first(&run);
	assert_false(has_text(f->detail, "4.12"));
	assert_true(has_text(f->detail, "not in this capture"));
	synth_run_free(&run);

	/* Impossible values from a damaged tree (INT64_MIN, a negative budget): no undefined
	 * arithmetic, no negative or overflowed number in a remedy; the defaults stand in. */
	c.captured = false;
	synth_sysctl(&c, "net.core.netdev_budget", "-5");
	synth_sysctl(&c, "net.core.netdev_budget_usecs", "-9223372036854775808");
	synth_run(&run, "softnet.time-squeeze", &p, &c, NAN, NAN);
	f = synth_first(&run);
	assert_false(has_text(f->remedy, "=-"));
	assert_false(has_text(f->remedy, "9223372036854775"));
	assert_true(synth_has_ev(f, "netdev_budget_assumed"));
	synth_run_free(&run);

	/* No sysctls read at all: no usecs line either. */
	np_snapshot_free(&c);
	synth_init(&c, 1);
	synth_softnet(&c, 2);
	c.softnet.rows[0].time_squeeze = 200;
	synth_run(&run, "softnet.time-squeeze", &p, &c, NAN, NAN);
	f = synth_first(&run);
	assert_false(has_text(f->remedy, "netdev_budget_usecs"));
	assert_true(has_text(f->remedy, "netdev_budget=600"));
	synth_run_free(&run);
	free_pair(&p, &c);
}

static void test_time_squeeze_quiet_and_history(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;

	(void)state;
	pair(&p, &c, 1, 2);
	synth_run(&run, "softnet.time-squeeze", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	assert_int_equal(synth_state(&run), NP_CHECK_PASSED);
	synth_run_free(&run);

	/* A few squeezes per second: below warn, info. */
	c.softnet.rows[1].time_squeeze = 5;
	synth_run(&run, "softnet.time-squeeze", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);

	/* Since boot only: at most info. */
	c.softnet.rows[1].time_squeeze = 9000000;
	synth_run(&run, "softnet.time-squeeze", NULL, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);

	c.src[NP_SRC_SOFTNET].status = NP_SRC_DENIED;
	synth_run(&run, "softnet.time-squeeze", NULL, &c, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
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
	c.softnet.rows[1].flow_limit_count = 50;
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

	c.softnet.rows[1].flow_limit_count = 0;
	synth_run(&run, "softnet.flow-limit", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);

	c.src[NP_SRC_SOFTNET].status = NP_SRC_ABSENT;
	synth_run(&run, "softnet.flow-limit", &p, &c, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	free_pair(&p, &c);
}

static void test_single_cpu_sampled(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	pair(&p, &c, 1, 4);
	c.dev.has_device = true;
	rxqs(&c, 1);
	c.softnet.rows[1].processed = 95000;	/* 95% on CPU 1 */
	c.softnet.rows[0].processed = 5000;
	c.softnet.rows[1].dropped = 10;
	synth_run(&run, "softnet.single-cpu", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	f = synth_first(&run);
	assert_true(has_text(f->summary, "CPU 1"));
	assert_true(synth_has_ev(f, "busiest_cpu_share"));
	assert_true(synth_has_ev(f, "busiest_cpu.dropped"));
	/* CPUs 0, 2, 3: mask 0xd. */
	assert_true(has_text(f->remedy, "echo d > /sys/class/net/eth0/queues/rx-0/rps_cpus"));
	assert_true(has_text(f->remedy, "rps_sock_flow_entries"));
	assert_true(has_text(f->remedy, "Cost:"));
	synth_run_free(&run);

	/* The busy CPU neither drops nor squeezes: info. */
	c.softnet.rows[1].dropped = 0;
	synth_run(&run, "softnet.single-cpu", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);

	/* Spread evenly: quiet. */
	for (size_t i = 0; i < 4; i++)
		c.softnet.rows[i].processed = 25000;
	synth_run(&run, "softnet.single-cpu", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);

	/* RPS on: quiet whatever the load. */
	c.softnet.rows[1].processed = 95000;
	np_cpuset_set(&c.dev.rxq[0].rps_cpus, 2);
	synth_run(&run, "softnet.single-cpu", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	assert_int_equal(synth_state(&run), NP_CHECK_PASSED);
	synth_run_free(&run);
	free_pair(&p, &c);
}

static void test_single_cpu_config(void **state)
{
	struct np_snapshot s;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	synth_init(&s, 0);
	synth_softnet(&s, 40);
	s.dev.has_device = false;		/* veth-like */
	rxqs(&s, 1);
	synth_run(&run, "softnet.single-cpu", NULL, &s, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	f = synth_first(&run);
	assert_true(has_text(f->summary, "virtual"));
	/* 40 CPUs, none busy known: two 32-bit groups. */
	assert_true(has_text(f->remedy, "echo ff,ffffffff > "));
	synth_run_free(&run);

	/* A multi-queue physical NIC: not this check's business. */
	s.dev.has_device = true;
	free(s.dev.rxq);
	rxqs(&s, 8);
	synth_run(&run, "softnet.single-cpu", NULL, &s, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);

	/* Two CPUs without an interval: nothing worth saying. */
	synth_softnet(&s, 2);
	free(s.dev.rxq);
	rxqs(&s, 1);
	synth_run(&run, "softnet.single-cpu", NULL, &s, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);

	/* rps_cpus unreadable, or no queues known: skipped. */
	s.dev.rxq[0].has_rps = false;
	synth_run(&run, "softnet.single-cpu", NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	s.dev.n_rxq = 0;
	synth_run(&run, "softnet.single-cpu", NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&s);
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
		struct np_sysctl *e = np_sysctl_add(&s.sysctl, "net.core.netdev_max_backlog");
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
		cmocka_unit_test(test_time_squeeze_budget_binds),
		cmocka_unit_test(test_time_squeeze_no_budget_usecs),
		cmocka_unit_test(test_time_squeeze_quiet_and_history),
		cmocka_unit_test(test_flow_limit),
		cmocka_unit_test(test_single_cpu_sampled),
		cmocka_unit_test(test_single_cpu_config),
		cmocka_unit_test(test_max_backlog),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
