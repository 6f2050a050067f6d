/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * netpath record --capture-on SEVERITY|CHECK: when a check fires at that level (or that check
 * fires at all), a whole `netpath capture` of that moment is written beside the recording,
 * DIR/capture-YYYYMMDDTHHMMSSZ.tar.gz (0600), so an incident leaves one complete file for
 * support. Its two samples are the tick the check fired and the next one, each read once more
 * with every file and kernel answer kept (capture_sample.h): the recorder's cadence does not
 * stop for it. At most one per --capture-every (default 10 minutes); the oldest beyond
 * NP_RECORD_CAPTURES_KEPT are removed.
 */
#ifndef NP_RECORD_CAPTURE_H
#define NP_RECORD_CAPTURE_H

#include <stdbool.h>
#include <stdio.h>

#include "doctor_stack.h"
#include "record.h"

#define NP_RECORD_CAPTURES_KEPT 20

struct np_record_trigger {
	bool on;
	enum np_severity level;		/* fire at this severity or worse ... */
	char check[64];			/* ... or when this check (pattern) fires; "" none */
	double every;			/* seconds between two captures */
	double last;			/* monotonic time of the last one, 0 none */
	/* A capture under way: its first sample is in tar. */
	FILE *out;
	struct np_tar_out *tar;
	char tmp[4200], path[4200];
	char why[160];			/* the finding that fired */
	double t1;
	unsigned written;
};

/* "warning", "critical", or a check id or pattern into t. 0, or -EINVAL with err set. */
int np_record_trigger_parse(struct np_record_trigger *t, const char *arg, char *err,
			    size_t errlen);
/*
 * After each frame: judge the runs (dt: seconds since the frame before, 0 for the first) when
 * a trigger is set and no capture is under way or too recent; start a capture when it fires,
 * or finish the one under way. Errors are said on stderr once per capture; recording goes on.
 */
void np_record_trigger_tick(struct np_record_trigger *t, struct np_target *tgt,
			    struct np_dev_runs *dr, double dt, const char *const *tops,
			    size_t ntops, const struct record_args *a);
/* A capture under way when the recorder stops is abandoned (its temporary file removed). */
void np_record_trigger_close(struct np_record_trigger *t);

#endif
