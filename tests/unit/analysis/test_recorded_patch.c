// SPDX-License-Identifier: GPL-2.0-only
/*
 * history's fast way of putting frames into snapshots (np_snapcnt_plan/patch,
 * snapshot_counters.h): on every golden tree, each snapshot is planned with the other
 * moment's frame, then its own frame is patched in; the funnel built on them must be the
 * funnel built on snapshots its frame was applied to, row by row, field by field. Then the
 * frames swap once more (prev patched with cur's values and back), as a long scan does.
 */
#include "golden.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "funnel.h"
#include "snapshot_counters.h"

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

static void collect(const char *tree, const char *moment, const char *ifname,
		    struct np_snapshot *s)
{
	char path[4096];
	struct np_ctx ctx;

	memset(s, 0, sizeof(*s));
	snprintf(path, sizeof(path), "%s/trees/%s/%s", NP_FIXTURES, tree, moment);
	assert_int_equal(np_ctx_open(&ctx, path), 0);
	assert_int_equal(np_collect(&ctx, ifname, NULL, s), 0);
	np_ctx_close(&ctx);
}

static void funnel(struct np_snapshot *prev, struct np_snapshot *cur, struct np_funnel *f)
{
	static const struct np_options opt = { .interval = 1, .rtt_ms = NAN,
					       .bandwidth_bps = NAN };
	struct np_analysis a = {
		.prev = prev, .cur = cur, .dt = cur->t - prev->t > 0 ? cur->t - prev->t : 1,
		.opt = &opt, .bw_bps = NAN, .rtt_ms = NAN,
	};

	np_funnel_build(&a, f);
	/* history's congestion stage too (the egress qdiscs' drops), compared as a row. */
	assert_true(f->n < NP_STAGE__COUNT);
	memset(&f->rows[f->n], 0, sizeof(f->rows[0]));
	f->rows[f->n].stage = NP_STAGE_CONGESTION;
	f->rows[f->n++].drop = np_qdisc_egress_drops(&a);
}

static void same_view(const char *tree, size_t row, const struct np_counter_view *x,
		      const struct np_counter_view *y)
{
	if (x->present != y->present || x->sampled != y->sampled || x->total != y->total ||
	    x->delta != y->delta || memcmp(&x->rate, &y->rate, sizeof(x->rate)))
		fail_msg("%s: funnel row %zu differs: applied %d/%d %llu %llu %g, patched %d/%d "
			 "%llu %llu %g", tree, row, x->present, x->sampled,
			 (unsigned long long)x->total, (unsigned long long)x->delta, x->rate,
			 y->present, y->sampled, (unsigned long long)y->total,
			 (unsigned long long)y->delta, y->rate);
}

static void same_funnel(const char *tree, const struct np_funnel *x, const struct np_funnel *y)
{
	assert_int_equal(x->n, y->n);
	assert_string_equal(x->dev, y->dev);
	for (size_t i = 0; i < x->n; i++) {
		assert_int_equal(x->rows[i].stage, y->rows[i].stage);
		same_view(tree, i, &x->rows[i].in, &y->rows[i].in);
		same_view(tree, i, &x->rows[i].drop, &y->rows[i].drop);
	}
}

static void check_tree(const char *tree, const char *ifname)
{
	struct np_snapshot ap, ac, pp, pc;
	struct np_snapcnt_plan planp = { 0 }, planc = { 0 };
	struct frame fp, fc;
	struct np_funnel want, got;

	collect(tree, "before", ifname, &ap);
	collect(tree, "after", ifname, &ac);
	collect(tree, "before", ifname, &pp);
	collect(tree, "after", ifname, &pc);
	encode(&ap, &fp);
	encode(&ac, &fc);
	assert_int_equal(fp.c.n, fc.c.n);
	/* Applied: each its own frame. */
	assert_int_equal(np_snapcnt_apply(&ap, fp.names, fp.c.v, fp.c.n), 0);
	assert_int_equal(np_snapcnt_apply(&ac, fc.names, fc.c.v, fc.c.n), 0);
	funnel(&ap, &ac, &want);
	/* Planned with the other moment's frame, then patched with its own. */
	assert_int_equal(np_snapcnt_plan(&pp, &planp, fc.names, fc.c.v, fc.c.n), 0);
	assert_int_equal(np_snapcnt_plan(&pc, &planc, fp.names, fp.c.v, fp.c.n), 0);
	assert_true(planp.n > 0);
	np_snapcnt_patch(&planp, fp.c.v);
	np_snapcnt_patch(&planc, fc.c.v);
	funnel(&pp, &pc, &got);
	same_funnel(tree, &want, &got);
	/* Swapped and back through the same plans. */
	np_snapcnt_patch(&planp, fc.c.v);
	np_snapcnt_patch(&planc, fp.c.v);
	assert_int_equal(np_snapcnt_apply(&ap, fc.names, fc.c.v, fc.c.n), 0);
	assert_int_equal(np_snapcnt_apply(&ac, fp.names, fp.c.v, fp.c.n), 0);
	funnel(&ac, &ap, &want);
	funnel(&pc, &pp, &got);
	same_funnel(tree, &want, &got);
	np_snapcnt_plan_free(&planp);
	np_snapcnt_plan_free(&planc);
	frame_free(&fp);
	frame_free(&fc);
	np_snapshot_free(&ap);
	np_snapshot_free(&ac);
	np_snapshot_free(&pp);
	np_snapshot_free(&pc);
}

static void test_trees(void **state)
{
	(void)state;
	check_tree("x710-server", "eth0");
	check_tree("vm-virtio", "eth0");
	check_tree("old-kernel-5.4", "eth0");
	check_tree("lan-10g", "enp1s0f0");
	check_tree("arm-board", "enp1s0");
	check_tree("pop-a", "eth0");
	check_tree("pop-b", "eth0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trees),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
