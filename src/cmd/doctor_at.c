// SPDX-License-Identifier: GPL-2.0-only
/*
 * netpath doctor --root DIR --at TIME [--window SEC]: a past window of a recording judged as a
 * live `doctor --interval SEC` would have judged it then. The configuration sample in force at
 * the window's end (a capture of one sample, record.h) is replayed through the collectors
 * twice, once per end of the window, and each snapshot takes its frame's counters
 * (snapshot_counters.h): the same checks, the same text, JSON, Prometheus and Nagios outputs.
 * A window the recording does not cover whole (a gap, a restart, beyond its ends) is not
 * judged: the run ends UNKNOWN, saying which, never OK.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "doctor_run.h"
#include "ktape.h"
#include "log.h"
#include "origin.h"
#include "record_flows.h"
#include "record_read.h"
#include "root.h"
#include "snapshot_counters.h"
#include "when.h"

/* A frame's counters into a device's snapshot, and its instant: the host-wide ones too when
 * host (once per sample: its devices share one host snapshot). */
static int put_frame(struct np_snapshot *s, const struct np_rec_moment *m, bool host)
{
	const char *const *names = (const char *const *)m->name;

	if ((host ? np_snapcnt_apply(s, names, m->v, m->n)
		  : np_snapcnt_apply_dev(s, names, m->v, m->n)) < 0)
		return -ENOMEM;
	s->t = (double)m->mono_ns / 1e9;
	s->t_known = true;
	return 0;
}

/* The devices of the configuration sample, read twice, with the two frames' counters. */
static int runs_at(struct doctor_args *d, struct np_target *tgt, struct np_dev_runs *dr,
		   struct doctor_tops *t, const struct np_rec_moment *m0,
		   const struct np_rec_moment *m1, struct np_status *st)
{
	struct np_ctx c2;
	int r;

	if (np_doctor_find_tops(d, tgt, t, st) < 0)
		return -1;
	np_runs_discover(dr, &tgt->ctx, t->tops, t->n);
	r = np_sample_ctx_open(&c2, &tgt->root, tgt->root.dir);
	if (r < 0)
		return np_fail(st, "cannot read the recorded configuration: %s", strerror(-r));
	np_runs_collect_again(dr, &c2);
	np_root_ctx_close(&c2);
	for (size_t i = 0; i < dr->n; i++) {
		struct np_dev_run *rn = &dr->run[i];

		if (put_frame(&rn->prev, m0, i == 0) < 0 || put_frame(&rn->cur, m1, i == 0) < 0)
			return np_fail(st, "out of memory");
	}
	return 0;
}

