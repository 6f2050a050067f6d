// SPDX-License-Identifier: GPL-2.0-only
/* Checks of stage "ingress" on synthetic snapshots. */
#include "mib_cases.h"

/* A conntrack table with count/max and stats columns drop, early_drop, insert_failed. */
static void ct_snap(struct np_snapshot *s, double t, const char *count, const char *max,
		    uint64_t drop, uint64_t early, uint64_t insert_failed)
{
	synth_init(s, t);
	if (count)
		synth_sysctl(s, "net.netfilter.nf_conntrack_count", count);
	if (max)
		synth_sysctl(s, "net.netfilter.nf_conntrack_max", max);
	assert_int_equal(np_counters_set(&s->hs->conntrack, "drop", drop), 0);
	assert_int_equal(np_counters_set(&s->hs->conntrack, "early_drop", early), 0);
	assert_int_equal(np_counters_set(&s->hs->conntrack, "insert_failed", insert_failed), 0);
	assert_int_equal(np_counters_set(&s->hs->conntrack, "invalid", 3), 0);
}

static void test_conntrack_fill(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	ct_snap(&p, 0, "1000", "262144", 0, 0, 0);
	/* 97% full, nothing dropped yet: critical on the fill level alone. */
	ct_snap(&c, 1, "254300", "262144", 0, 0, 0);
	synth_run(&run, "ingress.conntrack-full", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
	f = synth_first(&run);
	assert_true(synth_has_ev(f, "nf_conntrack_count"));
	assert_true(synth_has_ev(f, "fill"));
	assert_non_null(strstr(f->remedy, "nf_conntrack_max=524288"));
	assert_non_null(strstr(f->remedy, "Cost:"));
	synth_run_free(&run);
	np_snapshot_free(&c);

	/* 85%: warning. */
	ct_snap(&c, 1, "222823", "262144", 0, 0, 0);
	synth_run(&run, "ingress.conntrack-full", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	synth_run_free(&run);
	np_snapshot_free(&c);

	/* 50% and no drops: quiet. */
	ct_snap(&c, 1, "131072", "262144", 0, 0, 0);
	synth_run(&run, "ingress.conntrack-full", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	assert_int_equal(synth_state(&run), NP_CHECK_PASSED);
	synth_run_free(&run);
	np_snapshot_free(&c);

	/* conntrack not loaded: no sysctl, skipped. */
	ct_snap(&c, 1, NULL, NULL, 0, 0, 0);
	np_srcp(&c, NP_SRC_CONNTRACK)->status = NP_SRC_ABSENT;
	synth_run(&run, "ingress.conntrack-full", NULL, &c, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&c);
	np_snapshot_free(&p);
}

static void test_conntrack_drops(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	/* Drops during the sample with the table "only" at 60%: critical. */
	ct_snap(&p, 0, "150000", "262144", 100, 0, 0);
	ct_snap(&c, 1, "157286", "262144", 180, 0, 0);
	synth_run(&run, "ingress.conntrack-full", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
	f = synth_first(&run);
	assert_true(synth_has_ev(f, "drop"));
	assert_true(f->rank >= 80);
	synth_run_free(&run);
	np_snapshot_free(&c);

	/* early_drop only: warning. */
	ct_snap(&c, 1, "157286", "262144", 100, 40, 0);
	synth_run(&run, "ingress.conntrack-full", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	synth_run_free(&run);

	/* Since boot only: info, never critical. */
	synth_run(&run, "ingress.conntrack-full", NULL, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);
	np_snapshot_free(&c);
	np_snapshot_free(&p);
}

static void test_conntrack_insert_failed(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;

	(void)state;
	ct_snap(&p, 0, "10", "262144", 0, 0, 1000);
	ct_snap(&c, 2, "10", "262144", 0, 0, 1010);
	synth_run(&run, "ingress.conntrack-insert-failed", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	assert_true(synth_has_ev(synth_first(&run), "insert_failed"));
	assert_non_null(strstr(synth_first(&run)->remedy, "single-request-reopen"));
	synth_run_free(&run);
	np_snapshot_free(&c);

	/* A slow trickle: info. */
	ct_snap(&c, 2, "10", "262144", 0, 0, 1001);
	synth_run(&run, "ingress.conntrack-insert-failed", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);

	/* History only (since boot, or no change): quiet. */
	synth_run(&run, "ingress.conntrack-insert-failed", NULL, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	synth_run(&run, "ingress.conntrack-insert-failed", &p, &p, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);

	/* Stats file absent: skipped. */
	np_srcp(&c, NP_SRC_CONNTRACK)->status = NP_SRC_ABSENT;
	synth_run(&run, "ingress.conntrack-insert-failed", &p, &c, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&c);
	np_snapshot_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conntrack_fill),
		cmocka_unit_test(test_conntrack_drops),
		cmocka_unit_test(test_conntrack_insert_failed),
	};

	return cmocka_run_group_tests(tests, NULL, mib_cases_teardown);
}
