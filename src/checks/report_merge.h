/* SPDX-License-Identifier: GPL-2.0-only */
/* One report from the runs over the devices of a stack (device_roles.h). */
#ifndef NP_REPORT_MERGE_H
#define NP_REPORT_MERGE_H

#include "coverage.h"

/*
 * Fold src (one device's run) into dst (the primary's): its findings are appended (each names
 * its device), and each check's outcome combines: flagged if any device flagged it (the worst
 * severity), else passed if any passed, else skipped (not applicable only when every run
 * found it so). Returns 0, or -1 out of memory (dst keeps what it had).
 */
int np_report_merge(struct np_report *dst, const struct np_report *src);
/*
 * Fold one device's coverage into dst: a stage is judged where any device was judged on it,
 * partial where some of its devices lacked the evidence, not judged where none had it.
 */
void np_coverage_merge(struct np_coverage *dst, const struct np_coverage *src);

#endif
