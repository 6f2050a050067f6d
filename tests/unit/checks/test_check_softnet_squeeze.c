// SPDX-License-Identifier: GPL-2.0-only
/*
 * Checks of stage "softnet" on synthetic snapshots: time squeeze (the budget that binds, kernels
 * without netdev_budget_usecs, quiet and history) and receive processing on a single CPU.
 */
#include "synth.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "softnet_fixture.h"

/* /proc/softirqs NET_RX counts for CPUs 0..n-1, all zero. */
static void softirqs(struct np_snapshot *s, size_t n)
{
	s->hs->softirqs.n = n;
	s->hs->softirqs.cpu = calloc(n, sizeof(int));
	s->hs->softirqs.net_rx = calloc(n, sizeof(uint64_t));
	s->hs->softirqs.net_tx = calloc(n, sizeof(uint64_t));
	assert_non_null(s->hs->softirqs.cpu);
	assert_non_null(s->hs->softirqs.net_rx);
	assert_non_null(s->hs->softirqs.net_tx);
	for (size_t i = 0; i < n; i++)
		s->hs->softirqs.cpu[i] = (int)i;
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
	c.hs->softnet.rows[0].time_squeeze = 200;	/* 200/s: above warn */
	c.hs->softnet.rows[0].processed = 30000;
	c.hs->softirqs.net_rx[0] = 100;		/* 300 packets per run: the budget */
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
	c.hs->softnet.rows[0].processed = 2000;
	c.hs->softirqs.net_rx[0] = 200;
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
	np_srcp(&c, NP_SRC_SOFTIRQS)->status = NP_SRC_ABSENT;
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
	e = np_sysctl_add(&c.hs->sysctl, "net.core.netdev_budget_usecs");
	assert_non_null(e);
	e->err = ENOENT;			/* what the collector records on 4.9 */
	snprintf(c.hs->host.kernel, sizeof(c.hs->host.kernel), "4.9.0-19-amd64");
	c.hs->softnet.rows[0].time_squeeze = 200;
	c.hs->softnet.rows[0].processed = 30000;
	c.hs->softirqs.net_rx[0] = 100;		/* 300 packets per run: the budget binds */
	synth_run(&run, "softnet.time-squeeze", &p, &c, NAN, NAN);
	f = synth_first(&run);
	assert_true(has_text(f->summary, "packet budget"));
	assert_true(has_text(f->remedy, "sysctl -w net.core.netdev_budget=600"));
	assert_false(has_text(f->remedy, "netdev_budget_usecs"));
	assert_true(has_text(f->detail, "fixed at 2 jiffies"));
	assert_true(has_text(f->remedy, "Cost:"));
	synth_run_free(&run);

	/* The time limit binds and cannot be raised here: find the per-packet cost instead. */
	c.hs->softnet.rows[0].processed = 2000;
	c.hs->softirqs.net_rx[0] = 200;
	synth_run(&run, "softnet.time-squeeze", &p, &c, NAN, NAN);
	f = synth_first(&run);
	assert_true(has_text(f->summary, "out of time"));
	assert_false(has_text(f->remedy, "sysctl -w"));
	assert_true(has_text(f->remedy, "perf top -C 0"));
	assert_true(has_text(f->detail, "fixed at 2 jiffies"));
	synth_run_free(&run);

	/* The same absence on a 6.x kernel inside a container (netdev_max_backlog is missing
	 * too): the sysctl is host-wide, not "before 4.12". */
	snprintf(c.hs->host.kernel, sizeof(c.hs->host.kernel), "6.18.44");
	e = np_sysctl_add(&c.hs->sysctl, "net.core.netdev_max_backlog");
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
	c.hs->softnet.rows[0].time_squeeze = 200;
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
	c.hs->softnet.rows[1].time_squeeze = 5;
	synth_run(&run, "softnet.time-squeeze", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);

	/* Since boot only: at most info. */
	c.hs->softnet.rows[1].time_squeeze = 9000000;
	synth_run(&run, "softnet.time-squeeze", NULL, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);

	np_srcp(&c, NP_SRC_SOFTNET)->status = NP_SRC_DENIED;
	synth_run(&run, "softnet.time-squeeze", NULL, &c, NAN, NAN);
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
	c.hs->softnet.rows[1].processed = 95000;	/* 95% on CPU 1 */
	c.hs->softnet.rows[0].processed = 5000;
	c.hs->softnet.rows[1].dropped = 10;
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
	c.hs->softnet.rows[1].dropped = 0;
	synth_run(&run, "softnet.single-cpu", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);

	/* Spread evenly: quiet. */
	for (size_t i = 0; i < 4; i++)
		c.hs->softnet.rows[i].processed = 25000;
	synth_run(&run, "softnet.single-cpu", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);

	/* RPS on: quiet whatever the load. */
	c.hs->softnet.rows[1].processed = 95000;
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

	/* rps_cpus unreadable, or no queues known, and no softnet work to judge: skipped. */
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

/*
 * Queues unknown (a sosreport copies no queues/): the rows alone judge. The first nine rows of
 * coreos/bugs issue #2135's /proc/net/softnet_stat (CPU 0 took nearly all receive work; the
 * excerpt's tenth row is cut and left out), since boot.
 */
static void test_single_cpu_rows_only(void **state)
{
	static const uint32_t coreos[] = { 0x4c97f841, 0x0039002b, 0x00e6a7dc, 0x00bba50c,
					   0x00bb87fc, 0x00ce69ec, 0x00ba92cc, 0x00ced7b1,
					   0x00d8cae6 };
	struct np_snapshot s;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	synth_init(&s, 0);
	synth_softnet(&s, 9);
	s.captured = true;
	s.dev.n_rxq = 0;
	for (size_t i = 0; i < 9; i++)
		s.hs->softnet.rows[i].processed = coreos[i];
	synth_run(&run, "softnet.single-cpu", NULL, &s, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	f = synth_first(&run);
	assert_true(has_text(f->summary, "on CPU 0 of 9"));
	assert_true(has_text(f->summary, "since boot"));
	assert_true(has_text(f->summary, "queues/ not in this capture"));
	assert_true(synth_has_ev(f, "judged_from"));
	assert_true(synth_has_ev(f, "busiest_cpu_share"));
	assert_true(has_text(f->remedy, "ethtool -l eth0"));
	assert_false(has_text(f->remedy, "> /sys/class/net"));	/* no blind RPS write */
	synth_run_free(&run);

	/* Issue #32's shape: two CPUs, 99.7% on CPU 1, queue list unknown. */
	synth_softnet(&s, 2);
	s.hs->softnet.rows[0].processed = 300000;
	s.hs->softnet.rows[1].processed = 99700000;
	synth_run(&run, "softnet.single-cpu", NULL, &s, NAN, NAN);
	f = synth_first(&run);
	assert_non_null(f);
	assert_true(has_text(f->summary, "99.7% of softnet packets"));
	assert_true(has_text(f->summary, "on CPU 1 of 2"));
	synth_run_free(&run);

	/* Evenly spread: passes; too little work: skipped, saying why. */
	s.hs->softnet.rows[0].processed = 50000000;
	s.hs->softnet.rows[1].processed = 50000000;
	synth_run(&run, "softnet.single-cpu", NULL, &s, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	assert_int_equal(synth_state(&run), NP_CHECK_PASSED);
	synth_run_free(&run);
	s.hs->softnet.rows[0].processed = 10;
	s.hs->softnet.rows[1].processed = 9000;
	synth_run(&run, "softnet.single-cpu", NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_time_squeeze_budget_binds),
		cmocka_unit_test(test_time_squeeze_no_budget_usecs),
		cmocka_unit_test(test_time_squeeze_quiet_and_history),
		cmocka_unit_test(test_single_cpu_sampled),
		cmocka_unit_test(test_single_cpu_config),
		cmocka_unit_test(test_single_cpu_rows_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
