// SPDX-License-Identifier: GPL-2.0-only
/* Checks of stage "ingress" on the hooks before the stack (XDP, tc ingress) on synthetic data. */
#include "synth.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct np_evidence *ev(const struct np_finding *f, const char *key)
{
	for (size_t i = 0; i < f->nev; i++)
		if (!strcmp(f->ev[i].key, key))
			return &f->ev[i];
	fail_msg("no evidence %s", key);
	return NULL;
}

static struct np_qdisc *add_qdisc(struct np_snapshot *s, const char *kind, uint32_t handle,
				  uint32_t parent, bool root, bool ingress, uint64_t drops)
{
	struct np_qdisc *q;

	s->rtnl.qdiscs = realloc(s->rtnl.qdiscs, (s->rtnl.nqdisc + 1) * sizeof(*q));
	assert_non_null(s->rtnl.qdiscs);
	q = &s->rtnl.qdiscs[s->rtnl.nqdisc++];
	memset(q, 0, sizeof(*q));
	snprintf(q->kind, sizeof(q->kind), "%s", kind);
	q->handle = handle;
	q->parent = parent;
	q->root = root;
	q->ingress = ingress;
	q->drops = drops;
	q->packets = 1000000;
	return q;
}

/* A driver's total and its per-queue copies count the same XDP drops once. */
static void test_xdp_attached_drops_once(void **state)
{
	static const struct {
		const char *driver, *total, *queue0, *queue1;
	} cases[] = {
		{ "virtio_net", "rx_xdp_drops", "rx0_xdp_drops", "rx1_xdp_drops" },
		{ "mlx5_core", "rx_xdp_drop", "rx0_xdp_drop", "rx1_xdp_drop" },
	};
	struct np_snapshot s;
	struct synth_run run;
	const struct np_evidence *e;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		synth_init(&s, 0);
		s.rtnl.xdp_attached = 1;
		snprintf(s.eth.driver, sizeof(s.eth.driver), "%s", cases[i].driver);
		assert_int_equal(np_counters_set(&s.eth.drv_stats, cases[i].total, 300), 0);
		assert_int_equal(np_counters_set(&s.eth.drv_stats, cases[i].queue0, 100), 0);
		assert_int_equal(np_counters_set(&s.eth.drv_stats, cases[i].queue1, 200), 0);
		synth_run(&run, "ingress.xdp-attached", NULL, &s, NAN, NAN);
		e = ev(synth_first(&run), "driver_xdp_drops");
		assert_int_equal((uint64_t)e->value, 300);	/* not 600 */
		synth_run_free(&run);
		np_snapshot_free(&s);
	}
}

static void test_xdp_attached(void **state)
{
	struct np_snapshot s;
	struct synth_run run;

	(void)state;
	synth_init(&s, 0);
	s.rtnl.xdp_attached = 0;		/* none: quiet */
	synth_run(&run, "ingress.xdp-attached", NULL, &s, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	assert_int_equal(synth_state(&run), NP_CHECK_PASSED);
	synth_run_free(&run);

	s.rtnl.xdp_attached = 1;		/* native: info naming id and mode */
	s.rtnl.xdp_prog_id = 42;
	s.dev.speed_mbps = 25000;
	s.dev.has_device = true;
	synth_run(&run, "ingress.xdp-attached", NULL, &s, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	assert_non_null(strstr(synth_first(&run)->summary, "id 42"));
	assert_string_equal(ev(synth_first(&run), "xdp_mode")->text, "native");
	assert_non_null(strstr(synth_first(&run)->remedy, "bpftool net show dev eth0"));
	assert_non_null(strstr(synth_first(&run)->remedy, "bpftool prog show id 42"));
	assert_non_null(strstr(synth_first(&run)->detail, "driver counters"));
	synth_run_free(&run);

	s.rtnl.xdp_attached = 2;		/* generic on a 25G link: warning */
	synth_run(&run, "ingress.xdp-attached", NULL, &s, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	assert_non_null(strstr(synth_first(&run)->detail, "linearizes"));
	synth_run_free(&run);

	s.dev.has_device = false;		/* a veth's nominal speed is no fast link */
	synth_run(&run, "ingress.xdp-attached", NULL, &s, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);

	s.dev.has_device = true;
	s.dev.speed_mbps = 1000;		/* generic on a slow, unmeasured link: info */
	synth_run(&run, "ingress.xdp-attached", NULL, &s, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	assert_string_equal(ev(synth_first(&run), "xdp_mode")->text, "generic");
	synth_run_free(&run);

	s.rtnl.xdp_attached = -1;		/* not reported: skipped */
	synth_run(&run, "ingress.xdp-attached", NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);

	s.rtnl.xdp_attached = 1;		/* rtnetlink unavailable: skipped */
	np_src_set(&s, NP_SRC_RTNL_LINK, -EPERM, NULL);
	synth_run(&run, "ingress.xdp-attached", NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&s);
}

static void test_tc_drops(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_evidence *e;

	(void)state;
	synth_init(&p, 0);
	synth_init(&c, 2);
	add_qdisc(&p, "pfifo_fast", 0, 0xffffffff, true, false, 500);
	add_qdisc(&c, "pfifo_fast", 0, 0xffffffff, true, false, 900);	/* egress: not ours */
	add_qdisc(&p, "clsact", 0xffff0000, 0xfffffff1, false, true, 100);
	add_qdisc(&c, "clsact", 0xffff0000, 0xfffffff1, false, true, 100);
	synth_run(&run, "ingress.tc-drops", &p, &c, NAN, NAN);
	/* 100 since boot, none now: history. */
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	assert_non_null(strstr(synth_first(&run)->summary, "none during the sample"));
	synth_run_free(&run);

	c.rtnl.qdiscs[1].drops = 120;		/* 10/s: warning */
	synth_run(&run, "ingress.tc-drops", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	e = ev(synth_first(&run), "clsact[ffff:].drops");
	assert_true(e->sampled && e->rate == 10);
	assert_non_null(strstr(synth_first(&run)->remedy, "tc -s filter show dev eth0 ingress"));
	assert_non_null(strstr(synth_first(&run)->detail, "tcx"));
	synth_run_free(&run);

	c.rtnl.qdiscs[1].drops = 4100;		/* 2000/s: critical */
	synth_run(&run, "ingress.tc-drops", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
	synth_run_free(&run);

	/* The same totals without an interval: never more than info. */
	c.rtnl.qdiscs[1].drops = 50000000;
	synth_run(&run, "ingress.tc-drops", NULL, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);

	/* No drops at all, or only egress drops: quiet. */
	p.rtnl.qdiscs[1].drops = c.rtnl.qdiscs[1].drops = 0;
	synth_run(&run, "ingress.tc-drops", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	c.rtnl.nqdisc = p.rtnl.nqdisc = 1;
	synth_run(&run, "ingress.tc-drops", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	assert_int_equal(synth_state(&run), NP_CHECK_PASSED);
	synth_run_free(&run);

	/* No qdisc data: skipped with the reason. */
	np_src_set(&c, NP_SRC_RTNL_QDISC, -EOPNOTSUPP, "qdisc dump not supported");
	synth_run(&run, "ingress.tc-drops", &p, &c, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_xdp_attached),
		cmocka_unit_test(test_xdp_attached_drops_once),
		cmocka_unit_test(test_tc_drops),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
