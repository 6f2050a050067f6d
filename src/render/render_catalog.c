// SPDX-License-Identifier: GPL-2.0-only
/* The check catalogue (`netpath checks`) and reference text (`netpath explain ID`). */
#include "conffile.h"
#include "json_writer.h"
#include "render.h"
#include "text_wrap.h"

#include <math.h>
#include <string.h>

/* "warning at 1, critical at 100 (drops/s)" */
static void thresholds_text(FILE *out, const struct np_check *c)
{
	if (isnan(c->warn) && isnan(c->crit)) {
		fputs("none (configuration check)", out);
		return;
	}
	if (!isnan(c->warn))
		fprintf(out, "warning at %g", c->warn);
	if (!isnan(c->crit))
		fprintf(out, "%scritical at %g", isnan(c->warn) ? "" : ", ", c->crit);
	if (c->thr_unit)
		fprintf(out, c->thr_unit[0] == '(' ? " %s" : " (%s)", c->thr_unit);
}

/* "warn=1<sep>crit=100": the levels as the config file and --threshold write them. */
static void levels_text(FILE *out, const struct np_check *c, const char *sep)
{
	if (!isnan(c->warn))
		fprintf(out, "warn=%g", c->warn);
	if (!isnan(c->crit))
		fprintf(out, "%scrit=%g", isnan(c->warn) ? "" : sep, c->crit);
}

/* ID and stage columns as wide as their longest entry; the title beside them, wrapped under
 * itself, or beneath the ID when that would leave it too little room. */
static void checks_text(FILE *out, int width)
{
	size_t n;
	const struct np_check *const *t = np_check_table(&n);
	int wid = (int)strlen("ID"), wst = (int)strlen("STAGE"), tcol;

	for (size_t i = 0; i < n; i++) {
		wid = (int)strlen(t[i]->id) > wid ? (int)strlen(t[i]->id) : wid;
		wst = (int)strlen(np_stage_name(t[i]->stage)) > wst ?
		      (int)strlen(np_stage_name(t[i]->stage)) : wst;
	}
	tcol = wid + 1 + wst + 1;
	if (width > 0 && width - tcol < 30)
		tcol = 4;	/* narrow: "ID STAGE", then the title on lines of its own */
	if (tcol == 4)
		fprintf(out, "%-*s %s\n    %s\n", wid, "ID", "STAGE", "TITLE / DEFAULT THRESHOLDS");
	else
		fprintf(out, "%-*s %-*s %s\n", wid, "ID", wst, "STAGE", "TITLE / DEFAULT THRESHOLDS");
	for (size_t i = 0; i < n; i++) {
		if (tcol == 4) {
			fprintf(out, "%-*s %s\n%*s", wid, t[i]->id, np_stage_name(t[i]->stage),
				tcol, "");
		} else {
			fprintf(out, "%-*s %-*s ", wid, t[i]->id, wst, np_stage_name(t[i]->stage));
		}
		np_wrap_prose(out, t[i]->title, tcol, tcol, width);
		if (isnan(t[i]->warn) && isnan(t[i]->crit))
			continue;
		fprintf(out, "%*s", tcol, "");
		thresholds_text(out, t[i]);
		fputc('\n', out);
	}
	fputs("\nChecks without thresholds judge configuration. Override a threshold with "
	      "--threshold ID:warn=N,crit=N or a 'threshold ID warn=N crit=N' line in "
	      NP_CONFIG_PATH "; details: netpath explain ID.\n", out);
}

void np_render_checks_text(FILE *out, int width)
{
	struct np_wrap_stream w;

	checks_text(np_wrap_open(&w, out, width), width);
	np_wrap_close(&w);
}

/* One check; with full, the whole reference text as one document (schema netpath/check, so a
 * script can tell it from the catalogue and from an error object). */
