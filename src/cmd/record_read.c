// SPDX-License-Identifier: GPL-2.0-only
/* A recording read back: a window's bounding frames (record_read.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "rec_store.h"
#include "record_read.h"
#include "when.h"

void np_rec_moment_free(struct np_rec_moment *m)
{
	for (size_t i = 0; m->name && i < m->n; i++)
		free(m->name[i]);
	free(m->name);
	free(m->v);
	free(m->config);
	memset(m, 0, sizeof(*m));
}

static int keep(struct np_rec_moment *m, const struct np_rec_frame *f)
{
	np_rec_moment_free(m);
	m->wall_ns = f->wall_ns;
	m->mono_ns = f->mono_ns;
	m->v = malloc((f->n ? f->n : 1) * sizeof(*m->v));
	m->name = calloc(f->n ? f->n : 1, sizeof(*m->name));
	if (!m->v || !m->name)
		return -ENOMEM;
	m->n = f->n;
	memcpy(m->v, f->v, f->n * sizeof(*m->v));
	for (size_t i = 0; i < f->n; i++) {
		m->name[i] = strdup(f->name ? f->name[i] : "");
		if (!m->name[i])
			return -ENOMEM;
	}
	if (f->config) {
		m->config = malloc(f->config_len ? f->config_len : 1);
		if (!m->config)
			return -ENOMEM;
		memcpy(m->config, f->config, f->config_len);
		m->config_len = f->config_len;
	}
	return 0;
}

static void say_when(int64_t ns, char *buf, size_t size)
{
	np_when_format((double)ns / 1e9, buf, size);
}

/* The parts of [from, to] the recording covers: runs of frames with no gap or restart
 * between them. Up to max parts; returns how many. */
struct part {
	int64_t from, to;
};

static size_t covered(struct np_rec_reader *r, int64_t from, int64_t to, struct part *p,
		      size_t max)
{
	struct np_rec_frame f;
	size_t n = 0;

	if (np_rec_reader_seek(r, from) < 0)
		return 0;
	while (np_rec_reader_next(r, &f) > 0 && f.wall_ns <= to) {
		if (!n || (f.flags & (NP_REC_F_GAP | NP_REC_F_RESTART))) {
			if (n == max)
				break;
			p[n].from = p[n].to = f.wall_ns;
			n++;
		} else {
			p[n - 1].to = f.wall_ns;
		}
	}
	return n;
}

/*
 * The window is not covered whole: say what of it the recording holds (from..to of each part)
 * after the reason, and how to judge the longest part. Rates over the window would need its
 * two ends in one run of the recorder (see netpath-record(8), "Gaps").
 */
static void say_covered(struct np_rec_reader *r, int64_t at_ns, double window, char *why,
			size_t whylen)
{
	struct part p[6];
	int64_t end = at_ns + (int64_t)(window * 1e9);
	size_t n = covered(r, at_ns - 500000000, end + 250000000, p, 6), best = 0, len;
	char a[40], b[40];

	len = strlen(why);
	np_when_format((double)at_ns / 1e9, a, sizeof(a));
	np_when_format((double)end / 1e9, b, sizeof(b));
	snprintf(why + len, whylen - len, "; of the window %s to %s the recording covers %s", a,
		 b, n ? "" : "nothing");
	for (size_t i = 0; i < n; i++) {
		len = strlen(why);
		np_when_format((double)p[i].from / 1e9, a, sizeof(a));
		np_when_format((double)p[i].to / 1e9, b, sizeof(b));
		snprintf(why + len, whylen - len, "%s%s to %s", i ? ", " : "", a, b);
		if (p[i].to - p[i].from > p[best].to - p[best].from)
			best = i;
	}
	len = strlen(why);
	if (n && p[best].to - p[best].from >= 1000000000)
		snprintf(why + len, whylen - len, " (judge that part: --at @%lld --window %lld)",
			 (long long)((p[best].from + 999999999) / 1000000000),
			 (long long)((p[best].to - p[best].from) / 1000000000));
}

int np_rec_window(const char *dir, double at, double window, struct np_rec_moment *m0,
		  struct np_rec_moment *m1, char *why, size_t whylen)
{
	struct np_rec_reader *r;
	struct np_rec_frame f;
	int64_t at_ns = (int64_t)(at * 1e9), want;
	char a[40], b[40];
	bool second = true;
	int got, err = np_rec_reader_open(dir, &r, why, whylen);

