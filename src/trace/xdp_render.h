/* SPDX-License-Identifier: GPL-2.0-only */
/* trace --xdp output: the "xdp" member of trace's JSON and the XDP lines of its text. */
#ifndef NP_XDP_RENDER_H
#define NP_XDP_RENDER_H

#include <stdio.h>

#include "json_writer.h"
#include "xdp_attach.h"

/*
 * The value of the "xdp" key (the caller writes the key; without --xdp it writes null):
 * {"mode": "native"|"generic", "program_id", "driver" (null if unknown), "acknowledged",
 *  "notes", "duration_s", "packets", "bytes", "per_second",
 *  "per_queue": [{"queue", "packets", "bytes"}], "per_cpu": [{"cpu", "packets", "bytes"}],
 *  "sources": [{"addr", "packets", "bytes"}] (the top N by packets),
 *  "sources_other", "sources_unkeyed", "sources_non_ip": {"packets", "bytes"},
 *  "sources_map": {"cap", "keys"}}: the sources' members are null when --top 0 left them
 * uncounted. queue is null for the slot that collects queue indexes of 256 and more.
 */
void np_xdp_render_json(struct np_json *j, const struct np_xdp_info *info,
			const struct np_xdp_counts *c, double duration);
/* A header line with mode, program and totals, one line per queue (and per CPU when
 * verbose), the top sources, then the notes: what attaching did and what the mode's counts mean. */
void np_xdp_render_text(FILE *out, const struct np_xdp_info *info,
			const struct np_xdp_counts *c, double duration, int verbose);

#endif
