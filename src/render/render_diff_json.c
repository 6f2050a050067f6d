// SPDX-License-Identifier: GPL-2.0-only
/* `netpath diff --json`: schema netpath/diff (doc/netpath-diff.schema.json). */
#include "json_writer.h"
#include "render_diff.h"

static void str_or_null(struct np_json *j, const char *key, bool known, const char *s)
{
	np_json_key(j, key);
	if (known)
		np_json_str(j, s);
	else
		np_json_null(j);
}

static void side(struct np_json *j, const char *key, const char *source, double dt,
		 enum np_severity worst, bool unknown)
{
	np_json_key_obj_open(j, key);
	np_json_kv_str(j, "source", source);
	np_json_key(j, "interval_s");
	if (dt > 0)
		np_json_double(j, dt);
	else
		np_json_null(j);
	np_json_kv_str(j, "status", np_diff_status_name(worst, unknown));
	np_json_obj_close(j);
}

static void settings(struct np_json *j, const struct np_diff *d)
{
	np_json_kv_u64(j, "settings_compared", d->settings_compared);
	np_json_kv_u64(j, "host_settings_not_comparable", d->host_not_comparable);
	np_json_key_arr_open(j, "settings");
	for (size_t i = 0; i < d->nset; i++) {
		const struct np_diff_setting *s = &d->set[i];

		np_json_obj_open(j);
		np_json_kv_str(j, "stage", np_stage_name(s->stage));
		str_or_null(j, "interface", s->dev[0] != '\0', s->dev);
		np_json_kv_str(j, "setting", s->key);
		str_or_null(j, "before", s->old_known, s->old);
		str_or_null(j, "after", s->new_known, s->new);
		np_json_obj_close(j);
	}
	np_json_arr_close(j);
}

static void verdicts(struct np_json *j, const struct np_diff *d)
{
	np_json_kv_u64(j, "findings_unchanged", d->verdicts_same);
	np_json_key_arr_open(j, "findings");
	for (size_t i = 0; i < d->nver; i++) {
		const struct np_diff_verdict *v = &d->ver[i];

		np_json_obj_open(j);
		np_json_kv_str(j, "id", v->check->id);
		np_json_kv_str(j, "stage", np_stage_name(v->check->stage));
		str_or_null(j, "interface", v->dev[0] != '\0', v->dev);
		np_json_kv_str(j, "change", np_diff_change_name(v->change));
		/* null: no finding on that side (judged clean, or not judged: see *_judged). */
		str_or_null(j, "before", v->old_sev != NP_SEV_OK, np_severity_name(v->old_sev));
		str_or_null(j, "after", v->new_sev != NP_SEV_OK, np_severity_name(v->new_sev));
		np_json_kv_bool(j, "before_judged", v->old_judged);
		np_json_kv_bool(j, "after_judged", v->new_judged);
		np_json_kv_str(j, "summary", v->summary);
		np_json_obj_close(j);
	}
	np_json_arr_close(j);
}

static void coverage(struct np_json *j, const struct np_diff *d)
{
	np_json_key_arr_open(j, "coverage");
	for (size_t i = 0; i < d->ncov; i++) {
		const struct np_diff_cov *c = &d->cov[i];

		np_json_obj_open(j);
		np_json_kv_str(j, "stage", np_stage_name(c->stage));
		np_json_kv_str(j, "before", np_cov_status_name(c->old));
		np_json_kv_str(j, "after", np_cov_status_name(c->new));
		str_or_null(j, "reason", c->reason[0] != '\0', c->reason);
		np_json_obj_close(j);
	}
	np_json_arr_close(j);
}

static void rate(struct np_json *j, const char *key, const struct np_counter_view *c)
{
	np_json_key(j, key);
	if (c && c->present && c->sampled)
		np_json_double(j, c->rate);
	else
		np_json_null(j);
}

static void funnel_side(struct np_json *j, const char *key, const struct np_funnel *f, int st)
{
	const struct np_funnel_row *r = NULL;

	for (size_t i = 0; i < f->n && !r; i++)
		if ((int)f->rows[i].stage == st)
			r = &f->rows[i];
	np_json_key_obj_open(j, key);
	rate(j, "packets_per_second", r ? &r->in : NULL);
	rate(j, "drops_per_second", r ? &r->drop : NULL);
	np_json_obj_close(j);
}

static bool has_row(const struct np_funnel *f, int st)
{
	for (size_t i = 0; i < f->n; i++)
		if ((int)f->rows[i].stage == st)
			return true;
	return false;
}

static void funnels(struct np_json *j, const struct np_diff *d)
{
	np_json_key(j, "funnel");
	if (!d->has_funnel) {
		np_json_null(j);
		return;
	}
	np_json_arr_open(j);
	for (int st = 0; st < NP_STAGE__COUNT; st++) {
		if (!has_row(&d->funnel_old, st) && !has_row(&d->funnel_new, st))
			continue;
		np_json_obj_open(j);
		np_json_kv_str(j, "stage", np_stage_name((enum np_stage)st));
		funnel_side(j, "before", &d->funnel_old, st);
		funnel_side(j, "after", &d->funnel_new, st);
		np_json_obj_close(j);
	}
	np_json_arr_close(j);
}

void np_render_diff_json(FILE *out, const struct np_diff_view *v)
{
	const struct np_diff *d = v->d;
	struct np_json j;

	np_json_init(&j, out, true);
	np_json_obj_open(&j);
	np_json_key(&j, "schema");
	np_json_str(&j, NP_DIFF_JSON_SCHEMA);
	np_json_key(&j, "version");
	np_json_int(&j, NP_DIFF_JSON_VERSION);
	np_json_key(&j, "interface");
	np_json_str(&j, v->ifname);
	/* The verdict of AFTER: what the exit code says. */
	np_json_key(&j, "status");
	np_json_str(&j, np_diff_status_name(d->new_worst, d->new_unknown));
	np_json_key(&j, "exit_code");
	np_json_int(&j, v->exit_code);
	np_json_key(&j, "changed");
	np_json_bool(&j, !np_diff_empty(d));
	side(&j, "before", v->before, v->before_dt, d->old_worst, d->old_unknown);
	side(&j, "after", v->after, v->after_dt, d->new_worst, d->new_unknown);
	if (v->nchanges) {
		np_json_key_arr_open(&j, "config_changes");
		for (size_t i = 0; i < v->nchanges; i++)
			np_json_fixed(&j, (double)v->changes[i] / 1e9, 3);
		np_json_arr_close(&j);
	}
	settings(&j, d);
	verdicts(&j, d);
	coverage(&j, d);
	funnels(&j, d);
	np_json_obj_close(&j);
	np_json_end(&j);
}
