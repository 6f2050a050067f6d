// SPDX-License-Identifier: GPL-2.0-only
/* netpath record --capture-on: a capture beside the recording when a check fires
 * (record_capture.h). */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "atomic_file.h"
#include "clock.h"
#include "log.h"
#include "record_capture.h"
#include "selection.h"

int np_record_trigger_parse(struct np_record_trigger *t, const char *arg, char *err,
			    size_t errlen)
{
	const struct np_check *const *tab;
	bool any = false;
	size_t n;

	t->on = true;
	t->check[0] = '\0';
	if (strcmp(arg, "warning") == 0) {
		t->level = NP_SEV_WARNING;
		return 0;
	}
	if (strcmp(arg, "critical") == 0) {
		t->level = NP_SEV_CRITICAL;
		return 0;
	}
	/* A check: it fires at warning or worse. */
	tab = np_check_table(&n);
	for (size_t i = 0; i < n; i++)
		any |= np_pattern_match(arg, tab[i]);
	if (!any || strlen(arg) >= sizeof(t->check)) {
		const char *near = np_check_suggest(arg, true, false);

		snprintf(err, errlen, "'%s' is neither a severity (warning, critical) nor a check%s%s%s",
			 arg, near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
		return -EINVAL;
	}
	snprintf(t->check, sizeof(t->check), "%s", arg);
	t->level = NP_SEV_WARNING;
	return 0;
}

/* The finding that fires the trigger, or NULL. */
static const struct np_finding *fired(const struct np_record_trigger *t,
				      const struct np_report *rep)
{
	const struct np_finding *best = NULL;

	for (size_t i = 0; i < rep->n; i++) {
		const struct np_finding *f = &rep->f[i];

		if (f->severity < t->level)
			continue;
		if (t->check[0] && !np_pattern_match(t->check, f->check))
			continue;
		if (!best || f->severity > best->severity)
			best = f;
	}
	return best;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int is_capture(const struct dirent *e)
{
	size_t n = strlen(e->d_name);

	return !strncmp(e->d_name, "capture-", 8) && n > 15 &&
	       !strcmp(e->d_name + n - 7, ".tar.gz");
}

/* Keep the newest NP_RECORD_CAPTURES_KEPT (names sort by time). */
static void evict(const char *dir)
{
	struct dirent **list;
	int n = scandir(dir, &list, is_capture, by_name);

	for (int i = 0; i < n; i++) {
		if (n - i > NP_RECORD_CAPTURES_KEPT) {
			char path[4200];

			snprintf(path, sizeof(path), "%s/%s", dir, list[i]->d_name);
			unlink(path);
		}
		free(list[i]);
	}
	if (n >= 0)
		free(list);
}

static void abandon(struct np_record_trigger *t)
{
	if (t->tar)
		np_tar_out_close(t->tar);
	if (t->out)
		np_atomic_abort(t->out, t->tmp);
	t->tar = NULL;
	t->out = NULL;
}

static void say_failure(const char *path, int err)
{
	fprintf(stderr, "netpath record: cannot write the capture %s: %s\n", path, strerror(-err));
}

/* The first sample, now, into a new capture. */
static void start(struct np_record_trigger *t, struct np_target *tgt, const char *const *tops,
		  size_t ntops, const struct record_args *a)
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	int err = 0;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	snprintf(t->path, sizeof(t->path), "%s/capture-%s.tar.gz", a->dir, stamp);
	t->out = np_atomic_open_mode(t->path, t->tmp, sizeof(t->tmp), 0600);
	if (!t->out) {
		say_failure(t->path, -errno);
		return;
	}
	fflush(t->out);
	t->tar = np_tar_out_open(fileno(t->out), true, &err);
	if (t->tar)
		err = np_record_sample(tgt, tops, ntops, t->tar, "s1", (int64_t)now, 0);
	if (err) {
		say_failure(t->path, err);
		abandon(t);
		return;
	}
	t->t1 = np_mono_now();
	t->last = t->t1;
}

/* The second sample, the capture's META, the file in place. */
static void finish(struct np_record_trigger *t, struct np_target *tgt, const char *const *tops,
		   size_t ntops, const struct record_args *a)
{
	int64_t now = (int64_t)time(NULL);
	int err = np_record_sample(tgt, tops, ntops, t->tar, "s2", now, 0);

	if (!err)
		err = np_record_meta(t->tar, tops, ntops, a, now, 2, np_mono_now() - t->t1);
	if (!err)
		err = np_tar_out_close(t->tar);
	else
		np_tar_out_close(t->tar);
	t->tar = NULL;
	if (!err)
		err = np_atomic_commit(t->out, t->tmp, t->path);
	else
		np_atomic_abort(t->out, t->tmp);
	t->out = NULL;
	if (err) {
		say_failure(t->path, err);
		return;
	}
	t->written++;
	np_info("captured %s: %s", t->path, t->why);
	evict(a->dir);
}

void np_record_trigger_tick(struct np_record_trigger *t, struct np_target *tgt,
			    struct np_dev_runs *dr, double dt, const char *const *tops,
			    size_t ntops, const struct record_args *a)
{
	static const struct np_options opt = { .interval = 1, .rtt_ms = NAN, .bandwidth_bps = NAN };
	const struct np_finding *f;

	if (!t->on)
		return;
	if (t->tar) {
		finish(t, tgt, tops, ntops, a);
		return;
	}
	/* Judged only when a capture could follow: the checks cost more than the sample. */
	if (dt <= 0 || (t->last > 0 && np_mono_now() - t->last < t->every))
		return;
	if (np_runs_analyze(dr, dt, &opt, NULL, NULL, NULL) < 0)
		return;
	f = fired(t, &dr->run[0].rep);
	if (!f)
		return;
	snprintf(t->why, sizeof(t->why), "%s %s on %s", f->check->id,
		 np_severity_name(f->severity), f->dev);
	start(t, tgt, tops, ntops, a);
}

void np_record_trigger_close(struct np_record_trigger *t)
{
	abandon(t);
}
