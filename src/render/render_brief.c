// SPDX-License-Identifier: GPL-2.0-only
/*
 * doctor --brief: one line per stage, as `ip -br` gives one per device, for a quick look and
 * for pasting into a chat or a ticket: the stage, its verdict, the device the worst finding is
 * about, and that finding's summary (its numbers). A stage without evidence says UNKNOWN and
 * why, never OK: a short form must not be more confident than the long one.
 */
#include "render.h"

#include <string.h>

/* Every line fits a 100-column paste; the summary is cut (at a space where it can) to fit. */
#define BRIEF_WIDTH 100
#define STAGE_COL 10
#define VERDICT_COL 8
#define DEV_COL 9

/* The finding of the stage that decides its verdict: the worst, then the most drops. */
static const struct np_finding *worst_of(const struct np_report *r, enum np_stage st,
					 size_t *n)
{
	const struct np_finding *w = NULL;

	*n = 0;
	for (size_t i = 0; i < r->n; i++) {
		const struct np_finding *f = &r->f[i];

		if (f->check->stage != st || f->severity < NP_SEV_INFO)
			continue;
		(*n)++;
		if (!w || f->severity > w->severity ||
		    (f->severity == w->severity && f->rank > w->rank))
			w = f;
	}
	return w;
}

/* s on one line within max bytes: control bytes become blanks; a longer text is cut, at a
 * space if that keeps most of it, never inside a UTF-8 character, and ends in "...". */
static void fit(const char *s, char *out, size_t max)
{
	size_t o = 0, len = strlen(s), cut;

	for (; *s && o < max; s++)
		out[o++] = (unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s;
	out[o] = '\0';
	if (len <= max)
		return;
	cut = max > 3 ? max - 3 : 0;
	o = cut;
	while (o > cut / 2 && out[o] != ' ')
		o--;
	if (o <= cut / 2)
		o = cut;
	while (o && ((unsigned char)out[o] & 0xc0) == 0x80)
		o--;
	while (o && out[o - 1] == ' ')
		o--;
	strcpy(out + o, "...");
}

static const char *verdict_word(enum np_severity sev)
{
	static const char *const w[] = { "OK", "INFO", "WARNING", "CRITICAL" };

	return sev <= NP_SEV_CRITICAL ? w[sev] : "?";
}

void np_render_doctor_brief(FILE *out, const struct np_doctor_view *v)
{
	for (int st = 0; st < NP_STAGE__COUNT; st++) {
		const struct np_stage_cov *sc = &v->cov->st[st];
		const char *verdict, *dev = "-";
		const struct np_finding *f = NULL;
		char text[BRIEF_WIDTH + 1], what[sizeof(sc->reason) + 400], more[32];
		size_t n = 0, room;
		int head;

		if (sc->status == NP_COV_NOT_JUDGED) {
			verdict = "UNKNOWN";
			snprintf(what, sizeof(what), "not judged: %s", sc->reason);
		} else if (sc->status == NP_COV_NOT_APPLICABLE) {
			verdict = "-";
			snprintf(what, sizeof(what), "does not apply here");
		} else if ((f = worst_of(v->r, (enum np_stage)st, &n))) {
			verdict = verdict_word(f->severity);
			if (np_finding_names_device(f, v->a->cur->ifname))
				dev = f->dev;
			snprintf(more, sizeof(more), " (+%zu more)", n - 1);
			/* Said first, where no cut can take it away. */
			snprintf(what, sizeof(what), "%s%s%s",
				 sc->status == NP_COV_PARTIAL ? "(partly judged) " : "", f->summary,
				 n > 1 ? more : "");
		} else if (sc->status == NP_COV_PARTIAL) {
			/* Nothing found in what could be read: not an OK for the whole stage. */
			verdict = "PARTIAL";
			snprintf(what, sizeof(what), "no finding, partly judged: %s", sc->reason);
		} else {
			verdict = "OK";
			snprintf(what, sizeof(what), "no finding (%u checks)", sc->ran);
		}
		head = fprintf(out, "%-*s %-*s %-*s ", STAGE_COL, np_stage_name((enum np_stage)st),
			       VERDICT_COL, verdict, DEV_COL, dev);
		room = head > 0 && head < BRIEF_WIDTH ? (size_t)(BRIEF_WIDTH - head) : 0;
		fit(what, text, room);
		fprintf(out, "%s\n", text);
	}
}
