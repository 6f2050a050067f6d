// SPDX-License-Identifier: GPL-2.0-only
/* The check catalogue (`netpath checks`) and reference text (`netpath explain ID`). */
#include "json_writer.h"
#include "render.h"

#include <math.h>

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
		fprintf(out, " %s", c->thr_unit);
}

void np_render_checks_text(FILE *out)
{
	size_t n;
	const struct np_check *const *t = np_check_table(&n);

	fprintf(out, "%-34s %-11s %s\n", "ID", "STAGE", "TITLE");
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%-34s %-11s %s\n", t[i]->id, np_stage_name(t[i]->stage), t[i]->title);
}

static void check_json(struct np_json *j, const struct np_check *c, bool full)
{
	np_json_obj_open(j);
	np_json_key(j, "id");
	np_json_str(j, c->id);
	np_json_key(j, "stage");
	np_json_str(j, np_stage_name(c->stage));
	np_json_key(j, "title");
	np_json_str(j, c->title);
	np_json_key(j, "thresholds");
	np_json_obj_open(j);
	np_json_key(j, "warning");
	np_json_double(j, c->warn);
	np_json_key(j, "critical");
	np_json_double(j, c->crit);
	np_json_key(j, "unit");
	np_json_str(j, c->thr_unit);
	np_json_obj_close(j);
	if (full) {
		np_json_key(j, "looks_at");
		np_json_str(j, c->looks_at);
		np_json_key(j, "why");
		np_json_str(j, c->why);
		np_json_key(j, "fix");
		np_json_str(j, c->fix);
		np_json_key(j, "related");
		np_json_str(j, c->related);
		np_json_key(j, "kernel_notes");
		np_json_str(j, c->kernel_notes);
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

static void para(FILE *out, const char *head, const char *text)
{
	if (!text || !text[0])
		return;
	fprintf(out, "%s\n    %s\n\n", head, text);
}

void np_render_explain_text(FILE *out, const struct np_check *c)
{
	fprintf(out, "%s — %s\nstage: %s\n\n", c->id, c->title, np_stage_name(c->stage));
	para(out, "WHAT IT LOOKS AT", c->looks_at);
	para(out, "WHY IT MATTERS (AND WHEN IT DOES NOT)", c->why);
	para(out, "FIX AND ITS COST", c->fix);
	para(out, "RELATED SETTINGS", c->related);
	para(out, "KERNEL VERSIONS", c->kernel_notes);
	fputs("THRESHOLDS\n    ", out);
	thresholds_text(out, c);
	fputs("\n", out);
}
