// SPDX-License-Identifier: GPL-2.0-only
/*
 * The flight recorder's store against issue #31's budget (bench/record_store_cost.sh): a
 * synthetic 16-CPU host with one 16-queue NIC sampled every second (softnet 5 per CPU, IRQ
 * counts per CPU per queue, 200 NIC statistics, 300 MIB counters: most static, some steady
 * with noise, some bursty), written for DAYS days of fake time as fast as the CPU allows.
 * Environment: REC_VERSION (format), REC_NOISE or REC_MODEL=drift REC_SD (the steady
 * counters' noise), REC_FLUSH_FRAMES, REC_KEY_FRAMES (the writer's block and key intervals).
 *
 *   record_store_cost store DIR LEVEL DAYS [SYNC]   bytes, CPU per frame, peak RSS (one line)
 *   record_store_cost seek DIR COUNT                open + seek + 60 frames, COUNT times
 *   record_store_cost read DIR                      every frame (callgrind: cost per frame)
 *   record_store_cost sqlite FILE rows|blob HOURS   the same frames in SQLite, two layouts
 */
#include "rec_codec.h"
#include "rec_store.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#ifdef WITH_SQLITE
#include <sqlite3.h>
#endif

#define CPUS 16
#define QUEUES 16
#define NSOFT (CPUS * 5)
#define NIRQ (CPUS * QUEUES)
#define NNIC 200
#define NMIB 300
#define N (NSOFT + NIRQ + NNIC + NMIB)
#define SEC 1000000000LL
#define T0 (1767225600LL * SEC)

static uint64_t rng = 88172645463325252ull;

