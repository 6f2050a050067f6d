// SPDX-License-Identifier: GPL-2.0-only
/*
 * The flight recorder's formats 2 and 3 (rec_cols.c, rec_codec.c's column records: COLS of
 * second differences, RCOLS of distances from running means): frames round-trip exactly
 * through column records of both whatever the counters do (static, steady, noisy, reset to 0,
 * wrapping past UINT64_MAX, going to and from NA = UINT64_MAX, random 64-bit values that need
 * all 64 bits, bursts), with irregular times and records cut at any frame count; malformed
 * column records, and records of another version than the stream's, are refused; a store
 * written by default is version 3 and costs less than 2, which costs less than 1, for noisy
 * counters; a directory holding all three versions reads through (an upgraded recorder starts
 * a segment of its own); the VM recording (tests/fixtures/recordings/vm-eth0) rewritten in
 * versions 2 and 3 reads back the same.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdlib.h>

#include "cleanup.h"
#include "rec_block.h"
#include "rec_codec.h"
#include "rec_store_fixture.h"

#define NC 12
#define NA UINT64_MAX

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t xr(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Counter i at frame t (prev: the value at t - 1). */
static uint64_t edge(size_t i, int64_t t, uint64_t prev)
{
	switch (i) {
	case 0:
		return 42;					/* static */
	case 1:
		return (uint64_t)t * 1000;			/* steady */
	case 2:
		return prev + 1000000 + xr() % 100000;		/* noisy */
	case 3:
		return t == 77 ? 0 : prev + 500 + xr() % 50;	/* reset to 0 at 77 */
	case 4:
		return UINT64_MAX - 3000 + (uint64_t)t * 100;	/* wraps at 30 */
	case 5:
		return t % 13 < 4 ? NA : (uint64_t)t * 7;	/* NA now and then */
	case 6:
		return xr();					/* 64 bits of noise */
	case 7:
		return t % 2 ? 0 : UINT64_MAX;			/* the widest difference */
	case 8:
		return t < 100 ? NA : 5;			/* NA, then a value */
	case 9:
		return prev + xr() % 40;			/* small noise */
	case 10:
		return prev + (t < 200 ? 5000 : 20000) + xr() % 100;	/* a new rate */
	default:
		return prev + (t % 60 == 0 ? 12345 : 0);	/* bursty */
	}
}

static void roundtrip_edges(unsigned version)
{
	static uint64_t want[400][NC];
	static int64_t mono[400], wall[400];
	struct np_rec_enc e = { .cols = true, .mean = version == 3 };
	struct np_rec_dec d = { .version = version };
	struct np_rec_buf b = { 0 };
	const uint8_t *p, *end;
	enum np_rec_kind kind;
	uint64_t v[NC] = { 0 };
	size_t since = 0, cols = 0;

	rng = 0x9e3779b97f4a7c15ull;
	for (int64_t t = 0; t < 400; t++) {
		for (size_t i = 0; i < NC; i++)
			v[i] = want[t][i] = edge(i, t, v[i]);
		/* Irregular times: a late sample, a wall clock step. */
		mono[t] = BASE_M + t * SEC + (t == 50 ? SEC / 3 : 0);
		wall[t] = BASE_W + t * SEC + (t >= 200 ? 3600 * SEC : 0);
		if (t == 300) {
			/* A key frame in the middle (the waiting frames go first). */
			assert_int_equal(np_rec_enc_flush(&e, &b), 0);
			np_rec_enc_reset(&e);
		}
		assert_int_equal(np_rec_put_frame(&e, &b, mono[t], wall[t], v, NC), 0);
		/* Records of 1, 2, ... 7 frames, then one left to fill to the cap (64). */
		if (t < 150 && ++since >= (size_t)(t % 7 + 1)) {
			assert_int_equal(np_rec_enc_flush(&e, &b), 0);
			since = 0;
		}
	}
	assert_int_equal(np_rec_enc_flush(&e, &b), 0);
	p = b.p;
	end = b.p + b.len;
	for (int64_t t = 0; t < 400; t++) {
		if (!np_rec_dec_queued(&d) && *p == (version == 3 ? NP_REC_RCOLS : NP_REC_COLS))
			cols++;
		assert_int_equal(np_rec_get(&d, &p, end, &kind), 0);
		assert_int_equal(kind, t == 0 || t == 300 ? NP_REC_KEY : NP_REC_DELTA);
		assert_true(d.mono == mono[t] && d.wall == wall[t]);
		for (size_t i = 0; i < NC; i++)
			assert_true(d.cur[i] == want[t][i]);
	}
	assert_ptr_equal(p, end);
	assert_false(np_rec_dec_queued(&d));
	/* No DELTA record: every frame after a key frame went into a column record. */
	assert_true(cols > 20);
	np_rec_enc_free(&e);
	np_rec_dec_free(&d);
	np_rec_buf_free(&b);
}

