// SPDX-License-Identifier: GPL-2.0-only
/* Checks of stage "congestion" on synthetic snapshots. */
#include "mib_cases.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

static void cc(struct np_snapshot *s, const char *algo, const char *avail)
{
	synth_sysctl(s, "net.ipv4.tcp_congestion_control", algo);
	synth_sysctl(s, "net.ipv4.tcp_available_congestion_control", avail);
}

static void test_cc(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	synth_init(&p, 0);
	synth_init(&c, 1);
	cc(&c, "cubic", "reno cubic");

	/* LAN or unknown RTT: cubic is fine, quiet. */
	synth_run(&run, "congestion.cc", NULL, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	assert_int_equal(synth_state(&run), NP_CHECK_PASSED);
	synth_run_free(&run);
	synth_run(&run, "congestion.cc", NULL, &c, 0.3, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);

	/* Long path: info, bbr not loaded, the remedy loads it. */
	synth_run(&run, "congestion.cc", NULL, &c, 80, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	f = synth_first(&run);
	assert_true(synth_has_ev(f, "tcp_congestion_control"));
	assert_non_null(strstr(f->remedy, "modprobe tcp_bbr"));
	assert_non_null(strstr(f->remedy, "tcp_congestion_control=bbr"));
	assert_non_null(strstr(f->remedy, "fq"));
	assert_non_null(strstr(f->remedy, "Cost:"));
	synth_run_free(&run);

	/* Long and lossy (3% retransmitted over the interval): warning. */
	synth_mib(&p, "TcpOutSegs", 100000);
	synth_mib(&c, "TcpOutSegs", 200000);
	synth_mib(&p, "TcpRetransSegs", 1000);
	synth_mib(&c, "TcpRetransSegs", 4000);
	cc(&c, "cubic", "reno cubic bbr");
	synth_run(&run, "congestion.cc", &p, &c, 80, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	f = synth_first(&run);
	assert_non_null(strstr(f->summary, "lossy"));
	assert_true(synth_has_ev(f, "retransmitted"));
	assert_null(strstr(f->remedy, "modprobe"));
	synth_run_free(&run);
	/* The same loss on a LAN is not a CC problem: quiet. */
	synth_run(&run, "congestion.cc", &p, &c, 0.2, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	/* Since boot only, no rate: info at most. */
	synth_run(&run, "congestion.cc", NULL, &c, 80, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);

	/* Reno anywhere: warning. */
	cc(&c, "reno", "reno cubic");
	synth_run(&run, "congestion.cc", NULL, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	synth_run_free(&run);

	/* bbr already: quiet. */
	cc(&c, "bbr", "reno cubic bbr");
	synth_run(&run, "congestion.cc", NULL, &c, 80, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);

	synth_init(&c, 1);
	synth_run(&run, "congestion.cc", NULL, &c, 80, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&c);
}

static void test_pacing(void **state)
{
	struct np_snapshot s;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	synth_init(&s, 1);
	cc(&s, "bbr", "reno cubic bbr");
	synth_sysctl(&s, "net.core.default_qdisc", "fq_codel");
	np_srcp(&s, NP_SRC_RTNL_QDISC)->status = NP_SRC_SKIPPED;	/* --root: no rtnetlink */
	synth_run(&run, "congestion.pacing", NULL, &s, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	f = synth_first(&run);
	assert_true(synth_has_ev(f, "default_qdisc"));
	assert_null(strstr(f->detail, "later collector"));
	assert_non_null(strstr(f->detail, "not read"));
	assert_non_null(strstr(f->remedy, "default_qdisc=fq"));
	synth_run_free(&run);

	/* The attached qdisc is known: bbr without fq is congestion.bbr-without-fq's alone. */
	np_srcp(&s, NP_SRC_RTNL_QDISC)->status = NP_SRC_OK;
	s.rtnl.qdiscs = calloc(1, sizeof(*s.rtnl.qdiscs));
	assert_non_null(s.rtnl.qdiscs);
	s.rtnl.nqdisc = 1;
	snprintf(s.rtnl.qdiscs[0].kind, sizeof(s.rtnl.qdiscs[0].kind), "fq_codel");
	s.rtnl.qdiscs[0].root = true;
	s.rtnl.qdiscs[0].parent = 0xffffffff;
	synth_run(&run, "congestion.pacing", NULL, &s, 80, NAN);
	assert_int_equal(run.r.n, 0);
	assert_int_equal(synth_state(&run), NP_CHECK_PASSED);
	synth_run_free(&run);
	synth_run(&run, "congestion.bbr-without-fq", NULL, &s, 80, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);
	/* With pfifo_fast on a long path too: still only bbr-without-fq speaks. */
	synth_sysctl(&s, "net.core.default_qdisc", "pfifo_fast");
	synth_run(&run, "congestion.pacing", NULL, &s, 80, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	synth_sysctl(&s, "net.core.default_qdisc", "fq_codel");

	synth_sysctl(&s, "net.core.default_qdisc", "fq");
	synth_run(&run, "congestion.pacing", NULL, &s, 80, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);

	/* cubic with pfifo_fast: only on a long path. */
	cc(&s, "cubic", "reno cubic");
	synth_sysctl(&s, "net.core.default_qdisc", "pfifo_fast");
	synth_run(&run, "congestion.pacing", NULL, &s, 40, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);
	synth_run(&run, "congestion.pacing", NULL, &s, 0.5, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	np_snapshot_free(&s);

	synth_init(&s, 1);
	synth_run(&run, "congestion.pacing", NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&s);
}

/* One qdisc appended to the snapshot's rtnetlink list (parent 0xffffffff = root). */
static void qdisc(struct np_snapshot *s, const char *kind, uint32_t handle, uint32_t parent)
{
	struct np_qdisc *q;

	s->rtnl.qdiscs = realloc(s->rtnl.qdiscs, (s->rtnl.nqdisc + 1) * sizeof(*q));
	assert_non_null(s->rtnl.qdiscs);
	q = &s->rtnl.qdiscs[s->rtnl.nqdisc++];
	memset(q, 0, sizeof(*q));
	snprintf(q->kind, sizeof(q->kind), "%s", kind);
	q->handle = handle;
	q->parent = parent;
	q->root = parent == 0xffffffffu;
}

/* A network namespace shows no net.core.default_qdisc (host-global): the qdisc attached to the
 * interface stands in for it, so cubic through pfifo_fast on a long path is still named. */
static void test_pacing_netns(void **state)
{
	struct np_snapshot s;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	synth_init(&s, 1);
	cc(&s, "cubic", "reno cubic bbr");
	qdisc(&s, "pfifo_fast", 0, 0xffffffffu);
	/* What the sysctl collector records inside a child namespace. */
	for (int i = 0; i < 2; i++) {
		struct np_sysctl *e = np_sysctl_add(&s.hs->sysctl, i ? "net.core.default_qdisc" :
								"net.core.netdev_max_backlog");

		assert_non_null(e);
		e->err = ENOENT;
		e->host_wide = true;
	}
	synth_run(&run, "congestion.pacing", NULL, &s, 30, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	f = synth_first(&run);
	assert_non_null(strstr(f->summary, "eth0 sends through pfifo_fast on a 30 ms path"));
	assert_true(synth_has_ev(f, "root_qdisc"));
	assert_false(synth_has_ev(f, "default_qdisc"));
	assert_non_null(strstr(f->detail, "host-wide, not visible in this network namespace"));
	assert_non_null(strstr(f->remedy, "tc qdisc replace dev eth0 root fq"));
	synth_run_free(&run);
	/* A LAN: quiet. */
	synth_run(&run, "congestion.pacing", NULL, &s, 0.5, NAN);
	assert_int_equal(run.r.n, 0);
	assert_int_equal(synth_state(&run), NP_CHECK_PASSED);
	synth_run_free(&run);
	/* bbr through that qdisc is congestion.bbr-without-fq's to judge. */
	cc(&s, "bbr", "reno cubic bbr");
	synth_run(&run, "congestion.pacing", NULL, &s, 30, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	np_snapshot_free(&s);

	/* mq: its leaves dequeue to the driver. All pfifo_fast: named; fq: quiet. */
	synth_init(&s, 1);
	cc(&s, "cubic", "reno cubic");
	qdisc(&s, "mq", 0, 0xffffffffu);
	qdisc(&s, "pfifo_fast", 0, 1);
	qdisc(&s, "pfifo_fast", 0, 2);
	synth_run(&run, "congestion.pacing", NULL, &s, 30, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);
	snprintf(s.rtnl.qdiscs[1].kind, sizeof(s.rtnl.qdiscs[1].kind), "fq");
	snprintf(s.rtnl.qdiscs[2].kind, sizeof(s.rtnl.qdiscs[2].kind), "fq");
	synth_run(&run, "congestion.pacing", NULL, &s, 30, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	np_snapshot_free(&s);

	/* veth's noqueue: nothing to judge by, quiet (no pfifo_fast). */
	synth_init(&s, 1);
	cc(&s, "cubic", "reno cubic");
	qdisc(&s, "noqueue", 0, 0xffffffffu);
	synth_run(&run, "congestion.pacing", NULL, &s, 30, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	/* Neither default_qdisc nor the qdisc list: skipped, saying both are missing. */
	np_srcp(&s, NP_SRC_RTNL_QDISC)->status = NP_SRC_SKIPPED;
	synth_run(&run, "congestion.pacing", NULL, &s, 30, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&s);
}

static void test_slow_start_after_idle(void **state)
{
	struct np_snapshot s;
	struct synth_run run;

	(void)state;
	synth_init(&s, 1);
	synth_sysctl(&s, "net.ipv4.tcp_slow_start_after_idle", "1");
	synth_run(&run, "congestion.slow-start-after-idle", NULL, &s, 80, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	assert_non_null(strstr(synth_first(&run)->remedy, "tcp_slow_start_after_idle=0"));
	synth_run_free(&run);
	synth_run(&run, "congestion.slow-start-after-idle", NULL, &s, 15, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);
	/* LAN: does not matter. */
	synth_run(&run, "congestion.slow-start-after-idle", NULL, &s, 0.3, 10e9);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	/* Unknown RTT on a 25G link: info; on 1G: quiet. */
	synth_run(&run, "congestion.slow-start-after-idle", NULL, &s, NAN, 25e9);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);
	synth_run(&run, "congestion.slow-start-after-idle", NULL, &s, NAN, 1e9);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	synth_sysctl(&s, "net.ipv4.tcp_slow_start_after_idle", "0");
	synth_run(&run, "congestion.slow-start-after-idle", NULL, &s, 80, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	np_snapshot_free(&s);

	synth_init(&s, 1);
	synth_run(&run, "congestion.slow-start-after-idle", NULL, &s, 80, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&s);
}

static void test_mtu_probing(void **state)
{
	struct np_snapshot s;
	struct synth_run run;

	(void)state;
	synth_init(&s, 1);
	synth_sysctl(&s, "net.ipv4.tcp_mtu_probing", "0");
	s.dev.mtu = 9000;
	synth_run(&run, "congestion.mtu-probing", NULL, &s, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	assert_true(synth_has_ev(synth_first(&run), "mtu"));
	assert_non_null(strstr(synth_first(&run)->remedy, "tcp_mtu_probing=1"));
	synth_run_free(&run);
	/* 1500 on a LAN: quiet; on a long path: info. */
	s.dev.mtu = 1500;
	synth_run(&run, "congestion.mtu-probing", NULL, &s, 0.5, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	synth_run(&run, "congestion.mtu-probing", NULL, &s, 60, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);
	/* Probing on: quiet. */
	s.dev.mtu = 9000;
	synth_sysctl(&s, "net.ipv4.tcp_mtu_probing", "1");
	synth_run(&run, "congestion.mtu-probing", NULL, &s, 60, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	np_snapshot_free(&s);

	synth_init(&s, 1);
	synth_run(&run, "congestion.mtu-probing", NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&s);
}

static void test_keepalive(void **state)
{
	struct np_snapshot s;
	struct synth_run run;

	(void)state;
	synth_init(&s, 1);
	synth_sysctl(&s, "net.ipv4.tcp_keepalive_time", "7200");
	/* Info only, never more, whatever the path. */
	synth_run(&run, "congestion.keepalive", NULL, &s, 200, 100e9);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	assert_non_null(strstr(synth_first(&run)->remedy, "tcp_keepalive_time=600"));
	synth_run_free(&run);
	synth_sysctl(&s, "net.ipv4.tcp_keepalive_time", "600");
	synth_run(&run, "congestion.keepalive", NULL, &s, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	np_snapshot_free(&s);

	synth_init(&s, 1);
	synth_run(&run, "congestion.keepalive", NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cc),
		cmocka_unit_test(test_pacing),
		cmocka_unit_test(test_pacing_netns),
		cmocka_unit_test(test_slow_start_after_idle),
		cmocka_unit_test(test_mtu_probing),
		cmocka_unit_test(test_keepalive),
	};

	return cmocka_run_group_tests(tests, NULL, mib_cases_teardown);
}
