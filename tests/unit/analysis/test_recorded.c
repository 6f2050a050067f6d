// SPDX-License-Identifier: GPL-2.0-only
/*
 * doctor on recorded counters (issue #31): every golden tree judged twice, once as doctor
 * --root AFTER --before BEFORE does, once the way doctor --at will: each snapshot first holds
 * the other moment's counters (a configuration replayed with counters of the wrong moment),
 * then its own moment's counters are applied from a frame (snapshot_counters.h). The text
 * and JSON reports must be byte-identical: every counter a check turns into a rate, or reads
 * as since-boot context, round-trips through the frame.
 */
#include "golden.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "root.h"
#include "snapshot_counters.h"
#include "socket_fold.h"

struct frame {
	struct np_named_counters c;
	const char **names;
};

static void encode(const struct np_snapshot *s, struct frame *f)
{
	const char *p;

	np_named_counters_init(&f->c);
	assert_int_equal(np_snapcnt_host(s, &f->c), 0);
	assert_int_equal(np_snapcnt_dev(s, &f->c), 0);
	f->names = calloc(f->c.n + 1, sizeof(*f->names));
	assert_non_null(f->names);
	p = f->c.names;
	for (size_t i = 0; i < f->c.n; i++) {
		f->names[i] = p;
		p += strlen(p) + 1;
	}
}

static void frame_free(struct frame *f)
{
	free(f->names);
	np_named_counters_free(&f->c);
}

static void apply(struct np_snapshot *s, const struct frame *f)
{
	assert_int_equal(np_snapcnt_apply(s, f->names, f->c.v, f->c.n), 0);
}

