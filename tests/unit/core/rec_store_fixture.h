/* SPDX-License-Identifier: GPL-2.0-only */
/* The flight recorder store tests' fixture: a scratch directory per test holding the store
 * (DIR/rec), writers and readers opened on it, seconds of frames written and read back.
 * Include after cmocka.h. */
#ifndef NP_TEST_REC_STORE_FIXTURE_H
#define NP_TEST_REC_STORE_FIXTURE_H

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rec_fixture.h"
#include "tmpdir_fixture.h"

#define N 20

static char store[128];	/* DIR/rec: the writer creates it */

static inline int setup(void **state)
{
	struct dir *d;

	np_test_dir_setup(state, "/tmp/np-rec.XXXXXX");
	d = *state;
	snprintf(store, sizeof(store), "%s/rec", d->path);
	return 0;
}

static inline struct np_rec_opts opts(void)
{
	struct np_rec_opts o = { .dir = store, .no_sync = true };

	return o;
}

static inline struct np_rec_writer *wopen(const struct np_rec_opts *o)
{
	struct np_rec_writer *w = NULL;
	char err[256] = "";

	assert_int_equal(np_rec_writer_open(o, &w, err, sizeof(err)), 0);
	return w;
}

/* Seconds from..to (excluded) of N counters. */
static inline void put(struct np_rec_writer *w, int64_t from, int64_t to)
{
	struct frame_buf fb;
	char err[256];

	for (int64_t t = from; t < to; t++)
		assert_int_equal(np_rec_writer_append(w, mk(&fb, t, N, false), err, sizeof(err)), 0);
}

static inline struct np_rec_reader *ropen(void)
{
	struct np_rec_reader *r = NULL;
	char err[256];

	assert_int_equal(np_rec_reader_open(store, &r, err, sizeof(err)), 0);
	return r;
}

/* Every frame from the start: their seconds into ts (count returned), checked against val(). */
static inline size_t read_all(int64_t *ts, unsigned *flags, size_t max)
{
	struct np_rec_reader *r = ropen();
	struct np_rec_frame f;
	size_t k = 0;

	while (np_rec_reader_next(r, &f) == 1) {
		int64_t t = (f.wall_ns - BASE_W) / SEC;

		assert_true(k < max);
		expect_frame(&f, t, N);
		ts[k] = t;
		flags[k++] = f.flags;
	}
	np_rec_reader_close(r);
	return k;
}

static inline uint64_t dir_bytes(void)
{
	struct np_rec_reader *r = ropen();	/* (only to list: the same walk as the writer's) */
	char cmd[256];
	uint64_t total = 0;
	FILE *p;

	np_rec_reader_close(r);
	snprintf(cmd, sizeof(cmd), "du -b --apparent-size -s %s", store);
	p = popen(cmd, "r");
	assert_non_null(p);
	assert_int_equal(fscanf(p, "%lu", &total), 1);
	pclose(p);
	return total;
}

/* The newest segment's path and size. */
static inline off_t newest(char *path, size_t size)
{
	char cmd[256];
	FILE *p;
	struct stat st;

	snprintf(cmd, sizeof(cmd), "ls %s/*.nprec | sort | tail -n 1", store);
	p = popen(cmd, "r");
	assert_non_null(fgets(path, (int)size, p));
	pclose(p);
	path[strcspn(path, "\n")] = '\0';
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	return st.st_size;
}

#endif
