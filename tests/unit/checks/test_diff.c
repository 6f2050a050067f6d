// SPDX-License-Identifier: GPL-2.0-only
/*
 * netpath diff's pure half over synthetic sides: each kind of setting change, unknown against
 * known, identical sides, stage order, verdicts resolved/new/better/worse/not judged, coverage
 * changes, and the funnel only when both sides were sampled.
 */
#include "synth.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect.h"
#include "ctx.h"
#include "diff.h"

/* One side: its snapshot(s), a report whose every check ran clean unless told otherwise, and
 * a coverage with every stage judged. */
struct tside {
	struct np_snapshot s, prev, lower;
	const struct np_snapshot *snap[2];
	struct np_options opt;
	struct np_analysis a;
	struct np_report rep;
	struct np_coverage cov;
	struct np_diff_side view;
};

static void side_init(struct tside *t)
{
	size_t n;
	const struct np_check *const *tab = np_check_table(&n);

	memset(t, 0, sizeof(*t));
	synth_init(&t->s, 10);
	synth_init(&t->prev, 9);
	synth_init(&t->lower, 10);
	synth_sysctl(&t->s, "net.core.rmem_max", "212992");
	synth_sysctl(&t->s, "net.ipv4.tcp_congestion_control", "cubic");
	synth_sysctl(&t->s, "net.core.netdev_max_backlog", "1000");
	t->rep.res = calloc(n, sizeof(*t->rep.res));
	assert_non_null(t->rep.res);
	t->rep.nres = n;
	for (size_t i = 0; i < n; i++) {
		t->rep.res[i].check = tab[i];
		t->rep.res[i].state = NP_CHECK_PASSED;
	}
	for (int st = 0; st < NP_STAGE__COUNT; st++)
		t->cov.st[st].status = NP_COV_JUDGED;
	t->cov.judged = t->cov.applicable = NP_STAGE__COUNT;
	t->opt.rtt_ms = t->opt.bandwidth_bps = NAN;
}

/* Point the view at the side as it is now; with_prev: sampled over one second. */
static void side_view(struct tside *t, bool with_prev, bool with_lower)
{
	t->a = (struct np_analysis){ .prev = with_prev ? &t->prev : NULL, .cur = &t->s,
				     .dt = with_prev ? 1 : 0, .opt = &t->opt };
	np_analysis_derive(&t->a);
	t->snap[0] = &t->s;
	t->snap[1] = &t->lower;
	t->view = (struct np_diff_side){ .snap = t->snap, .nsnap = with_lower ? 2 : 1,
					 .a = &t->a, .rep = &t->rep, .cov = &t->cov };
}

static void side_finding(struct tside *t, const char *id, enum np_severity sev,
			 const char *summary)
{
	struct np_finding f = { .dev = "eth0", .severity = sev, .summary = summary, .detail = "",
				.remedy = "" };

	f.check = np_check_find(id);
	assert_non_null(f.check);
	assert_int_equal(np_report_add(&t->rep, &f), 0);
	t->rep.res[np_check_index(f.check)].state = NP_CHECK_FLAGGED;
	t->rep.res[np_check_index(f.check)].worst = sev;
}

static void side_free(struct tside *t)
{
	np_snapshot_free(&t->s);
	np_snapshot_free(&t->prev);
	np_snapshot_free(&t->lower);
	np_report_free(&t->rep);
}

struct pair {
	struct tside b, a;
	struct np_diff d;
};

static int setup(void **state)
{
	struct pair *p = calloc(1, sizeof(*p));

	if (!p)
		return -1;
	side_init(&p->b);
	side_init(&p->a);
	*state = p;
	return 0;
}

static int teardown(void **state)
{
	struct pair *p = *state;

	np_diff_free(&p->d);
	side_free(&p->b);
	side_free(&p->a);
	free(p);
	return 0;
}

static void build(struct pair *p, bool with_prev, bool with_lower)
{
	side_view(&p->b, with_prev, with_lower);
	side_view(&p->a, with_prev, with_lower);
	np_diff_free(&p->d);
	assert_int_equal(np_diff_build(&p->b.view, &p->a.view, &p->d), 0);
}

