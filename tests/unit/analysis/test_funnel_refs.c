// SPDX-License-Identifier: GPL-2.0-only
/*
 * history's funnel over counters found once (np_funnel_resolve / np_funnel_build_refs,
 * funnel.h) against np_funnel_build, which finds them by name: on every golden tree the rows
 * must be the same, field by field (rates bit for bit). The places are resolved once and the
 * values then change under them, as in a history scan: frames patched in through a plan
 * (snapshot_counters.h), prev and cur swapped, and every MIB and conntrack value rewritten
 * (each counter its own value and delta, some going back: resets), so that a counter read
 * from the wrong place, or left out of a sum, shows. Then history's narrowed plans
 * (np_snapcnt_plan_narrow: of the MIB and conntrack, only the funnel's counters copied): the
 * funnel through them is the funnel of snapshots each frame was applied to.
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

static void same_view(const char *tree, const char *when, size_t row,
		      const struct np_counter_view *x, const struct np_counter_view *y)
{
	if (x->present != y->present || x->sampled != y->sampled || x->total != y->total ||
	    x->delta != y->delta || memcmp(&x->rate, &y->rate, sizeof(x->rate)))
		fail_msg("%s, %s: funnel row %zu differs: by name %d/%d %llu %llu %.17g, resolved "
			 "%d/%d %llu %llu %.17g", tree, when, row, x->present, x->sampled,
			 (unsigned long long)x->total, (unsigned long long)x->delta, x->rate,
			 y->present, y->sampled, (unsigned long long)y->total,
			 (unsigned long long)y->delta, y->rate);
}

/* The funnel of (wp, wc) by name against that of (prev, cur) through refs resolved earlier. */
static void compare2(const char *tree, const char *when, struct np_snapshot *wp,
		     struct np_snapshot *wc, struct np_snapshot *prev, struct np_snapshot *cur,
		     const struct np_funnel_refs *rp, const struct np_funnel_refs *rc)
{
	static const struct np_options opt = { .interval = 1, .rtt_ms = NAN,
					       .bandwidth_bps = NAN };
	struct np_analysis a = {
		.prev = wp, .cur = wc, .dt = 1.5, .opt = &opt, .bw_bps = NAN, .rtt_ms = NAN,
	};
	struct np_funnel want, got;

	np_funnel_build(&a, &want);
	a.prev = prev;
	a.cur = cur;
	np_funnel_build_refs(&a, rp, rc, &got);
	assert_int_equal(want.n, got.n);
	assert_string_equal(want.dev, got.dev);
	for (size_t i = 0; i < want.n; i++) {
		assert_int_equal(want.rows[i].stage, got.rows[i].stage);
		assert_int_equal(want.rows[i].scope, got.rows[i].scope);
		assert_ptr_equal(want.rows[i].in_what, got.rows[i].in_what);
		assert_ptr_equal(want.rows[i].drop_what, got.rows[i].drop_what);
		same_view(tree, when, i, &want.rows[i].in, &got.rows[i].in);
		same_view(tree, when, i, &want.rows[i].drop, &got.rows[i].drop);
	}
}

/* The funnel of (prev, cur) both ways: by name, and through refs resolved earlier. */
static void compare(const char *tree, const char *when, struct np_snapshot *prev,
		    struct np_snapshot *cur, const struct np_funnel_refs *rp,
		    const struct np_funnel_refs *rc)
{
	compare2(tree, when, prev, cur, prev, cur, rp, rc);
}

/* Every MIB and conntrack value rewritten: its own since-boot value in prev, its own delta
 * in cur (every seventh goes back: a reset). The tables keep their entries. */
static void rewrite(struct np_snapshot *prev, struct np_snapshot *cur, uint64_t seed)
{
	struct np_counters *t[4] = { &prev->hs->mib, &cur->hs->mib, &prev->hs->conntrack,
				     &cur->hs->conntrack };

	for (int k = 0; k < 4; k += 2)
		for (size_t i = 0; i < t[k]->n && i < t[k + 1]->n; i++) {
			uint64_t base = seed * 1000003u + i * 7919u + 100000u;

			t[k]->e[i].value = base;
			t[k + 1]->e[i].value = i % 7 == 3 ? base - 1 - i : base + 13u * i + seed;
		}
}

