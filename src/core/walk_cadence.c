// SPDX-License-Identifier: GPL-2.0-only
/* watch's full socket walk every N frames: N fixed or from the measured costs (walk_cadence.h). */
#include "walk_cadence.h"

#include <math.h>

void np_walk_cadence_init(struct np_walk_cadence *c, unsigned fixed, double budget_s)
{
	c->fixed = fixed > NP_WALK_EVERY_MAX ? NP_WALK_EVERY_MAX : fixed;
	c->budget_s = budget_s;
	c->full_cpu_s = c->cheap_cpu_s = c->last_full_t = NAN;
	c->every = c->fixed ? c->fixed : 1;
	c->since = 0;
	c->walks = 0;
}

bool np_walk_cadence_due(const struct np_walk_cadence *c)
{
	return c->walks == 0 || c->since + 1 >= c->every;
}

/* N from the costs: (F + (N - 1) C) / N <= B  <=>  N >= (F - C) / (B - C) when C < B. Until a
 * cheap collection was measured, C is taken as 0 (the first guess errs towards fewer walks; the
 * next frame corrects it). */
static unsigned adaptive_every(const struct np_walk_cadence *c)
{
	double f = c->full_cpu_s, ch = isnan(c->cheap_cpu_s) ? 0 : c->cheap_cpu_s, b = c->budget_s;
	double n;

	if (isnan(f) || f <= b)
		return 1;
	if (ch >= b)
		return NP_WALK_EVERY_MAX;
	n = ceil((f - ch) / (b - ch));
	return n >= NP_WALK_EVERY_MAX ? NP_WALK_EVERY_MAX : n < 1 ? 1 : (unsigned)n;
}

void np_walk_cadence_record(struct np_walk_cadence *c, bool full, double cpu_s, double t)
{
	if (full) {
		c->walks++;
		c->since = 0;
		c->last_full_t = t;
		if (!isnan(cpu_s))
			c->full_cpu_s = cpu_s;
	} else {
		c->since++;
		if (!isnan(cpu_s))
			c->cheap_cpu_s = cpu_s;
	}
	if (!c->fixed)
		c->every = adaptive_every(c);
}
