// SPDX-License-Identifier: GPL-2.0-only
/*
 * A synthetic long recording for bench/record_read_cost.sh: the counter names and the
 * configuration sample of a real recording (its first frame), and each counter's rate (its
 * last frame less its first, per second), written as DAYS days of frames at 1 s with a fake
 * clock from WALL0 (unix seconds), as fast as the CPU allows, through the store's writer
 * (no fdatasync). Steady counters move by their rate +-10% each second; counters named
 * ".../drop..." or "sn/N/dropped" also take a burst of 40 s every 6 hours (at hh:12 of hours
 * 3, 9, 15, 21), so that history has worst seconds to judge. With MOVE_ALL=1 in the
 * environment every counter that did not move in the real recording moves too (1,000 to
 * 100,000 a second): the most a day of such frames can take on disk (a replayed tree's
 * counters never move). REC_VERSION=N writes format version N (default: the newest).
 *
 *   record_read_cost REAL_DIR OUT_DIR DAYS WALL0
 *   record_read_cost info DIR    frames, counters, bytes of the names and configuration
 */
#include "rec_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEC 1000000000LL

static uint64_t rng = 88172645463325252ull;

static uint64_t xr(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int is_drop(const char *name)
{
	const char *s = strrchr(name, '/');

	s = s ? s + 1 : name;
	return strstr(s, "drop") != NULL || strstr(s, "Drop") != NULL;
}

int main(int argc, char **argv)
{
	struct np_rec_reader *r;
	struct np_rec_writer *w;
	struct np_rec_frame f;
	char err[400];
	size_t n = 0, names_len = 0;
	uint64_t *v0 = NULL, *v = NULL, *rate = NULL;
	char *names = NULL, *config = NULL;
	size_t config_len = 0;
	int64_t t0 = 0, t1 = 0;
	unsigned char *drop;
	long days, frames = 0;
	int64_t wall0;

	if (argc == 3 && !strcmp(argv[1], "info")) {
		if (np_rec_reader_open(argv[2], &r, err, sizeof(err)) < 0 ||
		    np_rec_reader_seek(r, INT64_MIN) < 0) {
			fprintf(stderr, "%s\n", err);
			return 1;
		}
		while (np_rec_reader_next(r, &f) > 0) {
			if (!frames++) {
				n = f.n;
				for (size_t i = 0; i < n; i++)
					names_len += strlen(f.name[i]) + 1;
				config_len = f.config_len;
			}
		}
		np_rec_reader_close(r);
		printf("frames=%ld counters=%zu names_bytes=%zu config_bytes=%zu\n", frames, n,
		       names_len, config_len);
		return 0;
	}
	if (argc != 5) {
		fprintf(stderr, "usage: record_read_cost REAL_DIR OUT_DIR DAYS WALL0\n");
		return 2;
	}
	days = atol(argv[3]);
	wall0 = atoll(argv[4]);
	if (np_rec_reader_open(argv[1], &r, err, sizeof(err)) < 0 ||
	    np_rec_reader_seek(r, INT64_MIN) < 0) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	while (np_rec_reader_next(r, &f) > 0) {
		if (!frames) {
			n = f.n;
			v0 = malloc(n * sizeof(*v0));
			rate = calloc(n, sizeof(*rate));
			for (size_t i = 0; i < n; i++)
				names_len += strlen(f.name[i]) + 1;
			names = malloc(names_len);
			names_len = 0;
			for (size_t i = 0; i < n; i++) {
				size_t l = strlen(f.name[i]) + 1;

				memcpy(names + names_len, f.name[i], l);
				names_len += l;
			}
			memcpy(v0, f.v, n * sizeof(*v0));
			config = malloc(f.config_len);
			memcpy(config, f.config, f.config_len);
			config_len = f.config_len;
			t0 = f.mono_ns;
		} else if (f.n == n) {
			/* A replayed tree's clock (its uptime) stands still: its rates are 0. */
			t1 = f.mono_ns > t0 ? f.mono_ns : t0 + SEC;
			for (size_t i = 0; i < n; i++)
				rate[i] = f.v[i] >= v0[i] ? f.v[i] - v0[i] : 0;
		}
		frames++;
	}
	np_rec_reader_close(r);
	if (frames < 2 || t1 <= t0) {
		fprintf(stderr, "record_read_cost: %s needs two frames of one schema\n", argv[1]);
		return 1;
	}
	for (size_t i = 0; i < n; i++) {
		rate[i] = (uint64_t)((double)rate[i] * SEC / (double)(t1 - t0));
		if (!rate[i] && getenv("MOVE_ALL"))
			rate[i] = 1000 + (i * 7919) % 99000;
	}
	v = malloc(n * sizeof(*v));
	drop = calloc(n, 1);
	memcpy(v, v0, n * sizeof(*v));
	{
		const char *p = names;

		for (size_t i = 0; i < n; i++, p += strlen(p) + 1)
			drop[i] = is_drop(p);
	}
	{
		struct np_rec_opts o = { .dir = argv[2], .interval_ms = 1000, .no_sync = true };

		/* REC_VERSION=2: the format before (a key block every 900 frames, not 3,600). */
		o.version = getenv("REC_VERSION") ? (unsigned)atoi(getenv("REC_VERSION")) : 0;

		if (np_rec_writer_open(&o, &w, err, sizeof(err)) < 0) {
			fprintf(stderr, "%s\n", err);
			return 1;
		}
	}
	/* HOURS=1: the first hour only (the recorder's bytes scale with time). */
	for (int64_t t = 0; t < (getenv("HOURS") ? atol(getenv("HOURS")) * 3600 : days * 86400);
	     t++) {
		struct np_rec_sample s = {
			.mono_ns = 1000 * SEC + t * SEC, .wall_ns = (wall0 + t) * SEC,
			.v = v, .n = n, .names = names, .names_len = names_len,
			.config = config, .config_len = config_len,
		};
		int64_t in6h = t % (6 * 3600);
		int burst = in6h >= 3 * 3600 + 12 * 60 && in6h < 3 * 3600 + 12 * 60 + 40;

		if (np_rec_writer_append(w, &s, err, sizeof(err)) < 0) {
			fprintf(stderr, "%s\n", err);
			return 1;
		}
		for (size_t i = 0; i < n; i++) {
			if (rate[i])
				v[i] += rate[i] * 9 / 10 + xr() % (rate[i] / 5 + 1);
			if (drop[i] && burst)
				v[i] += 2000 + xr() % 500;
		}
	}
	np_rec_writer_close(w);
	printf("counters=%zu names_bytes=%zu config_bytes=%zu frames=%ld\n", n, names_len,
	       config_len, getenv("HOURS") ? atol(getenv("HOURS")) * 3600 : days * 86400);
	free(v0);
	free(v);
	free(rate);
	free(drop);
	free(names);
	free(config);
	return 0;
}
