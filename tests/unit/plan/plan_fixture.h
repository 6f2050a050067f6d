/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared by the plan tests: doctor's analysis of a fixture tree (golden.c), the plan over it,
 * lookups and rendering. */
#ifndef NP_TEST_PLAN_FIXTURE_H
#define NP_TEST_PLAN_FIXTURE_H

#include "golden.h"
#include "parse.h"
#include "plan.h"
#include "render_plan.h"
#include "sizing.h"

#include <stdlib.h>
#include <string.h>

struct fixture {
	struct golden *g;
	struct np_plan p;
	bool built;
};

int teardown(void **state);
/* doctor --root TREE/after --before TREE/before IFACE --rtt --bandwidth, then the plan of
 * profile over that analysis, verified. km NULL: the modules are unknown (a tree). */
struct np_plan *plan_for(void **state, const char *tree, const char *ifname,
			 enum np_profile prof, double rtt, double bw, const struct np_kmods *km);
/* The line of kind k for key, or NULL; need(): the same, failing the test when absent. */
const struct np_plan_line *line(const struct np_plan *p, enum np_plan_kind k, const char *key);
const struct np_plan_line *need(const struct np_plan *p, enum np_plan_kind k, const char *key);
bool listed(const char *const *ids, size_t n, const char *id);
/* Every line that installs something names a current value that differs from the planned
 * one, says why and what it costs, and answers a check of the table. */
void assert_lines_sound(const struct np_plan *p);
/* The plan as text or (checked) JSON, malloc'd. */
char *render(const struct np_plan *p, bool json);

#define assert_resolved(p, id) do { \
	if (!listed((p)->resolved, (p)->nresolved, (id))) \
		fail_msg("%s not resolved by the plan", (id)); \
} while (0)

#endif
