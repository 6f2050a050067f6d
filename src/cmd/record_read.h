/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reading a recording back (record.h): the two frames that bound a window, each with its
 * counters and the configuration in force, for `doctor --at`; and the frames of a span one by
 * one, for `history`.
 */
#ifndef NP_RECORD_READ_H
#define NP_RECORD_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One frame, kept (the reader's buffers are only valid until its next call). */
struct np_rec_moment {
	int64_t wall_ns, mono_ns;
	size_t n;
	uint64_t *v;
	char **name;			/* n names (copies) */
	char *config;			/* the configuration in force (a capture of one sample) */
	size_t config_len;
};

void np_rec_moment_free(struct np_rec_moment *m);

/*
 * The frames that bound [at, at + window] in the recording in dir: m0 the first frame at or
 * after at (half a cadence early counts), m1 the first one window seconds after m0. 0; 1 when
 * the window falls in a gap of the recording (the recorder was not running, it restarted,
 * frames were lost) or beyond its ends, with why saying which (the window cannot be judged);
 * -errno with why set when the directory cannot be read. m0 and m1 (zeroed by the caller)
 * hold nothing after a non-zero return.
 */
int np_rec_window(const char *dir, double at, double window, struct np_rec_moment *m0,
		  struct np_rec_moment *m1, char *why, size_t whylen);

/* Write the configuration sample to a private temporary file (0600, under TMPDIR or /tmp)
 * whose path goes into path; the caller unlinks it. 0 or -errno. */
int np_rec_config_file(const struct np_rec_moment *m, char *path, size_t size);

/* The moments the configuration changed in [from, to] (wall ns, malloc'd into *at). 0 or
 * -errno. */
int np_rec_config_changes(const char *dir, double from, double to, int64_t **at, size_t *n);

#endif
