// SPDX-License-Identifier: GPL-2.0-only
/*
 * Threshold overrides and check selection change the verdicts of a whole analysis as documented:
 * the x710-server fixture (tests/fixtures/trees, 12,000 backlog drops/s, critical by default)
 * analysed exactly as `netpath doctor --root AFTER --before BEFORE` does, with config lines or
 * options applied.
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

#include "collect.h"
#include "doctor_config.h"
#include "ctx.h"
#include "funnel.h"
#include "render.h"

struct run {
	struct np_options opt;
	struct np_snapshot prev, cur;
	struct np_analysis a;
	struct np_report rep;
	struct np_config cfg;
	bool analysed;
};

/* Collect the two captures once per test; *state owns them so teardown frees them. */
static int setup(void **state)
{
	struct run *x = calloc(1, sizeof(*x));
	char after[1024], before[1024];
	struct np_ctx ctx, bctx;

	if (!x)
		return -1;
	*state = x;
	snprintf(after, sizeof(after), "%s/trees/x710-server/after", NP_FIXTURES);
	snprintf(before, sizeof(before), "%s/trees/x710-server/before", NP_FIXTURES);
	if (np_ctx_open(&bctx, before) < 0)
		return -1;
	if (np_collect(&bctx, "eth0", NULL, &x->prev) < 0)
		return -1;
	np_ctx_close(&bctx);
	if (np_ctx_open(&ctx, after) < 0)
		return -1;
	if (np_collect(&ctx, "eth0", NULL, &x->cur) < 0)
		return -1;
	np_ctx_close(&ctx);
	x->opt.rtt_ms = NAN;
	x->opt.bandwidth_bps = NAN;
	x->a.prev = &x->prev;
	x->a.cur = &x->cur;
	x->a.dt = x->cur.t - x->prev.t;
	x->a.opt = &x->opt;
	np_analysis_derive(&x->a);
	return 0;
}

static int teardown(void **state)
{
	struct run *x = *state;

	if (x) {
		if (x->analysed)
			np_report_free(&x->rep);
		np_config_free(&x->cfg);
		np_snapshot_free(&x->cur);
		np_snapshot_free(&x->prev);
		free(x);
	}
	return 0;
}

/* Parse the config text and analyse with its overrides and selection, as doctor would. */
static void analyse(struct run *x, const char *conf)
{
	char err[320];

	if (x->analysed)
		np_report_free(&x->rep);
	x->analysed = false;
	np_config_free(&x->cfg);
	if (np_config_parse(&x->cfg, "test.conf", conf, strlen(conf), err, sizeof(err)) < 0)
		fail_msg("config: %s", err);
	x->a.ovr = &x->cfg.ovr;
	assert_int_equal(np_analyze(&x->a, &x->rep, np_selection_want, &x->cfg.sel), 0);
	x->analysed = true;
}

static const struct np_finding *finding(const struct run *x, const char *id)
{
	for (size_t i = 0; i < x->rep.n; i++)
		if (strcmp(x->rep.f[i].check->id, id) == 0)
			return &x->rep.f[i];
	return NULL;
}

static const struct np_check_result *result(const struct run *x, const char *id)
{
	for (size_t i = 0; i < x->rep.nres; i++)
		if (strcmp(x->rep.res[i].check->id, id) == 0)
			return &x->rep.res[i];
	fail_msg("no check %s", id);
	return NULL;
}

static enum np_severity sev_of(const struct run *x, const char *id)
{
	const struct np_finding *f = finding(x, id);

	if (!f)
		fail_msg("no finding %s", id);
	return f->severity;
}

/* The fixture's facts the other tests rely on: 12,000 drops/s, critical at the default 100. */
static void test_default_is_critical(void **state)
{
	struct run *x = *state;
	const struct np_check_result *res;

	analyse(x, "");
	assert_int_equal(sev_of(x, "softnet.backlog-drops"), NP_SEV_CRITICAL);
	res = result(x, "softnet.backlog-drops");
	assert_true(res->warn == 1 && res->crit == 100);
	assert_null(finding(x, "link.carrier-flaps"));
	assert_int_equal(np_report_worst(&x->rep), NP_SEV_CRITICAL);
}

static void test_raised_thresholds_give_info(void **state)
{
	struct run *x = *state;
	const struct np_check_result *res;

	analyse(x, "threshold softnet.backlog-drops warn=100000 crit=200000\n");
	assert_int_equal(sev_of(x, "softnet.backlog-drops"), NP_SEV_INFO);
	res = result(x, "softnet.backlog-drops");
	assert_true(res->warn == 100000 && res->crit == 200000);
	assert_int_equal(res->worst, NP_SEV_INFO);
	/* Other checks keep their own thresholds: irq.affinity sees the same drops. */
	assert_int_equal(sev_of(x, "irq.affinity"), NP_SEV_CRITICAL);
	assert_true(result(x, "irq.affinity")->crit == 100);
}

static void test_crit_below_rate_stays_critical(void **state)
{
	struct run *x = *state;

	analyse(x, "threshold softnet.backlog-drops crit=5000\n");
	assert_int_equal(sev_of(x, "softnet.backlog-drops"), NP_SEV_CRITICAL);
	/* Just above the rate: a warning (warn keeps its default 1). */
	analyse(x, "threshold softnet.backlog-drops crit=12001\n");
	assert_int_equal(sev_of(x, "softnet.backlog-drops"), NP_SEV_WARNING);
	assert_true(result(x, "softnet.backlog-drops")->warn == 1);
	/* At the rate: critical (thresholds are "at or above"). */
	analyse(x, "threshold softnet.backlog-drops:crit=12000\n");
	assert_int_equal(sev_of(x, "softnet.backlog-drops"), NP_SEV_CRITICAL);
}

