/* SPDX-License-Identifier: GPL-2.0-only */
/* netpath history: drops per second per stage over a span of a recording (render_history.h). */
#ifndef NP_HISTORY_H
#define NP_HISTORY_H

#include <stdbool.h>

#include "render_history.h"
#include "status.h"

struct history_args {
	const char *root;
	const char *since;
	const char *until;
	const char *stage;
	long worst;
	bool json;
	int verbose;
};

/* Read the span of the recording into h: the rates of every second, the gaps, then the worst
 * seconds and minutes judged by doctor's checks. 0, or -1 with st set. */
int np_history_scan(const struct history_args *a, double since, double until,
		    struct np_history *h, struct np_status *st);

#endif
