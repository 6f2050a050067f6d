// SPDX-License-Identifier: GPL-2.0-only
/* Checks of stage "congestion" on the attached qdisc (drops, bbr without fq, txqueuelen). */
#include "synth.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROOT 0xffffffffu

static const struct np_evidence *ev(const struct np_finding *f, const char *key)
{
	for (size_t i = 0; i < f->nev; i++)
		if (!strcmp(f->ev[i].key, key))
			return &f->ev[i];
	fail_msg("no evidence %s", key);
	return NULL;
}

static struct np_qdisc *add_qdisc(struct np_snapshot *s, const char *kind, uint32_t handle,
				  uint32_t parent, uint64_t drops, uint64_t overlimits)
{
	struct np_qdisc *q;

	s->rtnl.qdiscs = realloc(s->rtnl.qdiscs, (s->rtnl.nqdisc + 1) * sizeof(*q));
	assert_non_null(s->rtnl.qdiscs);
	q = &s->rtnl.qdiscs[s->rtnl.nqdisc++];
	memset(q, 0, sizeof(*q));
	snprintf(q->kind, sizeof(q->kind), "%s", kind);
	q->handle = handle;
	q->parent = parent;
	q->root = parent == ROOT;
	q->drops = drops;
	q->overlimits = overlimits;
	q->backlog = 6000;
	return q;
}

/* mq with four leaves of the given kind (parent :1 .. :4). */
static void mq(struct np_snapshot *s, const char *leaf, const uint64_t *drops)
{
	add_qdisc(s, "mq", 0, ROOT, 0, 0);
	for (uint32_t i = 0; i < 4; i++)
		add_qdisc(s, leaf, 0, i + 1, drops ? drops[i] : 0, 0);
}