static const struct np_diff_setting *setting(const struct np_diff *d, const char *key)
{
	for (size_t i = 0; i < d->nset; i++)
		if (strcmp(d->set[i].key, key) == 0)
			return &d->set[i];
	return NULL;
}

/* key changed in stage st from old to new ("" = unknown on that side). */
static void assert_change(const struct np_diff *d, const char *key, enum np_stage st,
			  const char *old, const char *new)
{
	const struct np_diff_setting *s = setting(d, key);

	if (!s)
		fail_msg("no change of '%s' among %zu", key, d->nset);
	assert_int_equal(s->stage, st);
	assert_int_equal(s->old_known, old[0] != '\0');
	assert_int_equal(s->new_known, new[0] != '\0');
	assert_string_equal(s->old, old);
	assert_string_equal(s->new, new);
}

static void test_identical_is_no_change(void **state)
{
	struct pair *p = *state;

	p->b.s.eth.rings.rx = p->a.s.eth.rings.rx = 1024;
	side_finding(&p->b, "softnet.backlog-drops", NP_SEV_WARNING, "drops");
	side_finding(&p->a, "softnet.backlog-drops", NP_SEV_WARNING, "drops");
	build(p, true, false);
	assert_true(np_diff_empty(&p->d));
	assert_int_equal(p->d.nset, 0);
	assert_int_equal(p->d.nver, 0);
	assert_int_equal(p->d.ncov, 0);
	assert_int_equal(p->d.verdicts_same, 1);
	/* Compared, not skipped: the three sysctls and the ring at least. */
	assert_true(p->d.settings_compared >= 4);
}

static void test_sysctl_changes(void **state)
{
	struct pair *p = *state;

	synth_sysctl(&p->a.s, "net.core.rmem_max", "33554432");
	synth_sysctl(&p->a.s, "net.ipv4.tcp_congestion_control", "bbr");
	synth_sysctl(&p->b.s, "net.ipv4.tcp_mem", "1000 2000 3000");
	synth_sysctl(&p->a.s, "net.ipv4.tcp_mem", "1000 2000 4000");
	build(p, false, false);
	assert_change(&p->d, "net.core.rmem_max", NP_STAGE_SOCKET, "212992", "33554432");
	assert_change(&p->d, "net.ipv4.tcp_congestion_control", NP_STAGE_CONGESTION, "cubic",
		      "bbr");
	assert_change(&p->d, "net.ipv4.tcp_mem", NP_STAGE_SOCKET, "1000 2000 3000",
		      "1000 2000 4000");
	assert_null(setting(&p->d, "net.core.netdev_max_backlog"));
	assert_int_equal(p->d.nset, 3);
}

/* A value one side does not know is "unknown", never a change from or to 0. */
static void test_unknown_is_not_zero(void **state)
{
	struct pair *p = *state;
	struct np_sysctl *e;

	/* Unreadable before (ENOENT: not on that kernel), read after. */
	e = np_sysctl_add(&p->b.s.hs->sysctl, "net.core.netdev_budget_usecs");
	assert_non_null(e);
	e->err = ENOENT;
	synth_sysctl(&p->a.s, "net.core.netdev_budget_usecs", "8000");
	/* Missing from before's table altogether. */
	synth_sysctl(&p->a.s, "net.ipv4.tcp_notsent_lowat", "131072");
	/* The driver reported no ring before (a tree), 4096 after. */
	p->a.s.eth.rings.rx = 4096;
	/* Known before, not after: coalescing the driver stopped reporting. */
	p->b.s.eth.coalesce.rx_usecs = 0;
	/* Unknown on both sides: not a row. */
	p->b.s.eth.rings.tx = p->a.s.eth.rings.tx = NP_NA;
	build(p, false, false);
	assert_change(&p->d, "net.core.netdev_budget_usecs", NP_STAGE_SOFTNET, "", "8000");
	assert_change(&p->d, "net.ipv4.tcp_notsent_lowat", NP_STAGE_CONGESTION, "", "131072");
	assert_change(&p->d, "rx ring", NP_STAGE_NIC, "", "4096");
	assert_change(&p->d, "rx-usecs", NP_STAGE_IRQ, "0", "");
	assert_null(setting(&p->d, "tx ring"));
}

