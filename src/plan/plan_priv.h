/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared by the plan's files: adding lines, and what doctor found. */
#ifndef NP_PLAN_PRIV_H
#define NP_PLAN_PRIV_H

#include "plan.h"
#include "sizing.h"

/* A new line of kind k for stage st about key, zeroed but for those; NULL when out of memory
 * (p->oom is then set and building stops). */
struct np_plan_line *np_plan_add(struct np_plan *p, enum np_plan_kind k, enum np_stage st,
				 const char *key);
/* Append printf text to one of a line's fields (why, moot, cost, ...). */
void np_plan_cat(char *dst, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define PLAN_CAT(field, ...) np_plan_cat((field), sizeof(field), __VA_ARGS__)
/* Name the checks a line answers (up to NP_PLAN_CHECKS - 1). */
void np_plan_checks(struct np_plan_line *l, const char *c1, const char *c2, const char *c3);

/* Did doctor flag check id at sev or worse? */
bool np_plan_flagged(const struct np_report *rep, const char *id, enum np_severity sev);

/* The builders, in file order: sysctls, modules and qdisc (plan_sysctl.c, plan_cc.c), the NIC
 * (plan_nic.c). Each adds its lines to p. */
void np_plan_sysctl_lines(struct np_plan *p, const struct np_analysis *a,
			  const struct np_report *rep);
void np_plan_cc_lines(struct np_plan *p, const struct np_analysis *a,
		      const struct np_report *rep);
void np_plan_nic_lines(struct np_plan *p, const struct np_analysis *a,
		       const struct np_report *rep);
/* The qdisc of a's device when pacing is planned (p->pace): the tc line, or why not. */
void np_plan_qdisc_line(struct np_plan *p, const struct np_analysis *a);

#endif
