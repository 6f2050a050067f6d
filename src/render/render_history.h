/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * `netpath history`: drops per second per stage over a span of a recording (cmd_history.c
 * fills the model), as text (one sparkline row per stage within 80 columns, then the worst
 * seconds and minutes with the check that would have fired) or JSON (schema
 * doc/netpath-history.schema.json, "netpath/history" version 1). Printing only.
 */
#ifndef NP_RENDER_HISTORY_H
#define NP_RENDER_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "finding.h"
#include "recflows.h"

#define NP_HISTORY_SCHEMA "netpath/history"
#define NP_HISTORY_VERSION 1

/* One second of the recording with rates: drops per second at each stage over the interval
 * that ends at t (NAN: the stage has no drop counter there). */
struct np_history_sec {
	int64_t t;			/* wall clock, ns since the epoch */
	float drops[NP_STAGE__COUNT];
	/* record --drops: the reason that dropped most over the interval (an index into
	 * np_history.reason, -1 none) and its drops per second. */
	int16_t reason;
	float reason_rate;
};

/* A span the recording does not cover (the recorder stopped, restarted, lost samples). */
struct np_history_gap {
	int64_t from, to;		/* the frames either side, ns */
};

/* One of the worst seconds or minutes: when, where, how many, and what doctor would say. */
struct np_history_worst {
	int64_t t;			/* the start of the second or minute, ns */
	enum np_stage stage;		/* the stage that dropped most */
	double rate;			/* its drops per second (a minute: averaged over it) */
	double total_rate;		/* all stages' */
	char check[64];			/* the worst finding of doctor --at that window, "" none */
	enum np_severity severity;
	char summary[320];	/* a finding's whole summary (struct np_finding's size) */
	const char *reason;		/* record --drops: the top drop reason then, NULL none */
	struct np_rec_flows flows;	/* record --drops, minutes: the top dropped flows */
};

struct np_history {
	const char *dir;
	char dev[16];			/* the interface the rates are of */
	int64_t since, until;		/* the span asked for, ns (INT64_MIN/MAX: open) */
	int64_t first, last;		/* the first and last frame in it, ns (0: none) */
	double interval;		/* the recorder's cadence, s */
	unsigned stages;		/* bit per stage shown (--stage) */
	size_t n, cap;
	struct np_history_sec *sec;
	size_t ngaps, gaps_cap;
	struct np_history_gap *gaps;
	size_t nworst, nworst_min;
	struct np_history_worst *worst, *worst_min;
	unsigned damaged;		/* blocks the reader skipped as damaged */
	/* The wall clock stepped (NTP, date -s, a suspend): at when, by how much, in ns. Rates
	 * run on the monotonic clock, so a step makes no rate; it is said as a step. */
	size_t nsteps, steps_cap;
	struct np_history_step {
		int64_t t, step;
	} *steps;
	/* record --drops: the kernel's drop reasons seen in the span (trace's names). */
	bool has_reasons;
	size_t nreason;
	char (*reason)[48];
};

void np_history_free(struct np_history *h);
/* Text: the span, one row per stage with drops (a sparkline of the worst second in each
 * cell, its peak), the gaps, the worst seconds and minutes. width: columns (80 if 0). */
void np_render_history_text(FILE *out, const struct np_history *h, int width, bool utf8);
void np_render_history_json(FILE *out, const struct np_history *h);

#endif
