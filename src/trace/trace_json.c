// SPDX-License-Identifier: GPL-2.0-only
/* `netpath trace --json`: schema netpath/trace, version 1 (doc/netpath-trace.schema.json). */
#include "trace_render.h"

#include <stdio.h>

#include "config.h"
#include "json_writer.h"
#include "render.h"
#include "xdp_render.h"

/* A finding and a funnel row exactly as doctor's JSON has them (doc/netpath.schema.json
 * $defs finding and the funnel items), so consumers parse both with one code path. */
static void drop(struct np_json *j, const struct np_trace_row *r)
{
	np_json_obj_open(j);
	np_json_key(j, "reason");
	np_json_str(j, r->name);
	np_json_key(j, "location");
	np_json_str(j, r->location[0] ? r->location : NULL);
	np_json_key(j, "stage");
	np_json_str(j, np_stage_name(r->stage));
	np_json_key(j, "severity");
	np_json_str(j, np_severity_name(r->severity));
	np_json_key(j, "benign");
	np_json_bool(j, r->benign);
	np_json_key(j, "count");
	np_json_u64(j, r->count);
	np_json_key(j, "per_second");
	np_json_double(j, r->per_second);
	np_json_key(j, "explanation");
	np_json_str(j, r->explanation);
	np_json_key(j, "per_cpu");
	np_json_arr_open(j);
	for (unsigned int c = 0; c < r->ncpu; c++)
		np_json_u64(j, r->per_cpu[c]);
	np_json_arr_close(j);
	np_json_obj_close(j);
}

void np_render_trace_json(FILE *out, const struct np_trace_view *v)
{
	enum np_severity worst = np_trace_worst(v->sum);
	struct np_json j;

	if (v->r && np_report_worst(v->r) > worst)
		worst = np_report_worst(v->r);
	np_json_init(&j, out, true);
	np_json_obj_open(&j);
	np_json_key(&j, "schema");
	np_json_str(&j, NP_TRACE_JSON_SCHEMA);
	np_json_key(&j, "version");
	np_json_int(&j, NP_TRACE_JSON_VERSION);
	np_json_key(&j, "netpath_version");
	np_json_str(&j, NETPATH_VERSION);
	np_json_key(&j, "interface");
	np_json_str(&j, v->ifname);
	np_json_key(&j, "netns");
	np_json_obj_open(&j);
	np_json_key(&j, "spec");
	np_json_str(&j, v->netns);
	np_json_key(&j, "inode");
	np_json_u64(&j, v->netns_inum);
	np_json_obj_close(&j);
	np_json_key(&j, "duration_s");
	np_json_double(&j, v->sum->duration);
	np_json_key(&j, "interrupted");
	np_json_bool(&j, v->interrupted);
	np_json_key(&j, "attach");
	np_json_str(&j, v->attach);
	np_json_key(&j, "grouped_by");
	np_json_str(&j, v->has_reason ? "reason" : "location");
	np_json_key(&j, "status");
	np_json_str(&j, np_severity_name(worst));
	np_json_key(&j, "exit_code");
	np_json_int(&j, v->exit_code);

	np_json_key(&j, "drops");
	np_json_arr_open(&j);
	for (size_t i = 0; i < v->sum->n; i++)
		drop(&j, &v->sum->rows[i]);
	np_json_arr_close(&j);
	np_json_key(&j, "hidden_benign");
	np_json_u64(&j, v->sum->hidden_benign);
	np_json_key(&j, "lost_events");
	np_json_u64(&j, v->sum->lost);

	np_json_key(&j, "arrivals");
	np_json_arr_open(&j);
	for (size_t i = 0; v->raw && i < v->raw->narrivals; i++) {
		const struct np_trace_raw_arrival *x = &v->raw->arrivals[i];

		np_json_obj_open(&j);
		np_json_key(&j, "queue");
		if (x->queue < 0)
			np_json_null(&j);
		else
			np_json_int(&j, x->queue);
		np_json_key(&j, "cpu");
		np_json_u64(&j, x->cpu);
		np_json_key(&j, "packets");
		np_json_u64(&j, x->packets);
		np_json_key(&j, "gro_packets");
		if (v->gro_attached)
			np_json_u64(&j, x->gro);
		else
			np_json_null(&j);
		np_json_obj_close(&j);
	}
	np_json_arr_close(&j);

	np_json_key(&j, "xdp");
	if (v->xdp && v->xdp_counts)
		np_xdp_render_json(&j, v->xdp, v->xdp_counts, v->sum->duration);
	else
		np_json_null(&j);

	np_json_key(&j, "funnel");
	np_render_funnel_json(&j, v->funnel);
	np_json_key(&j, "findings");
	np_json_arr_open(&j);
	for (size_t i = 0; v->r && i < v->r->n; i++)
		np_render_finding_json(&j, &v->r->f[i]);
	np_json_arr_close(&j);
	np_json_obj_close(&j);
	np_json_end(&j);
}
