/* SPDX-License-Identifier: GPL-2.0-only */
/* `netpath path`: the verdict, the numbers behind it and both ends' findings, as text and as
 * the netpath-path/1 JSON document (doc/netpath-path.schema.json). */
#ifndef NP_RENDER_PATH_H
#define NP_RENDER_PATH_H

#include <stdio.h>

#include "path_test.h"

#define NP_PATH_JSON_SCHEMA "netpath/path"
#define NP_PATH_JSON_VERSION 1

/* First line "limited by: LIMIT (SIDE)"; wrapped at width columns (0: no limit). */
void np_render_path_text(FILE *out, const struct np_path_result *r,
			 const struct np_path_verdict *v, int width);
void np_render_path_json(FILE *out, const struct np_path_result *r,
			 const struct np_path_verdict *v);

#endif
