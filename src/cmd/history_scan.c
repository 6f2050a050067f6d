// SPDX-License-Identifier: GPL-2.0-only
/*
 * netpath history's reading (history.h): every frame of the span is put into a snapshot of the
 * configuration in force (replayed once per configuration, record_read.h), and each pair of
 * consecutive frames gives one second of the funnel's drop rates, as doctor computes them. The
 * worst seconds and minutes are then judged whole, as `doctor --at` would (doctor_at.c).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "doctor_run.h"
#include "funnel.h"
#include "history.h"
#include "history_reasons.h"
#include "record_flows.h"
#include "log.h"
#include "rec_store.h"
#include "snapshot_counters.h"

/* The configuration in force and the two snapshots frames are put into, in turn. */
struct scan_cfg {
	struct np_target tgt;
	bool open;
	char path[4200];
	char *config;			/* the bytes it was replayed from */
	size_t config_len;
	struct np_dev_runs *dr;
	int slot;			/* which of prev/cur the next frame goes into */
	/* Where frames go in each of prev/cur (snapshot_counters.h): only the funnel reads
	 * them, and with the same names a frame is copied in, not applied. */
	struct np_snapcnt_plan plan[2];
	const char *const *plan_names[2];	/* the reader's names the plan was made with */
	/* The funnel's counters in each of prev/cur (funnel.h), found again after any apply. */
	struct np_funnel_refs refs[2];
	bool refs_ok[2];
};

static void cfg_close(struct scan_cfg *c)
{
	np_snapcnt_plan_free(&c->plan[0]);
	np_snapcnt_plan_free(&c->plan[1]);
	if (c->dr) {
		np_runs_free(c->dr);
		free(c->dr);
	}
	if (c->open)
		np_target_close(&c->tgt);
	if (c->path[0]) {
		unlink(c->path);
		np_cleanup_drop(c->path);
	}
	free(c->config);
	memset(c, 0, sizeof(*c));
}

static struct np_snapshot *slot(struct scan_cfg *c, int k)
{
	return k ? &c->dr->run[0].cur : &c->dr->run[0].prev;
}

/* Replay the frame's configuration (when it is not the one in force already). 0, or -1 with
 * st set. The snapshot holding the frame before keeps its counters across a change. */
static int cfg_for(struct scan_cfg *c, const struct np_rec_frame *f, const char *dir,
		   char *dev, struct np_status *st)
{
	struct np_named_counters keep;
	struct np_rec_moment m = { 0 };
	struct doctor_tops t;
	struct doctor_args d;
	struct np_ctx c2;
	char err[400];
	int r, had = c->dr != NULL;

	if (!f->config)
		return np_fail(st, "%s: a sample without a configuration", dir);
	/* The reader flags a configuration decoded since the frame before (rec_store.h): without
	 * one it is the one in force, and its 100 kB need no comparing. */
	if (c->config && !(f->flags & (NP_REC_F_FIRST | NP_REC_F_GAP | NP_REC_F_RESTART |
				       NP_REC_F_CONFIG)))
		return 0;
	if (c->config && c->config_len == f->config_len &&
	    !memcmp(c->config, f->config, f->config_len))
		return 0;
	np_named_counters_init(&keep);
	if (had && (np_snapcnt_host(slot(c, !c->slot), &keep) < 0 ||
		    np_snapcnt_dev(slot(c, !c->slot), &keep) < 0)) {
		np_named_counters_free(&keep);
		return np_fail(st, "out of memory");
	}
	cfg_close(c);
	c->config = malloc(f->config_len ? f->config_len : 1);
	c->dr = calloc(1, sizeof(*c->dr));
	if (!c->config || !c->dr) {
		np_named_counters_free(&keep);
		return np_fail(st, "out of memory");
	}
	memcpy(c->config, f->config, f->config_len);
	c->config_len = f->config_len;
	m.config = c->config;
	m.config_len = c->config_len;
	r = np_rec_config_file(&m, c->path, sizeof(c->path));
	if (r == 0) {
		struct np_target_spec spec = { .cmd = "history", .root = c->path };

		r = np_target_open(&c->tgt, &spec, err, sizeof(err));
		c->open = r == 0;
		if (r < 0)
			np_fail(st, "%s: the recorded configuration: %s", dir, err);
	} else {
		np_fail(st, "cannot write the recorded configuration: %s", strerror(-r));
	}
	memset(&d, 0, sizeof(d));
	if (r == 0 && np_doctor_find_tops(&d, &c->tgt, &t, st) < 0)
		r = -1;
	if (r == 0) {
		np_runs_discover(c->dr, &c->tgt.ctx, t.tops, t.n);
		r = np_sample_ctx_open(&c2, &c->tgt.root, c->tgt.root.dir);
		if (r == 0) {
			np_runs_collect_again(c->dr, &c2);
			np_root_ctx_close(&c2);
		} else {
			np_fail(st, "cannot read the recorded configuration: %s", strerror(-r));
		}
	}
	if (r == 0 && c->dr->n == 0)
		r = np_fail(st, "%s: the recorded configuration names no interface", dir);
	if (r == 0) {
		snprintf(dev, 16, "%s", c->dr->run[0].name);
		c->slot = 1;
		/* The frame before, into the snapshot the next rate starts from. */
		if (had) {
			const char **names = malloc((keep.n ? keep.n : 1) * sizeof(*names));
			const char *p = keep.names;

			for (size_t i = 0; names && i < keep.n; i++, p += strlen(p) + 1)
				names[i] = p;
			if (!names || np_snapcnt_apply(slot(c, 0), names, keep.v, keep.n) < 0)
				r = np_fail(st, "out of memory");
			free(names);
		}
	}
	np_named_counters_free(&keep);
	return r < 0 ? -1 : 0;
}

