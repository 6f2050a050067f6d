/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The flight recorder's store (doc/netpath-record-format.md): a private directory of
 * append-only segment files, bounded by age and size, safe against a crash at any moment, one
 * writer at a time, readable while it is written. Frames are opaque to it: a timestamp pair,
 * counters with their names, a configuration blob (rec_codec.h).
 */
#ifndef NP_REC_STORE_H
#define NP_REC_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct np_rec_opts {
	const char *dir;	/* created 0700 when missing (its parent must exist) */
	uint32_t interval_ms;	/* the cadence, for readers' gap detection (default 1000) */
	int64_t keep_ns;	/* evict data older than this (0: no age limit) */
	uint64_t max_bytes;	/* evict the oldest segments past this total (0: none) */
	uint64_t segment_bytes;	/* start a new segment past this (0: max_bytes / 8, 256 KiB
				 * to 64 MiB; 16 MiB without max_bytes) */
	int64_t segment_ns;	/* ... or after this span (0: one hour) */
	unsigned flush_frames;	/* frames per block: what a crash may lose (0: 5) */
	unsigned key_frames;	/* frames from one key block to the next (0: 3600; 900 for
				 * versions 1 and 2) */
	int level;		/* zlib level (0: 6) */
	unsigned version;	/* format version to write (0: the newest; 1 and 2: the older
				 * frame records, for tests and benchmarks) */
	bool no_sync;		/* skip fdatasync after each block (tests, benchmarks) */
	/* A seam for tests: the write of a block (NULL: pwrite). */
	ssize_t (*pwrite_fn)(int fd, const void *buf, size_t len, off_t off);
};

/* One frame handed to the writer. The writer compares names and config with the last ones
 * and stores them only when they differ. */
struct np_rec_sample {
	int64_t mono_ns, wall_ns;	/* CLOCK_MONOTONIC and CLOCK_REALTIME */
	const uint64_t *v;
	size_t n;
	const char *names;	/* n names, each NUL-terminated (NULL with n == 0) */
	size_t names_len;
	const void *config;	/* NULL: none */
	size_t config_len;
};

struct np_rec_writer;

/*
 * Open dir for writing: create it 0700 if missing; refuse it (-EPERM) when group or others can
 * write to it or another user owns it, and (-EBUSY) when another writer holds it; cut a torn
 * tail left by a crash off the newest segment. A new segment starts now (a new run: readers
 * see a gap before it). err: one line on failure.
 */
int np_rec_writer_open(const struct np_rec_opts *o, struct np_rec_writer **w, char *err,
		       size_t errlen);
/*
 * Store a frame (in the current block; blocks go to disk every flush_frames frames). 0; 1
 * when err holds a line to say once (the disk is full: frames are dropped and the oldest
 * segments evicted until space returns; or space is back); -errno when the store cannot go
 * on (err says why).
 */
int np_rec_writer_append(struct np_rec_writer *w, const struct np_rec_sample *s, char *err,
			 size_t errlen);
/* Write the pending block now. Same returns as append. */
int np_rec_writer_flush(struct np_rec_writer *w, char *err, size_t errlen);
/* Flush, then close and unlock. NULL is fine. */
void np_rec_writer_close(struct np_rec_writer *w);
/* Bytes in the store's segments now (tests, the recorder's status). */
uint64_t np_rec_writer_bytes(const struct np_rec_writer *w);

/* Reader. */
#define NP_REC_F_FIRST 1u	/* the first frame after open or seek */
#define NP_REC_F_GAP 2u		/* not continuous with the frame before: never difference
				 * counters across it (a restart, lost frames, a pause) */
#define NP_REC_F_RESTART 4u	/* a new recorder run begins here */
#define NP_REC_F_SCHEMA 8u	/* the names changed here */
#define NP_REC_F_CONFIG 16u	/* the configuration changed here */
#define NP_REC_F_STEP 32u	/* the wall clock stepped by step_ns since the frame before */

struct np_rec_frame {
	int64_t mono_ns, wall_ns;
	size_t n;
	const uint64_t *v;		/* valid until the next call */
	const char *const *name;	/* n names, or NULL when the run stored none */
	const void *config;		/* NULL: none */
	size_t config_len;
	unsigned flags;
	int64_t gap_ns;		/* with NP_REC_F_GAP: wall time since the frame before, or 0 */
	int64_t step_ns;	/* with NP_REC_F_STEP */
};

struct np_rec_reader;

/* Open dir for reading (no lock: the writer may be running). -ENOENT, -EPERM (as the writer),
 * -errno; err: one line. An empty directory opens (next returns 0). */
int np_rec_reader_open(const char *dir, struct np_rec_reader **r, char *err, size_t errlen);
/* Position before the first frame whose wall time is at or after wall_ns (INT64_MIN: the
 * oldest). Costs one segment's index, whatever the recording's length. 0 or -errno. */
int np_rec_reader_seek(struct np_rec_reader *r, int64_t wall_ns);
/* The next frame: 1, 0 at the end (for now: frames written later are seen by a later call),
 * -ENOMEM. Damaged blocks are skipped (the frame after them has NP_REC_F_GAP). */
int np_rec_reader_next(struct np_rec_reader *r, struct np_rec_frame *f);
/* Blocks skipped as damaged so far. */
unsigned np_rec_reader_damaged(const struct np_rec_reader *r);
void np_rec_reader_close(struct np_rec_reader *r);

#endif