static void set_irq(struct np_snapshot *s, unsigned irq, const char *name, unsigned cpu)
{
	struct np_irq_line *l;

	s->irqs.lines = realloc(s->irqs.lines, (s->irqs.n + 1) * sizeof(*l));
	assert_non_null(s->irqs.lines);
	l = &s->irqs.lines[s->irqs.n++];
	memset(l, 0, sizeof(*l));
	l->irq = irq;
	snprintf(l->name, sizeof(l->name), "%s", name);
	l->has_affinity = true;
	np_cpuset_set(&l->affinity, cpu);
}

static void set_rxq(struct np_snapshot *s, size_t n, unsigned rps_cpu_or_none)
{
	s->dev.rxq = calloc(n, sizeof(*s->dev.rxq));
	assert_non_null(s->dev.rxq);
	s->dev.n_rxq = n;
	for (size_t q = 0; q < n; q++) {
		s->dev.rxq[q].has_rps = true;
		s->dev.rxq[q].rps_flow_cnt = NP_NA;
		if (rps_cpu_or_none != ~0u)
			np_cpuset_set(&s->dev.rxq[q].rps_cpus, rps_cpu_or_none + (unsigned)q);
	}
}

static void add_qdisc(struct np_snapshot *s, const char *kind)
{
	s->rtnl.qdiscs = calloc(1, sizeof(*s->rtnl.qdiscs));
	assert_non_null(s->rtnl.qdiscs);
	s->rtnl.nqdisc = 1;
	snprintf(s->rtnl.qdiscs[0].kind, sizeof(s->rtnl.qdiscs[0].kind), "%s", kind);
	s->rtnl.qdiscs[0].root = true;
}

/* Every kind of device setting, and the stage order of the rows. */
static void test_device_settings_in_stage_order(void **state)
{
	struct pair *p = *state;
	struct np_snapshot *b = &p->b.s, *a = &p->a.s;

	b->dev.speed_mbps = 1000;
	a->dev.speed_mbps = 10000;
	b->dev.mtu = 1500;
	a->dev.mtu = 9000;
	b->pcie.cur_width = 4;
	a->pcie.cur_width = 8;
	b->eth.rings.rx = 512;
	a->eth.rings.rx = 4096;
	b->eth.channels.combined = 4;
	a->eth.channels.combined = 8;
	b->eth.coalesce.adaptive_rx = 0;
	a->eth.coalesce.adaptive_rx = 1;
	b->eth.features.gro = 0;
	a->eth.features.gro = 1;
	b->eth.features.lro = a->eth.features.lro = 0;
	set_irq(b, 40, "eth0-TxRx-0", 0);
	set_irq(a, 41, "eth0-TxRx-0", 3);	/* renumbered after a reboot: matched by name */
	set_rxq(b, 2, ~0u);
	set_rxq(a, 2, 2);
	add_qdisc(b, "pfifo_fast");
	add_qdisc(a, "fq");
	synth_sysctl(&p->a.s, "net.core.rmem_max", "33554432");
	synth_sysctl(&p->a.s, "net.ipv4.tcp_congestion_control", "bbr");
	synth_sysctl(&p->a.s, "net.core.netdev_max_backlog", "16384");
	build(p, false, false);

	assert_change(&p->d, "speed", NP_STAGE_LINK, "1000 Mb/s", "10000 Mb/s");
	assert_change(&p->d, "mtu", NP_STAGE_LINK, "1500", "9000");
	assert_change(&p->d, "pcie link width", NP_STAGE_PCIE, "4 lanes", "8 lanes");
	assert_change(&p->d, "rx ring", NP_STAGE_NIC, "512", "4096");
	assert_change(&p->d, "combined channels", NP_STAGE_IRQ, "4", "8");
	assert_change(&p->d, "adaptive-rx", NP_STAGE_IRQ, "off", "on");
	assert_change(&p->d, "irq eth0-TxRx-0 affinity", NP_STAGE_IRQ, "0", "3");
	assert_change(&p->d, "generic-receive-offload", NP_STAGE_SOFTNET, "off", "on");
	assert_change(&p->d, "rx-0 rps_cpus", NP_STAGE_SOFTNET, "off", "2");
	assert_change(&p->d, "rx-1 rps_cpus", NP_STAGE_SOFTNET, "off", "3");
	assert_change(&p->d, "net.core.netdev_max_backlog", NP_STAGE_SOFTNET, "1000", "16384");
	assert_change(&p->d, "net.core.rmem_max", NP_STAGE_SOCKET, "212992", "33554432");
	assert_change(&p->d, "root qdisc", NP_STAGE_CONGESTION, "pfifo_fast", "fq");
	assert_change(&p->d, "net.ipv4.tcp_congestion_control", NP_STAGE_CONGESTION, "cubic",
		      "bbr");
	assert_null(setting(&p->d, "large-receive-offload"));
	for (size_t i = 1; i < p->d.nset; i++)
		assert_true(p->d.set[i - 1].stage <= p->d.set[i].stage);
	/* Device rows name their device; sysctls belong to none. */
	assert_string_equal(setting(&p->d, "rx ring")->dev, "eth0");
	assert_string_equal(setting(&p->d, "net.core.rmem_max")->dev, "");
}

