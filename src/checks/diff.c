// SPDX-License-Identifier: GPL-2.0-only
/* netpath diff: verdicts and coverage of two sides, and their funnels side by side. */
#include "diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *np_diff_change_name(enum np_diff_change c)
{
	switch (c) {
	case NP_DIFF_RESOLVED: return "resolved";
	case NP_DIFF_NEW: return "new";
	case NP_DIFF_WORSE: return "worse";
	case NP_DIFF_BETTER: return "better";
	case NP_DIFF_UNJUDGED: return "not_judged";
	case NP_DIFF_SAME: return "unchanged";
	}
	return "?";
}

/* The worst finding of check c on device dev in r: NULL when there is none (a finding of
 * severity ok is no finding). */
static const struct np_finding *worst_of(const struct np_report *r, const struct np_check *c,
					 const char *dev)
{
	const struct np_finding *w = NULL;

	for (size_t i = 0; i < r->n; i++) {
		const struct np_finding *f = &r->f[i];

		if (f->check != c || strcmp(f->dev, dev) || f->severity == NP_SEV_OK)
			continue;
		if (!w || f->severity > w->severity)
			w = f;
	}
	return w;
}

/* Did c run on its evidence on this side (on some device: the results are merged)? */
static bool judged(const struct np_report *r, const struct np_check *c)
{
	int idx = np_check_index(c);

	if (idx < 0 || (size_t)idx >= r->nres)
		return false;
	return r->res[idx].state == NP_CHECK_PASSED || r->res[idx].state == NP_CHECK_FLAGGED;
}

/*
 * Did the finding rest on a sysctl that side s did not read? Its evidence names the value it
 * judged ("net.ipv4.tcp_max_orphans", "netdev_max_backlog", "netdev_budget_assumed"). A check
 * that falls back to the kernel default when the value is missing (a child namespace hides the
 * host-wide ones) passes there without having judged the setting it flagged.
 */
static bool rests_on_unread(const struct np_finding *f, const struct np_snapshot *s)
{
	for (size_t i = 0; s && i < f->nev; i++) {
		for (int id = 0; id < NP_SYSCTL__COUNT; id++) {
			const char *key = np_sysctl_def((enum np_sysctl_id)id)->key;
			const char *last = strrchr(key, '.') + 1;
			const char *ek = f->ev[i].key;
			size_t n = strlen(last);
			const struct np_sysctl *e;

			if (strcmp(ek, key) && strncmp(ek, last, n))
				continue;
			if (strcmp(ek, key) && ek[n] && strcmp(ek + n, "_assumed"))
				continue;
			e = np_sysctl_find(s, (enum np_sysctl_id)id);
			if (!e || e->err)
				return true;
		}
	}
	return false;
}

static int add_verdict(struct np_diff *d, const struct np_check *c, const char *dev,
		       const struct np_finding *fb, const struct np_finding *fa, bool jb, bool ja)
{
	struct np_diff_verdict *v;
	enum np_diff_change ch;

	if (fb && fa)
		ch = fa->severity > fb->severity ? NP_DIFF_WORSE :
		     fa->severity < fb->severity ? NP_DIFF_BETTER : NP_DIFF_SAME;
	else if (fa)
		ch = NP_DIFF_NEW;
	else
		ch = ja ? NP_DIFF_RESOLVED : NP_DIFF_UNJUDGED;
	if (ch == NP_DIFF_SAME) {
		d->verdicts_same++;
		return 0;
	}
	if (d->nver == d->capver) {
		size_t cap = d->capver ? 2 * d->capver : 16;

		v = realloc(d->ver, cap * sizeof(*v));
		if (!v)
			return -1;
		d->ver = v;
		d->capver = cap;
	}
	v = &d->ver[d->nver++];
	memset(v, 0, sizeof(*v));
	v->check = c;
	snprintf(v->dev, sizeof(v->dev), "%s", dev);
	v->change = ch;
	v->old_sev = fb ? fb->severity : NP_SEV_OK;
	v->new_sev = fa ? fa->severity : NP_SEV_OK;
	v->old_judged = jb;
	v->new_judged = ja;
	snprintf(v->summary, sizeof(v->summary), "%s", fa ? fa->summary : fb->summary);
	return 0;
}

