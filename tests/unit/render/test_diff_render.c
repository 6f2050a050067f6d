// SPDX-License-Identifier: GPL-2.0-only
/*
 * netpath diff end to end over fixture trees, as the command runs it (np_runs_* per side, the
 * pure diff, the renderers): the field report of tests/fixtures/diff/field-bbr (cubic -> bbr,
 * rmem_max 212992 -> 33554432, IRQs spread) as a text table and as JSON, the same tree against
 * itself, and the funnels side by side when both sides hold two samples.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ctx.h"
#include "diff.h"
#include "doctor_stack.h"
#include "render_diff.h"
#include "../fits_width.h"

struct side {
	struct np_dev_runs dr;
	struct np_options opt;
	const struct np_snapshot *snap[NP_STACK_MAX];
	struct np_diff_side view;
};

/* One side from a tree (and, with first, the earlier tree it was sampled from). */
static void side_load(struct side *s, const char *first, const char *tree, const char *ifname)
{
	char a[1024], b[1024];
	const char *tops[1] = { ifname };
	struct np_ctx ctx;
	double dt = 0;

	snprintf(a, sizeof(a), "%s/%s", NP_FIXTURES, tree);
	s->opt = (struct np_options){ .rtt_ms = NAN, .bandwidth_bps = NAN };
	if (first) {
		snprintf(b, sizeof(b), "%s/%s", NP_FIXTURES, first);
		assert_int_equal(np_ctx_open(&ctx, b), 0);
		np_runs_discover(&s->dr, &ctx, tops, 1);
		np_ctx_close(&ctx);
		assert_int_equal(np_ctx_open(&ctx, a), 0);
		np_runs_collect_again(&s->dr, &ctx);
		dt = s->dr.run[0].cur.t - s->dr.run[0].prev.t;
		assert_true(dt > 0);
	} else {
		assert_int_equal(np_ctx_open(&ctx, a), 0);
		np_runs_discover(&s->dr, &ctx, tops, 1);
	}
	np_ctx_close(&ctx);
	s->opt.interval = dt;
	assert_int_equal(np_runs_analyze(&s->dr, dt, &s->opt, NULL, NULL, NULL), 0);
	for (size_t i = 0; i < s->dr.n; i++)
		s->snap[i] = s->dr.run[i].have_cur ? &s->dr.run[i].cur : &s->dr.run[i].prev;
	s->view = (struct np_diff_side){ .snap = s->snap, .nsnap = s->dr.n, .a = &s->dr.run[0].a,
					 .rep = &s->dr.run[0].rep, .cov = &s->dr.run[0].cov };
}

struct fix {
	struct side b, a;
	struct np_diff d;
	struct np_diff_view v;
	char *text;
};

static int teardown(void **state)
{
	struct fix *f = *state;

	if (!f)
		return 0;
	np_diff_free(&f->d);
	np_runs_free(&f->b.dr);
	np_runs_free(&f->a.dr);
	free(f->text);
	free(f);
	return 0;
}

static struct fix *run(void **state, const char *b0, const char *b, const char *a0,
		       const char *a, const char *ifname)
{
	struct fix *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	*state = f;
	side_load(&f->b, b0, b, ifname);
	side_load(&f->a, a0, a, ifname);
	assert_int_equal(np_diff_build(&f->b.view, &f->a.view, &f->d), 0);
	f->v = (struct np_diff_view){ .d = &f->d, .ifname = ifname, .before = b, .after = a,
				      .before_dt = f->b.dr.run[0].a.dt,
				      .after_dt = f->a.dr.run[0].a.dt };
	return f;
}

static char *text_at(struct fix *f, bool json, int width)
{
	struct np_render_opts o = { .width = width };
	size_t len = 0;
	FILE *m;

	free(f->text);
	f->text = NULL;
	m = open_memstream(&f->text, &len);
	assert_non_null(m);
	if (json)
		np_render_diff_json(m, &f->v);
	else
		np_render_diff_text(m, &f->v, &o);
	assert_int_equal(fclose(m), 0);
	return f->text;
}

/* The table as its assertions were written: 120 columns hold it. */
static char *text_of(struct fix *f, bool json)
{
	return text_at(f, json, 120);
}

/* text holds line as one whole line. */
static void assert_line(const char *text, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = text; (p = strstr(p, line)); p++)
		if ((p == text || p[-1] == '\n') && (p[n] == '\n' || p[n] == '\0'))
			return;
	fail_msg("line not found: '%s' in:\n%s", line, text);
}

#define FIELD "diff/field-bbr/"

