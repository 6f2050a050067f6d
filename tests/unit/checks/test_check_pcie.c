// SPDX-License-Identifier: GPL-2.0-only
/* Checks of stage "pcie" on synthetic snapshots. */
#include "synth.h"

#include <stdio.h>
#include <string.h>

static void pcie(struct np_snapshot *s, uint64_t cur, uint64_t curw, uint64_t max, uint64_t maxw)
{
	s->dev.has_device = true;
	snprintf(s->pcie.bdf, sizeof(s->pcie.bdf), "0000:3b:00.0");
	s->pcie.cur_speed = cur;
	s->pcie.cur_width = curw;
	s->pcie.max_speed = max;
	s->pcie.max_width = maxw;
}

static double ev_value(const struct np_finding *f, const char *key)
{
	for (size_t i = 0; i < f->nev; i++)
		if (strcmp(f->ev[i].key, key) == 0)
			return f->ev[i].value;
	fail_msg("no evidence %s", key);
	return 0;
}

static void test_link_degraded(void **state)
{
	struct np_snapshot s;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	synth_init(&s, 0);
	/* A Gen3 x8 card in a x4 slot: 31.5 Gbit/s, enough for 10G. */
	pcie(&s, 8000, 4, 8000, 8);
	s.dev.speed_mbps = 10000;
	synth_run(&run, "pcie.link-degraded", NULL, &s, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	f = synth_first(&run);
	assert_true(ev_value(f, "current_bandwidth") > 31.4);
	assert_true(ev_value(f, "current_bandwidth") < 31.6);
	assert_true(ev_value(f, "max_bandwidth") > 62.9 && ev_value(f, "max_bandwidth") < 63.1);
	assert_non_null(strstr(f->summary, "8 GT/s x4"));
	assert_non_null(strstr(f->detail, "under load"));
	assert_non_null(strstr(f->remedy, "lspci -vv -s 0000:3b:00.0"));
	assert_non_null(strstr(f->remedy, "Cost:"));
	synth_run_free(&run);

	/* The same slot under a 40G port: below line rate, critical. */
	s.dev.speed_mbps = 40000;
	synth_run(&run, "pcie.link-degraded", NULL, &s, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
	synth_run_free(&run);

	/* Trained down to 2.5 GT/s (8b/10b): 2 Gbit/s per lane. */
	pcie(&s, 2500, 4, 8000, 4);
	s.dev.speed_mbps = 10000;
	synth_run(&run, "pcie.link-degraded", NULL, &s, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
	f = synth_first(&run);
	assert_true(ev_value(f, "current_bandwidth") > 7.99);
	assert_true(ev_value(f, "current_bandwidth") < 8.01);
	assert_non_null(strstr(f->summary, "2.5 GT/s x4"));
	synth_run_free(&run);

	/* Full speed and width: quiet. */
	pcie(&s, 16000, 16, 16000, 16);
	synth_run(&run, "pcie.link-degraded", NULL, &s, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	assert_int_equal(synth_state(&run), NP_CHECK_PASSED);
	synth_run_free(&run);

	/* Link speed unreadable ("Unknown"): skipped. Virtual device: skipped. */
	s.pcie.cur_speed = NP_NA;
	synth_run(&run, "pcie.link-degraded", NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	pcie(&s, 8000, 4, 8000, 8);
	s.dev.has_device = false;
	synth_run(&run, "pcie.link-degraded", NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&s);
}

static void test_mps(void **state)
{
	struct np_snapshot s;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	synth_init(&s, 0);
	pcie(&s, 8000, 8, 8000, 8);
	s.pcie.mps = 128;
	s.pcie.mps_supported = 512;
	s.pcie.mrrs = 512;
	s.dev.speed_mbps = 10000;
	synth_run(&run, "pcie.mps", NULL, &s, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	f = synth_first(&run);
	assert_true(synth_has_ev(f, "mps"));
	assert_true(synth_has_ev(f, "mrrs"));
	assert_non_null(strstr(f->remedy, "pcie_bus_perf"));
	assert_non_null(strstr(f->remedy, "Cost:"));
	assert_non_null(strstr(f->detail, "match along the path"));
	synth_run_free(&run);

	/* 56G on Gen3 x8: ~53 Gbit/s usable at MPS 128, ~60 at 512: MPS is the limit, warning. */
	s.dev.speed_mbps = 56000;
	synth_run(&run, "pcie.mps", NULL, &s, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	assert_non_null(strstr(synth_first(&run)->detail, "MPS limits line rate"));
	synth_run_free(&run);

	/* 100G on the same link is short at any MPS: the link is the problem, info here. */
	s.dev.speed_mbps = 100000;
	synth_run(&run, "pcie.mps", NULL, &s, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);

	s.pcie.mps = 256;
	synth_run(&run, "pcie.mps", NULL, &s, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);

	s.pcie.mps = 128;
	s.pcie.mps_supported = 128;
	synth_run(&run, "pcie.mps", NULL, &s, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);

	/* Config space unreadable without root: skipped with the reason. */
	s.pcie.mps_supported = 512;
	np_src_set(&s, NP_SRC_PCIE_CONFIG, -13, "needs root");
	synth_run(&run, "pcie.mps", NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	for (size_t i = 0; i < run.r.nres; i++)
		if (run.r.res[i].state == NP_CHECK_SKIPPED)
			assert_non_null(strstr(run.r.res[i].skip_reason, "needs root"));
	synth_run_free(&run);

	np_srcp(&s, NP_SRC_PCIE_CONFIG)->status = NP_SRC_OK;
	s.dev.has_device = false;
	synth_run(&run, "pcie.mps", NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_link_degraded),
		cmocka_unit_test(test_mps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
