/* SPDX-License-Identifier: GPL-2.0-only */
/* Renderers: print a finished report (findings + funnel + snapshot facts). No analysis here. */
#ifndef NP_RENDER_H
#define NP_RENDER_H

#include <stdbool.h>
#include <stdio.h>

#include "check.h"
#include "ctx.h"
#include "origin.h"
#include "textenc.h"	/* np_fmt_count(): "1,234,567" */
#include "coverage.h"
#include "stack.h"
#include "funnel.h"
#include "ledger.h"

/* The JSON document's schema id and version; bump the version on incompatible changes. */
#define NP_JSON_SCHEMA "netpath/doctor"
#define NP_JSON_VERSION 1
/* netpath/doctor 2: "stack", and "interface" on every finding and funnel row. */
#define NP_DOCTOR_JSON_VERSION 2

struct np_kmods;

struct np_doctor_view {
	const struct np_analysis *a;
	const struct np_report *r;
	const struct np_funnel *funnel;
	const struct np_ledger *ledger;	/* the loss ledger; NULL: none built */
	const struct np_coverage *cov;	/* which stages could be judged */
	const struct np_stack *stack;	/* the devices judged; NULL: the interface alone */
	/* Every device's latest snapshot, in stack order (Prometheus writes each device's own
	 * series); NULL: a->cur alone. */
	const struct np_snapshot *const *devs;
	size_t ndevs;
	const char *root;		/* "/" for the live system */
	const struct np_origin *origin;	/* where a --root tree came from; NULL: from live */
	const char *netns;		/* --netns as given, NULL for our own namespace */
	const char *netns_path;
	bool live;
	bool all_counters;		/* every driver counter, not only the ones that witness loss */
	int sockets_top;		/* --sockets N: top N sockets per problem (0: a summary) */
	const struct np_kmods *kmods;	/* what the kernel ships (tcp_bbr); NULL unknown */
	int exit_code;
};

struct np_render_opts {
	bool color;
	int verbose;
	int width;	/* columns the text may take (cmd/termwidth.h); 0: no limit */
};

void np_render_doctor_text(FILE *out, const struct np_doctor_view *v,
			   const struct np_render_opts *o);
void np_render_doctor_json(FILE *out, const struct np_doctor_view *v);
/* --brief: one line per stage (stage, verdict, device, the worst finding's summary), at most
 * 100 columns; UNKNOWN for a stage without evidence (render_brief.c). */
void np_render_doctor_brief(FILE *out, const struct np_doctor_view *v);
struct np_json;
/* One finding and the funnel as doctor writes them: shared by every JSON document that carries
 * findings (doctor, trace) so they cannot drift apart. */
void np_render_finding_json(struct np_json *j, const struct np_finding *f);
void np_render_funnel_json(struct np_json *j, const struct np_funnel *f);
/* The loss ledger: doctor's "ledger" array, its text under the funnel, and its reference
 * (`netpath explain ledger`) (render_ledger.c). */
void np_render_ledger_json(struct np_json *j, const struct np_ledger *l);
struct np_ob;
void np_render_ledger_text(struct np_ob *out, const struct np_ledger *l, bool color, int verbose);
void np_render_ledger_explain_text(FILE *out, int width);
void np_render_ledger_explain_json(FILE *out);
/* The "nic" object: driver, link modes, rings, channels, coalescing, features, pause, driver
 * counters, rtnetlink link and stats64, qdiscs, per-queue stats (null where unavailable). */
void np_render_nic_json(struct np_json *j, const struct np_snapshot *s, bool all_counters);

/* The sender-side table (plan/sender.h): the "sender" object of doctor's JSON, and its text. */
void np_render_sender_json(struct np_json *j, const struct np_doctor_view *v);
void np_render_sender_text(struct np_ob *out, const struct np_doctor_view *v, bool color);

/* The "origin" object: kind (live, tree, capture, sosreport), tool_version, hostname, kernel,
 * taken (null when unknown) and lacks (an array). o NULL: "live" or "tree" as live says. */
void np_render_origin_json(struct np_json *j, const struct np_origin *o, bool live);
/* "live", "tree", "capture", "sosreport". */
const char *np_origin_kind_name(enum np_origin_kind k);

/* {"schema": "netpath/error", "error": msg, "exit_code": n} */
void np_render_error_json(FILE *out, const char *command, const char *msg, int exit_code);

/* The check catalogue and one check's reference text. */
void np_render_checks_text(FILE *out, int width);
void np_render_checks_json(FILE *out);
void np_render_explain_text(FILE *out, const struct np_check *c, int width);
void np_render_explain_json(FILE *out, const struct np_check *c);

/* round() without libm, whose mapping and relocation every run paid for four functions: half
 * away from zero, exact for |v| < 2^52 (beyond, every double is already whole). */
static inline double np_round(double v)
{
	double t;

	if (!(v > -4503599627370496.0 && v < 4503599627370496.0))
		return v;
	t = (double)(long long)v;		/* toward zero; v - t is exact */
	if (v - t >= 0.5)
		return t + 1;
	return t - v >= 0.5 ? t - 1 : t;
}

#endif
