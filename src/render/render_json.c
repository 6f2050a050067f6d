// SPDX-License-Identifier: GPL-2.0-only
/* JSON renderer for doctor: the documented schema in doc/netpath.schema.json. */
#include "json_writer.h"
#include "origin.h"
#include "render.h"
#include "render_recflows.h"
#include "render_sockets.h"

#include <string.h>

#include "config.h"

static void evidence(struct np_json *j, const struct np_evidence *e)
{
	np_json_obj_open(j);
	np_json_kv_str(j, "key", e->key);
	switch (e->kind) {
	case NP_EV_TEXT:
		np_json_kv_str(j, "text", e->text);
		break;
	case NP_EV_VALUE:
		np_json_kv_double(j, "value", e->value);
		np_json_kv_str(j, "unit", e->unit);
		break;
	case NP_EV_COUNTER:
		np_json_kv_double(j, "since_boot", e->value);
		np_json_kv_str(j, "unit", e->unit);
		np_json_key(j, "delta");
		if (e->sampled)
			np_json_double(j, e->delta);
		else
			np_json_null(j);
		np_json_key(j, "per_second");
		if (e->sampled)
			np_json_double(j, e->rate);
		else
			np_json_null(j);
		break;
	}
	np_json_obj_close(j);
}

void np_render_finding_json(struct np_json *j, const struct np_finding *f)
{
	char expl[1600];

	np_finding_why(f, expl, sizeof(expl));
	np_json_obj_open(j);
	np_json_kv_str(j, "id", f->check->id);
	np_json_kv_str(j, "interface", f->dev);
	np_json_kv_str(j, "stage", np_stage_name(f->check->stage));
	np_json_kv_str(j, "scope", np_scope_name(f->check->scope));
	np_json_kv_str(j, "severity", np_severity_name(f->severity));
	np_json_kv_str(j, "title", f->check->title);
	np_json_kv_str(j, "summary", f->summary);
	np_json_key_arr_open(j, "evidence");
	for (size_t i = 0; i < f->nev; i++)
		evidence(j, &f->ev[i]);
	np_json_arr_close(j);
	np_json_kv_str(j, "explanation", expl);
	np_json_kv_str(j, "remedy", np_finding_fix(f));
	np_json_obj_close(j);
}

static const char *state_name(enum np_check_state st)
{
	switch (st) {
	case NP_CHECK_NOT_RUN: return "not_run";
	case NP_CHECK_PASSED: return "passed";
	case NP_CHECK_FLAGGED: return "flagged";
	case NP_CHECK_SKIPPED: return "skipped";
	}
	return "?";
}

static void counter(struct np_json *j, const char *key, const char *what,
		    const struct np_counter_view *v)
{
	np_json_key(j, key);
	if (!v->present) {
		np_json_null(j);
		return;
	}
	np_json_obj_open(j);
	np_json_kv_str(j, "counts", what);
	np_json_kv_u64(j, "since_boot", v->total);
	np_json_key(j, "per_second");
	if (v->sampled)
		np_json_double(j, v->rate);
	else
		np_json_null(j);
	np_json_obj_close(j);
}

void np_render_funnel_json(struct np_json *j, const struct np_funnel *f)
{
	np_json_arr_open(j);
	for (size_t i = 0; f && i < f->n; i++) {	/* NULL: no counters read */
		const struct np_funnel_row *r = &f->rows[i];

		np_json_obj_open(j);
		np_json_kv_str(j, "stage", np_stage_name(r->stage));
		np_json_kv_str(j, "interface", f->dev);
		np_json_kv_str(j, "scope", np_scope_name(r->scope));
		counter(j, "packets", r->in_what, &r->in);
		counter(j, "drops", r->drop_what, &r->drop);
		np_json_obj_close(j);
	}
	np_json_arr_close(j);
}

/* The devices judged: one object each, tops first, with what they sit on. Without a stack (a
 * caller that judged one device) the interface alone. */
