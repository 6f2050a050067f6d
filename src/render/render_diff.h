/* SPDX-License-Identifier: GPL-2.0-only */
/* Renderers of `netpath diff`: text aligned like the doctor report, and JSON (netpath/diff). */
#ifndef NP_RENDER_DIFF_H
#define NP_RENDER_DIFF_H

#include <stdint.h>
#include <stdio.h>

#include "diff.h"
#include "render.h"

#define NP_DIFF_JSON_SCHEMA "netpath/diff"
#define NP_DIFF_JSON_VERSION 1

struct np_diff_view {
	const struct np_diff *d;
	const char *ifname;		/* the interface compared */
	const char *before, *after;	/* how each side was given: a path, or the running system */
	double before_dt, after_dt;	/* each side's sampling interval in seconds, 0 for none */
	int exit_code;			/* AFTER's verdict */
	/* Two windows of a recording: the moments the configuration changed between them
	 * (wall ns); none otherwise. */
	int64_t *changes;
	size_t nchanges;
};

void np_render_diff_text(FILE *out, const struct np_diff_view *v, const struct np_render_opts *o);
void np_render_diff_json(FILE *out, const struct np_diff_view *v);
/* "ok", "info", "warning", "critical", or "unknown" when no stage was judged. */
const char *np_diff_status_name(enum np_severity worst, bool unknown);

#endif
