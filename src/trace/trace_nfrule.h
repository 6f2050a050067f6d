/* SPDX-License-Identifier: GPL-2.0-only */
/* Which netfilter rules explain NETFILTER_DROP: drop-rule counters at both ends of the trace
 * window, compared. Pure; the counters come from src/collect/nfrules.c. */
#ifndef NP_TRACE_NFRULE_H
#define NP_TRACE_NFRULE_H

#include <stdio.h>

#include "json_writer.h"
#include "nfrules.h"

#define NP_NFRULE_SHOW 5	/* rules listed under NETFILTER_DROP; the rest are summed */

struct np_nfrule_hit {
	struct np_nfrule rule;		/* as at the end of the window */
	uint64_t packets, bytes;	/* counted during the window */
};

struct np_nfrule_report {
	size_t n;
	struct np_nfrule_hit hits[NP_NFRULE_SHOW];	/* most packets first */
	size_t others;			/* further rules that grew */
	uint64_t others_packets;
	uint64_t packets;		/* all rules' growth */
	size_t drop_rules;		/* drop rules at the end */
	size_t uncounted;		/* nft drop rules without a counter */
	struct np_nfrule uncounted_example;
	int nft_status, legacy_status;
	size_t legacy_tables;
	bool truncated;			/* a bound cut a read */
};

/* The drop rules whose counters grew from start to end (a rule new at the end counts from 0;
 * one whose counter went back was reset: its end value is the window's). */
void np_nfrule_compare(const struct np_nfrules *start, const struct np_nfrules *end,
		       struct np_nfrule_report *out);
/* The lines under NETFILTER_DROP, each indented by indent. */
void np_nfrule_render_text(FILE *out, const struct np_nfrule_report *r, const char *indent);
/* "rule" (the rules that grew) and "rule_note" (what was read, counterless rules, advice) on
 * a drops[] entry; r NULL: the rules were not read (null, null). */
void np_nfrule_render_json(struct np_json *j, const struct np_nfrule_report *r);

#endif