/* A device beneath the interface on one side only is one row, not all its settings. */
static void test_lower_device_added(void **state)
{
	struct pair *p = *state;

	snprintf(p->a.lower.ifname, sizeof(p->a.lower.ifname), "eno2");
	p->a.lower.eth.rings.rx = 4096;
	side_view(&p->b, false, false);
	side_view(&p->a, false, true);
	assert_int_equal(np_diff_build(&p->b.view, &p->a.view, &p->d), 0);
	assert_change(&p->d, "device", NP_STAGE_LINK, "absent", "present");
	assert_string_equal(setting(&p->d, "device")->dev, "eno2");
	assert_null(setting(&p->d, "rx ring"));
}

static const struct np_diff_verdict *verdict(const struct np_diff *d, const char *id)
{
	for (size_t i = 0; i < d->nver; i++)
		if (strcmp(d->ver[i].check->id, id) == 0)
			return &d->ver[i];
	return NULL;
}

static void test_verdicts(void **state)
{
	struct pair *p = *state;
	const struct np_diff_verdict *v;

	/* resolved: flagged before, ran clean after */
	side_finding(&p->b, "irq.affinity", NP_SEV_WARNING, "all on CPU 0");
	/* not judged after: flagged before, skipped after for want of evidence */
	side_finding(&p->b, "softnet.backlog-drops", NP_SEV_CRITICAL, "backlog drops");
	p->a.rep.res[np_check_index(np_check_find("softnet.backlog-drops"))].state =
		NP_CHECK_SKIPPED;
	/* new */
	side_finding(&p->a, "socket.rmem-max", NP_SEV_INFO, "rmem_max small");
	/* worse and better */
	side_finding(&p->b, "link.duplex", NP_SEV_INFO, "slow");
	side_finding(&p->a, "link.duplex", NP_SEV_WARNING, "slower");
	side_finding(&p->b, "congestion.cc", NP_SEV_WARNING, "cubic");
	side_finding(&p->a, "congestion.cc", NP_SEV_INFO, "bbr without fq");
	/* unchanged: counted, not listed */
	side_finding(&p->b, "ip.rp-filter", NP_SEV_INFO, "strict");
	side_finding(&p->a, "ip.rp-filter", NP_SEV_INFO, "strict");
	build(p, false, false);

	assert_int_equal(p->d.nver, 5);
	assert_int_equal(p->d.verdicts_same, 1);
	v = verdict(&p->d, "irq.affinity");
	assert_non_null(v);
	assert_int_equal(v->change, NP_DIFF_RESOLVED);
	assert_int_equal(v->old_sev, NP_SEV_WARNING);
	assert_int_equal(v->new_sev, NP_SEV_OK);
	assert_string_equal(v->summary, "all on CPU 0");
	v = verdict(&p->d, "softnet.backlog-drops");
	assert_int_equal(v->change, NP_DIFF_UNJUDGED);
	assert_false(v->new_judged);
	v = verdict(&p->d, "socket.rmem-max");
	assert_int_equal(v->change, NP_DIFF_NEW);
	assert_string_equal(v->summary, "rmem_max small");
	v = verdict(&p->d, "link.duplex");
	assert_int_equal(v->change, NP_DIFF_WORSE);
	assert_string_equal(v->summary, "slower");
	v = verdict(&p->d, "congestion.cc");
	assert_int_equal(v->change, NP_DIFF_BETTER);
	assert_null(verdict(&p->d, "ip.rp-filter"));
	/* Stage order: link, irq, softnet, socket, congestion. */
	for (size_t i = 1; i < p->d.nver; i++)
		assert_true(p->d.ver[i - 1].check->stage <= p->d.ver[i].check->stage);
	assert_string_equal(p->d.ver[0].check->id, "link.duplex");
	assert_string_equal(p->d.ver[4].check->id, "congestion.cc");
	assert_int_equal(p->d.old_worst, NP_SEV_CRITICAL);
	assert_int_equal(p->d.new_worst, NP_SEV_WARNING);
}

