/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared cases for counter-driven checks of the ingress..congestion stages (header-only). */
#ifndef NP_TEST_MIB_CASES_H
#define NP_TEST_MIB_CASES_H

#include <stdio.h>
#include <string.h>

#include "synth.h"

/* The snapshots of the last mib_case(); freed by mib_cases_teardown(). */
static struct np_snapshot mc_prev, mc_cur;

static inline int mib_cases_teardown(void **state)
{
	(void)state;
	np_snapshot_free(&mc_prev);
	np_snapshot_free(&mc_cur);
	return 0;
}

/* One MIB counter going from p to c over 1 s (no interval when !sampled); returns the worst
 * severity and leaves the run for inspection (the caller frees it). */
static inline enum np_severity mib_case(struct synth_run *run, const char *id, const char *name,
					uint64_t p, uint64_t c, bool sampled)
{
	np_snapshot_free(&mc_prev);
	np_snapshot_free(&mc_cur);
	synth_init(&mc_prev, 0);
	synth_init(&mc_cur, 1);
	synth_mib(&mc_prev, name, p);
	synth_mib(&mc_cur, name, c);
	synth_run(run, id, sampled ? &mc_prev : NULL, &mc_cur, NAN, NAN);
	return synth_worst(run);
}

/* The check is skipped when the MIB files were not read, or the kernel lacks its counters. */
static inline void assert_skipped_without_mib(const char *id)
{
	struct np_snapshot s;
	struct synth_run run;

	synth_init(&s, 1);
	np_srcp(&s, NP_SRC_SNMP)->status = NP_SRC_ABSENT;
	np_srcp(&s, NP_SRC_NETSTAT)->status = NP_SRC_ABSENT;
	synth_run(&run, id, NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_srcp(&s, NP_SRC_SNMP)->status = NP_SRC_OK;
	np_srcp(&s, NP_SRC_NETSTAT)->status = NP_SRC_OK;
	synth_run(&run, id, NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&s);
}

/* A drop counter with warn 1/s, crit 100/s: critical, warning, history, quiet, since-boot
 * info only (never critical without an interval), skipped without data. */
static inline void assert_drop_counter(const char *id, const char *name)
{
	struct synth_run run;

	assert_int_equal(mib_case(&run, id, name, 100, 400, true), NP_SEV_CRITICAL);
	assert_true(synth_has_ev(synth_first(&run), name));
	assert_true(synth_first(&run)->rank > 299);
	assert_non_null(strstr(synth_first(&run)->remedy, "Cost:"));
	synth_run_free(&run);
	assert_int_equal(mib_case(&run, id, name, 100, 105, true), NP_SEV_WARNING);
	synth_run_free(&run);
	assert_int_equal(mib_case(&run, id, name, 100, 100, true), NP_SEV_INFO);
	assert_non_null(strstr(synth_first(&run)->summary, "none during the sample"));
	synth_run_free(&run);
	assert_int_equal(mib_case(&run, id, name, 0, 0, true), NP_SEV_OK);
	assert_int_equal(run.r.n, 0);
	assert_int_equal(synth_state(&run), NP_CHECK_PASSED);
	synth_run_free(&run);
	assert_int_equal(mib_case(&run, id, name, 0, 50000000, false), NP_SEV_INFO);
	synth_run_free(&run);
	assert_skipped_without_mib(id);
}

/* An informational counter: info while it moves (at any rate), quiet on history. */
static inline void assert_info_counter(const char *id, const char *name)
{
	struct synth_run run;

	assert_int_equal(mib_case(&run, id, name, 0, 100000, true), NP_SEV_INFO);
	assert_true(synth_has_ev(synth_first(&run), name));
	synth_run_free(&run);
	assert_int_equal(mib_case(&run, id, name, 7, 7, true), NP_SEV_OK);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	assert_int_equal(mib_case(&run, id, name, 0, 700, false), NP_SEV_OK);
	synth_run_free(&run);
	assert_skipped_without_mib(id);
}

#endif