/* The header says which recording and which window, not the temporary file. */
static void name_origin(struct np_target *tgt, const struct doctor_args *d,
			const struct np_rec_moment *m0)
{
	struct np_origin *o = tgt->ctx.origin;
	time_t t = (time_t)(m0->wall_ns / 1000000000);
	struct tm tm;

	snprintf(tgt->ctx.root, sizeof(tgt->ctx.root), "%s", d->root);
	if (!o)
		return;
	o->kind = NP_ORIGIN_RECORDING;
	if (gmtime_r(&t, &tm))
		strftime(o->taken, sizeof(o->taken), "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The configuration of m into path, opened as tgt (doctor's --root). 0, or -1 with why. */
static int open_config(const struct doctor_args *d, const struct np_rec_moment *m,
		       struct np_target *tgt, bool *open, char *path, size_t path_size,
		       char *why, size_t whylen)
{
	struct np_target_spec spec = {
		.cmd = "doctor", .root = path, .ifname = d->all ? NULL : d->ifname,
		.any_iface = d->all,
	};
	char err[400];
	int r = np_rec_config_file(m, path, path_size);

	if (r < 0) {
		snprintf(why, whylen, "cannot write the recorded configuration: %s", strerror(-r));
		return -1;
	}
	r = np_target_open(tgt, &spec, err, sizeof(err)) < 0 ? -1 : 0;
	if (r < 0)
		snprintf(why, whylen, "the recorded configuration: %s", err);
	*open = r == 0;
	return r;
}

void np_at_cfg_close(struct np_at_cfg *c)
{
	if (c->open)
		np_target_close(&c->tgt);
	if (c->path[0]) {
		unlink(c->path);
		np_cleanup_drop(c->path);
	}
	free(c->config);
	free(c->tape_used);
	memset(c, 0, sizeof(*c));
}

/* The cache opened on m's configuration, unless it holds that one already: then its tape
 * answers again what it answered first (the collectors consume a replayed answer). */
static int cfg_reuse(struct np_at_cfg *c, const struct doctor_args *d,
		     const struct np_rec_moment *m, char *why, size_t whylen)
{
	struct np_ktape *tape;

	if (c->open && (c->tape_used || c->tape_none) && c->config_len == m->config_len &&
	    !memcmp(c->config, m->config, m->config_len)) {
		if (c->tape_used)
			np_ktape_set_used(c->tgt.ctx.tape, c->tape_used);
		return 0;
	}
	np_at_cfg_close(c);
	c->config = malloc(m->config_len ? m->config_len : 1);
	if (!c->config) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	memcpy(c->config, m->config, m->config_len);
	c->config_len = m->config_len;
	if (open_config(d, m, &c->tgt, &c->open, c->path, sizeof(c->path), why, whylen) < 0)
		return -1;
	/* Without memory for the flags, the next window opens it anew. */
	tape = c->tgt.ctx.tape;
	c->tape_none = !tape || !tape->n;
	if (!c->tape_none)
		c->tape_used = np_ktape_used(tape);
	return 0;
}

int np_at_open_cfg(struct np_at *w, struct np_at_cfg *cache, struct doctor_args *d, double at,
		   double window, struct np_dev_runs *dr, struct doctor_tops *t,
		   struct np_status *st)
{
	struct np_target *tgt = cache ? &cache->tgt : &w->tgt;
	char why[600] = "";
	int r;

	memset(w, 0, sizeof(*w));
	r = np_rec_window(d->root, at, window, &w->m0, &w->m1, why, sizeof(why));
	if (r == 0)
		r = cache ? cfg_reuse(cache, d, &w->m1, why, sizeof(why)) :
			    open_config(d, &w->m1, &w->tgt, &w->open, w->path, sizeof(w->path),
					why, sizeof(why));
	if (r == 0) {
		name_origin(tgt, d, &w->m0);
		d->opt.interval = window;
		if (runs_at(d, tgt, dr, t, &w->m0, &w->m1, st) < 0)
			r = -1;
		w->dt = (double)(w->m1.mono_ns - w->m0.mono_ns) / 1e9;
	} else {
		np_fail(st, "%s", why);
	}
	if (r != 0) {
		np_at_close(w);
		return r > 0 ? 1 : -1;
	}
	return 0;
}

int np_at_open(struct np_at *w, struct doctor_args *d, double at, double window,
	       struct np_dev_runs *dr, struct doctor_tops *t, struct np_status *st)
{
	return np_at_open_cfg(w, NULL, d, at, window, dr, t, st);
}

void np_at_close(struct np_at *w)
{
	if (w->open)
		np_target_close(&w->tgt);
	if (w->path[0]) {
		unlink(w->path);
		np_cleanup_drop(w->path);
	}
	np_rec_moment_free(&w->m0);
	np_rec_moment_free(&w->m1);
	memset(w, 0, sizeof(*w));
}

int np_doctor_at(struct doctor_args *d, struct np_dev_runs *dr, struct np_status *st)
{
	double at, window = d->window > 0 ? d->window : d->opt.interval;
	struct np_rec_flows flows;
	struct doctor_tops t;
	struct np_at w;
	char err[400];
	int r;

	if (np_parse_when(d->at, (double)time(NULL), &at, err, sizeof(err)) < 0)
		return np_usage(st, "invalid --at '%s' (%s)", d->at, err);
	if (!(window > 0))
		return np_usage(st, "--at judges a window: --window (or --interval) must be > 0");
	r = np_at_open(&w, d, at, window, dr, &t, st);
	if (r != 0)
		return -1;
	/* record --drops: the top flows of the minutes the window touches (the recorder keeps
	 * them a minute at a time). Without them the report is the same, less that section. */
	if (w.tgt.ctx.origin &&
	    np_rec_flows_read(d->root, w.m0.wall_ns / 1000000000,
			      (w.m1.wall_ns + 999999999) / 1000000000, &flows) == 0)
		w.tgt.ctx.origin->flows = &flows;
	r = np_doctor_judge(d, &w.tgt, dr, w.dt, t.more, st);
	if (w.tgt.ctx.origin)
		w.tgt.ctx.origin->flows = NULL;
	np_at_close(&w);
	return r;
}
