/* SPDX-License-Identifier: GPL-2.0-only */
/* Synthetic snapshots for check tests: build exactly the state a check should react to. */
#ifndef NP_SYNTH_H
#define NP_SYNTH_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "check.h"
#include "parse.h"
#include "snapshot.h"

/* A snapshot with every source marked OK, interface "eth0", t = 0. */
void synth_init(struct np_snapshot *s, double t);
/* Sets a sysctl from its file text ("4096 131072 6291456", "cubic"). */
void synth_sysctl(struct np_snapshot *s, const char *key, const char *text);
void synth_mib(struct np_snapshot *s, const char *name, uint64_t value);
/* softnet rows for CPUs 0..n-1, all counters zero. */
void synth_softnet(struct np_snapshot *s, size_t ncpu);

/* Runs one check by id on (prev, cur); prev may be NULL (no interval). rtt/bandwidth NAN if unset. */
struct synth_run {
	struct np_options opt;
	struct np_analysis a;
	struct np_report r;
};
void synth_run(struct synth_run *run, const char *id, const struct np_snapshot *prev,
	       const struct np_snapshot *cur, double rtt_ms, double bw_bps);
/* The same under the user's thresholds (--threshold, the config file). */
void synth_run_ovr(struct synth_run *run, const char *id, const struct np_snapshot *prev,
		   const struct np_snapshot *cur, double rtt_ms, double bw_bps,
		   const struct np_overrides *ovr);
void synth_run_free(struct synth_run *run);

/* The worst severity the check emitted (NP_SEV_OK when none). */
enum np_severity synth_worst(const struct synth_run *run);
/* The first finding (fails the test when there is none). */
const struct np_finding *synth_first(const struct synth_run *run);
/* True when a finding's evidence has this key. */
int synth_has_ev(const struct np_finding *f, const char *key);
/* The check's state (passed/flagged/skipped). */
enum np_check_state synth_state(const struct synth_run *run);

#endif
