/* SPDX-License-Identifier: GPL-2.0-only */
/* The softnet check tests' fixture: synthetic /proc/softirqs counts and rx queues, and a
 * pair of samples dt apart. */
#ifndef NP_TEST_SOFTNET_FIXTURE_H
#define NP_TEST_SOFTNET_FIXTURE_H

#include "synth.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* n rx queues, RPS off (rps_cpus readable and empty). */
static inline void rxqs(struct np_snapshot *s, size_t n)
{
	s->dev.n_rxq = n;
	s->dev.rxq = calloc(n, sizeof(*s->dev.rxq));
	assert_non_null(s->dev.rxq);
	for (size_t i = 0; i < n; i++)
		s->dev.rxq[i].has_rps = true;
}

static inline bool has_text(const char *hay, const char *needle)
{
	return strstr(hay, needle) != NULL;
}

static inline void pair(struct np_snapshot *p, struct np_snapshot *c, double dt, size_t ncpu)
{
	synth_init(p, 0);
	synth_init(c, dt);
	synth_softnet(p, ncpu);
	synth_softnet(c, ncpu);
}

static inline void free_pair(struct np_snapshot *p, struct np_snapshot *c)
{
	np_snapshot_free(p);
	np_snapshot_free(c);
}

#endif
