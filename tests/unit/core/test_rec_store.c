// SPDX-License-Identifier: GPL-2.0-only
/*
 * The flight recorder's store (rec_write.c, rec_read.c) with a fake clock: eviction by age and
 * by size, a torn tail and a damaged block, gaps from a restart and from a pause, clock steps,
 * a schema change, configuration stored once, a second writer and an unsafe directory
 * refused, a full disk survived (a write seam), seeks, reading while the writer writes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rec_fixture.h"
#include "tmpdir_fixture.h"

#define N 20

static char store[128];

static int setup(void **state)
{
	struct dir *d;

	np_test_dir_setup(state, "/tmp/np-rec.XXXXXX");
	d = *state;
	snprintf(store, sizeof(store), "%s/rec", d->path);
	return 0;
}

static struct np_rec_opts opts(void)
{
	struct np_rec_opts o = { .dir = store, .no_sync = true };

	return o;
}

static struct np_rec_writer *wopen(const struct np_rec_opts *o)
{
	struct np_rec_writer *w = NULL;
	char err[256] = "";

	assert_int_equal(np_rec_writer_open(o, &w, err, sizeof(err)), 0);
	return w;
}

/* Seconds from..to (excluded) of N counters. */
static void put(struct np_rec_writer *w, int64_t from, int64_t to)
{
	struct frame_buf fb;
	char err[256];

	for (int64_t t = from; t < to; t++)
		assert_int_equal(np_rec_writer_append(w, mk(&fb, t, N, false), err, sizeof(err)), 0);
}

static struct np_rec_reader *ropen(void)
{
	struct np_rec_reader *r = NULL;
	char err[256];

	assert_int_equal(np_rec_reader_open(store, &r, err, sizeof(err)), 0);
	return r;
}

/* Every frame from the start: their seconds into ts (count returned), checked against val(). */
static size_t read_all(int64_t *ts, unsigned *flags, size_t max)
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

static uint64_t dir_bytes(void)
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

static void roundtrip_and_seek(void **state)
{
	struct np_rec_opts o = opts();
	struct np_rec_writer *w;
	struct np_rec_reader *r;
	struct np_rec_frame f;
	static int64_t ts[4000];
	static unsigned fl[4000];
	size_t n;

	(void)state;
	o.segment_ns = 600 * SEC;
	w = wopen(&o);
	put(w, 0, 3600);
	np_rec_writer_close(w);
	n = read_all(ts, fl, 4000);
	assert_int_equal(n, 3600);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(ts[i], (int64_t)i);
		assert_int_equal(fl[i] & ~(NP_REC_F_SCHEMA | NP_REC_F_CONFIG),
				 i ? 0 : NP_REC_F_FIRST);
	}
	/* A seek lands on the second asked, in the middle of a segment and a key interval. */
	r = ropen();
	assert_int_equal(np_rec_reader_seek(r, BASE_W + 2345 * SEC), 0);
	assert_int_equal(np_rec_reader_next(r, &f), 1);
	assert_true(f.wall_ns == BASE_W + 2345 * SEC);
	assert_true(f.flags & NP_REC_F_FIRST);
	assert_string_equal(f.name[3], "c3");
	expect_frame(&f, 2345, N);
	assert_int_equal(np_rec_reader_next(r, &f), 1);
	expect_frame(&f, 2346, N);
	assert_int_equal(f.flags, 0);
	/* Before everything: the first frame; after everything: nothing. */
	assert_int_equal(np_rec_reader_seek(r, BASE_W - 100 * SEC), 0);
	assert_int_equal(np_rec_reader_next(r, &f), 1);
	expect_frame(&f, 0, N);
	assert_int_equal(np_rec_reader_seek(r, BASE_W + 4000 * SEC), 0);
	assert_int_equal(np_rec_reader_next(r, &f), 0);
	assert_int_equal(np_rec_reader_damaged(r), 0);
	np_rec_reader_close(r);
}

static void evicts_by_age(void **state)
{
	struct np_rec_opts o = opts();
	struct np_rec_writer *w;
	static int64_t ts[4000];
	static unsigned fl[4000];
	size_t n;

	(void)state;
	o.segment_ns = 60 * SEC;
	o.keep_ns = 600 * SEC;
	w = wopen(&o);
	put(w, 0, 3000);
	np_rec_writer_close(w);
	n = read_all(ts, fl, 4000);
	/* Ten minutes kept, plus at most the segment that straddles the limit. */
	assert_true(ts[0] >= 3000 - 600 - 60 && ts[0] <= 3000 - 600);
	assert_int_equal(ts[n - 1], 2999);
	assert_true(fl[0] & NP_REC_F_FIRST);
}

