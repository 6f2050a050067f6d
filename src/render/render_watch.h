/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * `netpath watch`: the renderers of a frame (checks/watch_model.h): a plain-text frame, a
 * one-line JSON object, and a stream of tagged lines the ncurses screen (watch_tui.c) draws with
 * attributes. Nothing here does I/O other than writing to the FILE * it is given.
 *
 * JSON line schema "netpath/watch", version 1 (one compact object per line):
 *   schema "netpath/watch", version 1, t (seconds since the watch started), time (UTC ISO 8601),
 *   interval_s (seconds the rates cover), frame (1, 2, ...), interface,
 *   stages   [{stage, scope, packets_per_s, drops_per_s}]       (null: no such counter there)
 *   cpus     [{cpu, processed_per_s, dropped_per_s, squeezed_per_s, rps_per_s,
 *              flow_limit_per_s}]                               (softnet_stat, per online CPU)
 *   queues   [{queue, packets_per_s, drops_per_s, source, drops_source}]
 *              source/drops_source: "qstats" | "driver" | null (not reported)
 *   irqs     [{cpu, per_s}]      (interrupts of the device's own IRQ lines, per CPU)
 *   sockets  [{proto, local, drops_per_s, drops}] (top socket drops) or null when unavailable
 *   findings [{id, stage, severity, new, summary}]  (new: turned on after the first frame)
 *   unavailable {queues?, irqs?, sockets?: reason}  (why a section is empty or null)
 */
#ifndef NP_RENDER_WATCH_H
#define NP_RENDER_WATCH_H

#include <stdbool.h>
#include <stdio.h>

#include "watch_model.h"

#define NP_WATCH_SCHEMA "netpath/watch"
#define NP_WATCH_VERSION 1

/* The frame as tagged lines: text and the TUI print the same words. */
enum np_watch_line_kind {
	NP_WL_TITLE,		/* the frame's first line */
	NP_WL_HEAD,		/* a table's column header */
	NP_WL_ROW,		/* a table row; hot = something is dropping */
	NP_WL_NOTE,		/* "not reported", "+3 quieter CPUs" */
	NP_WL_FINDING,		/* severity and is_new set */
};

/* Which part of the frame a line belongs to (the TUI budgets screen rows per section). */
enum np_watch_section {
	NP_WS_TITLE, NP_WS_STAGES, NP_WS_CPUS, NP_WS_QUEUES, NP_WS_SOCKS, NP_WS_FINDINGS,
	NP_WS__COUNT
};

struct np_watch_line {
	enum np_watch_section section;
	enum np_watch_line_kind kind;
	bool hot, is_new;
	enum np_severity severity;
	const char *text;
};

/* Limits for a screen: rows shown per table (0 = all). Truncated tables keep the busiest rows,
 * in their natural order, and end with a note of how many were left out. */
struct np_watch_layout {
	size_t max_cpus, max_queues, max_socks, max_findings;
};

typedef void (*np_watch_line_fn)(void *arg, const struct np_watch_line *l);
void np_watch_lines(const struct np_watch_frame *f, const struct np_watch_layout *lay,
		    np_watch_line_fn emit, void *arg);
/* The layout that fits f into rows screen lines, or as close as the headers and one row per
 * table allow; 0 limits when everything fits. */
void np_watch_layout_fit(const struct np_watch_frame *f, size_t rows, struct np_watch_layout *lay);

/* A whole frame as text (every row), ending with a blank line. */
void np_render_watch_text(FILE *out, const struct np_watch_frame *f, int width);
/* One compact JSON object and a newline. */
void np_render_watch_json(FILE *out, const struct np_watch_frame *f);
/* The netpath/error object (as np_render_error_json) on one line, to end a JSON-lines stream. */
void np_render_watch_error_json(FILE *out, const char *msg, int exit_code);

#endif
