/* SPDX-License-Identifier: GPL-2.0-only */
/* Text and JSON (schema netpath/trace, doc/netpath-trace.schema.json) for `netpath trace`. */
#ifndef NP_TRACE_RENDER_H
#define NP_TRACE_RENDER_H

#include <stdio.h>

#include "check.h"
#include "funnel.h"
#include "trace_model.h"
#include "trace_nfrule.h"
#include "xdp_attach.h"

struct np_trace_stacks;

#define NP_TRACE_JSON_SCHEMA "netpath/trace"
#define NP_TRACE_JSON_VERSION 1

struct np_trace_view {
	const char *ifname;
	const char *netns;		/* --netns as given; NULL: our own namespace */
	uint32_t netns_inum;		/* the namespace the programs matched (ns.inum) */
	const char *attach;		/* "tp_btf" or "raw_tp" */
	bool has_reason;		/* drops grouped by reason (else by freeing function) */
	bool gro_attached;
	bool interrupted;		/* ended early by SIGINT/SIGTERM */
	const struct np_trace_summary *sum;
	const struct np_trace_raw *raw;	/* the arrivals */
	const struct np_trace_filter *filter;	/* --host/--port/--proto; NULL: none */
	/* Doctor's collectors and checks over the same window; a NULL: they could not run. */
	const struct np_analysis *a;
	const struct np_report *r;
	const struct np_funnel *funnel;
	/* --xdp: the counter at the driver (NULL without --xdp). */
	const struct np_xdp_info *xdp;
	const struct np_xdp_counts *xdp_counts;
	/* The netfilter drop rules whose counters grew over the window (NULL: not read). */
	const struct np_nfrule_report *nfrules;
	/* --stack: the top kernel stacks of drops (NULL or off without it). */
	const struct np_trace_stacks *stacks;
	int exit_code;
};

/* Wrapped at width columns (render/text_wrap.h; 0: no limit). */
void np_render_trace_text(FILE *out, const struct np_trace_view *v, int verbose, int width);
void np_render_trace_json(FILE *out, const struct np_trace_view *v);

#endif