static void evicts_by_size(void **state)
{
	struct np_rec_opts o = opts();
	struct np_rec_writer *w;
	static int64_t ts[20000];
	static unsigned fl[20000];
	size_t n;

	(void)state;
	o.max_bytes = 64 << 10;
	o.segment_bytes = 8 << 10;
	w = wopen(&o);
	put(w, 0, 20000);
	assert_true(np_rec_writer_bytes(w) <= o.max_bytes);
	np_rec_writer_close(w);
	assert_true(dir_bytes() <= o.max_bytes + 4096);	/* + the directory's own entry */
	n = read_all(ts, fl, 20000);
	assert_true(n > 100 && n < 20000);
	assert_int_equal(ts[n - 1], 19999);
	for (size_t i = 1; i < n; i++)
		assert_int_equal(ts[i], ts[i - 1] + 1);
}

/* The newest segment's path and size. */
static off_t newest(char *path, size_t size)
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

static void torn_tail(void **state)
{
	struct np_rec_opts o = opts();
	struct np_rec_writer *w;
	static int64_t ts[200];
	static unsigned fl[200];
	char path[256];
	off_t size;
	struct stat st;
	size_t n;
	int fd;

	(void)state;
	w = wopen(&o);
	put(w, 0, 100);			/* 20 blocks of 5 frames */
	np_rec_writer_close(w);
	size = newest(path, sizeof(path));
	/* A crash in the middle of the last block's write. */
	assert_int_equal(truncate(path, size - 7), 0);
	n = read_all(ts, fl, 200);
	assert_int_equal(n, 95);
	assert_int_equal(ts[94], 94);
	/* The next writer cuts the torn block off and goes on in a new segment: a gap. */
	w = wopen(&o);
	assert_int_equal(stat(path, &st), 0);
	assert_true(st.st_size < size - 7);
	put(w, 110, 120);
	np_rec_writer_close(w);
	n = read_all(ts, fl, 200);
	assert_int_equal(n, 105);
	assert_int_equal(ts[95], 110);
	assert_true(fl[95] & NP_REC_F_GAP);
	assert_true(fl[95] & NP_REC_F_RESTART);
	/* Garbage after the good blocks (a block header that never got its payload). */
	fd = open(path, O_WRONLY | O_APPEND);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "NPRB\0\0\0\0\xff\xff", 10), 10);
	close(fd);
	assert_int_equal(read_all(ts, fl, 200), 105);
}

static void damaged_block(void **state)
{
	struct np_rec_opts o = opts();
	struct np_rec_writer *w;
	static int64_t ts[200];
	static unsigned fl[200];
	char path[256], c;
	off_t size;
	struct stat st;
	int fd;

	(void)state;
	o.key_frames = 20;
	w = wopen(&o);
	put(w, 0, 100);
	np_rec_writer_close(w);
	size = newest(path, sizeof(path));
	/* A flipped bit in the middle: the CRC catches it, nothing after it is believed. */
	fd = open(path, O_RDWR);
	assert_int_equal(pread(fd, &c, 1, size / 2), 1);
	c ^= 0x10;
	assert_int_equal(pwrite(fd, &c, 1, size / 2), 1);
	close(fd);
	{
		size_t n = read_all(ts, fl, 200);

		assert_true(n > 20 && n < 100);
		for (size_t i = 0; i < n; i++)
			assert_int_equal(ts[i], (int64_t)i);
	}
	/* Good blocks follow the damage: a restarted writer keeps them (not a torn tail). */
	w = wopen(&o);
	np_rec_writer_close(w);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, size);
}

