/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Which stages of the receive path a run could judge. A verdict stands only on evidence:
 * a stage whose evidence could not be read is "not judged", never OK, and a run in which no
 * stage could be judged is UNKNOWN (exit 3) whatever else it printed.
 */
#ifndef NP_COVERAGE_H
#define NP_COVERAGE_H

#include "check.h"

enum np_cov_status {
	NP_COV_JUDGED,		/* every check that applies ran on its evidence */
	NP_COV_PARTIAL,		/* some ran, some lacked evidence */
	NP_COV_NOT_JUDGED,	/* the stage's evidence could not be read */
	NP_COV_NOT_APPLICABLE,	/* nothing of this stage applies here (or none selected) */
};

struct np_stage_cov {
	enum np_cov_status status;
	unsigned ran;		/* checks that passed or flagged */
	unsigned missing;	/* skipped for want of evidence */
	unsigned na;		/* skipped as not applicable, or not selected */
	char reason[200];	/* why not (fully) judged: the first missing evidence */
};

struct np_coverage {
	struct np_stage_cov st[NP_STAGE__COUNT];
	unsigned judged;	/* stages judged or partial */
	unsigned applicable;	/* stages not "not applicable" */
};

void np_coverage_build(const struct np_analysis *a, const struct np_report *r,
		       struct np_coverage *c);
/* No stage could be judged: the run's verdict is UNKNOWN. */
bool np_coverage_unknown(const struct np_coverage *c);
const char *np_cov_status_name(enum np_cov_status st);

#endif
