/* SPDX-License-Identifier: GPL-2.0-only */
/* STUB (p34-wire's worktree only; the merge deletes src/cmd/stub/): p34-verdict's
 * src/render/render_path.h as spec34.md fixes it. */
#ifndef NP_RENDER_PATH_H
#define NP_RENDER_PATH_H

#include <stdio.h>

#include "path_test.h"

void np_render_path_text(FILE *out, const struct np_path_result *r,
			 const struct np_path_verdict *v, int width);
void np_render_path_json(FILE *out, const struct np_path_result *r,
			 const struct np_path_verdict *v);

#endif
