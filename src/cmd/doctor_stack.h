/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * doctor over a device stack: one run per device (the interface named, the virtual devices
 * beneath it, the physical NICs at the bottom; with --all every interface that carries
 * traffic), each with the checks its role gives it (device_roles.h), folded into one report.
 */
#ifndef NETPATH_DOCTOR_STACK_H
#define NETPATH_DOCTOR_STACK_H

#include <stdbool.h>

#include "coverage.h"
#include "ctx.h"
#include "device_roles.h"
#include "stack.h"

/*
 * Laid out for the pages a one-sample run touches (each first touch is a page fault): what
 * every run writes first, then prev (whose unused own_hs is its last 4 KB), then cur, which
 * only a second sample writes.
 */
struct np_dev_run {
	char name[IF_NAMESIZE];
	enum np_dev_role role;
	bool has_physical_lowers;
	bool have_prev, have_cur;
	struct np_analysis a;
	const struct np_analysis *lower[NP_STACK_MAX];	/* the runs directly beneath */
	size_t nlower;
	struct np_report rep;
	struct np_coverage cov;
	struct np_snapshot prev, cur;
};

/* The sample owns its host snapshots: every run's prev points at *hprev, every cur at *hcur
 * (hsnap0 and hsnap1, swapped by np_runs_advance()). The first sample's host snapshot and
 * the first run lie together at the start; the stack's entries (6 KB, a few used) after the
 * runs, and the second sample's host snapshot last. */
struct np_dev_runs {
	size_t n;
	struct np_host_snap *hprev, *hcur;
	struct np_host_snap hsnap0;
	struct np_dev_run run[NP_STACK_MAX];
	struct np_stack stack;
	struct np_host_snap hsnap1;
};

/*
 * The first snapshot of every device: the tops given (the first is the primary), then
 * whatever lies beneath each (lower_* links), depth first, each device once. bctx (the
 * --before tree) may be NULL: then ctx is read. Devices beyond NP_STACK_MAX are left out and
 * stack.truncated says so. dr is all zero (calloc) or emptied by np_runs_free().
 */
void np_runs_discover(struct np_dev_runs *dr, const struct np_ctx *ctx,
		      const char *const *tops, size_t ntops);
/* The second snapshot of every device (after the interval, or from the --root tree when the
 * first came from --before). */
void np_runs_collect_again(struct np_dev_runs *dr, const struct np_ctx *ctx);
/*
 * Analyse every run (dt: seconds between the snapshots, 0 for one) and fold them into the
 * primary's report and coverage (dr->run[0].rep / .cov). 0, or -1 out of memory.
 */
int np_runs_analyze(struct np_dev_runs *dr, double dt, const struct np_options *opt,
		    const struct np_overrides *ovr, np_check_filter user, void *user_arg);
/*
 * Ready the runs for the next sample of a repeating doctor (--every): the reports are freed and
 * each device's latest snapshot becomes its earlier one, the sample's latest host snapshot its
 * earlier one (swapped, not copied), so np_runs_collect_again() then takes the next.
 */
void np_runs_advance(struct np_dev_runs *dr);
/* 0 while every device of the stack still answers under the ifindex it had, with the same
 * lower devices (its two snapshots agree); -1 when one is gone, was created again or gained or
 * lost a member: the runs must be discovered anew. */
int np_runs_same_devices(const struct np_dev_runs *dr);
void np_runs_free(struct np_dev_runs *dr);

#endif