static void gaps_and_steps(void **state)
{
	struct np_rec_opts o = opts();
	struct np_rec_writer *w;
	struct np_rec_reader *r;
	struct np_rec_frame f;
	struct frame_buf fb;
	char err[256];
	int64_t t;

	(void)state;
	w = wopen(&o);
	put(w, 0, 10);
	/* A pause of the sampler (both clocks move 5 s), then the wall clock steps back an hour
	 * (monotonic moves 1 s). */
	put(w, 15, 20);
	for (t = 20; t < 25; t++) {
		struct np_rec_sample *s = mk(&fb, t, N, false);

		s->wall_ns -= 3600 * SEC;
		assert_int_equal(np_rec_writer_append(w, s, err, sizeof(err)), 0);
	}
	np_rec_writer_close(w);
	/* A restart: the counters of the first run must not be subtracted from the second's. */
	w = wopen(&o);
	put(w, 30, 35);
	np_rec_writer_close(w);

	r = ropen();
	for (t = 0; t < 35; t++) {
		if ((t >= 10 && t < 15) || (t >= 25 && t < 30))
			continue;
		assert_int_equal(np_rec_reader_next(r, &f), 1);
		expect_frame(&f, t, N);
		switch (t) {
		case 0:
			assert_int_equal(f.flags & ~(NP_REC_F_SCHEMA), NP_REC_F_FIRST);
			break;
		case 15:
			assert_int_equal(f.flags, NP_REC_F_GAP);
			assert_true(f.gap_ns == 6 * SEC);
			break;
		case 20:
			assert_int_equal(f.flags, NP_REC_F_STEP);
			assert_true(f.step_ns == -3600 * SEC);
			break;
		case 30:
			assert_true(f.flags & NP_REC_F_GAP && f.flags & NP_REC_F_RESTART);
			break;
		default:
			assert_int_equal(f.flags, 0);
		}
	}
	assert_int_equal(np_rec_reader_next(r, &f), 0);
	np_rec_reader_close(r);
}

static void schema_and_config(void **state)
{
	struct np_rec_opts o = opts();
	struct np_rec_writer *w;
	struct np_rec_reader *r;
	struct np_rec_frame f;
	struct frame_buf fb;
	char err[256];
	int64_t t;

	(void)state;
	w = wopen(&o);
	for (t = 0; t < 30; t++) {
		/* A CPU comes online at 10 (two counters more, one renamed set at 20). */
		struct np_rec_sample *s = mk(&fb, t, t < 10 ? N - 2 : N, t >= 20);

		s->config = t < 15 ? "mtu 1500" : "mtu 9000";
		s->config_len = 8;
		assert_int_equal(np_rec_writer_append(w, s, err, sizeof(err)), 0);
	}
	np_rec_writer_close(w);
	r = ropen();
	for (t = 0; t < 30; t++) {
		assert_int_equal(np_rec_reader_next(r, &f), 1);
		expect_frame(&f, t, t < 10 ? N - 2 : N);
		assert_int_equal(!!(f.flags & NP_REC_F_SCHEMA), t == 0 || t == 10 || t == 20);
		assert_int_equal(!!(f.flags & NP_REC_F_CONFIG), t == 0 || t == 15);
		assert_string_equal(f.name[N - 3], t < 20 ? "c17" : "x17");
		assert_memory_equal(f.config, t < 15 ? "mtu 1500" : "mtu 9000", 8);
	}
	/* A seek after the changes finds the names and configuration in force. */
	assert_int_equal(np_rec_reader_seek(r, BASE_W + 27 * SEC), 0);
	assert_int_equal(np_rec_reader_next(r, &f), 1);
	assert_string_equal(f.name[N - 1], "x19");
	assert_memory_equal(f.config, "mtu 9000", 8);
	np_rec_reader_close(r);
}

static void config_stored_once(void **state)
{
	static char big[8192];
	struct np_rec_opts o = opts();
	struct np_rec_writer *w;
	struct frame_buf fb;
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (char)(i * 2654435761u >> 13);	/* incompressible */
	w = wopen(&o);
	for (int64_t t = 0; t < 200; t++) {
		struct np_rec_sample *s = mk(&fb, t, N, false);

		s->config = big;
		s->config_len = sizeof(big);
		assert_int_equal(np_rec_writer_append(w, s, err, sizeof(err)), 0);
	}
	/* Once: 8 KiB and the frames, not 200 copies. */
	assert_true(np_rec_writer_bytes(w) < sizeof(big) + 16384);
	np_rec_writer_close(w);
}

static void second_writer_refused(void **state)
{
	struct np_rec_opts o = opts();
	struct np_rec_writer *w = wopen(&o), *w2 = NULL;
	char err[256] = "";

	(void)state;
	assert_int_equal(np_rec_writer_open(&o, &w2, err, sizeof(err)), -EBUSY);
	assert_null(w2);
	assert_non_null(strstr(err, "in use by another recorder"));
	assert_null(strchr(err, '\n'));
	np_rec_writer_close(w);
	w = wopen(&o);
	np_rec_writer_close(w);
}