static void test_qdisc_drops_tbf(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_evidence *e;

	(void)state;
	synth_init(&p, 0);
	synth_init(&c, 2);
	add_qdisc(&p, "tbf", 0x80010000, ROOT, 100, 1000);
	add_qdisc(&c, "tbf", 0x80010000, ROOT, 120, 5000);
	synth_run(&run, "congestion.qdisc-drops", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);	/* 10 drops/s */
	e = ev(synth_first(&run), "tbf[8001:].drops");
	assert_true(e->sampled && e->rate == 10);
	assert_true(ev(synth_first(&run), "tbf[8001:].overlimits")->rate == 2000);
	assert_non_null(strstr(synth_first(&run)->summary, "tbf[8001:]"));
	assert_non_null(strstr(synth_first(&run)->remedy, "tc qdisc change dev eth0 root tbf"));
	assert_non_null(strstr(synth_first(&run)->remedy, "Cost:"));
	assert_true(synth_first(&run)->rank == 10);
	synth_run_free(&run);

	c.rtnl.qdiscs[0].drops = 4100;		/* 2000/s: critical */
	synth_run(&run, "congestion.qdisc-drops", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
	synth_run_free(&run);

	/* Since boot only: info, however large. */
	synth_run(&run, "congestion.qdisc-drops", NULL, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	assert_non_null(strstr(synth_first(&run)->summary, "since boot"));
	synth_run_free(&run);

	/* Throttling without drops: the shaper works; info. */
	c.rtnl.qdiscs[0].drops = 100;
	synth_run(&run, "congestion.qdisc-drops", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	assert_non_null(strstr(synth_first(&run)->summary, "throttling"));
	synth_run_free(&run);

	/* A qdisc replaced between the snapshots (counters restart): not a drop burst. */
	c.rtnl.qdiscs[0].handle = 0x80020000;
	c.rtnl.qdiscs[0].drops = 3;
	c.rtnl.qdiscs[0].overlimits = 0;
	synth_run(&run, "congestion.qdisc-drops", &p, &c, NAN, NAN);
	assert_true(synth_worst(&run) <= NP_SEV_INFO);
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

static void test_qdisc_drops_mq_and_quiet(void **state)
{
	static const uint64_t before[4] = { 0, 10, 0, 0 }, after[4] = { 0, 30, 0, 40 };
	struct np_snapshot p, c;
	struct synth_run run;

	(void)state;
	synth_init(&p, 0);
	synth_init(&c, 1);
	mq(&p, "pfifo_fast", before);
	mq(&c, "pfifo_fast", after);
	synth_run(&run, "congestion.qdisc-drops", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	/* The leaves are summed (60/s) and the dropping leaves named. */
	assert_true(ev(synth_first(&run), "drops")->rate == 60);
	assert_true(ev(synth_first(&run), "pfifo_fast[:4].drops")->rate == 40);
	assert_true(ev(synth_first(&run), "pfifo_fast[:2].drops")->rate == 20);
	assert_false(synth_has_ev(synth_first(&run), "pfifo_fast[:1].drops"));
	assert_non_null(strstr(synth_first(&run)->remedy, "txqueuelen"));
	assert_non_null(strstr(synth_first(&run)->remedy, "parent :4 fq"));
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);

	/* Eight leaves, the worst ones last: the evidence names the worst, not the first four. */
	synth_init(&p, 0);
	synth_init(&c, 1);
	add_qdisc(&p, "mq", 0, ROOT, 0, 0);
	add_qdisc(&c, "mq", 0, ROOT, 0, 0);
	for (uint32_t i = 0; i < 8; i++) {
		add_qdisc(&p, "fq", 0, i + 1, 0, 0);
		add_qdisc(&c, "fq", 0, i + 1, i >= 5 ? 100 * i : 1, 0);
	}
	synth_run(&run, "congestion.qdisc-drops", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);	/* 500+600+700+5 = 1805/s */
	assert_true(ev(synth_first(&run), "drops")->rate == 1805);
	assert_non_null(strstr(synth_first(&run)->summary, "fq[:8]"));
	assert_true(ev(synth_first(&run), "fq[:6].drops")->rate == 500);
	assert_true(synth_has_ev(synth_first(&run), "fq[:1].drops"));	/* 4th worst: a tie at 1 */
	assert_false(synth_has_ev(synth_first(&run), "fq[:2].drops"));
	assert_non_null(strstr(synth_first(&run)->remedy, "parent :8 fq flow_limit"));
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);

	/* No drops, or noqueue: quiet. */
	synth_init(&c, 1);
	mq(&c, "fq", NULL);
	synth_run(&run, "congestion.qdisc-drops", NULL, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	assert_int_equal(synth_state(&run), NP_CHECK_PASSED);
	synth_run_free(&run);
	np_snapshot_free(&c);
	synth_init(&c, 1);
	add_qdisc(&c, "noqueue", 0, ROOT, 0, 0);
	synth_run(&run, "congestion.qdisc-drops", NULL, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);

	/* Without the qdisc dump: skipped. */
	np_src_set(&c, NP_SRC_RTNL_QDISC, -EPERM, NULL);
	synth_run(&run, "congestion.qdisc-drops", NULL, &c, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&c);
}

static void test_bbr_without_fq(void **state)
{
	struct np_snapshot s;
	struct synth_run run;

	(void)state;
	synth_init(&s, 0);
	synth_sysctl(&s, "net.ipv4.tcp_congestion_control", "bbr");
	synth_sysctl(&s, "net.core.default_qdisc", "fq");
	add_qdisc(&s, "pfifo_fast", 0, ROOT, 0, 0);
	synth_run(&run, "congestion.bbr-without-fq", NULL, &s, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	assert_non_null(strstr(synth_first(&run)->remedy, "tc qdisc replace dev eth0 root fq"));
	assert_non_null(strstr(synth_first(&run)->remedy, "modprobe sch_fq"));
	/* default_qdisc is fq already: the finding says why it did not apply. */
	assert_non_null(strstr(synth_first(&run)->detail, "only applies to qdiscs created"));
	synth_run_free(&run);

	snprintf(s.rtnl.qdiscs[0].kind, sizeof(s.rtnl.qdiscs[0].kind), "fq");
	synth_run(&run, "congestion.bbr-without-fq", NULL, &s, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);

	/* mq: all fq leaves are fine; one other leaf is not. */
	np_rtnl_free(&s.rtnl);
	mq(&s, "fq", NULL);
	synth_run(&run, "congestion.bbr-without-fq", NULL, &s, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	snprintf(s.rtnl.qdiscs[3].kind, sizeof(s.rtnl.qdiscs[3].kind), "fq_codel");
	synth_run(&run, "congestion.bbr-without-fq", NULL, &s, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	assert_string_equal(ev(synth_first(&run), "leaf_qdisc")->text, "fq_codel");
	assert_non_null(strstr(synth_first(&run)->summary, "1 of 4"));
	assert_non_null(strstr(synth_first(&run)->remedy, "root handle 1: mq"));
	synth_run_free(&run);

	/* cubic: not this check's business. */
	synth_sysctl(&s, "net.ipv4.tcp_congestion_control", "cubic");
	synth_run(&run, "congestion.bbr-without-fq", NULL, &s, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);

	/* noqueue (veth, lo): nothing to pace in. */
	synth_sysctl(&s, "net.ipv4.tcp_congestion_control", "bbr");
	np_rtnl_free(&s.rtnl);
	add_qdisc(&s, "noqueue", 0, ROOT, 0, 0);
	synth_run(&run, "congestion.bbr-without-fq", NULL, &s, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);

	/* Data missing: skipped. */
	np_src_set(&s, NP_SRC_RTNL_QDISC, -EOPNOTSUPP, NULL);
	synth_run(&run, "congestion.bbr-without-fq", NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&s);
	synth_init(&s, 0);
	synth_run(&run, "congestion.bbr-without-fq", NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&s);
}

static void test_txqueuelen(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;

	(void)state;
	synth_init(&p, 0);
	synth_init(&c, 1);
	c.rtnl.txqlen = 10;
	c.dev.speed_mbps = 10000;
	c.dev.has_device = true;
	add_qdisc(&p, "pfifo_fast", 0, ROOT, 100, 0);
	add_qdisc(&c, "pfifo_fast", 0, ROOT, 350, 0);
	synth_run(&run, "congestion.txqueuelen", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	assert_true(ev(synth_first(&run), "fifo_drops")->rate == 250);
	assert_true(ev(synth_first(&run), "txqueuelen")->value == 10);
	assert_non_null(strstr(synth_first(&run)->remedy, "ip link set dev eth0 txqueuelen 1000"));
	synth_run_free(&run);

	/* Since boot only: info. */
	synth_run(&run, "congestion.txqueuelen", NULL, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);

	/* Short but never dropping, a normal length, a slow link, a non-FIFO qdisc: quiet. */
	c.rtnl.qdiscs[0].drops = 0;
	synth_run(&run, "congestion.txqueuelen", NULL, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	c.rtnl.qdiscs[0].drops = 350;
	c.rtnl.txqlen = 1000;
	synth_run(&run, "congestion.txqueuelen", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	c.rtnl.txqlen = 10;
	c.dev.speed_mbps = 100;
	synth_run(&run, "congestion.txqueuelen", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	c.dev.speed_mbps = 10000;
	snprintf(c.rtnl.qdiscs[0].kind, sizeof(c.rtnl.qdiscs[0].kind), "fq");
	synth_run(&run, "congestion.txqueuelen", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);

	/* txqueuelen 0 with a real qdisc: info. The sysfs value is used without rtnetlink. */
	c.rtnl.txqlen = NP_NA;
	c.dev.tx_queue_len = 0;
	synth_run(&run, "congestion.txqueuelen", NULL, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	assert_true(ev(synth_first(&run), "txqueuelen")->value == 0);
	synth_run_free(&run);

	/* Not reported anywhere: skipped. */
	c.dev.tx_queue_len = NP_NA;
	synth_run(&run, "congestion.txqueuelen", NULL, &c, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_qdisc_drops_tbf),
		cmocka_unit_test(test_qdisc_drops_mq_and_quiet),
		cmocka_unit_test(test_bbr_without_fq),
		cmocka_unit_test(test_txqueuelen),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
