/* SPDX-License-Identifier: GPL-2.0-only */
/* doctor's run, shared by cmd_doctor.c (one report) and doctor_every.c (--every's loop). */
#ifndef NP_DOCTOR_RUN_H
#define NP_DOCTOR_RUN_H

#include <net/if.h>
#include <stdbool.h>

#include "doctor_config.h"
#include "doctor_stack.h"
#include "opts.h"
#include "status.h"
#include "target.h"

struct doctor_args {
	struct np_options opt;
	const char *root;
	const char *before;
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

/* report()'s failure that a repeating run survives: the next report tries the file again. */
#define REPORT_UNWRITTEN (-2)

/* The interfaces to judge (the one named, the default route's, or --all's busy ones). 0 or -1. */
int np_doctor_find_tops(const struct doctor_args *d, const struct np_target *tgt,
			struct doctor_tops *t, struct np_status *st);
/* One report once its snapshots are in: 0 (st->code the verdict), -1 or REPORT_UNWRITTEN. */
int np_doctor_judge(struct doctor_args *d, struct np_target *tgt, struct np_dev_runs *dr,
		    double dt, size_t more, struct np_status *st);
/* The target's interfaces, both snapshots of their devices, then the report. */
int np_doctor_diagnose(struct doctor_args *d, struct np_target *tgt, struct np_dev_runs *dr,
		       struct doctor_tops *t, struct np_status *st);
/* --every: reports on a cadence until --count (doctor_every.c). 0 or -1. */
int np_doctor_every(struct doctor_args *d, struct np_target *tgt, struct np_dev_runs *dr,
		    struct np_status *st);

#endif
