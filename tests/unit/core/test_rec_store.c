// SPDX-License-Identifier: GPL-2.0-only
/*
 * The flight recorder's store (rec_write.c, rec_read.c) with a fake clock: eviction by age and
 * by size, gaps from a restart and from a pause, clock steps, a schema change, configuration
 * stored once, seeks, reading while the writer writes. Faults: test_rec_faults.c.
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

#include "rec_store_fixture.h"

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
		T(gaps_and_steps),
		T(schema_and_config),
		T(config_stored_once),
		T(read_while_written),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
