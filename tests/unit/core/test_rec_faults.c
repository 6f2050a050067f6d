// SPDX-License-Identifier: GPL-2.0-only
/*
 * The flight recorder's store under faults (rec_write.c, rec_read.c): a torn tail and a
 * damaged block (what it costs with each version's key cadence), a second writer and an
 * unsafe directory refused, a full disk survived (a write seam that fails with ENOSPC or
 * writes half a block).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "rec_store_fixture.h"

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
	/* A flipped bit in the middle: the CRC catches it; the frames up to the next key block
	 * (whose stream the lost block carried) are lost, the rest are read after a gap. */
	fd = open(path, O_RDWR);
	assert_int_equal(pread(fd, &c, 1, size / 2), 1);
	c ^= 0x10;
	assert_int_equal(pwrite(fd, &c, 1, size / 2), 1);
	close(fd);
	{
		size_t n = read_all(ts, fl, 200), k = 0;

		assert_true(n > 20 && n < 100);
		while (k < n && ts[k] == (int64_t)k)
			k++;
		/* A hole after second k-1, and reading resumes at a key block, flagged a gap. */
		assert_true(k > 0 && k < n);
		assert_int_equal(ts[k] % 20, 0);
		assert_true(ts[k] > (int64_t)k);
		assert_true(fl[k] & NP_REC_F_GAP);
		for (size_t i = k; i < n; i++)
			assert_int_equal(ts[i], ts[k] + (int64_t)(i - k));
		assert_int_equal(ts[n - 1], 99);
	}
	/* Good blocks follow the damage: a restarted writer keeps them (not a torn tail). */
	w = wopen(&o);
	np_rec_writer_close(w);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, size);
}

/* Flip a byte in the middle of the second segment of the store (sorted by name). */
static void damage_second_segment(void)
{
	char cmd[256], path[256];
	struct stat st;
	FILE *p;
	char c;
	int fd;

	snprintf(cmd, sizeof(cmd), "ls %s/*.nprec | sort | sed -n 2p", store);
	p = popen(cmd, "r");
	assert_non_null(fgets(path, sizeof(path), p));
	pclose(p);
	path[strcspn(path, "\n")] = '\0';
	assert_int_equal(stat(path, &st), 0);
	fd = open(path, O_RDWR);
	assert_int_equal(pread(fd, &c, 1, st.st_size / 2), 1);
	c ^= 0x10;
	assert_int_equal(pwrite(fd, &c, 1, st.st_size / 2), 1);
	close(fd);
}

/*
 * What one damaged block costs with each version's key cadence (doc/netpath-record-format.md):
 * the frames from it to the next key block. Version 3 restarts its stream with each segment
 * (hourly): up to an hour; version 2 every 900 frames. Three hours at 1 s, the second hour's
 * segment damaged in its middle: the hours before and after read whole, and the hole is one.
 */
static void damage_costs_key_interval(void **state)
{
	static int64_t ts[3 * 3600];
	static unsigned fl[3 * 3600];
	struct np_rec_opts o = opts();

	(void)state;
	for (unsigned v = 2; v <= 3; v++) {
		struct np_rec_writer *w;
		int64_t lost, key = v == 3 ? 3600 : 900;
		size_t n, k = 0;

		np_rmtree(store);
		o.version = v == 3 ? 0 : v;
		w = wopen(&o);
		put(w, 0, 3 * 3600);
		np_rec_writer_close(w);
		damage_second_segment();
		n = read_all(ts, fl, 3 * 3600);
		while (k < n && ts[k] == (int64_t)k)
			k++;
		assert_true(k >= 3600 && k < n);
		lost = ts[k] - (int64_t)k;
		print_message("version %u: one damaged block lost %lld s (%lld to %lld)\n", v,
			      (long long)lost, (long long)k, (long long)ts[k] - 1);
		/* Resumes at a key block, flagged, and never loses more than a key interval. */
		assert_int_equal(ts[k] % key, 0);
		assert_true(lost > 0 && lost <= key);
		assert_true(fl[k] & NP_REC_F_GAP);
		for (size_t i = k; i < n; i++)
			assert_int_equal(ts[i], ts[k] + (int64_t)(i - k));
		assert_int_equal(ts[n - 1], 3 * 3600 - 1);
	}
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

/* One lost frame is a gap too: monotonic time alone (2 s for a 1 s cadence) would not say. */
static void one_lost_block(void **state)
{
	struct np_rec_opts o = opts();
	struct np_rec_writer *w;
	struct frame_buf fb;
	static int64_t ts[50];
	static unsigned fl[50];
	char err[256];

	(void)state;
	o.pwrite_fn = full_pwrite;
	o.flush_frames = 1;
	w = wopen(&o);
	put(w, 0, 10);
	full = 1;
	assert_int_equal(np_rec_writer_append(w, mk(&fb, 10, N, false), err, sizeof(err)), 1);
	full = 0;
	assert_int_equal(np_rec_writer_append(w, mk(&fb, 11, N, false), err, sizeof(err)), 1);
	put(w, 12, 20);
	np_rec_writer_close(w);
	assert_int_equal(read_all(ts, fl, 50), 19);
	assert_int_equal(ts[10], 11);
	assert_true(fl[10] & NP_REC_F_GAP);
	assert_int_equal(fl[11], 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, np_test_dir_teardown)
		T(torn_tail),
		T(damaged_block),
		T(damage_costs_key_interval),
		T(second_writer_refused),
		T(unsafe_dir_refused),
		T(disk_full),
		T(one_lost_block),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
