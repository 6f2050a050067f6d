// SPDX-License-Identifier: GPL-2.0-only
/* `netpath trace --json`: schema netpath/trace, version 1 (doc/netpath-trace.schema.json). */
#include "trace_render.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "json_writer.h"
#include "render.h"
#include "trace_stack.h"
#include "xdp_render.h"

/* A finding and a funnel row exactly as doctor's JSON has them (doc/netpath.schema.json
 * $defs finding and the funnel items), so consumers parse both with one code path. */
static void str_or_null(struct np_json *j, const char *key, const char *v)
{
	np_json_key(j, key);
	np_json_str(j, v && v[0] ? v : NULL);
}

static void port_or_null(struct np_json *j, const char *key, bool has, unsigned int v)
{
	np_json_key(j, key);
	if (has)
		np_json_u64(j, v);
	else
		np_json_null(j);
}

/* One of a reason's top flows: the fields --by left out are null. */
static void flow(struct np_json *j, const struct np_trace_flow *f)
{
	const struct np_flow_key *k = &f->key;
	bool icmp = np_flow_is_icmp(k), ip = k->family != NP_FLOW_NONE;
	bool l4 = ip && (k->proto || k->sport || k->dport);
	bool ports = l4 && !icmp && (k->sport || k->dport);
	char a[64], p[16];

	np_json_obj_open(j);
	str_or_null(j, "src", np_flow_addr(k, true, a, sizeof(a)));
	str_or_null(j, "dst", np_flow_addr(k, false, a, sizeof(a)));
	str_or_null(j, "proto", l4 ? np_proto_name(k->proto, p, sizeof(p)) : NULL);
	port_or_null(j, "sport", ports && k->sport, k->sport);
	port_or_null(j, "dport", ports && k->dport, k->dport);
	port_or_null(j, "icmp_type", icmp, k->sport);
	port_or_null(j, "icmp_code", icmp, k->dport);
	port_or_null(j, "vlan", k->vlan & NP_FLOW_VLAN, k->vlan & 0x0fff);
	np_json_key(j, "ip_version");
	if (ip)
		np_json_int(j, k->family);
	else
		np_json_null(j);
	np_json_kv_u64(j, "count", f->count);
	np_json_obj_close(j);
}

static void drop(struct np_json *j, const struct np_trace_view *v, const struct np_trace_row *r)
{
	np_json_obj_open(j);
	np_json_kv_str(j, "reason", r->name);
	str_or_null(j, "location", r->nlocs ? r->locs[0].text : NULL);
	str_or_null(j, "function", r->location);
	np_json_key(j, "locations");
	np_json_arr_open(j);
	for (size_t i = 0; i < r->nlocs; i++) {
		np_json_obj_open(j);
		np_json_kv_str(j, "location", r->locs[i].text);
		np_json_kv_u64(j, "count", r->locs[i].count);
		np_json_obj_close(j);
	}
	np_json_arr_close(j);
	np_json_kv_u64(j, "locations_other", r->locs_other);
	str_or_null(j, "check", r->check);
	np_json_key(j, "top");
	np_json_arr_open(j);
	for (size_t i = 0; i < r->nflows; i++)
		flow(j, &r->flows[i]);
	np_json_arr_close(j);
	np_json_kv_u64(j, "top_other", r->flows_other);
	np_json_kv_u64(j, "top_unkeyed", r->flows_full);
	np_json_kv_str(j, "stage", np_stage_name(r->stage));
	np_json_kv_str(j, "severity", np_severity_name(r->severity));
	np_json_kv_bool(j, "benign", r->benign);
	np_json_kv_u64(j, "count", r->count);
	np_json_kv_double(j, "per_second", r->per_second);
	np_json_kv_str(j, "explanation", r->explanation);
	np_json_key(j, "per_cpu");
	np_json_arr_open(j);
	for (unsigned int c = 0; c < r->ncpu; c++)
		np_json_u64(j, r->per_cpu[c]);
	np_json_arr_close(j);
	if (!strcmp(r->name, "NETFILTER_DROP"))
		np_nfrule_render_json(j, v->nfrules);
	np_json_obj_close(j);
}

static void attribution(struct np_json *j, const struct np_trace_view *v)
{
	const struct np_trace_filter *f = v->filter;
	char a[64], p[16];

	np_json_key(j, "attribution");
	np_json_obj_open(j);
	np_json_kv_bool(j, "enabled", v->sum->flows_on);
	np_json_kv_str(j, "by", np_trace_by_name(v->sum->by));
	np_json_kv_u64(j, "top", v->sum->top);
	np_json_kv_u64(j, "map_capacity", v->sum->flow_cap);
	np_json_kv_u64(j, "map_keys", v->sum->flow_keys);
	np_json_kv_u64(j, "unkeyed", v->sum->flows_full);
	np_json_key(j, "filter");
	np_json_obj_open(j);
	np_json_key(j, "host");
	if (f && f->host) {
		char h[48];

		inet_ntop(f->family == NP_FLOW_IPV4 ? AF_INET : AF_INET6, f->addr, h, sizeof(h));
		snprintf(a, sizeof(a), "%s/%u", h, f->prefix);
		np_json_str(j, a);
	} else {
		np_json_null(j);
	}
	port_or_null(j, "port", f && f->port_on, f ? f->port : 0);
	str_or_null(j, "proto", f && f->proto_on ? np_proto_name(f->proto, p, sizeof(p)) : NULL);
	np_json_kv_u64(j, "filtered_out", v->sum->filtered);
	np_json_obj_close(j);
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
		drop(&j, v, &v->sum->rows[i]);
	np_json_arr_close(&j);
	np_json_key(&j, "stage_drops");
	np_json_obj_open(&j);
	for (int st = 0; st < NP_STAGE__COUNT; st++) {
		if (!v->sum->stage_drops[st])
			continue;
		np_json_key(&j, np_stage_name((enum np_stage)st));
		np_json_u64(&j, v->sum->stage_drops[st]);
	}
	np_json_obj_close(&j);
	attribution(&j, v);
	np_json_key(&j, "hidden_benign");
	np_json_u64(&j, v->sum->hidden_benign);
	np_json_key(&j, "lost_events");
	np_json_u64(&j, v->sum->lost);

	np_json_key(&j, "arrivals_total");
	np_json_obj_open(&j);
	np_json_key(&j, "packets");
	if (v->sum->arrivals_from)
		np_json_u64(&j, v->sum->arrivals);
	else
		np_json_null(&j);
	np_json_kv_str(&j, "from", v->sum->arrivals_from);	/* NULL: null */
	np_json_obj_close(&j);
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
	np_json_key(&j, "stacks");
	np_trace_stacks_json(&j, v->stacks);

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
