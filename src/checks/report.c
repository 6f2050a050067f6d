// SPDX-License-Identifier: GPL-2.0-only
/* What checks call to report: findings, evidence, skips. */
#include "check.h"
#include "textcut.h"
#include "strcopy.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct np_finding *np_emit(struct np_report *r, enum np_severity sev, const char *fmt, ...)
{
	struct np_finding *f;
	va_list ap;

	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 32;
		struct np_finding *nf = realloc(r->f, cap * sizeof(*nf));

		if (!nf)
			return NULL;
		r->f = nf;
		r->cap = cap;
	}
	f = &r->f[r->n++];
	/* A finding is 6 KB, most of it evidence slots (ev_add() clears each as it is used) and
	 * text buffers filled by appending: clearing only what is read as is keeps a finding's
	 * untouched pages untouched (a page fault each on a fresh allocation). */
	memset(f, 0, offsetof(struct np_finding, detail));
	f->detail[0] = f->remedy[0] = '\0';
	f->nev = 0;
	f->check = r->cur ? r->cur->check : NULL;
	f->severity = sev;
	memcpy(f->dev, r->dev, sizeof(f->dev));
	f->summary[0] = '\0';
	va_start(ap, fmt);
	np_textcut_vappend(f->summary, sizeof(f->summary), fmt, ap);
	va_end(ap);
	if (r->cur) {
		r->cur->state = NP_CHECK_FLAGGED;
		if (sev > r->cur->worst)
			r->cur->worst = sev;
	}
	return f;
}

void np_skip(struct np_report *r, const char *fmt, ...)
{
	va_list ap;

	if (!r->cur)
		return;
	r->cur->state = NP_CHECK_SKIPPED;
	r->cur->skip_reason[0] = '\0';
	va_start(ap, fmt);
	np_textcut_vappend(r->cur->skip_reason, sizeof(r->cur->skip_reason), fmt, ap);
	va_end(ap);
}

void np_not_applicable(struct np_report *r, const char *fmt, ...)
{
	va_list ap;

	if (!r->cur)
		return;
	r->cur->state = NP_CHECK_SKIPPED;
	r->cur->not_applicable = true;
	r->cur->skip_reason[0] = '\0';
	va_start(ap, fmt);
	np_textcut_vappend(r->cur->skip_reason, sizeof(r->cur->skip_reason), fmt, ap);
	va_end(ap);
}

static struct np_evidence *ev_add(struct np_finding *f, const char *key, const char *unit)
{
	struct np_evidence *e;

	if (!f || f->nev >= NP_MAX_EVIDENCE)
		return NULL;
	e = &f->ev[f->nev++];
	memset(e, 0, sizeof(*e));
	np_strcopy(e->key, sizeof(e->key), key);
	np_strcopy(e->unit, sizeof(e->unit), unit ? unit : "");
	return e;
}

void np_ev_value(struct np_finding *f, const char *key, const char *unit, double value)
{
	struct np_evidence *e = ev_add(f, key, unit);

	if (!e)
		return;
	e->kind = NP_EV_VALUE;
	e->value = value;
}

void np_ev_text(struct np_finding *f, const char *key, const char *fmt, ...)
{
	struct np_evidence *e = ev_add(f, key, NULL);
	va_list ap;

	if (!e)
		return;
	e->kind = NP_EV_TEXT;
	va_start(ap, fmt);
	np_textcut_vappend(e->text, sizeof(e->text), fmt, ap);
	va_end(ap);
}

void np_ev_counter(struct np_finding *f, const char *key, const char *unit,
		   const struct np_counter_view *v)
{
	struct np_evidence *e = ev_add(f, key, unit);

	if (!e)
		return;
	e->kind = NP_EV_COUNTER;
	e->value = (double)v->total;
	e->delta = (double)v->delta;
	e->rate = v->rate;
	e->sampled = v->sampled;
}

void np_ev_verbose(struct np_finding *f)
{
	if (f && f->nev)
		f->ev[f->nev - 1].verbose = true;
}

static void append(char *buf, size_t size, const char *fmt, va_list ap)
{
	size_t len = strlen(buf);

	if (len + 2 >= size) {
		np_textcut_lost();	/* full: the sentence is lost, counted as a cut */
		return;
	}
	if (len) {
		buf[len++] = ' ';
		buf[len] = '\0';
	}
	np_textcut_vappend(buf, size, fmt, ap);
}

void np_detail(struct np_finding *f, const char *fmt, ...)
{
	va_list ap;

	if (!f)
		return;
	va_start(ap, fmt);
	append(f->detail, sizeof(f->detail), fmt, ap);
	va_end(ap);
}

void np_remedy(struct np_finding *f, const char *fmt, ...)
{
	size_t len;
	va_list ap;

	if (!f)
		return;
	/* Remedies are lines: one command or sentence each. */
	len = strlen(f->remedy);
	if (len && len + 1 < sizeof(f->remedy)) {
		f->remedy[len++] = '\n';
		f->remedy[len] = '\0';
	}
	va_start(ap, fmt);
	np_textcut_vappend(f->remedy, sizeof(f->remedy), fmt, ap);
	va_end(ap);
}

double np_check_warn(const struct np_check *c, const struct np_overrides *o)
{
	int i = o ? np_check_index(c) : -1;

	return i >= 0 && o->t[i].has_warn ? o->t[i].warn : c->warn;
}

double np_check_crit(const struct np_check *c, const struct np_overrides *o)
{
	int i = o ? np_check_index(c) : -1;

	return i >= 0 && o->t[i].has_crit ? o->t[i].crit : c->crit;
}

/* The engine stores the effective thresholds in each result before the check runs. */
double np_thr_warn(const struct np_report *r)
{
	return r->cur ? r->cur->warn : NAN;
}

double np_thr_crit(const struct np_report *r)
{
	return r->cur ? r->cur->crit : NAN;
}
