/* SPDX-License-Identifier: GPL-2.0-only */
/* STUB (p34-wire's worktree only; the merge deletes src/cmd/stub/): the interface p34-verdict
 * writes in src/checks/path_verdict.h, as spec34.md fixes it. */
#ifndef NP_PATH_VERDICT_H
#define NP_PATH_VERDICT_H

#include "path_test.h"

void np_path_judge(const struct np_path_result *r, struct np_path_verdict *v);
const char *np_path_limit_name(enum np_path_limit l);
const char *np_path_side_name(enum np_path_side s);

#endif
