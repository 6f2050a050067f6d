/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * When `netpath watch` walks every TCP socket. A full walk costs what the host's socket count
 * costs (0.3 s of CPU at 200,000); the frames between ask the kernel for listeners and UDP
 * only. The cadence is fixed (--socket-walk-every N) or chosen from the measured CPU of the
 * last full and the last cheap collection so that the average frame stays under a budget.
 * Pure: the caller measures and says what happened.
 */
#ifndef NP_WALK_CADENCE_H
#define NP_WALK_CADENCE_H

#include <stdbool.h>

/* The average CPU a frame's collection may cost: issue #22's 50 ms per frame, less room for the
 * analysis and the drawing. */
#define NP_WALK_BUDGET_S 0.040
/* The most frames between two full walks, whatever the costs. */
#define NP_WALK_EVERY_MAX 600u

struct np_walk_cadence {
	unsigned fixed;		/* --socket-walk-every N; 0: adaptive */
	double budget_s;	/* adaptive: the average CPU per collection to stay under */
	double full_cpu_s;	/* CPU of the last collection with a full walk; NAN: none yet */
	double cheap_cpu_s;	/* CPU of the last one without; NAN: none yet */
	unsigned every;		/* the current N: a full walk every N collections */
	unsigned since;		/* collections since the last full walk (0: it was last) */
	double last_full_t;	/* monotonic time of the last full walk; NAN: none yet */
	unsigned long walks;	/* full walks so far */
};

void np_walk_cadence_init(struct np_walk_cadence *c, unsigned fixed, double budget_s);
/* Whether the next collection must walk every socket: the first one always does, then every
 * N-th. */
bool np_walk_cadence_due(const struct np_walk_cadence *c);
/* A collection happened at monotonic time t, with a full walk or not, costing cpu_s (NAN when
 * not measured). Updates the costs and, when adaptive, N: the smallest N with
 * (full + (N - 1) × cheap) / N ≤ budget, 1 when a full walk fits the budget by itself,
 * NP_WALK_EVERY_MAX when even a cheap collection does not. */
void np_walk_cadence_record(struct np_walk_cadence *c, bool full, double cpu_s, double t);

#endif