/* Is (c, dev) the first finding of r with that pair? (Each pair is compared once.) */
static bool first_of_pair(const struct np_report *r, size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (r->f[k].check == r->f[i].check && strcmp(r->f[k].dev, r->f[i].dev) == 0 &&
		    r->f[k].severity != NP_SEV_OK)
			return false;
	return r->f[i].severity != NP_SEV_OK;
}

static int cmp_verdict(const void *x, const void *y)
{
	const struct np_diff_verdict *p = x, *q = y;
	int ip = np_check_index(p->check), iq = np_check_index(q->check);

	if (p->check->stage != q->check->stage)
		return p->check->stage < q->check->stage ? -1 : 1;
	if (p->change != q->change)
		return p->change < q->change ? -1 : 1;
	if (ip != iq)
		return ip < iq ? -1 : 1;
	return strcmp(p->dev, q->dev);
}

static int verdicts(const struct np_diff_side *b, const struct np_diff_side *a, struct np_diff *d)
{
	const struct np_snapshot *as = a->nsnap ? a->snap[0] : NULL;

	for (size_t i = 0; i < a->rep->n; i++) {
		const struct np_finding *f = &a->rep->f[i];

		if (!first_of_pair(a->rep, i))
			continue;
		if (add_verdict(d, f->check, f->dev, worst_of(b->rep, f->check, f->dev),
				worst_of(a->rep, f->check, f->dev), judged(b->rep, f->check),
				judged(a->rep, f->check)) < 0)
			return -1;
	}
	for (size_t i = 0; i < b->rep->n; i++) {
		const struct np_finding *f = &b->rep->f[i];

		if (!first_of_pair(b->rep, i) || worst_of(a->rep, f->check, f->dev))
			continue;
		/* Gone after only counts as resolved when after judged what it rested on. */
		if (add_verdict(d, f->check, f->dev, worst_of(b->rep, f->check, f->dev), NULL,
				judged(b->rep, f->check),
				judged(a->rep, f->check) && !rests_on_unread(f, as)) < 0)
			return -1;
	}
	/* Every key (stage, change, table index, device) is unique: qsort's order is total. */
	if (d->nver)	/* qsort(NULL, 0, ...) is undefined (UBSan) */
		qsort(d->ver, d->nver, sizeof(*d->ver), cmp_verdict);
	return 0;
}

static void coverage(const struct np_coverage *b, const struct np_coverage *a, struct np_diff *d)
{
	for (int st = 0; st < NP_STAGE__COUNT; st++) {
		const struct np_stage_cov *o = &b->st[st], *n = &a->st[st];
		struct np_diff_cov *c;

		if (o->status == n->status)
			continue;
		c = &d->cov[d->ncov++];
		c->stage = (enum np_stage)st;
		c->old = o->status;
		c->new = n->status;
		/* The reason of the side judged less: after's when it lost ground, else before's. */
		snprintf(c->reason, sizeof(c->reason), "%s",
			 n->status == NP_COV_NOT_JUDGED || n->status == NP_COV_PARTIAL ? n->reason :
			 o->reason);
	}
}

int np_diff_build(const struct np_diff_side *before, const struct np_diff_side *after,
		  struct np_diff *d)
{
	memset(d, 0, sizeof(*d));
	if (np_diff_settings(before, after, d) < 0 || verdicts(before, after, d) < 0) {
		np_diff_free(d);
		return -1;
	}
	coverage(before->cov, after->cov, d);
	/* Rates need an interval on both sides; since-boot totals side by side would compare
	 * uptimes, not the path. */
	if (before->a && after->a && before->a->prev && after->a->prev && before->a->dt > 0 &&
	    after->a->dt > 0) {
		d->has_funnel = true;
		np_funnel_build(before->a, &d->funnel_old);
		np_funnel_build(after->a, &d->funnel_new);
	}
	d->old_worst = np_report_worst(before->rep);
	d->new_worst = np_report_worst(after->rep);
	d->old_unknown = np_coverage_unknown(before->cov);
	d->new_unknown = np_coverage_unknown(after->cov);
	return 0;
}

void np_diff_free(struct np_diff *d)
{
	free(d->set);
	free(d->ver);
	memset(d, 0, sizeof(*d));
}

bool np_diff_empty(const struct np_diff *d)
{
	return !d->nset && !d->nver && !d->ncov;
}
