/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * netpath doctor's pieces: its options (doctor_args.c), one report (cmd_doctor.c: target,
 * snapshots, checks, rendering) and the --every loop over reports (doctor_every.c).
 */
#ifndef NP_DOCTOR_RUN_H
#define NP_DOCTOR_RUN_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>

#include "command_config.h"
#include "doctor_config.h"
#include "doctor_stack.h"
#include "opts.h"
#include "record_read.h"
#include "status.h"
#include "target.h"

/* A plugin must never outlive the monitoring system's patience (Nagios and Icinga end a check
 * after 60 s, and the Monitoring Plugins' own default is 10 s): under --nagios without
 * --timeout, the run gives up this many seconds after its sampling interval. */
#define NAGIOS_TIMEOUT_EXTRA 10

struct doctor_args {
	struct np_options opt;
	const char *root;
	const char *before;
	const char *at;			/* --at: a moment of the recording --root names */
	double window;			/* --window: seconds (0: --interval's) */
	const char *netns;
	const char *ifname;
	bool json;
	bool prom;
	bool nagios;
	bool brief;			/* --brief: one line per stage (render_brief.c) */
	const char *output;
	enum np_color color;
	bool all_counters;
	bool all;			/* --all: every interface that is up and carries traffic */
	int sockets_top;
	double interval_of;		/* --interval-of: seconds between --before and --root */
	double timeout;			/* -t/--timeout: seconds, 0 for none */
	bool timeout_default;		/* --nagios without --timeout: NAGIOS_TIMEOUT_EXTRA */
	double every;			/* --every: seconds between reports, 0 for one report */
	long count;			/* --count: reports before exiting, 0 for no end */
	/* --every: why this report is UNKNOWN although stages were judged (an interface that
	 * is gone, no interface busy), and whether the report before was UNKNOWN already (its
	 * reason is then not said again). */
	char unknown_why[96];
	bool was_unknown;
	struct np_config cfg;		/* the config file, then the command line over it */
	struct np_selection cli_sel;	/* --check/--skip: replace the file's lists on merge */
};

/* The interfaces judged (pick_tops): kept from one report to the next of --every. */
struct doctor_tops {
	char names[NP_STACK_MAX][IF_NAMESIZE];
	const char *tops[NP_STACK_MAX];
	size_t n, more;
};
/* A report that could not be written to -o (st says why): --every tries again next time. */
#define REPORT_UNWRITTEN (-2)

/* The command line (and config file) into d: 0, or -1 with st set. */
int np_doctor_parse_args(int argc, char **argv, struct doctor_args *d, struct np_status *st);
/* The interfaces to judge into t: 0, or -1 with st set. */
int np_doctor_find_tops(const struct doctor_args *d, const struct np_target *tgt,
			struct doctor_tops *t, struct np_status *st);
/* The report over dr's snapshots dt seconds apart: 0, -1 or REPORT_UNWRITTEN. */
int np_doctor_judge(struct doctor_args *d, struct np_target *tgt, struct np_dev_runs *dr,
		    double dt, size_t more, struct np_status *st);
/* One report from scratch: interfaces, both snapshots, the report. */
int np_doctor_diagnose(struct doctor_args *d, struct np_target *tgt, struct np_dev_runs *dr,
		       struct doctor_tops *t, struct np_status *st);
/* --at: one report over a past window of a recording (doctor_at.c). */
struct np_at {
	struct np_target tgt;		/* the configuration sample in force, opened as --root */
	bool open;
	char path[4200];		/* its temporary file */
	struct np_rec_moment m0, m1;	/* the frames at the window's ends */
	double dt;
};
/* The window [at, at + window] of the recording d->root as dr's snapshots (each device's prev
 * and cur, with the two frames' counters) and t's interfaces. 0; 1 when the recording does
 * not cover the window (st says why: UNKNOWN); -1 (st set). np_at_close() after 0. */
int np_at_open(struct np_at *w, struct doctor_args *d, double at, double window,
	       struct np_dev_runs *dr, struct doctor_tops *t, struct np_status *st);
void np_at_close(struct np_at *w);
/* The same, with the configuration replayed once for many windows (history judges its worst
 * seconds and minutes: one configuration, written and opened once, not once a window). The
 * cache holds the last configuration opened; np_at_cfg_close() when done. */
struct np_at_cfg {
	struct np_target tgt;
	bool open;
	char path[4200];
	void *config;			/* the bytes it was opened from */
	size_t config_len;
	/* Its kernel tape's answers handed out when it was opened (ktape.h): put back before
	 * each window, each collects as a target opened anew would. */
	bool *tape_used;
	bool tape_none;			/* no tape (nothing to put back) */
};
int np_at_open_cfg(struct np_at *w, struct np_at_cfg *cache, struct doctor_args *d, double at,
		   double window, struct np_dev_runs *dr, struct doctor_tops *t,
		   struct np_status *st);
void np_at_cfg_close(struct np_at_cfg *c);
int np_doctor_at(struct doctor_args *d, struct np_dev_runs *dr, struct np_status *st);
/* --every: reports at a fixed cadence until --count or SIGTERM (doctor_every.c). */
int np_doctor_every(struct doctor_args *d, struct np_target *tgt, struct np_dev_runs *dr,
		    struct np_status *st);

#endif