static void stack_json(struct np_json *j, const struct np_stack *st, const struct np_snapshot *s)
{
	np_json_arr_open(j);
	for (size_t i = 0; st && i < st->n; i++) {
		const struct np_stack_dev *d = &st->dev[i];

		np_json_obj_open(j);
		np_json_kv_str(j, "name", d->name);
		np_json_kv_str(j, "kind", np_dev_kind_name(d->kind));
		np_json_kv_str(j, "parent", d->upper >= 0 ? st->dev[d->upper].name : NULL);
		np_json_key_arr_open(j, "lower");
		for (unsigned k = 0; k < d->nlower; k++)
			np_json_str(j, st->dev[d->lower[k]].name);
		np_json_arr_close(j);
		np_json_kv_str(j, "driver", d->driver[0] ? d->driver : NULL);
		np_json_kv_bool(j, "hardware_judged", d->judged_hw);
		if (d->kind == NP_KIND_VXLAN || d->kind == NP_KIND_GENEVE) {
			/* Its lower is the device it was created on, or (true) the default
			 * route's, where the encapsulated packets most likely leave. */
			np_json_kv_bool(j, "underlay_by_route", d->underlay_by_route);
		}
		if (d->kind == NP_KIND_VETH) {
			np_json_key(j, "peer_ifindex");
			if (d->peer_ifindex)
				np_json_int(j, d->peer_ifindex);
			else
				np_json_null(j);
			np_json_kv_bool(j, "peer_in_other_netns", d->peer_other_netns);
			np_json_kv_str(j, "peer", d->peer_name[0] ? d->peer_name : NULL);
			/* Where the peer lives: its nsid as ours numbers it, and the namespace's
			 * name ("" when it is the one netpath was started in), null unknown. */
			np_json_key(j, "peer_netnsid");
			if (d->peer_other_netns && d->peer_nsid >= 0)
				np_json_int(j, d->peer_nsid);
			else
				np_json_null(j);
			np_json_kv_str(j, "peer_netns", d->peer_in_start ? "" :
				       d->peer_netns[0] ? d->peer_netns : NULL);
		}
		np_json_obj_close(j);
	}
	if (!st) {
		np_json_obj_open(j);
		np_json_kv_str(j, "name", s->ifname);
		np_json_kv_str(j, "kind", np_dev_kind_name(np_dev_kind_of(s)));
		np_json_kv_null(j, "parent");
		np_json_key_arr_open(j, "lower");
		np_json_arr_close(j);
		np_json_key(j, "driver");
		np_json_str(j, np_snapshot_driver(s)[0] ? np_snapshot_driver(s) : NULL);
		np_json_kv_bool(j, "hardware_judged", np_dev_kind_of(s) == NP_KIND_PHYSICAL);
		np_json_obj_close(j);
	}
	np_json_arr_close(j);
}

/* Per stage: judged, partial, not_judged or not_applicable, and why not (fully) judged. */
static void coverage_json(struct np_json *j, const struct np_coverage *c)
{
	np_json_arr_open(j);
	for (int st = 0; st < NP_STAGE__COUNT; st++) {
		const struct np_stage_cov *sc = &c->st[st];

		np_json_obj_open(j);
		np_json_kv_str(j, "stage", np_stage_name((enum np_stage)st));
		np_json_kv_str(j, "status", np_cov_status_name(sc->status));
		np_json_key(j, "reason");
		np_json_str(j, sc->reason[0] && sc->status != NP_COV_JUDGED ? sc->reason : NULL);
		np_json_kv_u64(j, "checks_ran", sc->ran);
		np_json_kv_u64(j, "checks_without_evidence", sc->missing);
		np_json_obj_close(j);
	}
	np_json_arr_close(j);
}