	if (err < 0)
		return err;
	/* Half a second early still counts as "at": frames are taken on a cadence. */
	err = np_rec_reader_seek(r, at_ns - 500000000);
	got = err < 0 ? err : np_rec_reader_next(r, &f);
	if (got < 0) {
		snprintf(why, whylen, "%s: cannot read the recording: %s", dir, strerror(-got));
		np_rec_reader_close(r);
		return got;
	}
	say_when(at_ns, a, sizeof(a));
	if (got == 0) {
		snprintf(why, whylen, "%s holds no sample at or after %s (the recording ends "
			 "before it)", dir, a);
		np_rec_reader_close(r);
		return 1;
	}
	if (f.wall_ns > at_ns + (int64_t)(window * 1e9)) {
		say_when(f.wall_ns, b, sizeof(b));
		snprintf(why, whylen, "%s holds no sample from %s until %s (a gap in the recording, "
			 "or before it began)", dir, a, b);
		np_rec_reader_close(r);
		return 1;
	}
	err = keep(m0, &f);
	want = f.wall_ns + (int64_t)(window * 1e9) - 250000000;
	while (!err) {
		got = np_rec_reader_next(r, &f);
		if (got <= 0) {
			say_when(m0->wall_ns, b, sizeof(b));
			snprintf(why, whylen, got < 0 ? "%s: cannot read the recording" :
				 "%s: the recording ends before %g s after %s", dir, window, b);
			err = got < 0 ? got : 1;
			break;
		}
		if (f.flags & (NP_REC_F_GAP | NP_REC_F_RESTART)) {
			say_when(f.wall_ns, b, sizeof(b));
			snprintf(why, whylen, "%s has a gap in the window before %s (the recorder "
				 "stopped, restarted or lost samples): rates over it are unknown", dir,
				 b);
			err = 1;
			break;
		}
		/* The first sample is later than a cadence after at: the recorder started (or
		 * came back) within the window, whose beginning it did not see. Judging from
		 * that sample on would be another window, presented as this one. */
		if (second && m0->wall_ns - at_ns > f.wall_ns - m0->wall_ns + 250000000) {
			say_when(m0->wall_ns, b, sizeof(b));
			snprintf(why, whylen, "%s holds no sample from %s until %s (the recorder "
				 "started or came back within the window): rates over it are unknown",
				 dir, a, b);
			err = 1;
			break;
		}
		second = false;
		if (f.wall_ns >= want) {
			err = keep(m1, &f);
			break;
		}
	}
	if (err > 0)
		say_covered(r, at_ns, window, why, whylen);
	if (!err && !m1->config) {
		snprintf(why, whylen, "%s: the sample at %s has no configuration", dir, a);
		err = 1;
	}
	if (err < 0 && !why[0])
		snprintf(why, whylen, "%s: %s", dir, strerror(-err));
	if (err) {
		np_rec_moment_free(m0);
		np_rec_moment_free(m1);
	}
	np_rec_reader_close(r);
	return err;
}

int np_rec_config_file(const struct np_rec_moment *m, char *path, size_t size)
{
	const char *tmp = getenv("TMPDIR");
	size_t off = 0;
	int fd;

	if (!tmp || tmp[0] != '/')
		tmp = "/tmp";
	if (snprintf(path, size, "%s/netpath-at.XXXXXX", tmp) >= (int)size)
		return -ENAMETOOLONG;
	fd = mkstemp(path);	/* 0600, O_EXCL: never an existing file */
	if (fd < 0)
		return -errno;
	np_cleanup_add(path, NP_CLEANUP_FILE);
	while (off < m->config_len) {
		ssize_t n = write(fd, m->config + off, m->config_len - off);

		if (n < 0) {
			int e = -errno;

			close(fd);
			unlink(path);
			np_cleanup_drop(path);
			return e;
		}
		off += (size_t)n;
	}
	if (close(fd) < 0) {
		unlink(path);
		np_cleanup_drop(path);
		return -EIO;
	}
	return 0;
}

int np_rec_config_changes(const char *dir, double from, double to, int64_t **at, size_t *n)
{
	struct np_rec_reader *r;
	struct np_rec_frame f;
	int64_t until = (int64_t)(to * 1e9);
	size_t cap = 0;
	char why[300];
	bool first = true;
	int got, err = np_rec_reader_open(dir, &r, why, sizeof(why));

	*at = NULL;
	*n = 0;
	if (err < 0)
		return err;
	err = np_rec_reader_seek(r, (int64_t)(from * 1e9));
	while (!err && (got = np_rec_reader_next(r, &f)) > 0 && f.wall_ns <= until) {
		/* The first frame read carries the configuration in force, not a change. */
		if ((f.flags & NP_REC_F_CONFIG) && !first) {
			if (*n == cap) {
				int64_t *p = realloc(*at, (cap ? cap * 2 : 8) * sizeof(*p));

				if (!p) {
					err = -ENOMEM;
					break;
				}
				*at = p;
				cap = cap ? cap * 2 : 8;
			}
			(*at)[(*n)++] = f.wall_ns;
		}
		first = false;
	}
	np_rec_reader_close(r);
	return err;
}
