// SPDX-License-Identifier: GPL-2.0-only
/* Render tests' fixture: collect two captured trees, analyse, build the doctor view. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "collect.h"
#include "ctx.h"
#include "render_monitor.h"
#include "tree.h"

static int exit_for(enum np_severity worst)
{
	return worst == NP_SEV_CRITICAL ? 2 : worst == NP_SEV_WARNING ? 1 : 0;
}

void tree_reanalyze(struct tree_run *t)
{
	np_report_free(&t->rep);
	memset(&t->rep, 0, sizeof(t->rep));
	assert_int_equal(np_analyze(&t->a, &t->rep, NULL, NULL), 0);
	np_funnel_build(&t->a, &t->fn);
	np_coverage_build(&t->a, &t->rep, &t->cov);
	t->v.exit_code = np_coverage_unknown(&t->cov) ? 3 : exit_for(np_report_worst(&t->rep));
}

struct tree_run *tree_run(void **state, const char *tree, const char *ifname, bool with_prev)
{
	struct tree_run *t = calloc(1, sizeof(*t));
	struct np_ctx ctx, bctx;

	assert_non_null(t);
	*state = t;
	snprintf(t->after, sizeof(t->after), "%s/trees/%s/after", NP_FIXTURES, tree);
	snprintf(t->before, sizeof(t->before), "%s/trees/%s/before", NP_FIXTURES, tree);
	assert_int_equal(np_ctx_open(&ctx, t->after), 0);
	assert_int_equal(np_iface_check(&ctx, ifname), 0);
	assert_int_equal(np_ctx_open(&bctx, t->before), 0);
	assert_int_equal(np_collect(&bctx, ifname, NULL, &t->prev), 0);
	np_ctx_close(&bctx);
	assert_int_equal(np_collect(&ctx, ifname, NULL, &t->cur), 0);
	np_ctx_close(&ctx);

	t->opt.interval = 0;
	t->opt.rtt_ms = NAN;
	t->opt.bandwidth_bps = NAN;
	t->a.prev = with_prev ? &t->prev : NULL;
	t->a.cur = &t->cur;
	t->a.dt = with_prev ? t->cur.t - t->prev.t : 0;
	t->a.opt = &t->opt;
	np_analysis_derive(&t->a);
	t->v = (struct np_doctor_view){
		.a = &t->a, .r = &t->rep, .funnel = &t->fn, .cov = &t->cov, .root = t->after,
		.live = false,
	};
	tree_reanalyze(t);
	return t;
}

int tree_teardown(void **state)
{
	struct tree_run *t = *state;

	if (t) {
		np_report_free(&t->rep);
		np_snapshot_free(&t->cur);
		np_snapshot_free(&t->prev);
		free(t);
	}
	*state = NULL;
	return 0;
}

char *render_prom(const struct tree_run *t, bool raw, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	assert_non_null(f);
	np_render_doctor_prom(f, &t->v, raw);
	assert_int_equal(fclose(f), 0);
	assert_non_null(buf);
	return buf;
}

char *render_nagios(const struct tree_run *t, int *code, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	assert_non_null(f);
	*code = np_render_doctor_nagios(f, &t->v);
	assert_int_equal(fclose(f), 0);
	assert_non_null(buf);
	return buf;
}