static void roundtrip_v2(void **state)
{
	(void)state;
	roundtrip_edges(2);
}

static void roundtrip_v3(void **state)
{
	(void)state;
	roundtrip_edges(3);
}

/* Version 3's running mean on its own: a counter at a steady rate is predicted exactly once it
 * settles (no bits), a burst or a reset restarts the mean at once (the prediction is the
 * difference before), and any state, however hostile, round-trips through the arithmetic. */
static void mean_predictor(void **state)
{
	uint64_t m = 0, p;

	(void)state;
	for (int t = 0; t < 200; t++) {
		p = np_rec_mean_pred(m);
		m = np_rec_mean_next(m, p, 1000 + (uint64_t)(t % 2));
	}
	p = np_rec_mean_pred(m);
	assert_true(p == 1000 || p == 1001);
	/* A burst: the mean restarts at it, then at the rate after it. */
	m = np_rec_mean_next(m, p, 50000);
	assert_true(np_rec_mean_pred(m) == 50000);
	m = np_rec_mean_next(m, np_rec_mean_pred(m), 1000);
	assert_true(np_rec_mean_pred(m) == 1000);
	/* A reset (the difference is negative, modulo 2^64). */
	m = np_rec_mean_next(m, 1000, (uint64_t)-123456789);
	assert_true(np_rec_mean_pred(m) == (uint64_t)-123456789);
	/* Small noise moves the mean by its share, no restart. */
	m = 16000;
	assert_true(np_rec_mean_next(m, 1000, 1100) == 16100);
	for (uint64_t x = 1; x; x <<= 1) {
		uint64_t q = np_rec_mean_pred(x);

		(void)np_rec_mean_next(x, q, ~x);	/* defined for every state */
	}
}

static void refuses_malformed(void **state)
{
	/* A key frame of two counters (0, 0), then each case's column record. */
	static const uint8_t key[] = { NP_REC_KEY, 0, 0, 2, 0, 0 };
	static const uint8_t wide[] = { NP_REC_COLS, 1, 2, 2, 65, 0, 0xff };
	static const uint8_t cut[] = { NP_REC_COLS, 2, 2, 2, 2, 2, 40, 0, 0xff, 0xff };
	static const uint8_t none[] = { NP_REC_COLS, 0, 0, 0 };
	static const uint8_t many[] = { NP_REC_COLS, 65 };
	static const uint8_t no_widths[] = { NP_REC_COLS, 1, 2, 2, 0 };
	const uint8_t *cases[] = { wide, cut, none, many, no_widths };
	size_t lens[] = { sizeof(wide), sizeof(cut), sizeof(none), sizeof(many),
			  sizeof(no_widths) };
	enum np_rec_kind kind;

	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct np_rec_dec d = { .version = 2 };
		const uint8_t *p = key;

		assert_int_equal(np_rec_get(&d, &p, key + sizeof(key), &kind), 0);
		p = cases[c];
		assert_int_equal(np_rec_get(&d, &p, cases[c] + lens[c], &kind), -EBADMSG);
		np_rec_dec_free(&d);
	}
	/* Good bytes, but before any key frame, or in a version 1 stream. */
	{
		static const uint8_t ok[] = { NP_REC_COLS, 1, 2, 2, 0, 0 };
		struct np_rec_dec d = { .version = 2 };
		const uint8_t *p = ok;

		assert_int_equal(np_rec_get(&d, &p, ok + sizeof(ok), &kind), -EBADMSG);
		np_rec_dec_free(&d);
		d = (struct np_rec_dec){ .version = 1 };
		p = key;
		assert_int_equal(np_rec_get(&d, &p, key + sizeof(key), &kind), 0);
		p = ok;
		assert_int_equal(np_rec_get(&d, &p, ok + sizeof(ok), &kind), -EBADMSG);
		d.version = 2;
		p = ok;
		assert_int_equal(np_rec_get(&d, &p, ok + sizeof(ok), &kind), 0);
		assert_true(d.cur[0] == 0 && d.cur[1] == 0);
		np_rec_dec_free(&d);
	}
	/* Each version its own records: RCOLS only in 3 (or a stream of any version), COLS and
	 * DELTA never in 3; the same malformed RCOLS as COLS above refused. */
	{
		static const uint8_t rc[] = { NP_REC_RCOLS, 1, 2, 2, 0, 0 };
		static const uint8_t c2[] = { NP_REC_COLS, 1, 2, 2, 0, 0 };
		static const uint8_t dl[] = { NP_REC_DELTA, 0, 0, 0 };
		static const uint8_t rwide[] = { NP_REC_RCOLS, 1, 2, 2, 65, 0, 0xff };
		static const uint8_t rcut[] = { NP_REC_RCOLS, 2, 2, 2, 2, 2, 40, 0, 0xff, 0xff };
		static const uint8_t rmany[] = { NP_REC_RCOLS, 65 };
		const struct {
			unsigned version;
			const uint8_t *rec;
			size_t len;
			int want;
		} c[] = {
			{ 1, rc, sizeof(rc), -EBADMSG }, { 2, rc, sizeof(rc), -EBADMSG },
			{ 3, rc, sizeof(rc), 0 }, { 0, rc, sizeof(rc), 0 },
			{ 3, c2, sizeof(c2), -EBADMSG }, { 3, dl, sizeof(dl), -EBADMSG },
			{ 2, dl, sizeof(dl), 0 }, { 3, rwide, sizeof(rwide), -EBADMSG },
			{ 3, rcut, sizeof(rcut), -EBADMSG }, { 3, rmany, sizeof(rmany), -EBADMSG },
		};

		for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
			struct np_rec_dec d = { .version = c[i].version };
			const uint8_t *p = key;

			assert_int_equal(np_rec_get(&d, &p, key + sizeof(key), &kind), 0);
			p = c[i].rec;
			assert_int_equal(np_rec_get(&d, &p, c[i].rec + c[i].len, &kind), c[i].want);
			np_rec_dec_free(&d);
		}
	}
}