/* AFTER read inside a child namespace (ip netns exec): the host-wide sysctls are not there.
 * They are not comparable, never "-> unknown"; a finding before that rested on one of them
 * is not judged after, never resolved, although the check ran (on the kernel default). */
static void test_host_wide_hidden_in_a_namespace(void **state)
{
	struct pair *p = *state;
	const struct np_diff_verdict *v;
	struct np_finding *f;

	synth_sysctl(&p->b.s, "net.core.netdev_budget", "300");
	synth_sysctl(&p->b.s, "net.ipv4.tcp_mem", "1000 2000 3000");
	/* Unreadable after (no file in the namespace), or not in its table at all. */
	((struct np_sysctl *)np_sysctl_find_key(&p->a.s, "net.core.netdev_max_backlog"))->err =
		ENOENT;
	/* A namespace key really unknown after stays a row. */
	synth_sysctl(&p->b.s, "net.ipv4.tcp_ecn", "2");
	side_finding(&p->b, "softnet.time-squeeze", NP_SEV_WARNING, "squeezed");
	f = &p->b.rep.f[p->b.rep.n - 1];
	np_ev_value(f, "netdev_budget", "packets", 300);
	/* A finding resting on a value after did read: resolved as before. */
	side_finding(&p->b, "socket.rmem-max", NP_SEV_INFO, "rmem_max small");
	np_ev_value(&p->b.rep.f[p->b.rep.n - 1], "rmem_max", "bytes", 212992);
	build(p, false, false);

	assert_int_equal(p->d.host_not_comparable, 3);	/* backlog, budget, tcp_mem */
	assert_null(setting(&p->d, "net.core.netdev_max_backlog"));
	assert_null(setting(&p->d, "net.core.netdev_budget"));
	assert_null(setting(&p->d, "net.ipv4.tcp_mem"));
	assert_change(&p->d, "net.ipv4.tcp_ecn", NP_STAGE_TRANSPORT, "2", "");
	v = verdict(&p->d, "softnet.time-squeeze");
	assert_non_null(v);
	assert_int_equal(v->change, NP_DIFF_UNJUDGED);
	assert_false(v->new_judged);
	v = verdict(&p->d, "socket.rmem-max");
	assert_int_equal(v->change, NP_DIFF_RESOLVED);
}

