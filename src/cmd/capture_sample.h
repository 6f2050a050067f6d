/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One recorded sample, as `netpath capture` writes it beneath sN/ and `netpath record` keeps
 * it as a recording's configuration: between np_capture_begin() and np_capture_end() every
 * file the collectors read through the target's context and every kernel answer is kept
 * (fsrec.h, ktape.h); end writes them, with the --netns host sysctls, beneath prefix/.
 */
#ifndef NP_CAPTURE_SAMPLE_H
#define NP_CAPTURE_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ktape.h"
#include "tar.h"
#include "target.h"

struct np_capture_stats {
	size_t members, errors, bytes, exchanges;
	unsigned capped;
};

struct np_capture_session {
	struct np_fsrec *rec;
	struct np_ktape tape;
};

/* Start recording the target's reads. 0 or -ENOMEM. */
int np_capture_begin(struct np_target *tgt, struct np_capture_session *cs);
/* The same with socket dumps kept up to sock_cap bytes (the rest marked capped). */
int np_capture_begin_capped(struct np_target *tgt, struct np_capture_session *cs,
			    uint64_t sock_cap);
/* Stop recording and write what was read beneath prefix/ in tar (mtime: the members' time);
 * the session is freed either way. 0 or -errno. */
int np_capture_end(struct np_target *tgt, struct np_capture_session *cs, struct np_tar_out *tar,
		   const char *prefix, int64_t mtime, struct np_capture_stats *ss);

/* A capture's META (root.c reads it back). */
struct np_capture_meta {
	const char *const *ifs;		/* the target interfaces */
	size_t nifs;
	bool all;
	const char *netns;		/* NULL: none */
	double interval;		/* seconds between the samples (0: one sample) */
	int nsamples;			/* 1 or 2 */
	const struct np_capture_stats *ss;	/* nsamples of them, or NULL: not said */
	const char *recorded_by;	/* "netpath record", or NULL */
	int64_t now;			/* the members' time, and "taken" */
};
int np_capture_meta_write(struct np_tar_out *tar, const struct np_capture_meta *m);

#endif
