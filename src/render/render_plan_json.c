// SPDX-License-Identifier: GPL-2.0-only
/* `netpath plan --json`: schema netpath/plan (doc/netpath-plan.schema.json). */
#include "json_writer.h"
#include "render_plan.h"

static void str_or_null(struct np_json *j, const char *key, const char *s)
{
	np_json_key(j, key);
	if (s && s[0])
		np_json_str(j, s);
	else
		np_json_null(j);
}

static void ids(struct np_json *j, const char *key, const char *const *v, size_t n)
{
	np_json_key_arr_open(j, key);
	for (size_t i = 0; i < n; i++)
		np_json_str(j, v[i]);
	np_json_arr_close(j);
}

static void line(struct np_json *j, const struct np_plan_line *l)
{
	size_t n = 0;

	while (n < NP_PLAN_CHECKS && l->checks[n])
		n++;
	np_json_obj_open(j);
	np_json_kv_str(j, "kind", np_plan_kind_name(l->kind));
	np_json_kv_str(j, "stage", np_stage_name(l->stage));
	np_json_kv_str(j, "key", l->key);
	str_or_null(j, "device", l->kind == NP_PLAN_LINK || l->kind == NP_PLAN_QDISC ||
				 l->kind == NP_PLAN_NOTE ? l->dev : NULL);
	str_or_null(j, "current", l->current);
	str_or_null(j, "planned", l->planned);
	str_or_null(j, "command", l->command);
	np_json_kv_str(j, "why", l->why);
	str_or_null(j, "does_not_matter", l->moot);
	str_or_null(j, "cost", l->cost);
	ids(j, "checks", l->checks, n);
	if (l->kind == NP_PLAN_SYSCTL)
		np_json_kv_bool(j, "host_wide", l->host_wide);
	np_json_obj_close(j);
}

void np_render_plan_json(FILE *out, const struct np_plan *p)
{
	struct np_json j;
	char path[96];

	np_json_init(&j, out, true);
	np_json_obj_open(&j);
	np_json_kv_str(&j, "schema", "netpath/plan");
	np_json_kv_int(&j, "version", 1);
	np_json_kv_str(&j, "interface", p->ifname);
	np_json_key_arr_open(&j, "devices");
	for (size_t d = 0; d < p->ndev; d++)
		np_json_str(&j, p->dev[d].name);
	np_json_arr_close(&j);
	np_json_kv_str(&j, "profile", np_profile_name(p->profile));
	np_json_key_obj_open(&j, "path");
	np_json_kv_double(&j, "bandwidth_bps", p->bw_bps);
	np_json_kv_str(&j, "bandwidth_source", p->bw_source);
	np_json_kv_double(&j, "rtt_ms", p->rtt_ms);
	np_json_kv_str(&j, "rtt_source", p->rtt_source);
	np_json_kv_bool(&j, "rtt_assumed", p->rtt_assumed);
	np_json_kv_double(&j, "bdp_bytes", p->bdp);
	np_json_obj_close(&j);
	np_json_key_obj_open(&j, "kernel");
	str_or_null(&j, "release", p->kernel);
	np_json_kv_str(&j, "tcp_bbr", np_kmod_state_name(p->kmods.tcp_bbr));
	np_json_kv_str(&j, "sch_fq", np_kmod_state_name(p->kmods.sch_fq));
	np_json_kv_str(&j, "modules_from", p->kmods.from);
	np_json_obj_close(&j);
	np_json_key_arr_open(&j, "lines");
	for (size_t i = 0; i < p->n; i++)
		line(&j, &p->l[i]);
	np_json_arr_close(&j);
	np_json_key_arr_open(&j, "files");
	for (int f = 0; f < NP_PLAN_FILE__COUNT; f++)
		for (size_t d = 0; d < np_plan_file_count(p, (enum np_plan_file)f); d++)
			if (np_plan_file_path(p, (enum np_plan_file)f, d, path, sizeof(path)))
				np_json_str(&j, path);
	np_json_arr_close(&j);
	ids(&j, "resolved", p->resolved, p->nresolved);
	ids(&j, "to_confirm", p->remaining, p->nremaining);
	np_json_obj_close(&j);
	np_json_end(&j);
}