/* The version in the header of the segment path names. */
static uint32_t seg_version(const char *path)
{
	uint8_t hdr[NP_REC_SEG_HDR];
	struct np_rec_seghdr h;
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(read(fd, hdr, sizeof(hdr)), sizeof(hdr));
	close(fd);
	assert_int_equal(np_rec_seghdr_unpack(hdr, &h), 0);
	return h.version;
}

/* An hour of 20 counters moving by 1e6 +-5% a second. Bytes on disk. */
static uint64_t noisy_hour(unsigned version)
{
	struct np_rec_opts o = opts();
	struct np_rec_writer *w;
	struct frame_buf fb;
	char err[256];

	o.version = version;
	w = wopen(&o);
	for (int64_t t = 0; t < 3600; t++) {
		mk(&fb, t, N, false);
		for (size_t i = 0; i < N; i++)
			fb.v[i] = (uint64_t)t * 1000000 + xr() % 50000;
		assert_int_equal(np_rec_writer_append(w, &fb.s, err, sizeof(err)), 0);
	}
	np_rec_writer_close(w);
	return dir_bytes();
}

static void smaller_each_version(void **state)
{
	char path[256];
	uint64_t v1, v2, v3;

	(void)state;
	v3 = noisy_hour(0);
	newest(path, sizeof(path));
	assert_int_equal(seg_version(path), NP_REC_VERSION);
	assert_int_equal(NP_REC_VERSION, 3);
	np_rmtree(store);
	v2 = noisy_hour(2);
	newest(path, sizeof(path));
	assert_int_equal(seg_version(path), 2);
	np_rmtree(store);
	v1 = noisy_hour(1);
	newest(path, sizeof(path));
	assert_int_equal(seg_version(path), 1);
	/* Version 2 stores the noise's bits and little else; version 1 its varints, whose
	 * continuation bits and byte alignment deflate cannot take back from random bits.
	 * Version 3 predicts a noisy rate by its mean, not by the rate before (whose noise
	 * adds to this second's), and restarts its stream hourly rather than every 15 min. */
	print_message("noisy hour: version 1 %lu bytes, version 2 %lu, version 3 %lu\n",
		      (unsigned long)v1, (unsigned long)v2, (unsigned long)v3);
	assert_true(v2 * 100 < v1 * 90);
	assert_true(v3 * 100 < v2 * 98);
}

/* A recorder upgraded in place twice: version 1 segments, then 2, then 3, read as one; each
 * run starts a segment of its own, so no segment mixes versions. */