static void unsafe_dir_refused(void **state)
{
	struct np_rec_opts o = opts();
	struct np_rec_writer *w = NULL;
	struct np_rec_reader *r = NULL;
	struct stat st;
	char err[256] = "";

	(void)state;
	w = wopen(&o);
	np_rec_writer_close(w);
	assert_int_equal(stat(store, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	assert_int_equal(chmod(store, 0770), 0);
	w = NULL;
	assert_int_equal(np_rec_writer_open(&o, &w, err, sizeof(err)), -EPERM);
	assert_non_null(strstr(err, "its group can write"));
	assert_int_equal(np_rec_reader_open(store, &r, err, sizeof(err)), -EPERM);
	assert_int_equal(chmod(store, 01777), 0);
	assert_int_equal(np_rec_writer_open(&o, &w, err, sizeof(err)), -EPERM);
	assert_non_null(strstr(err, "anyone can write"));
	assert_null(w);
}

static int full;		/* the seam: writes fail with ENOSPC while set */

static ssize_t full_pwrite(int fd, const void *buf, size_t len, off_t off)
{
	if (full) {
		/* Half a block reaches the disk, as a real short write would leave it. */
		if (full == 2)
			return pwrite(fd, buf, len / 2, off);
		errno = ENOSPC;
		return -1;
	}
	return pwrite(fd, buf, len, off);
}

static void disk_full(void **state)
{
	struct np_rec_opts o = opts();
	struct np_rec_writer *w;
	struct frame_buf fb;
	static int64_t ts[200];
	static unsigned fl[200];
	char err[256];
	int said = 0, r;
	size_t n;

	(void)state;
	o.pwrite_fn = full_pwrite;
	w = wopen(&o);
	put(w, 0, 50);
	for (int64_t t = 50; t < 80; t++) {
		full = t < 65 ? 1 : 2;
		err[0] = '\0';
		r = np_rec_writer_append(w, mk(&fb, t, N, false), err, sizeof(err));
		assert_true(r == 0 || r == 1);
		if (r == 1) {
			said++;
			assert_non_null(strstr(err, "No space left on device"));
		}
	}
	assert_int_equal(said, 1);	/* once */
	full = 0;
	put(w, 80, 84);
	err[0] = '\0';
	assert_int_equal(np_rec_writer_append(w, mk(&fb, 84, N, false), err, sizeof(err)), 1);
	assert_non_null(strstr(err, "writing again"));
	put(w, 85, 100);
	np_rec_writer_close(w);
	/* Everything before is intact, the hole is a gap, and after it all is there again. */
	n = read_all(ts, fl, 200);
	assert_int_equal(n, 50 + 20);
	for (size_t i = 0; i < 50; i++)
		assert_int_equal(ts[i], (int64_t)i);
	assert_int_equal(ts[50], 80);
	assert_true(fl[50] & NP_REC_F_GAP);
	{
		struct np_rec_reader *rd = ropen();
		struct np_rec_frame f;

		while (np_rec_reader_next(rd, &f) == 1)
			;
		assert_int_equal(np_rec_reader_damaged(rd), 0);
		np_rec_reader_close(rd);
	}
}

static void read_while_written(void **state)
{
	struct np_rec_opts o = opts();
	struct np_rec_writer *w;
	struct np_rec_reader *r;
	struct np_rec_frame f;
	char err[256];
	int64_t t = 0;

	(void)state;
	o.segment_ns = 30 * SEC;
	w = wopen(&o);
	put(w, 0, 20);
	r = ropen();
	for (; t < 20; t++) {
		assert_int_equal(np_rec_reader_next(r, &f), 1);
		expect_frame(&f, t, N);
	}
	assert_int_equal(np_rec_reader_next(r, &f), 0);
	/* More blocks in the same segment, then a new segment: both followed. */
	put(w, 20, 72);
	assert_int_equal(np_rec_writer_flush(w, err, sizeof(err)), 0);
	for (; t < 72; t++) {
		assert_int_equal(np_rec_reader_next(r, &f), 1);
		expect_frame(&f, t, N);
		assert_int_equal(f.flags & NP_REC_F_GAP, 0);
	}
	assert_int_equal(np_rec_reader_next(r, &f), 0);
	np_rec_reader_close(r);
	np_rec_writer_close(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, np_test_dir_teardown)
		T(roundtrip_and_seek),
		T(evicts_by_age),
		T(evicts_by_size),
		T(torn_tail),
		T(damaged_block),
		T(gaps_and_steps),
		T(schema_and_config),
		T(config_stored_once),
		T(second_writer_refused),
		T(unsafe_dir_refused),
		T(disk_full),
		T(read_while_written),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