static uint64_t xr(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static uint64_t v[N];
static char names[N * 32];
static size_t names_len;
static char config[4096];

enum pat { STATIC, STEADY, BURSTY };
static enum pat pat[N];
static uint64_t rate[N];
static uint64_t noise = 10;	/* the noise range of steady counters, % of their rate */
/* REC_MODEL=drift: steady counters' rates on a +-30% daily curve with Gaussian noise of
 * REC_SD % of the rate a second (default 1: collectl's per-second samples of a busy NIC,
 * bench/results/record_store_models.md), instead of the white +-NOISE/2 % above. */
static int drift;
static double sd = 1;

static void setup(void)
{
	size_t k = 0;

	for (int c = 0; c < CPUS; c++) {
		static const char *f[] = { "processed", "dropped", "time_squeeze", "rps", "flow" };

		for (int j = 0; j < 5; j++, k++) {
			names_len += (size_t)sprintf(names + names_len, "softnet.%d.%s", c, f[j]) + 1;
			pat[k] = j == 0 ? STEADY : j < 3 ? BURSTY : STATIC;
			rate[k] = 20000;
		}
	}
	for (int c = 0; c < CPUS; c++)
		for (int q = 0; q < QUEUES; q++, k++) {
			names_len += (size_t)sprintf(names + names_len, "irq.eth0-rx-%d.cpu%d", q, c) + 1;
			/* Each queue's IRQ lands on its own CPU. */
			pat[k] = c == q ? STEADY : STATIC;
			rate[k] = 3000;
		}
	for (int i = 0; i < NNIC; i++, k++) {
		names_len += (size_t)sprintf(names + names_len, "nic.eth0.stat%d", i) + 1;
		/* Per queue rx/tx packets and bytes, then totals, then a few error counters. */
		pat[k] = i < 64 + 16 ? STEADY : i < 90 ? BURSTY : STATIC;
		rate[k] = i % 2 ? 5000 : 5000 * 900;
	}
	for (int i = 0; i < NMIB; i++, k++) {
		names_len += (size_t)sprintf(names + names_len, "mib.Mib%d", i) + 1;
		pat[k] = i < 30 ? STEADY : i < 40 ? BURSTY : STATIC;
		rate[k] = 40000;
	}
	for (size_t i = 0; i < N; i++)
		v[i] = xr() >> 20;
	for (size_t i = 0; i < sizeof(config); i++)
		config[i] = "abcdefgh =\n0123456789"[xr() % 21];
}

/* A standard normal draw (Box-Muller on two uniforms from xr). */
static double gauss(void)
{
	double u = ((double)(xr() >> 11) + 1) / 9007199254740993.0, w = (double)(xr() >> 11);

	return sqrt(-2 * log(u)) * cos(2 * M_PI * w / 9007199254740992.0);
}

/* One second: steady counters move by their rate +-5% (REC_NOISE=10, the range in %), or on
 * the drift model's curve, bursty ones now and then (40 s an hour). */
static void step(int64_t t)
{
	double curve = 1 + 0.3 * sin(2 * M_PI * (double)(t % 86400) / 86400);

	for (size_t i = 0; i < N; i++) {
		if (pat[i] == STEADY && drift) {
			double x = (double)rate[i] * (curve + gauss() * sd / 100);

			v[i] += x > 0 ? (uint64_t)llround(x) : 0;
		} else if (pat[i] == STEADY)
			v[i] += rate[i] - rate[i] * noise / 200 + xr() % (rate[i] * noise / 100 + 1);
		else if (pat[i] == BURSTY && (t % 3600) > 1200 && (t % 3600) < 1240 && xr() % 4 == 0)
			v[i] += xr() % 5000;
	}
	/* Twice a day the configuration changes (a ring resized, a sysctl set). */
	if (t % 43200 == 0)
		config[xr() % sizeof(config)] ^= 1;
}

static double cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static long rss_kb(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

static int do_store(const char *dir, int level, double days, int sync)
{
	struct np_rec_opts o = { .dir = dir, .level = level, .no_sync = !sync };
	/* Other block and key intervals than the defaults, to show what they cost. */
	const char *fl = getenv("REC_FLUSH_FRAMES"), *kf = getenv("REC_KEY_FRAMES");

	o.flush_frames = fl ? (unsigned)atoi(fl) : 0;
	/* REC_VERSION=1: the format before column records, for the comparison rows. */
	o.version = getenv("REC_VERSION") ? (unsigned)atoi(getenv("REC_VERSION")) : 0;
	o.key_frames = kf ? (unsigned)atoi(kf) : 0;
	struct np_rec_writer *w;
	char err[256];
	int64_t frames = (int64_t)(days * 86400);
	double c0;

	if (np_rec_writer_open(&o, &w, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	c0 = cpu_s();
	for (int64_t t = 0; t < frames; t++) {
		struct np_rec_sample s = {
			.mono_ns = 100 * SEC + t * SEC, .wall_ns = T0 + t * SEC, .v = v, .n = N,
			.names = names, .names_len = names_len, .config = config,
			.config_len = sizeof(config),
		};

		step(t);
		if (np_rec_writer_append(w, &s, err, sizeof(err)) < 0) {
			fprintf(stderr, "%s\n", err);
			return 1;
		}
	}
	np_rec_writer_close(w);
	/* The synthetic counters' own cost, apart: step() alone. */
	{
		double c1 = cpu_s(), c2;

		for (int64_t t = 0; t < frames; t++)
			step(t);
		c2 = cpu_s();
		printf("{\"counters\": %d, \"level\": %d, \"sync\": %d, \"frames\": %lld, "
		       "\"cpu_us_per_frame\": %.2f, \"maxrss_kb\": %ld}\n", N, level, sync,
		       (long long)frames, ((c1 - c0) - (c2 - c1)) * 1e6 / (double)frames, rss_kb());
	}
	return 0;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int do_seek(const char *dir, int count)
{
	double *ms = calloc((size_t)count, sizeof(*ms)), span = 0;
	char err[256];

	for (int i = 0; i < count; i++) {
		struct np_rec_reader *r;
		struct np_rec_frame f;
		double t0 = now();
		int64_t at;
		int got = 0;

		if (np_rec_reader_open(dir, &r, err, sizeof(err)) < 0) {
			fprintf(stderr, "%s\n", err);
			return 1;
		}
		if (!span) {
			np_rec_reader_next(r, &f);
			span = (double)(f.wall_ns - T0);
		}
		at = T0 + (int64_t)(xr() % (uint64_t)(7 * 86400 - 120)) * SEC;
		np_rec_reader_seek(r, at);
		while (got < 60 && np_rec_reader_next(r, &f) == 1)
			got++;
		np_rec_reader_close(r);
		ms[i] = (now() - t0) * 1e3;
		if (got != 60 || f.wall_ns != at + 59 * SEC) {
			fprintf(stderr, "seek to %lld: %d frames\n", (long long)at, got);
			return 1;
		}
	}
	qsort(ms, (size_t)count, sizeof(*ms), cmp_d);
	printf("{\"seeks\": %d, \"median_ms\": %.2f, \"max_ms\": %.2f, \"rss_kb\": %ld}\n",
	       count, ms[count / 2], ms[count - 1], rss_kb());
	free(ms);
	return 0;
}

/* Every frame of DIR, decoded and summed: the reader's cost per frame (run it under
 * callgrind for instructions). */
static int do_read(const char *dir)
{
	struct np_rec_reader *r;
	struct np_rec_frame f;
	char err[256];
	uint64_t sum = 0;
	long frames = 0;

	if (np_rec_reader_open(dir, &r, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	while (np_rec_reader_next(r, &f) == 1) {
		sum += f.v[f.n - 1];
		frames++;
	}
	np_rec_reader_close(r);
	printf("{\"frames\": %ld, \"sum\": %llu}\n", frames, (unsigned long long)sum);
	return 0;
}

#ifdef WITH_SQLITE
/* rows: one row (time, counter, value) per counter that changed, as a schema-first design
 * would have it; blob: one row per frame holding the codec's delta record, uncompressed. */
static int do_sqlite(const char *file, const char *mode, double hours)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	bool rows = !strcmp(mode, "rows");
	struct np_rec_enc e = { 0 };
	struct np_rec_buf b = { 0 };
	static uint64_t prev[N];
	int64_t frames = (int64_t)(hours * 3600);
	double c0;

	remove(file);
	if (sqlite3_open(file, &db) != SQLITE_OK)
		return 1;
	sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;", 0, 0, 0);
	sqlite3_exec(db, rows ? "CREATE TABLE s(t INTEGER, c INTEGER, v INTEGER);"
			       "CREATE INDEX st ON s(t);"
			     : "CREATE TABLE f(t INTEGER PRIMARY KEY, d BLOB);", 0, 0, 0);
	sqlite3_prepare_v2(db, rows ? "INSERT INTO s VALUES(?,?,?)" : "INSERT INTO f VALUES(?,?)",
			   -1, &st, 0);
	c0 = cpu_s();
	for (int64_t t = 0; t < frames; t++) {
		step(t);
		sqlite3_exec(db, "BEGIN", 0, 0, 0);
		if (rows) {
			for (size_t i = 0; i < N; i++) {
				if (t && v[i] == prev[i])
					continue;
				sqlite3_bind_int64(st, 1, T0 / SEC + t);
				sqlite3_bind_int64(st, 2, (int64_t)i);
				sqlite3_bind_int64(st, 3, (int64_t)v[i]);
				sqlite3_step(st);
				sqlite3_reset(st);
				prev[i] = v[i];
			}
		} else {
			b.len = 0;
			if (t % 300 == 0)
				np_rec_enc_reset(&e);
			np_rec_put_frame(&e, &b, t * SEC, T0 + t * SEC, v, N);
			sqlite3_bind_int64(st, 1, T0 / SEC + t);
			sqlite3_bind_blob(st, 2, b.p, (int)b.len, SQLITE_STATIC);
			sqlite3_step(st);
			sqlite3_reset(st);
		}
		sqlite3_exec(db, "COMMIT", 0, 0, 0);
	}
	sqlite3_finalize(st);
	sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE);", 0, 0, 0);
	printf("{\"sqlite\": \"%s\", \"frames\": %lld, \"cpu_us_per_frame\": %.2f, "
	       "\"maxrss_kb\": %ld}\n", mode, (long long)frames,
	       (cpu_s() - c0) * 1e6 / (double)frames, rss_kb());
	sqlite3_close(db);
	np_rec_enc_free(&e);
	np_rec_buf_free(&b);
	return 0;
}
#endif

int main(int argc, char **argv)
{
	if (getenv("REC_NOISE"))
		noise = (uint64_t)atoi(getenv("REC_NOISE"));
	drift = getenv("REC_MODEL") && !strcmp(getenv("REC_MODEL"), "drift");
	if (getenv("REC_SD"))
		sd = atof(getenv("REC_SD"));
	setup();
	if (argc >= 5 && !strcmp(argv[1], "store"))
		return do_store(argv[2], atoi(argv[3]), atof(argv[4]), argc > 5 && atoi(argv[5]));
	if (argc == 4 && !strcmp(argv[1], "seek"))
		return do_seek(argv[2], atoi(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "read"))
		return do_read(argv[2]);
#ifdef WITH_SQLITE
	if (argc == 5 && !strcmp(argv[1], "sqlite"))
		return do_sqlite(argv[2], argv[3], atof(argv[4]));
#endif
	fprintf(stderr, "usage: record_store_cost store DIR LEVEL DAYS [SYNC] | seek DIR COUNT"
		" | read DIR | sqlite FILE rows|blob HOURS\n");
	return 2;
}