/* The command line over the file: a --threshold replaces the file's level for that check. */
static void test_option_over_file(void **state)
{
	struct run *x = *state;
	char err[320];

	analyse(x, "threshold softnet.backlog-drops warn=100000 crit=200000\n");
	np_report_free(&x->rep);
	x->analysed = false;
	assert_int_equal(np_overrides_parse_option(&x->cfg.ovr, "softnet.backlog-drops:crit=150000,"
						   "warn=10000", err, sizeof(err)), 0);
	assert_int_equal(np_analyze(&x->a, &x->rep, np_selection_want, &x->cfg.sel), 0);
	x->analysed = true;
	assert_int_equal(sev_of(x, "softnet.backlog-drops"), NP_SEV_WARNING);
}

/* link.carrier-flaps reads its since-boot threshold through np_thr_warn: the fixture's 2 carrier
 * changes are below the default 10, above an override of 1. */
static void test_carrier_flaps_override(void **state)
{
	struct run *x = *state;

	assert_int_equal(x->cur.dev.carrier_changes, 2);
	analyse(x, "threshold link.carrier-flaps warn=1\n");
	assert_int_equal(sev_of(x, "link.carrier-flaps"), NP_SEV_INFO);
}

static void test_skip_stage(void **state)
{
	struct run *x = *state;
	char *buf = NULL;
	size_t len = 0, nsoft = 0;
	FILE *out;
	struct np_funnel fn;
	struct np_coverage cov;

	analyse(x, "skip softnet.*\n");
	for (size_t i = 0; i < x->rep.n; i++)
		assert_int_not_equal(x->rep.f[i].check->stage, NP_STAGE_SOFTNET);
	for (size_t i = 0; i < x->rep.nres; i++) {
		const struct np_check_result *r = &x->rep.res[i];

		if (r->check->stage == NP_STAGE_SOFTNET) {
			assert_int_equal(r->state, NP_CHECK_NOT_RUN);
			nsoft++;
		} else {
			assert_int_not_equal(r->state, NP_CHECK_NOT_RUN);
		}
	}
	assert_true(nsoft >= 5);
	/* The rest still runs: the NIC and IRQ findings are there. */
	assert_int_equal(sev_of(x, "nic.missed"), NP_SEV_CRITICAL);
	assert_int_equal(sev_of(x, "irq.affinity"), NP_SEV_CRITICAL);

	/* JSON says "not_run" for each skipped check. */
	np_funnel_build(&x->a, &fn);
	np_coverage_build(&x->a, &x->rep, &cov);
	out = open_memstream(&buf, &len);
	assert_non_null(out);
	np_render_doctor_json(out, &(struct np_doctor_view){
		.a = &x->a, .r = &x->rep, .funnel = &fn, .cov = &cov, .root = "x710",
		.exit_code = 2 });
	assert_int_equal(fclose(out), 0);
	for (size_t i = 0; i < x->rep.nres; i++) {
		const struct np_check *c = x->rep.res[i].check;
		char needle[160];
		const char *p;

		snprintf(needle, sizeof(needle), "\"id\": \"%s\"", c->id);
		/* The checks array comes after the findings: the last mention is its entry. */
		p = NULL;
		for (const char *q = strstr(buf, needle); q; q = strstr(q + 1, needle))
			p = q;
		assert_non_null(p);
		p = strstr(p, "\"state\": \"");
		assert_non_null(p);
		assert_int_equal(strncmp(p + 10, "not_run\"", 8) == 0,
				 c->stage == NP_STAGE_SOFTNET);
	}
	free(buf);
}

static void test_check_only(void **state)
{
	struct run *x = *state;

	analyse(x, "check softnet\nskip softnet.time-squeeze\n");
	for (size_t i = 0; i < x->rep.n; i++)
		assert_int_equal(x->rep.f[i].check->stage, NP_STAGE_SOFTNET);
	assert_int_equal(result(x, "softnet.time-squeeze")->state, NP_CHECK_NOT_RUN);
	assert_int_equal(result(x, "nic.missed")->state, NP_CHECK_NOT_RUN);
	assert_int_not_equal(result(x, "softnet.backlog-drops")->state, NP_CHECK_NOT_RUN);
	assert_non_null(finding(x, "softnet.max-backlog"));
	/* With the threshold raised as well, only the info findings are left: exit 0. */
	analyse(x, "check softnet\nskip softnet.time-squeeze\n"
		   "threshold softnet.backlog-drops warn=100000 crit=200000\n");
	assert_int_equal(np_report_worst(&x->rep), NP_SEV_INFO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_default_is_critical, setup, teardown),
		cmocka_unit_test_setup_teardown(test_raised_thresholds_give_info, setup, teardown),
		cmocka_unit_test_setup_teardown(test_crit_below_rate_stays_critical, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_option_over_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_carrier_flaps_override, setup, teardown),
		cmocka_unit_test_setup_teardown(test_skip_stage, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_only, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
