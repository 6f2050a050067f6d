/* SPDX-License-Identifier: GPL-2.0-only */
/* Render tests' fixture: the analysis of one tests/fixtures/trees tree, as doctor does it. */
#ifndef NP_TEST_RENDER_TREE_H
#define NP_TEST_RENDER_TREE_H

#include <stdbool.h>
#include <stddef.h>

#include "coverage.h"
#include "funnel.h"
#include "render.h"

struct tree_run {
	char after[1024], before[1024];
	struct np_options opt;
	struct np_snapshot prev, cur;
	struct np_analysis a;
	struct np_report rep;
	struct np_funnel fn;
	struct np_coverage cov;
	struct np_doctor_view v;
};

/* `netpath doctor --root TREE/after --before TREE/before IFNAME`; lands in *state first so the
 * teardown frees it even when an assertion fails. with_prev = false: --interval 0 on after. */
struct tree_run *tree_run(void **state, const char *tree, const char *ifname, bool with_prev);
/* Re-run the checks and the funnel after a test edited the snapshots. */
void tree_reanalyze(struct tree_run *t);
int tree_teardown(void **state);

/* Render into memory: the text (malloc'd, NUL-terminated) and its length. */
char *render_prom(const struct tree_run *t, bool raw, size_t *len);
char *render_nagios(const struct tree_run *t, int *code, size_t *len);

#endif