static void reads_every_version(void **state)
{
	struct np_rec_opts o = opts();
	struct np_rec_writer *w;
	static int64_t ts[1000];
	static unsigned fl[1000];
	char path[256];
	size_t n;

	(void)state;
	for (unsigned v = 1; v <= 3; v++) {
		o.version = v == 3 ? 0 : v;
		w = wopen(&o);
		put(w, (v - 1) * 300, v * 300);
		np_rec_writer_close(w);
		newest(path, sizeof(path));
		assert_int_equal(seg_version(path), v);
	}
	n = read_all(ts, fl, 1000);
	assert_int_equal(n, 900);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(ts[i], (int64_t)i);
	assert_true(fl[300] & NP_REC_F_RESTART);
	assert_true(fl[600] & NP_REC_F_RESTART);
}

/* The VM recording (version 1, tests/fixtures/recordings/vm-eth0) rewritten in version 2 or
 * 3 reads back the same frames: real counters, names and configuration, bit for bit. */
static void fixture_rewritten(unsigned version)
{
	static char names[1 << 20];
	struct np_rec_opts o = opts();
	struct np_rec_reader *r1, *r2;
	struct np_rec_writer *w;
	struct np_rec_frame f, g;
	char src[160], cmd[1024], err[256];
	size_t frames = 0;

	o.version = version;
	/* A private copy: git keeps no directory mode, and readers refuse a shared directory. */
	snprintf(src, sizeof(src), "%s.v1", store);
	snprintf(cmd, sizeof(cmd), "mkdir -m 0700 %s && cp %s/recordings/vm-eth0/*.nprec %s/",
		 src, NP_FIXTURES, src);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(np_rec_reader_open(src, &r1, err, sizeof(err)), 0);
	w = wopen(&o);
	while (np_rec_reader_next(r1, &f) == 1) {
		struct np_rec_sample s = { .mono_ns = f.mono_ns, .wall_ns = f.wall_ns, .v = f.v,
					   .n = f.n, .names = names, .config = f.config,
					   .config_len = f.config_len };

		assert_non_null(f.name);
		for (size_t i = 0; i < f.n; i++) {
			size_t l = strlen(f.name[i]) + 1;

			assert_true(s.names_len + l <= sizeof(names));
			memcpy(names + s.names_len, f.name[i], l);
			s.names_len += l;
		}
		assert_int_equal(np_rec_writer_append(w, &s, err, sizeof(err)), 0);
		frames++;
	}
	np_rec_writer_close(w);
	assert_true(frames >= 35);
	assert_int_equal(np_rec_reader_seek(r1, INT64_MIN), 0);
	r2 = ropen();
	for (size_t k = 0; k < frames; k++) {
		assert_int_equal(np_rec_reader_next(r1, &f), 1);
		assert_int_equal(np_rec_reader_next(r2, &g), 1);
		assert_true(f.mono_ns == g.mono_ns && f.wall_ns == g.wall_ns);
		assert_int_equal(f.n, g.n);
		assert_memory_equal(f.v, g.v, f.n * sizeof(*f.v));
		for (size_t i = 0; i < f.n; i++)
			assert_string_equal(f.name[i], g.name[i]);
		assert_int_equal(f.config_len, g.config_len);
		assert_memory_equal(f.config, g.config, f.config_len);
		assert_int_equal(f.flags & ~NP_REC_F_RESTART, g.flags & ~NP_REC_F_RESTART);
	}
	assert_int_equal(np_rec_reader_next(r2, &g), 0);
	np_rec_reader_close(r1);
	np_rec_reader_close(r2);
	np_rmtree(src);
}

static void fixture_in_v2(void **state)
{
	(void)state;
	fixture_rewritten(2);
}

static void fixture_in_v3(void **state)
{
	char path[256];

	(void)state;
	fixture_rewritten(3);
	newest(path, sizeof(path));
	assert_int_equal(seg_version(path), 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(roundtrip_v2),
		cmocka_unit_test(roundtrip_v3),
		cmocka_unit_test(mean_predictor),
		cmocka_unit_test(refuses_malformed),
		cmocka_unit_test_setup_teardown(smaller_each_version, setup, np_test_dir_teardown),
		cmocka_unit_test_setup_teardown(reads_every_version, setup, np_test_dir_teardown),
		cmocka_unit_test_setup_teardown(fixture_in_v2, setup, np_test_dir_teardown),
		cmocka_unit_test_setup_teardown(fixture_in_v3, setup, np_test_dir_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