static void test_field_report_table(void **state)
{
	struct fix *f = run(state, NULL, FIELD "before", NULL, FIELD "after", "enp1s0f0");
	const char *t = text_of(f, false);

	/* The rows of the report, aligned as one table, in receive-path order. */
	assert_line(t, "  stage       setting                            before                after");
	assert_line(t, "  irq         irq enp1s0f0-TxRx-7 affinity       0                   \u2192 7");
	assert_line(t, "  softnet     net.core.netdev_max_backlog        1000                \u2192 16384");
	assert_line(t, "  socket      net.core.rmem_max                  212992              \u2192 33554432");
	assert_line(t, "  socket      net.ipv4.tcp_rmem                  4096 131072 6291456 \u2192 "
		    "4096 131072 33554432");
	assert_line(t, "  congestion  net.ipv4.tcp_congestion_control    cubic               \u2192 bbr");
	assert_line(t, "  congestion  net.core.default_qdisc             pfifo_fast          \u2192 fq");
	assert_true(strstr(t, "irq ") < strstr(t, "net.core.rmem_max"));
	assert_true(strstr(t, "net.core.rmem_max") < strstr(t, "tcp_congestion_control"));
	/* Verdicts: the IRQ pile-up resolved, and the verdict of each side. */
	assert_non_null(strstr(t, "  irq         resolved   WARNING \u2192 none        irq.affinity\n"));
	assert_line(t, "  verdict: WARNING \u2192 INFO");
	/* The tree has no rings: nothing is said about them (unknown on both sides). */
	assert_null(strstr(t, "rx ring"));
	assert_null(strstr(t, "Packet funnel"));
	assert_int_equal(f->d.new_worst, NP_SEV_INFO);
	assert_false(f->d.new_unknown);
}

/* At 60 columns "before -> after" goes beneath each setting, and every line fits. */
static void test_field_report_narrow(void **state)
{
	struct fix *f = run(state, NULL, FIELD "before", NULL, FIELD "after", "enp1s0f0");
	const char *t = text_at(f, false, 60);

	assert_line(t, "  stage       setting");
	assert_line(t, "                before \u2192 after");
	assert_line(t, "  socket      net.ipv4.tcp_rmem");
	assert_line(t, "                4096 131072 6291456 \u2192 4096 131072 33554432");
	np_assert_fits(t, 60);
	np_assert_fits(text_at(f, false, 80), 80);
}

static void test_field_report_json(void **state)
{
	struct fix *f = run(state, NULL, FIELD "before", NULL, FIELD "after", "enp1s0f0");
	const char *j;

	f->v.exit_code = 0;
	j = text_of(f, true);
	assert_non_null(strstr(j, "\"schema\": \"netpath/diff\",\n  \"version\": 1,"));
	assert_non_null(strstr(j, "\"changed\": true"));
	assert_non_null(strstr(j, "\"stage\": \"socket\",\n      \"interface\": null,\n"
			       "      \"setting\": \"net.core.rmem_max\",\n"
			       "      \"before\": \"212992\",\n      \"after\": \"33554432\""));
	assert_non_null(strstr(j, "\"setting\": \"net.ipv4.tcp_congestion_control\",\n"
			       "      \"before\": \"cubic\",\n      \"after\": \"bbr\""));
	assert_non_null(strstr(j, "\"id\": \"irq.affinity\",\n      \"stage\": \"irq\",\n"
			       "      \"interface\": \"enp1s0f0\",\n"
			       "      \"change\": \"resolved\",\n      \"before\": \"warning\",\n"
			       "      \"after\": null,"));
	assert_non_null(strstr(j, "\"funnel\": null"));
}

/* Swapped: the same pair read backwards is worse, and the AFTER verdict is the warning. */
static void test_swapped_is_worse(void **state)
{
	struct fix *f = run(state, NULL, FIELD "after", NULL, FIELD "before", "enp1s0f0");
	bool found = false;

	assert_int_equal(f->d.new_worst, NP_SEV_WARNING);
	for (size_t i = 0; i < f->d.nver; i++)
		if (strcmp(f->d.ver[i].check->id, "irq.affinity") == 0) {
			assert_int_equal(f->d.ver[i].change, NP_DIFF_NEW);
			found = true;
		}
	assert_true(found);
	/* The before column is as wide as its longest value, "4096 131072 33554432". */
	assert_line(text_of(f, false), "  socket      net.core.rmem_max                  33554432 "
		    "            \u2192 212992");
}

static void test_same_tree_no_change(void **state)
{
	struct fix *f = run(state, NULL, FIELD "after", NULL, FIELD "after", "enp1s0f0");
	const char *t = text_of(f, false);

	assert_true(np_diff_empty(&f->d));
	assert_true(f->d.settings_compared > 40);
	assert_line(t, "  no setting changed");
	assert_line(t, "No change between the two sides.");
	assert_non_null(strstr(text_of(f, true), "\"changed\": false"));
}

/* Both sides sampled (two captures each): the funnels side by side. */
static void test_funnels_side_by_side(void **state)
{
	struct fix *f = run(state, "trees/lan-10g/before", "trees/lan-10g/after",
			    "trees/lan-10g/before", "trees/lan-10g/after", "enp1s0f0");
	const char *t;

	assert_true(f->d.has_funnel);
	t = text_of(f, false);
	assert_non_null(strstr(t, "Packet funnel (per second over each side's sample)\n"
			       "  stage        packets before           after    drops before"
			       "           after\n"));
	/* lan-10g: 150,000 packets/s at the NIC on both sides. */
	assert_line(t, "  nic                 150,000         150,000               0"
		    "               0");
	t = text_of(f, true);
	assert_non_null(strstr(t, "\"stage\": \"nic\",\n      \"before\": {\n"
			       "        \"packets_per_second\": 150000"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_field_report_table, teardown),
		cmocka_unit_test_teardown(test_field_report_narrow, teardown),
		cmocka_unit_test_teardown(test_field_report_json, teardown),
		cmocka_unit_test_teardown(test_swapped_is_worse, teardown),
		cmocka_unit_test_teardown(test_same_tree_no_change, teardown),
		cmocka_unit_test_teardown(test_funnels_side_by_side, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