static void check_json(struct np_json *j, const struct np_check *c, bool full)
{
	np_json_obj_open(j);
	if (full) {
		np_json_kv_str(j, "schema", "netpath/check");
		np_json_kv_int(j, "version", NP_JSON_VERSION);
	}
	np_json_kv_str(j, "id", c->id);
	np_json_kv_str(j, "stage", np_stage_name(c->stage));
	np_json_kv_str(j, "title", c->title);
	np_json_key_obj_open(j, "thresholds");
	np_json_kv_double(j, "warning", c->warn);
	np_json_kv_double(j, "critical", c->crit);
	np_json_kv_str(j, "unit", c->thr_unit);
	np_json_obj_close(j);
	if (full) {
		np_json_kv_str(j, "looks_at", c->looks_at);
		np_json_kv_str(j, "why", c->why);
		np_json_kv_str(j, "fix", c->fix);
		np_json_kv_str(j, "related", c->related);
		np_json_kv_str(j, "kernel_notes", c->kernel_notes);
	}
	np_json_obj_close(j);
}

void np_render_checks_json(FILE *out)
{
	size_t n;
	const struct np_check *const *t = np_check_table(&n);
	struct np_json j;

	np_json_init(&j, out, true);
	np_json_obj_open(&j);
	np_json_key(&j, "schema");
	np_json_str(&j, "netpath/checks");
	np_json_key(&j, "version");
	np_json_int(&j, NP_JSON_VERSION);
	np_json_key(&j, "checks");
	np_json_arr_open(&j);
	for (size_t i = 0; i < n; i++)
		check_json(&j, t[i], false);
	np_json_arr_close(&j);
	np_json_obj_close(&j);
	np_json_end(&j);
}

void np_render_explain_json(FILE *out, const struct np_check *c)
{
	struct np_json j;

	np_json_init(&j, out, true);
	check_json(&j, c, true);
	np_json_end(&j);
}

/* A heading, then its text as a paragraph indented 4. */
static void para(FILE *out, const char *head, const char *text, int width)
{
	if (!text || !text[0])
		return;
	fprintf(out, "%s\n    ", head);
	np_wrap_prose(out, text, 4, 4, width);
	fputc('\n', out);
}

static void explain_text(FILE *out, const struct np_check *c, int width)
{
	fprintf(out, "%s — %s\nstage: %s\n\n", c->id, c->title, np_stage_name(c->stage));
	para(out, "WHAT IT LOOKS AT", c->looks_at, width);
	para(out, "WHY IT MATTERS (AND WHEN IT DOES NOT)", c->why, width);
	para(out, "FIX AND ITS COST", c->fix, width);
	para(out, "RELATED SETTINGS", c->related, width);
	para(out, "KERNEL VERSIONS", c->kernel_notes, width);
	fputs("THRESHOLDS\n    ", out);
	thresholds_text(out, c);
	fputs("\n", out);
	if (isnan(c->warn) && isnan(c->crit)) {
		fprintf(out, "    Nothing to override. To leave the check out: --skip %s, or a "
			"'skip %s' line in " NP_CONFIG_PATH ".\n", c->id, c->id);
		return;
	}
	fputs("    Override in " NP_CONFIG_PATH " (or the file given with --config; writable by "
	      "its owner only, root's when run as root):\n"
	      "        threshold ", out);
	fprintf(out, "%s ", c->id);
	levels_text(out, c, " ");
	fprintf(out, "\n    or for one run:\n        netpath doctor --threshold %s:", c->id);
	levels_text(out, c, ",");
	fputs("\n", out);
	if (!isnan(c->warn) && !isnan(c->crit))
		fputs("    Either level may be given alone; the other keeps its default.\n", out);
	fputs("    Values are plain numbers in the unit above; the command line wins over the "
	      "file.\n", out);
}

void np_render_explain_text(FILE *out, const struct np_check *c, int width)
{
	struct np_wrap_stream w;

	explain_text(np_wrap_open(&w, out, width), c, width);
	np_wrap_close(&w);
}
