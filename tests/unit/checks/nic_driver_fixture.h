/* SPDX-License-Identifier: GPL-2.0-only */
/* The NIC-side check tests' fixture: a pair of samples 2 s apart, driver counters, qstats,
 * ring sizes, unsupported sources, and the skip reason of a run. */
#ifndef NP_TEST_NIC_DRIVER_FIXTURE_H
#define NP_TEST_NIC_DRIVER_FIXTURE_H

#include "synth.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* prev at t=0, cur at t=2: deltas below are per 2 s, so rate = delta / 2. */
static inline void pair(struct np_snapshot *p, struct np_snapshot *c, const char *driver)
{
	synth_init(p, 0);
	synth_init(c, 2);
	snprintf(p->eth.driver, sizeof(p->eth.driver), "%s", driver);
	snprintf(c->eth.driver, sizeof(c->eth.driver), "%s", driver);
}

static inline void drv(struct np_snapshot *s, const char *name, uint64_t v)
{
	assert_int_equal(np_counters_set(&s->eth.drv_stats, name, v), 0);
}

static inline void unsupported(struct np_snapshot *s, enum np_source id, const char *detail)
{
	np_srcp(s, id)->status = NP_SRC_UNSUPPORTED;
	np_srcp(s, id)->err = 95;
	snprintf(np_srcp(s, id)->detail, sizeof(np_srcp(s, id)->detail), "%s", detail);
}

/* n queues of qstats, every field "not reported" until a test sets it. */
static inline void qstats(struct np_snapshot *s, size_t n)
{
	free(s->eth.qstats);
	s->eth.qstats = calloc(n, sizeof(*s->eth.qstats));
	assert_non_null(s->eth.qstats);
	s->eth.nqstats = n;
	for (size_t i = 0; i < n; i++)
		s->eth.qstats[i] = (struct np_qstat){ (int)i, NP_NA, NP_NA, NP_NA, NP_NA, NP_NA,
						      NP_NA, NP_NA, NP_NA };
}

static inline void free2(struct np_snapshot *p, struct np_snapshot *c)
{
	np_snapshot_free(p);
	np_snapshot_free(c);
}

static inline const char *skip_reason(const struct synth_run *run)
{
	for (size_t i = 0; i < run->r.nres; i++)
		if (run->r.res[i].state == NP_CHECK_SKIPPED)
			return run->r.res[i].skip_reason;
	return "";
}

#endif
