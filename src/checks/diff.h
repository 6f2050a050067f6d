/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What changed between two diagnoses of the same interface (`netpath diff BEFORE AFTER`):
 * settings old -> new, findings resolved/new/better/worse, stages judged on one side only, and
 * the drop funnel side by side when both sides were sampled over an interval. A pure function of
 * the two sides (snapshots, report, coverage, analysis): no I/O, no printing.
 */
#ifndef NP_DIFF_H
#define NP_DIFF_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>

#include "check.h"
#include "coverage.h"
#include "funnel.h"

/* One side as doctor would have judged it. */
struct np_diff_side {
	/* The latest snapshot of each device: [0] the interface named, then the devices beneath
	 * it (a bond's members, a VLAN's parent). Devices are matched across sides by name,
	 * except [0], which is the interface on both sides. */
	const struct np_snapshot *const *snap;
	size_t nsnap;
	const struct np_analysis *a;	/* the interface's analysis: the funnel (a->prev: an interval) */
	const struct np_report *rep;	/* findings of every device, merged */
	const struct np_coverage *cov;
};

#define NP_DIFF_VAL 96

/* A setting on either side; a side that does not know it says so instead of reading 0. */
struct np_diff_setting {
	enum np_stage stage;
	char dev[IF_NAMESIZE];		/* the device it belongs to; "" namespace or host-wide */
	char key[96];			/* "net.core.rmem_max", "rx ring", "irq eth0-TxRx-3 affinity" */
	bool old_known, new_known;
	char old[NP_DIFF_VAL], new[NP_DIFF_VAL];	/* the value as text, "" when unknown */
};

enum np_diff_change {
	NP_DIFF_RESOLVED,	/* a finding before; after, the check ran and found nothing */
	NP_DIFF_NEW,		/* no finding before, one after */
	NP_DIFF_WORSE,		/* both sides, more severe after */
	NP_DIFF_BETTER,		/* both sides, less severe after */
	NP_DIFF_UNJUDGED,	/* a finding before; after, the check could not run (no evidence) */
	NP_DIFF_SAME,		/* both sides, same severity: counted, not listed */
};

/* One check on one device whose verdict changed. */
struct np_diff_verdict {
	const struct np_check *check;
	char dev[IF_NAMESIZE];
	enum np_diff_change change;
	enum np_severity old_sev, new_sev;	/* NP_SEV_OK: no finding on that side */
	bool old_judged, new_judged;		/* the check ran on its evidence on that side */
	char summary[320];			/* after's finding, else before's */
};

/* A stage whose coverage changed (judged before and not after, or back). */
struct np_diff_cov {
	enum np_stage stage;
	enum np_cov_status old, new;
	char reason[200];		/* why the side that was not (fully) judged was not */
};

struct np_diff {
	size_t nset, capset;
	struct np_diff_setting *set;	/* changed settings only, in stage order */
	unsigned settings_compared;	/* known on at least one side */
	/* Host-wide sysctls (owner HOST) known on one side only: that side was read inside a
	 * network namespace that does not show them (ip netns exec), not a changed setting. */
	unsigned host_not_comparable;
	size_t nver, capver;
	struct np_diff_verdict *ver;	/* changed verdicts, in stage order */
	unsigned verdicts_same;		/* findings present on both sides with the same severity */
	size_t ncov;
	struct np_diff_cov cov[NP_STAGE__COUNT];
	/* Both sides sampled over an interval: their funnels, row by row. */
	bool has_funnel;
	struct np_funnel funnel_old, funnel_new;
	/* The verdicts of each side: worst severity, and UNKNOWN when no stage was judged. */
	enum np_severity old_worst, new_worst;
	bool old_unknown, new_unknown;
};

/* Compare before and after into d (freed with np_diff_free). 0, or -1 out of memory. */
int np_diff_build(const struct np_diff_side *before, const struct np_diff_side *after,
		  struct np_diff *d);
void np_diff_free(struct np_diff *d);
/* Nothing changed: no setting, no verdict, no coverage. */
bool np_diff_empty(const struct np_diff *d);
const char *np_diff_change_name(enum np_diff_change c);

/* The settings half (diff_settings.c): appends to d->set. 0, or -1 out of memory. */
int np_diff_settings(const struct np_diff_side *before, const struct np_diff_side *after,
		     struct np_diff *d);
/* The stage a sysctl belongs to; *listed false when key is not one netpath knows by name
 * (then a guess from its prefix). */
enum np_stage np_diff_sysctl_stage(const char *key, bool *listed);

#endif
