/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * netpath history over a recording made with `record --drops`: each second's top drop reason
 * from the frames' "drops/REASON" counters (the kernel's skb_drop_reason counts, as netpath
 * trace reads them), differenced like every counter, never across a gap.
 */
#ifndef NP_HISTORY_REASONS_H
#define NP_HISTORY_REASONS_H

#include <stdbool.h>

#include "rec_store.h"
#include "render_history.h"

struct np_reason_track {
	size_t n, cap;
	size_t *pos;			/* the frame's index of each "drops/" name */
	int *idx;			/* its index in np_history.reason */
	uint64_t *prev;			/* by np_history.reason index */
	bool *seen;
	size_t seen_cap;
	bool mapped;			/* pos/idx hold for the frame's names */
};

/* Take frame f: when cont (continuous with the frame before, dt seconds), s gets the top
 * reason over the interval. 0 or -ENOMEM. */
int np_history_reasons(struct np_history *h, struct np_reason_track *rt,
		       const struct np_rec_frame *f, bool cont, double dt,
		       struct np_history_sec *s);
void np_reason_track_free(struct np_reason_track *rt);

#endif
