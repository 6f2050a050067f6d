// SPDX-License-Identifier: GPL-2.0-only
/* `netpath diff` as text: settings old -> new, verdicts, coverage and funnels, stage by stage. */
#include "render_diff.h"
#include "when.h"
#include "text_wrap.h"

#include <math.h>
#include <string.h>

#define C_RESET "\033[0m"
#define C_BOLD "\033[1m"

const char *np_diff_status_name(enum np_severity worst, bool unknown)
{
	return unknown ? "unknown" : np_severity_name(worst);
}

static void upper(char *dst, size_t size, const char *s)
{
	size_t i = 0;

	for (; s[i] && i + 1 < size; i++)
		dst[i] = (char)(s[i] >= 'a' && s[i] <= 'z' ? s[i] - 32 : s[i]);
	dst[i] = '\0';
}

static void heading(FILE *out, const struct np_render_opts *o, const char *fmt, const char *a)
{
	fputs(o->color ? C_BOLD : "", out);
	fprintf(out, fmt, a);
	fputs(o->color ? C_RESET : "", out);
	fputc('\n', out);
}

static const char *change_color(enum np_diff_change c)
{
	switch (c) {
	case NP_DIFF_RESOLVED:
	case NP_DIFF_BETTER: return "\033[32m";
	case NP_DIFF_NEW:
	case NP_DIFF_WORSE: return "\033[1;31m";
	case NP_DIFF_UNJUDGED:
	case NP_DIFF_SAME: return "\033[33m";
	}
	return "";
}

/* Rows about a device other than the interface compared (one beneath it) name it, as the
 * doctor report does. */
static bool other_dev(const char *dev, const char *ifname)
{
	return dev[0] && strcmp(dev, ifname) != 0;
}

static void settings(FILE *out, const struct np_diff *d, const char *ifname,
		     const struct np_render_opts *o)
{
	int wkey = 7, wold = 6;
	char head[96];
	bool narrow;

	snprintf(head, sizeof(head), "%zu changed of %u compared", d->nset, d->settings_compared);
	heading(out, o, "Settings (%s)", head);
	if (d->host_not_comparable)
		fprintf(out, "  %u host-wide settings not comparable: one side was read inside a "
			"network namespace that does not show them (diff --live --netns NS, run "
			"from the host, reads the host's)\n", d->host_not_comparable);
	if (!d->nset) {
		fputs("  no setting changed\n\n", out);
		return;
	}
	for (size_t i = 0; i < d->nset; i++) {
		const struct np_diff_setting *s = &d->set[i];
		int k = (int)strlen(s->key) + (other_dev(s->dev, ifname) ? (int)strlen(s->dev) + 3 : 0);
		int w = s->old_known ? (int)strlen(s->old) : 7;

		wkey = k > wkey ? k : wkey;
		wold = w > wold ? w : wold;
	}
	/* Too narrow for "before -> after" beside the setting: on a line of their own, below. */
	narrow = o->width > 0 && 2 + 12 + wkey + 1 + wold + 3 + 12 > o->width;
	if (narrow)
		fprintf(out, "  %-11s %s\n  %-11s   %s \u2192 %s\n", "stage", "setting", "", "before",
			"after");
	else
		fprintf(out, "  %-11s %-*s %-*s   %s\n", "stage", wkey, "setting", wold, "before",
			"after");
	for (size_t i = 0; i < d->nset; i++) {
		const struct np_diff_setting *s = &d->set[i];
		const char *old = s->old_known ? s->old : "unknown";
		const char *new = s->new_known ? s->new : "unknown";
		char key[128];

		if (other_dev(s->dev, ifname))
			snprintf(key, sizeof(key), "[%s] %s", s->dev, s->key);
		else
			snprintf(key, sizeof(key), "%s", s->key);
		if (narrow)
			fprintf(out, "  %-11s %s\n  %-11s   %s \u2192 %s\n", np_stage_name(s->stage),
				key, "", old, new);
		else
			fprintf(out, "  %-11s %-*s %-*s \u2192 %s\n", np_stage_name(s->stage), wkey,
				key, wold, old, new);
	}
	fputc('\n', out);
}

static const char *sev_or_none(char *buf, size_t size, enum np_severity sev, bool judged)
{
	if (sev != NP_SEV_OK)
		upper(buf, size, np_severity_name(sev));
	else
		snprintf(buf, size, "%s", judged ? "none" : "not judged");
	return buf;
}