void np_render_doctor_json(FILE *out, const struct np_doctor_view *v)
{
	const struct np_snapshot *s = v->a->cur;
	enum np_severity worst = np_report_worst(v->r);
	struct np_json j;

	np_json_init(&j, out, true);
	np_json_obj_open(&j);
	np_json_key(&j, "schema");
	np_json_str(&j, NP_JSON_SCHEMA);
	np_json_key(&j, "version");
	np_json_int(&j, NP_DOCTOR_JSON_VERSION);
	np_json_key(&j, "netpath_version");
	np_json_str(&j, NETPATH_VERSION);
	np_json_key(&j, "interface");
	np_json_str(&j, s->ifname);
	np_json_key(&j, "root");
	np_json_str(&j, v->root);
	np_json_key(&j, "origin");
	np_render_origin_json(&j, v->origin, v->live);
	/* doctor --at over a `record --drops` recording: the window's top dropped flows. */
	if (v->origin && v->origin->flows && v->origin->flows->recorded) {
		np_json_key(&j, "recorded_flows");
		np_render_recflows_json(&j, v->origin->flows);
	}
	np_json_key(&j, "netns");
	if (v->netns) {
		np_json_obj_open(&j);
		np_json_key(&j, "spec");
		np_json_str(&j, v->netns);
		np_json_key(&j, "path");
		np_json_str(&j, v->netns_path);
		np_json_obj_close(&j);
	} else {
		np_json_null(&j);
	}
	np_json_key(&j, "kernel");
	np_json_str(&j, s->hs->host.kernel[0] ? s->hs->host.kernel : NULL);
	np_json_key(&j, "cpus_online");
	if (s->hs->host.ncpu_online)
		np_json_u64(&j, s->hs->host.ncpu_online);
	else
		np_json_null(&j);
	np_json_key(&j, "interval_s");
	np_json_double(&j, v->a->dt);
	np_json_key(&j, "bandwidth");
	np_json_obj_open(&j);
	np_json_key(&j, "bits_per_second");
	np_json_double(&j, v->a->bw_bps);
	np_json_key(&j, "source");
	np_json_str(&j, v->a->bw_source);
	np_json_obj_close(&j);
	np_json_key(&j, "rtt");
	np_json_obj_open(&j);
	np_json_key(&j, "ms");
	np_json_double(&j, v->a->rtt_ms);
	np_json_key(&j, "source");
	np_json_str(&j, v->a->rtt_source);
	np_json_obj_close(&j);
	np_json_key(&j, "status");
	np_json_str(&j, np_coverage_unknown(v->cov) ? "unknown" : np_severity_name(worst));
	np_json_key(&j, "exit_code");
	np_json_int(&j, v->exit_code);

	np_json_key(&j, "findings");
	np_json_arr_open(&j);
	for (size_t i = 0; i < v->r->n; i++)
		np_render_finding_json(&j, &v->r->f[i]);
	np_json_arr_close(&j);

	np_json_key(&j, "funnel");
	np_render_funnel_json(&j, v->funnel);

	np_json_key(&j, "ledger");
	np_render_ledger_json(&j, v->ledger);

	np_json_key(&j, "coverage");
	coverage_json(&j, v->cov);

	np_json_key(&j, "stack");
	stack_json(&j, v->stack, s);

	np_json_key(&j, "nic");
	np_render_nic_json(&j, s, v->all_counters);

	np_json_key(&j, "sockets");
	np_render_sockets_json(&j, s, v->sockets_top);

	np_json_key(&j, "checks");
	np_json_arr_open(&j);
	for (size_t i = 0; i < v->r->nres; i++) {
		const struct np_check_result *c = &v->r->res[i];

		np_json_obj_open(&j);
		np_json_key(&j, "id");
		np_json_str(&j, c->check->id);
		np_json_key(&j, "stage");
		np_json_str(&j, np_stage_name(c->check->stage));
		np_json_key(&j, "state");
		np_json_str(&j, state_name(c->state));
		np_json_key(&j, "severity");
		np_json_str(&j, np_severity_name(c->worst));
		if (c->state == NP_CHECK_SKIPPED) {
			np_json_key(&j, "reason");
			np_json_str(&j, c->skip_reason);
			/* Does not apply here, as opposed to evidence that could not be read. */
			np_json_key(&j, "not_applicable");
			np_json_bool(&j, c->not_applicable);
		}
		np_json_obj_close(&j);
	}
	np_json_arr_close(&j);

	np_render_sender_json(&j, v);
	np_json_key(&j, "unavailable");
	np_json_arr_open(&j);
	for (int i = 0; i < NP_SRC__COUNT; i++) {
		const struct np_src *src = np_srcp(s, i);

		if (src->status == NP_SRC_OK)
			continue;
		np_json_obj_open(&j);
		np_json_key(&j, "source");
		np_json_str(&j, np_source_name((enum np_source)i));
		np_json_key(&j, "status");
		np_json_str(&j, np_src_status_name(src->status));
		np_json_key(&j, "reason");
		np_json_str(&j, src->detail);
		np_json_obj_close(&j);
	}
	np_json_arr_close(&j);
	np_json_obj_close(&j);
	np_json_end(&j);
}

void np_render_error_json(FILE *out, const char *command, const char *msg, int exit_code)
{
	struct np_json j;

	np_json_init(&j, out, true);
	np_json_obj_open(&j);
	np_json_key(&j, "schema");
	np_json_str(&j, "netpath/error");
	np_json_key(&j, "version");
	np_json_int(&j, NP_JSON_VERSION);
	np_json_key(&j, "command");
	np_json_str(&j, command);
	np_json_key(&j, "error");
	np_json_str(&j, msg);
	np_json_key(&j, "exit_code");
	np_json_int(&j, exit_code);
	np_json_obj_close(&j);
	np_json_end(&j);
}