static void check_tree(const char *tree, const char *ifname)
{
	struct np_snapshot p, c;
	struct np_snapcnt_plan planp = { 0 }, planc = { 0 };
	struct np_funnel_refs rp, rc;
	struct frame fp, fc;

	collect(tree, "before", ifname, &p);
	collect(tree, "after", ifname, &c);
	/* As collected. */
	np_funnel_resolve(&p, &rp);
	np_funnel_resolve(&c, &rc);
	compare(tree, "collected", &p, &c, &rp, &rc);
	compare(tree, "no prev", NULL, &c, NULL, &rc);
	compare(tree, "reversed", &c, &p, &rc, &rp);
	/* As history: planned with the other moment's frame, resolved, then patched. */
	encode(&p, &fp);
	encode(&c, &fc);
	assert_int_equal(np_snapcnt_plan(&p, &planp, fc.names, fc.c.v, fc.c.n), 0);
	assert_int_equal(np_snapcnt_plan(&c, &planc, fp.names, fp.c.v, fp.c.n), 0);
	np_funnel_resolve(&p, &rp);
	np_funnel_resolve(&c, &rc);
	compare(tree, "planned", &c, &p, &rc, &rp);
	np_snapcnt_patch(&planp, fp.c.v);
	np_snapcnt_patch(&planc, fc.c.v);
	compare(tree, "patched", &p, &c, &rp, &rc);
	np_snapcnt_patch(&planp, fc.c.v);
	np_snapcnt_patch(&planc, fp.c.v);
	compare(tree, "patched back", &c, &p, &rc, &rp);
	/* Every value moved under the same places. */
	for (uint64_t seed = 1; seed <= 3; seed++) {
		rewrite(&p, &c, seed);
		compare(tree, "rewritten", &p, &c, &rp, &rc);
		rewrite(&c, &p, seed);
		compare(tree, "rewritten back", &c, &p, &rc, &rp);
	}
	np_snapcnt_plan_free(&planp);
	np_snapcnt_plan_free(&planc);
	frame_free(&fp);
	frame_free(&fc);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

static void narrow(struct np_snapshot *s, struct np_snapcnt_plan *plan,
		   struct np_funnel_refs *r)
{
	const uint64_t *keep[NP_FUNNEL_NMIB + 1];
	size_t before = plan->n;

	np_funnel_resolve(s, r);
	memcpy(keep, r->mib, sizeof(r->mib));
	keep[NP_FUNNEL_NMIB] = r->ct_drop;
	np_snapcnt_plan_narrow(plan, s, keep, NP_FUNNEL_NMIB + 1);
	assert_true(plan->n < before);
}

/* history's narrowed plans against snapshots the frames were applied to. */
static void check_narrowed(const char *tree, const char *ifname)
{
	struct np_snapshot ap, ac, np, nc;
	struct np_snapcnt_plan planp = { 0 }, planc = { 0 };
	struct np_funnel_refs rp, rc;
	struct frame fp, fc;

	collect(tree, "before", ifname, &ap);
	collect(tree, "after", ifname, &ac);
	collect(tree, "before", ifname, &np);
	collect(tree, "after", ifname, &nc);
	encode(&ap, &fp);
	encode(&ac, &fc);
	assert_int_equal(np_snapcnt_apply(&ap, fp.names, fp.c.v, fp.c.n), 0);
	assert_int_equal(np_snapcnt_apply(&ac, fc.names, fc.c.v, fc.c.n), 0);
	assert_int_equal(np_snapcnt_plan(&np, &planp, fc.names, fc.c.v, fc.c.n), 0);
	assert_int_equal(np_snapcnt_plan(&nc, &planc, fp.names, fp.c.v, fp.c.n), 0);
	narrow(&np, &planp, &rp);
	narrow(&nc, &planc, &rc);
	np_snapcnt_patch(&planp, fp.c.v);
	np_snapcnt_patch(&planc, fc.c.v);
	compare2(tree, "narrowed", &ap, &ac, &np, &nc, &rp, &rc);
	np_snapcnt_patch(&planp, fc.c.v);
	np_snapcnt_patch(&planc, fp.c.v);
	assert_int_equal(np_snapcnt_apply(&ap, fc.names, fc.c.v, fc.c.n), 0);
	assert_int_equal(np_snapcnt_apply(&ac, fp.names, fp.c.v, fp.c.n), 0);
	compare2(tree, "narrowed, swapped", &ac, &ap, &nc, &np, &rc, &rp);
	np_snapcnt_plan_free(&planp);
	np_snapcnt_plan_free(&planc);
	frame_free(&fp);
	frame_free(&fc);
	np_snapshot_free(&ap);
	np_snapshot_free(&ac);
	np_snapshot_free(&np);
	np_snapshot_free(&nc);
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

static void test_narrowed(void **state)
{
	(void)state;
	check_narrowed("x710-server", "eth0");
	check_narrowed("vm-virtio", "eth0");
	check_narrowed("old-kernel-5.4", "eth0");
	check_narrowed("lan-10g", "enp1s0f0");
	check_narrowed("arm-board", "enp1s0");
	check_narrowed("pop-a", "eth0");
	check_narrowed("pop-b", "eth0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trees),
		cmocka_unit_test(test_narrowed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
