// SPDX-License-Identifier: GPL-2.0-only
/* What checks call to report: findings, evidence, skips. */
#include "check.h"
#include "textcut.h"
#include "finding_store.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct np_finding *np_emit(struct np_report *r, enum np_severity sev, const char *fmt, ...)
{
	struct np_finding *f = np_report_slot(r);
	char buf[NP_SUMMARY_SIZE];
	const char *sum;
	va_list ap;

	if (!f) {
		r->oom = true;
		return NULL;
	}
	buf[0] = '\0';
	va_start(ap, fmt);
	np_textcut_vappend(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	sum = np_store_str(r->store, buf, strlen(buf));
	if (!sum) {
		r->oom = true;
		return NULL;
	}
	r->n++;
	f->check = r->cur ? r->cur->check : NULL;
	f->store = r->store;
	memcpy(f->dev, r->dev, sizeof(f->dev));
	f->severity = sev;
	f->rank = 0;
	f->summary = sum;
	f->detail = f->remedy = "";
	f->nev = 0;
	f->ev = NULL;
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

/* A slot for one more evidence, its key and unit stored: NULL when f has its 16, or out of
 * memory (which the store remembers: np_analyze() then fails the run). */
static struct np_evidence *ev_add(struct np_finding *f, const char *key, const char *unit)
{
	const char *k, *u = "";
	struct np_evidence *e;

	if (!f || f->nev >= NP_MAX_EVIDENCE)
		return NULL;
	k = np_store_str(f->store, key, strnlen(key, NP_EV_KEY_SIZE - 1));
	if (k && unit)
		u = np_store_str(f->store, unit, strnlen(unit, NP_EV_UNIT_SIZE - 1));
	if (!k || !u || !(e = np_store_ev(f)))
		return NULL;
	e->key = k;
	e->unit = u;
	e->text = "";
	e->value = e->delta = e->rate = 0;
	e->kind = NP_EV_VALUE;
	e->sampled = e->verbose = false;
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
	char buf[NP_EV_TEXT_SIZE];
	va_list ap;

	if (!e)
		return;
	e->kind = NP_EV_TEXT;
	buf[0] = '\0';
	va_start(ap, fmt);
	np_textcut_vappend(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	e->text = np_store_str(f->store, buf, strlen(buf));
	if (!e->text)
		e->text = "";	/* the store remembers the loss */
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

/* A finding's text edited as the fixed buffer it is cut to: a copy on the stack, stored back
 * (grown in place when it is the last text) only when it changed. */
struct text_edit {
	char buf[NP_REMEDY_SIZE];
	size_t len;		/* the text's length before the edit */
};

static char *edit_open(struct text_edit *t, const char *text)
{
	t->len = strnlen(text, sizeof(t->buf) - 1);
	memcpy(t->buf, text, t->len);
	t->buf[t->len] = '\0';
	return t->buf;
}

static void edit_close(struct text_edit *t, struct np_finding *f, const char **text)
{
	size_t len = strlen(t->buf);

	/* Only ever appended to: the first len bytes are the text's, unchanged. */
	if (len != t->len)
		np_store_text(f->store, text, t->buf, t->len, len);
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
	struct text_edit t;
	va_list ap;

	if (!f)
		return;
	va_start(ap, fmt);
	append(edit_open(&t, f->detail), NP_DETAIL_SIZE, fmt, ap);
	va_end(ap);
	edit_close(&t, f, &f->detail);
}

void np_remedy(struct np_finding *f, const char *fmt, ...)
{
	struct text_edit t;
	char *buf;
	size_t len;
	va_list ap;

	if (!f)
		return;
	/* Remedies are lines: one command or sentence each. */
	buf = edit_open(&t, f->remedy);
	len = t.len;
	if (len && len + 1 < NP_REMEDY_SIZE) {
		buf[len++] = '\n';
		buf[len] = '\0';
	}
	va_start(ap, fmt);
	np_textcut_vappend(buf, NP_REMEDY_SIZE, fmt, ap);
	va_end(ap);
	edit_close(&t, f, &f->remedy);
}

void np_summary_append(struct np_finding *f, const char *fmt, ...)
{
	struct text_edit t;
	char *buf;
	va_list ap;

	if (!f)
		return;
	buf = edit_open(&t, f->summary);
	if (t.len + 1 >= NP_SUMMARY_SIZE)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + t.len, NP_SUMMARY_SIZE - t.len, fmt, ap);
	va_end(ap);
	edit_close(&t, f, &f->summary);
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
