/* SPDX-License-Identifier: GPL-2.0-only */
/* The sockets section in JSON and text: a summary, plus the top N sockets per problem. */
#ifndef NP_RENDER_SOCKETS_H
#define NP_RENDER_SOCKETS_H

#include <stdio.h>

#include "snapshot.h"

struct np_json;

/*
 * The value of the "sockets" key (the caller writes the key): null when sock_diag gave nothing
 * (the reason is in "unavailable"), else the summary; with top_n > 0 also "top", the first
 * top_n entries (at most NP_SOCK_TOP) of each problem list.
 */
void np_render_sockets_json(struct np_json *j, const struct np_snapshot *s, int top_n);
/* A few summary lines, and with top_n > 0 the listed sockets. Nothing when unavailable. */
void np_render_sockets_text(FILE *out, const struct np_snapshot *s, int top_n);
/* The same into a renderer's buffer (outbuf.h). */
struct np_ob;
void np_render_sockets_ob(struct np_ob *out, const struct np_snapshot *s, int top_n);

#endif
