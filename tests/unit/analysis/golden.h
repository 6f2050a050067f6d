/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared by the golden tests: one tree's whole analysis, its expected findings, lookups. */
#ifndef NP_TEST_GOLDEN_H
#define NP_TEST_GOLDEN_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "collect.h"
#include "ctx.h"
#include "coverage.h"
#include "funnel.h"
#include "opts.h"
#include "render.h"

/* One tree's analysis, done exactly as cmd_doctor.c does it for --root/--before. */
struct golden {
	char after[1024], before[1024], expected[1024];
	struct np_options opt;
	struct np_snapshot prev, cur;
	struct np_analysis a;
	struct np_report rep;
	struct np_funnel fn;
	struct np_coverage cov;
	int exit_code;
};

/* doctor --root TREE/after --before TREE/before IFNAME; the result lands in *state first, so
 * golden_teardown() frees it even when an assertion fails. _path adds --rtt / --bandwidth
 * (NAN: not given). */
struct golden *golden_run(void **state, const char *tree, const char *ifname);
struct golden *golden_run_path(void **state, const char *tree, const char *ifname,
			       double rtt_ms, double bw_bps);
/* doctor --root NP_FIXTURES/DIR (or DIR when absolute) IFNAME --interval 0: one capture. */
struct golden *golden_run_single(void **state, const char *dir, const char *ifname);
int golden_teardown(void **state);
/* The findings ("id severity", sorted) must equal TREE/expected.txt. */
void compare_expected(const struct golden *g, const char *tree);
/* Every finding has a summary, evidence and a remedy; every check ran or said why not. */
void check_findings_complete(const struct golden *g);
/* Lookups: a finding (fails if absent), a check's result, a finding's evidence (NULL or fail). */
const struct np_finding *finding(const struct golden *g, const char *id);
const struct np_check_result *result(const struct golden *g, const char *id);
const struct np_evidence *evidence(const struct np_finding *f, const char *key);
const struct np_evidence *need_ev(const struct np_finding *f, const char *key);
const struct np_funnel_row *funnel_row(const struct golden *g, enum np_stage st);
const struct np_irq_line *irq_line(const struct np_snapshot *s, unsigned irq);
/* The whole text is one JSON value (a strict syntax check); fails the test where it breaks. */
void assert_json(const char *buf, size_t len);
/* Render as doctor --json and as text: valid JSON with the right outline. */
void check_renderers(const struct golden *g);

#define assert_near(x, want) assert_true(fabs((double)(x) - (double)(want)) < 1e-6 * \
					 (fabs((double)(want)) + 1))
#define assert_contains(hay, needle) do { \
	if (!strstr((hay), (needle))) \
		fail_msg("'%s' not in '%s'", (needle), (hay)); \
} while (0)
#define assert_lacks(hay, needle) do { \
	if (strstr((hay), (needle))) \
		fail_msg("'%s' unexpectedly in '%s'", (needle), (hay)); \
} while (0)

#endif