/* doctor's JSON and text (verbose, so that evidence and context show) of g's analysis. */
static char *render(const struct golden *g)
{
	struct np_doctor_view v = {
		.a = &g->a, .r = &g->rep, .funnel = &g->fn, .cov = &g->cov, .root = g->after,
		.live = false, .exit_code = g->exit_code,
	};
	struct np_render_opts ro = { .color = false, .verbose = 2, .width = 100 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	np_render_doctor_json(f, &v);
	np_render_doctor_text(f, &v, &ro);
	assert_int_equal(fclose(f), 0);
	assert_non_null(buf);
	return buf;
}

/* Each snapshot's counters replaced by the other's, then by its own frame. */
static void recorded(struct golden *g)
{
	struct frame fp, fc;

	encode(&g->prev, &fp);
	encode(&g->cur, &fc);
	apply(&g->prev, &fc);
	apply(&g->cur, &fp);
	apply(&g->prev, &fp);
	apply(&g->cur, &fc);
	frame_free(&fp);
	frame_free(&fc);
}

/* doctor's analysis of g->prev and g->cur, as golden.c does it. */
static void analyze(struct golden *g, double rtt_ms, double bw_bps)
{
	g->opt.interval = 0;
	g->opt.rtt_ms = rtt_ms;
	g->opt.bandwidth_bps = bw_bps;
	g->a.prev = &g->prev;
	g->a.cur = &g->cur;
	g->a.dt = g->cur.t - g->prev.t;
	g->a.opt = &g->opt;
	np_analysis_derive(&g->a);
	assert_int_equal(np_analyze(&g->a, &g->rep, NULL, NULL), 0);
	np_funnel_build(&g->a, &g->fn);
	np_coverage_build(&g->a, &g->rep, &g->cov);
	g->exit_code = np_coverage_unknown(&g->cov) ? 3 :
		       np_report_worst(&g->rep) == NP_SEV_CRITICAL ? NP_EXIT_CRITICAL :
		       np_report_worst(&g->rep) == NP_SEV_WARNING ? NP_EXIT_WARNING : NP_EXIT_OK;
}

/* The recorded way for a golden tree: doctor --root AFTER --before BEFORE on frames. */
static struct golden *run_recorded(const char *tree, const char *ifname, double rtt_ms,
				   double bw_bps)
{
	struct golden *g = calloc(1, sizeof(*g));
	struct np_ctx ctx, bctx;

	assert_non_null(g);
	snprintf(g->after, sizeof(g->after), "%s/trees/%s/after", NP_FIXTURES, tree);
	snprintf(g->before, sizeof(g->before), "%s/trees/%s/before", NP_FIXTURES, tree);
	assert_int_equal(np_ctx_open(&ctx, g->after), 0);
	assert_int_equal(np_iface_check(&ctx, ifname), 0);
	assert_int_equal(np_ctx_open(&bctx, g->before), 0);
	assert_int_equal(np_collect(&bctx, ifname, NULL, &g->prev), 0);
	np_ctx_close(&bctx);
	assert_int_equal(np_collect(&ctx, ifname, NULL, &g->cur), 0);
	np_ctx_close(&ctx);
	recorded(g);
	analyze(g, rtt_ms, bw_bps);
	return g;
}

static void same_text(const char *what, char *want, char *got)
{
	if (strcmp(want, got)) {
		size_t i = 0;

		while (want[i] && want[i] == got[i])
			i++;
		fail_msg("%s: the recorded report differs at byte %zu:\n--- live:\n%.300s\n--- "
			 "recorded:\n%.300s", what, i, want + (i > 100 ? i - 100 : 0),
			 got + (i > 100 ? i - 100 : 0));
	}
	free(want);
	free(got);
}

static void same_report(void **state, const char *tree, const char *ifname, double rtt_ms,
			double bw_bps)
{
	struct golden *g = golden_run_path(state, tree, ifname, rtt_ms, bw_bps);
	void *mine = NULL;
	struct golden *r;
	char *want, *got;

	r = run_recorded(tree, ifname, rtt_ms, bw_bps);
	mine = r;
	want = render(g);
	got = render(r);
	golden_teardown(&mine);
	same_text(tree, want, got);
}

static void test_x710(void **state)
{
	same_report(state, "x710-server", "eth0", NAN, NAN);
}

static void test_vm_virtio(void **state)
{
	same_report(state, "vm-virtio", "eth0", NAN, NAN);
}

static void test_old_kernel(void **state)
{
	same_report(state, "old-kernel-5.4", "eth0", NAN, NAN);
}

static void test_lan_10g(void **state)
{
	same_report(state, "lan-10g", "enp1s0f0", NAN, NAN);
}

static void test_arm_board(void **state)
{
	same_report(state, "arm-board", "enp1s0", NAN, NAN);
}

static void test_pops(void **state)
{
	same_report(state, "pop-a", "eth0", 30.0, 500e6);
	golden_teardown(state);
	same_report(state, "pop-b", "eth0", 30.0, 500e6);
}

/* A netpath capture: rtnetlink stats64, the tbf qdisc's statistics, netdev qstats, sockets
 * (through the checks' fold) come back from the frames too. */
#define CAP NP_FIXTURES "/capture/veth-tbf.cap"

static void sample(const struct np_root *r, const char *dir, struct np_snapshot *s)
{
	struct np_ctx ctx;

	assert_int_equal(np_root_ctx_open(&ctx, r, dir), 0);
	assert_int_equal(np_collect(&ctx, "va", np_socket_fold, s), 0);
	np_root_ctx_close(&ctx);
}

static struct golden *run_capture(bool rec)
{
	struct golden *g = calloc(1, sizeof(*g));
	struct np_root r;
	char err[256];

	assert_non_null(g);
	assert_int_equal(np_root_resolve(&r, CAP, err, sizeof(err)), 0);
	snprintf(g->after, sizeof(g->after), "%s", CAP);
	sample(&r, r.before, &g->prev);
	sample(&r, r.dir, &g->cur);
	np_root_release(&r);
	assert_true(g->prev.rtnl.has_stats64 && g->cur.rtnl.nqdisc > 0);
	if (rec)
		recorded(g);
	analyze(g, NAN, NAN);
	return g;
}

static void test_capture(void **state)
{
	struct golden *g = run_capture(false), *r;
	void *mine;

	*state = g;
	r = run_capture(true);
	mine = r;
	assert_true(np_src_ok(&r->cur, NP_SRC_SOCK_DIAG));
	assert_true(np_src_ok(&r->cur, NP_SRC_RTNL_QDISC));
	assert_true(r->cur.rtnl.has_stats64);
	same_text("veth-tbf.cap", render(g), render(r));
	golden_teardown(&mine);
}

/* One capture judged alone (since-boot counters as context): its counters first scrambled
 * (every value of its own frame moved by one), then put back from its frame. */
static struct golden *run_single_recorded(const char *dir, const char *ifname)
{
	struct golden *g = calloc(1, sizeof(*g));
	struct np_ctx ctx;
	struct frame f;
	uint64_t *moved;

	assert_non_null(g);
	snprintf(g->after, sizeof(g->after), "%s/%s", NP_FIXTURES, dir);
	assert_int_equal(np_ctx_open(&ctx, g->after), 0);
	np_collect(&ctx, ifname, NULL, &g->cur);
	np_ctx_close(&ctx);
	encode(&g->cur, &f);
	moved = malloc((f.c.n ? f.c.n : 1) * sizeof(*moved));
	assert_non_null(moved);
	for (size_t i = 0; i < f.c.n; i++)
		moved[i] = np_has(f.c.v[i]) ? f.c.v[i] + 1 : 0;
	assert_int_equal(np_snapcnt_apply(&g->cur, f.names, moved, f.c.n), 0);
	free(moved);
	apply(&g->cur, &f);
	frame_free(&f);
	g->opt.interval = 0;
	g->opt.rtt_ms = NAN;
	g->opt.bandwidth_bps = NAN;
	g->a.cur = &g->cur;
	g->a.opt = &g->opt;
	np_analysis_derive(&g->a);
	assert_int_equal(np_analyze(&g->a, &g->rep, NULL, NULL), 0);
	np_funnel_build(&g->a, &g->fn);
	np_coverage_build(&g->a, &g->rep, &g->cov);
	g->exit_code = np_coverage_unknown(&g->cov) ? 3 :
		       np_report_worst(&g->rep) == NP_SEV_CRITICAL ? NP_EXIT_CRITICAL :
		       np_report_worst(&g->rep) == NP_SEV_WARNING ? NP_EXIT_WARNING : NP_EXIT_OK;
	return g;
}

static void test_real_captures(void **state)
{
	static const char *const cap[][2] = {
		{ "real/igb-kernel3.13-4cpu-all-on-cpu0", "eth0" },
		{ "real/xen-netfront-eth0-8cpu", "eth0" },
		{ "real/e1000e-single-msi-8cpu", "enp0s25" },
		{ "real/intx-shared-ens3-1cpu-i686", "ens3" },
		{ "real/ena-arm64-graviton-8cpu", "eth0" },
		{ "real/ena-3nics-x86-4cpu", "eth1" },
		{ "real/rhel6-eth0-txrx-16cpu-spread", "eth0" },
		{ "real/virtio-kvm-4cpu", "eth0" },
		{ "real/mlx5-12cpu-pinned", "enp1s0f0np0" },
		{ "real/sysstat-cpu6-offline", "enp6s0" },
		{ "real/bigsys-480cpu-rhel6", "eth0" },
	};

	for (size_t i = 0; i < sizeof(cap) / sizeof(cap[0]); i++) {
		struct golden *g = golden_run_single(state, cap[i][0], cap[i][1]), *r;
		void *mine;
		char *want, *got;

		r = run_single_recorded(cap[i][0], cap[i][1]);
		mine = r;
		want = render(g);
		got = render(r);
		golden_teardown(&mine);
		golden_teardown(state);
		same_text(cap[i][0], want, got);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_x710, golden_teardown),
		cmocka_unit_test_teardown(test_vm_virtio, golden_teardown),
		cmocka_unit_test_teardown(test_old_kernel, golden_teardown),
		cmocka_unit_test_teardown(test_lan_10g, golden_teardown),
		cmocka_unit_test_teardown(test_arm_board, golden_teardown),
		cmocka_unit_test_teardown(test_pops, golden_teardown),
		cmocka_unit_test_teardown(test_capture, golden_teardown),
		cmocka_unit_test_teardown(test_real_captures, golden_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