static void verdicts(FILE *out, const struct np_diff *d, const char *ifname,
		     const struct np_render_opts *o)
{
	char head[96];
	int ind = 2 + 12 + 11 + 24;

	if (o->width > 0 && o->width - ind < 30)
		ind = 6;
	snprintf(head, sizeof(head), "%zu changed, %u unchanged", d->nver, d->verdicts_same);
	heading(out, o, "Findings (%s)", head);
	if (!d->nver)
		fputs("  no finding changed\n", out);
	for (size_t i = 0; i < d->nver; i++) {
		const struct np_diff_verdict *v = &d->ver[i];
		char oldb[16], newb[16], sevs[40], dev[24] = "";

		snprintf(sevs, sizeof(sevs), "%s \u2192 %s",
			 sev_or_none(oldb, sizeof(oldb), v->old_sev, v->old_judged),
			 sev_or_none(newb, sizeof(newb), v->new_sev, v->new_judged));
		if (other_dev(v->dev, ifname))
			snprintf(dev, sizeof(dev), "[%s] ", v->dev);
		fprintf(out, "  %-11s %s%-10s%s %-23s %s%s\n", np_stage_name(v->check->stage),
			o->color ? change_color(v->change) : "", np_diff_change_name(v->change),
			o->color ? C_RESET : "", sevs, dev, v->check->id);
		/* The summary under the check's id, or nearer the left when that leaves it too
		 * little room. */
		fprintf(out, "%*s", ind, "");
		np_wrap_prose(out, v->summary, ind, ind, o->width);
	}
	fputc('\n', out);
}

/* "not_judged" (the JSON name) as text: "not judged". */
static const char *words(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s", name);
	for (char *p = buf; *p; p++)
		if (*p == '_')
			*p = ' ';
	return buf;
}

static void coverage(FILE *out, const struct np_diff *d, const struct np_render_opts *o)
{
	if (!d->ncov)
		return;
	heading(out, o, "%s", "Stages judged");
	for (size_t i = 0; i < d->ncov; i++) {
		const struct np_diff_cov *c = &d->cov[i];
		char t[64], ob[24], nb[24];

		snprintf(t, sizeof(t), "%s \u2192 %s", words(ob, sizeof(ob), np_cov_status_name(c->old)),
			 words(nb, sizeof(nb), np_cov_status_name(c->new)));
		fprintf(out, "  %-11s %-33s %s\n", np_stage_name(c->stage), t, c->reason);
	}
	fputc('\n', out);
}

static const struct np_funnel_row *row_of(const struct np_funnel *f, int st)
{
	for (size_t i = 0; i < f->n; i++)
		if ((int)f->rows[i].stage == st)
			return &f->rows[i];
	return NULL;
}

static const char *rate(char *buf, size_t size, const struct np_funnel_row *r, bool drop)
{
	const struct np_counter_view *c = r ? (drop ? &r->drop : &r->in) : NULL;

	if (!c || !c->present || !c->sampled)
		return "-";
	np_fmt_count(c->rate, buf, size);
	return buf;
}

static void funnels(FILE *out, const struct np_diff *d, const struct np_render_opts *o)
{
	if (!d->has_funnel)
		return;
	heading(out, o, "%s", "Packet funnel (per second over each side's sample)");
	fprintf(out, "  %-11s %15s %15s %15s %15s\n", "stage", "packets before", "after",
		"drops before", "after");
	for (int st = 0; st < NP_STAGE__COUNT; st++) {
		const struct np_funnel_row *b = row_of(&d->funnel_old, st);
		const struct np_funnel_row *a = row_of(&d->funnel_new, st);
		char x[4][40];

		if (!b && !a)
			continue;
		fprintf(out, "  %-11s %15s %15s %15s %15s\n", np_stage_name((enum np_stage)st),
			rate(x[0], sizeof(x[0]), b, false), rate(x[1], sizeof(x[1]), a, false),
			rate(x[2], sizeof(x[2]), b, true), rate(x[3], sizeof(x[3]), a, true));
	}
	fputc('\n', out);
}

static void diff_text(FILE *out, const struct np_diff_view *v, const struct np_render_opts *o)
{
	const struct np_diff *d = v->d;
	char ob[16], nb[16];

	fprintf(out, "%snetpath diff %s%s\n", o->color ? C_BOLD : "", v->ifname,
		o->color ? C_RESET : "");
	fprintf(out, "  before: %s%s\n", v->before, v->before_dt > 0 ? " (sampled)" : "");
	fprintf(out, "  after:  %s%s\n", v->after, v->after_dt > 0 ? " (sampled)" : "");
	for (size_t i = 0; i < v->nchanges; i++) {
		char at[40];

		np_when_format((double)v->changes[i] / 1e9, at, sizeof(at));
		fprintf(out, "%s%s", i ? ", " : "  configuration changed at: ", at);
		if (i + 1 == v->nchanges)
			fputc('\n', out);
	}
	upper(ob, sizeof(ob), np_diff_status_name(d->old_worst, d->old_unknown));
	upper(nb, sizeof(nb), np_diff_status_name(d->new_worst, d->new_unknown));
	fprintf(out, "  verdict: %s \u2192 %s\n\n", ob, nb);
	settings(out, d, v->ifname, o);
	verdicts(out, d, v->ifname, o);
	coverage(out, d, o);
	funnels(out, d, o);
	if (np_diff_empty(d))
		fputs("No change between the two sides.\n", out);
}

void np_render_diff_text(FILE *out, const struct np_diff_view *v, const struct np_render_opts *o)
{
	struct np_wrap_stream w;

	diff_text(np_wrap_open(&w, out, o->width), v, o);
	np_wrap_close(&w);
}