static void test_coverage_changes(void **state)
{
	struct pair *p = *state;

	p->b.cov.st[NP_STAGE_PCIE].status = NP_COV_NOT_JUDGED;
	snprintf(p->b.cov.st[NP_STAGE_PCIE].reason, sizeof(p->b.cov.st[0].reason),
		 "pcie_link: not in this capture");
	p->a.cov.st[NP_STAGE_SOFTNET].status = NP_COV_NOT_JUDGED;
	snprintf(p->a.cov.st[NP_STAGE_SOFTNET].reason, sizeof(p->a.cov.st[0].reason),
		 "softnet_stat: malformed");
	build(p, false, false);
	assert_int_equal(p->d.ncov, 2);
	assert_int_equal(p->d.cov[0].stage, NP_STAGE_PCIE);
	assert_int_equal(p->d.cov[0].old, NP_COV_NOT_JUDGED);
	assert_int_equal(p->d.cov[0].new, NP_COV_JUDGED);
	assert_string_equal(p->d.cov[0].reason, "pcie_link: not in this capture");
	assert_int_equal(p->d.cov[1].stage, NP_STAGE_SOFTNET);
	assert_int_equal(p->d.cov[1].new, NP_COV_NOT_JUDGED);
	assert_string_equal(p->d.cov[1].reason, "softnet_stat: malformed");
	assert_false(np_diff_empty(&p->d));
}

static void test_funnel_needs_both_intervals(void **state)
{
	struct pair *p = *state;

	synth_mib(&p->b.prev, "IpInReceives", 1000);
	synth_mib(&p->b.s, "IpInReceives", 2000);
	synth_mib(&p->a.prev, "IpInReceives", 1000);
	synth_mib(&p->a.s, "IpInReceives", 5000);
	bool seen = false;

	build(p, true, false);
	assert_true(p->d.has_funnel);
	for (size_t i = 0; i < p->d.funnel_new.n; i++) {
		const struct np_funnel_row *o = &p->d.funnel_old.rows[i], *n = &p->d.funnel_new.rows[i];

		if (n->stage != NP_STAGE_IP)
			continue;
		assert_true(n->in.sampled);
		assert_true(o->in.rate == 1000 && n->in.rate == 4000);
		seen = true;
	}
	assert_true(seen);
	/* AFTER from one instant: no rates to set beside BEFORE's. */
	side_view(&p->b, true, false);
	side_view(&p->a, false, false);
	np_diff_free(&p->d);
	assert_int_equal(np_diff_build(&p->b.view, &p->a.view, &p->d), 0);
	assert_false(p->d.has_funnel);
}

/* Every sysctl doctor reads has a stage of its own in the diff table, not a guess. */
static void test_every_collected_sysctl_is_staged(void **state)
{
	char root[1024];
	struct np_snapshot s;
	struct np_ctx ctx;
	bool listed;

	(void)state;
	snprintf(root, sizeof(root), "%s/trees/lan-10g/after", NP_FIXTURES);
	assert_int_equal(np_ctx_open(&ctx, root), 0);
	np_snapshot_init(&s);
	snprintf(s.ifname, sizeof(s.ifname), "enp1s0f0");
	np_collect_sysctls(&ctx, &s);
	np_ctx_close(&ctx);
	assert_true(s.hs->sysctl.n > 40);
	for (size_t i = 0; i < s.hs->sysctl.n; i++) {
		if (strcmp(s.hs->sysctl.e[i].key, "net.netfilter.nf_conntrack_count") == 0)
			continue;	/* a gauge, never compared */
		np_diff_sysctl_stage(s.hs->sysctl.e[i].key, &listed);
		if (!listed)
			fail_msg("%s has no stage in the sysctl registry", s.hs->sysctl.e[i].key);
	}
	np_snapshot_free(&s);
	/* And an unknown key is a guess, said so. */
	assert_int_equal(np_diff_sysctl_stage("net.ipv4.tcp_frto", &listed), NP_STAGE_TRANSPORT);
	assert_false(listed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_identical_is_no_change, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sysctl_changes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unknown_is_not_zero, setup, teardown),
		cmocka_unit_test_setup_teardown(test_device_settings_in_stage_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lower_device_added, setup, teardown),
		cmocka_unit_test_setup_teardown(test_verdicts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_host_wide_hidden_in_a_namespace, setup, teardown),
		cmocka_unit_test_setup_teardown(test_coverage_changes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_funnel_needs_both_intervals, setup, teardown),
		cmocka_unit_test(test_every_collected_sysctl_is_staged),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