static int push_sec(struct np_history *h, const struct np_history_sec *s)
{
	if (h->n == h->cap) {
		size_t cap = h->cap ? h->cap * 2 : 1024;
		struct np_history_sec *p = realloc(h->sec, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		h->sec = p;
		h->cap = cap;
	}
	h->sec[h->n++] = *s;
	return 0;
}

static int push_gap(struct np_history *h, int64_t from, int64_t to)
{
	if (h->ngaps == h->gaps_cap) {
		size_t cap = h->gaps_cap ? h->gaps_cap * 2 : 16;
		struct np_history_gap *p = realloc(h->gaps, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		h->gaps = p;
		h->gaps_cap = cap;
	}
	h->gaps[h->ngaps++] = (struct np_history_gap){ from, to };
	return 0;
}

static int push_step(struct np_history *h, int64_t t, int64_t step)
{
	if (h->nsteps == h->steps_cap) {
		size_t cap = h->steps_cap ? h->steps_cap * 2 : 4;
		struct np_history_step *p = realloc(h->steps, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		h->steps = p;
		h->steps_cap = cap;
	}
	h->steps[h->nsteps++] = (struct np_history_step){ t, step };
	return 0;
}

/* The frame into the snapshot of slot k: through its plan while the names are those it was
 * made with (the reader flags any change of names, a seek, a gap or a restart), else planned
 * anew (an apply, and once more with markers). 0 or -ENOMEM. */
static int put_frame(struct scan_cfg *c, int k, const struct np_rec_frame *f)
{
	const unsigned anew = NP_REC_F_FIRST | NP_REC_F_GAP | NP_REC_F_RESTART | NP_REC_F_SCHEMA |
			      NP_REC_F_CONFIG;
	int r;

	if (f->flags & anew) {
		c->plan_names[0] = c->plan_names[1] = NULL;
	} else if (f->name && c->plan_names[k] == f->name && c->plan[k].n_frame == f->n) {
		np_snapcnt_patch(&c->plan[k], f->v);
		return 0;
	}
	c->plan_names[k] = NULL;
	c->refs_ok[k] = false;	/* applied: the tables are new */
	if (!f->name)	/* a run without names: nothing to plan */
		return np_snapcnt_apply(slot(c, k), f->name, f->v, f->n);
	r = np_snapcnt_plan(slot(c, k), &c->plan[k], f->name, f->v, f->n);
	if (r == 0) {
		const uint64_t *keep[NP_FUNNEL_NMIB + 1];

		/* Of the MIB and conntrack, the plan copies only what the funnel reads. */
		c->plan_names[k] = f->name;
		np_funnel_resolve(slot(c, k), &c->refs[k]);
		c->refs_ok[k] = true;
		memcpy(keep, c->refs[k].mib, sizeof(c->refs[k].mib));
		keep[NP_FUNNEL_NMIB] = c->refs[k].ct_drop;
		np_snapcnt_plan_narrow(&c->plan[k], slot(c, k), keep, NP_FUNNEL_NMIB + 1);
	}
	/* Not planned but applied (the plan's own check): the next frame tries again. */
	return r == -ENOMEM ? r : 0;
}

/* One second's rates: the funnel between the two snapshots, as doctor builds it. */
static void rates(struct scan_cfg *c, double dt, int64_t t, struct np_history_sec *out)
{
	static const struct np_options opt = { .interval = 1, .rtt_ms = NAN,
					       .bandwidth_bps = NAN };
	struct np_analysis a = {
		.prev = slot(c, !c->slot), .cur = slot(c, c->slot), .dt = dt, .opt = &opt,
		.bw_bps = NAN, .rtt_ms = NAN,
	};
	struct np_counter_view q;
	struct np_funnel f;

	out->t = t;
	for (int s = 0; s < NP_STAGE__COUNT; s++)
		out->drops[s] = NAN;
	for (int k = 0; k < 2; k++)
		if (!c->refs_ok[k]) {
			np_funnel_resolve(slot(c, k), &c->refs[k]);
			c->refs_ok[k] = true;
		}
	np_funnel_build_refs(&a, &c->refs[!c->slot], &c->refs[c->slot], &f);
	for (size_t i = 0; i < f.n; i++)
		if (f.rows[i].drop.present && f.rows[i].drop.sampled)
			out->drops[f.rows[i].stage] = (float)f.rows[i].drop.rate;
	/* Congestion has no funnel row: its drops are the egress qdiscs'. */
	q = np_qdisc_egress_drops(&a);
	if (q.present && q.sampled)
		out->drops[NP_STAGE_CONGESTION] = (float)q.rate;
}

/* Every frame of [since, until] into h->sec and h->gaps. */
static int scan(const struct history_args *a, int64_t since, int64_t until, struct np_history *h,
		struct np_status *st)
{
	struct np_rec_reader *r;
	struct np_rec_frame f;
	struct scan_cfg c = { 0 };
	struct np_reason_track rt = { 0 };
	int64_t last_wall = 0, last_mono = 0;
	bool have_last = false;
	char err[400];
	int got, ret = 0;

	if (np_rec_reader_open(a->root, &r, err, sizeof(err)) < 0)
		return np_fail(st, "%s", err);
	if (np_rec_reader_seek(r, since) < 0) {
		np_rec_reader_close(r);
		return np_fail(st, "%s: cannot read the recording", a->root);
	}
	while ((got = np_rec_reader_next(r, &f)) > 0 && f.wall_ns <= until) {
		bool cont = have_last && !(f.flags & (NP_REC_F_GAP | NP_REC_F_RESTART)) &&
			    f.mono_ns > last_mono;

		if (cfg_for(&c, &f, a->root, h->dev, st) < 0) {
			ret = -1;
			break;
		}
		if (put_frame(&c, c.slot, &f) < 0) {
			ret = np_fail(st, "out of memory");
			break;
		}
		if ((f.flags & NP_REC_F_STEP) && push_step(h, f.wall_ns, f.step_ns) < 0) {
			ret = np_fail(st, "out of memory");
			break;
		}
		if (!h->first)
			h->first = f.wall_ns;
		h->last = f.wall_ns;
		if (cont) {
			struct np_history_sec s;

			double dt = (double)(f.mono_ns - last_mono) / 1e9;

			/* The cadence: the shortest spacing seen (a late sample is longer). */
			if (!(h->interval > 0) || dt < h->interval)
				h->interval = dt;
			rates(&c, dt, f.wall_ns, &s);
			if (np_history_reasons(h, &rt, &f, true, dt, &s) < 0 || push_sec(h, &s) < 0) {
				ret = np_fail(st, "out of memory");
				break;
			}
		} else if (np_history_reasons(h, &rt, &f, false, 0, NULL) < 0 ||
			   (have_last && push_gap(h, last_wall, f.wall_ns) < 0)) {
			ret = np_fail(st, "out of memory");
			break;
		}
		c.slot = !c.slot;
		last_wall = f.wall_ns;
		last_mono = f.mono_ns;
		have_last = true;
	}
	if (got < 0 && !ret)
		ret = np_fail(st, "%s: cannot read the recording: %s", a->root, strerror(-got));
	np_reason_track_free(&rt);
	h->damaged = np_rec_reader_damaged(r);
	np_rec_reader_close(r);
	cfg_close(&c);
	return ret;
}

static double total(const struct np_history *h, const struct np_history_sec *s,
		    enum np_stage *worst)
{
	double sum = 0, top = -1;

	*worst = NP_STAGE_LINK;
	for (int st = 0; st < NP_STAGE__COUNT; st++) {
		if (!(h->stages & (1u << st)) || isnan(s->drops[st]))
			continue;
		sum += s->drops[st];
		if (s->drops[st] > top) {
			top = s->drops[st];
			*worst = (enum np_stage)st;
		}
	}
	return sum;
}

/* A second or minute while the worst are picked: what is kept of all of them (the worst
 * alone become np_history_worst, whose texts are long: 7 days of seconds would be 190 MB). */
struct cand {
	int64_t t;
	double rate, total_rate;
	const char *reason;
	enum np_stage stage;
};

static int by_total(const void *x, const void *y)
{
	const struct cand *a = x, *b = y;

	return a->total_rate < b->total_rate ? 1 : a->total_rate > b->total_rate ? -1 :
	       a->t < b->t ? -1 : a->t > b->t;
}

/* The n worst of cand[0..m) by total rate, sorted in place, into *out (malloc'd); returns
 * how many had drops at all, or -1 without memory. */
static ssize_t top_n(struct cand *cand, size_t m, size_t n, struct np_history_worst **out)
{
	size_t k = 0;

	qsort(cand, m, sizeof(*cand), by_total);
	while (k < m && k < n && cand[k].total_rate > 0)
		k++;
	*out = calloc(k ? k : 1, sizeof(**out));
	if (!*out)
		return -1;
	for (size_t i = 0; i < k; i++)
		(*out)[i] = (struct np_history_worst){
			.t = cand[i].t, .stage = cand[i].stage, .rate = cand[i].rate,
			.total_rate = cand[i].total_rate, .reason = cand[i].reason,
		};
	return (ssize_t)k;
}

/* Seconds, then minutes (the mean of the seconds recorded in each). */
static int pick_worst(struct np_history *h, size_t n)
{
	struct cand *sec = calloc(h->n ? h->n : 1, sizeof(*sec));
	struct cand *min = calloc(h->n ? h->n : 1, sizeof(*min));
	size_t nmin = 0, cnt = 0;
	double sum[NP_STAGE__COUNT] = { 0 };
	/* The minute's reason: that of its second with the most drops of one reason. */
	const char *min_reason = NULL;
	float min_reason_rate = 0;
	ssize_t k1, k2;

	if (!sec || !min) {
		free(sec);
		free(min);
		return -ENOMEM;
	}
	for (size_t i = 0; i < h->n; i++) {
		int64_t minute = h->sec[i].t / 60000000000 * 60000000000;

		sec[i].t = h->sec[i].t;
		sec[i].reason = h->sec[i].reason >= 0 ? h->reason[h->sec[i].reason] : NULL;
		if (sec[i].reason && (!min_reason || h->sec[i].reason_rate > min_reason_rate)) {
			min_reason = sec[i].reason;
			min_reason_rate = h->sec[i].reason_rate;
		}
		sec[i].total_rate = total(h, &h->sec[i], &sec[i].stage);
		sec[i].rate = h->sec[i].drops[sec[i].stage];
		if (isnan(sec[i].rate))
			sec[i].rate = 0;
		for (int st = 0; st < NP_STAGE__COUNT; st++)
			sum[st] += isnan(h->sec[i].drops[st]) ? 0 : h->sec[i].drops[st];
		cnt++;
		/* The minute ends at the last second in it. */
		if (i + 1 == h->n || h->sec[i + 1].t / 60000000000 * 60000000000 != minute) {
			struct np_history_sec mean = { .t = minute };
			struct cand *w = &min[nmin++];

			for (int st = 0; st < NP_STAGE__COUNT; st++)
				mean.drops[st] = (float)(sum[st] / (double)cnt);
			w->t = minute;
			w->reason = min_reason;
			min_reason = NULL;
			min_reason_rate = 0;
			w->total_rate = total(h, &mean, &w->stage);
			w->rate = mean.drops[w->stage];
			memset(sum, 0, sizeof(sum));
			cnt = 0;
		}
	}
	k1 = top_n(sec, h->n, n, &h->worst);
	k2 = top_n(min, nmin, n, &h->worst_min);
	free(sec);
	free(min);
	if (k1 < 0 || k2 < 0)
		return -ENOMEM;
	h->nworst = (size_t)k1;
	h->nworst_min = (size_t)k2;
	return 0;
}

/* What doctor --at would have said of the window: its worst finding, at w's stage first. The
 * configuration is replayed once for all the windows that share it (cache). */
static void judge(const struct history_args *a, struct np_history_worst *w, double span,
		  struct np_at_cfg *cache)
{
	struct np_dev_runs *dr = calloc(1, sizeof(*dr));
	struct np_status st = { 0 };
	const struct np_finding *best = NULL;
	struct doctor_tops t;
	struct doctor_args d;
	struct np_at at;

	if (!dr)
		return;
	memset(&d, 0, sizeof(d));
	d.root = a->root;
	d.opt.rtt_ms = d.opt.bandwidth_bps = NAN;
	/* A second's rate is over the interval that ends at it. */
	if (np_at_open_cfg(&at, cache, &d, (double)w->t / 1e9 - (span <= 1.5 ? span : 0), span,
			   dr, &t, &st) == 0) {
		if (np_runs_analyze(dr, at.dt, &d.opt, NULL, NULL, NULL) == 0) {
			const struct np_report *rep = &dr->run[0].rep;

			for (size_t i = 0; i < rep->n; i++) {
				const struct np_finding *f = &rep->f[i];

				if (f->severity < NP_SEV_WARNING)
					continue;
				if (!best || (f->check->stage == w->stage) >
					     (best->check->stage == w->stage) ||
				    ((f->check->stage == w->stage) ==
					     (best->check->stage == w->stage) &&
				     f->severity > best->severity))
					best = f;
			}
			if (best) {
				snprintf(w->check, sizeof(w->check), "%s", best->check->id);
				snprintf(w->summary, sizeof(w->summary), "%.*s", (int)sizeof(w->summary) - 1,
					 best->summary);
				w->severity = best->severity;
			}
		}
		np_at_close(&at);
	} else {
		/* As doctor --at: a window the recording does not cover whole is not judged. */
		snprintf(w->summary, sizeof(w->summary), "not judged: the recording does not "
			 "cover the whole %s (a gap, or the recorder started or stopped in it)",
			 span > 1.5 ? "minute" : "second");
	}
	np_runs_free(dr);
	free(dr);
}

int np_history_scan(const struct history_args *a, double since, double until,
		    struct np_history *h, struct np_status *st)
{
	int64_t s = isinf(since) ? INT64_MIN : (int64_t)(since * 1e9);
	int64_t u = isinf(until) ? INT64_MAX : (int64_t)(until * 1e9);
	struct np_at_cfg cache = { 0 };

	h->dir = a->root;
	h->since = s;
	h->until = u;
	if (scan(a, s, u, h, st) < 0)
		return -1;
	if (pick_worst(h, (size_t)a->worst) < 0)
		return np_fail(st, "out of memory");
	for (size_t i = 0; i < h->nworst; i++)
		judge(a, &h->worst[i], h->interval > 0 ? h->interval : 1, &cache);
	for (size_t i = 0; i < h->nworst_min; i++) {
		judge(a, &h->worst_min[i], 60, &cache);
		if (h->has_reasons)	/* record --drops: the minute's top flows (record_flows.h) */
			np_rec_flows_read(a->root, h->worst_min[i].t / 1000000000,
					  h->worst_min[i].t / 1000000000 + 60, &h->worst_min[i].flows);
	}
	np_at_cfg_close(&cache);
	return 0;
}
