// SPDX-License-Identifier: GPL-2.0-only
/* netpath watch --json: one JSON object per frame (doc/netpath-watch.schema.json). */
#include "render_watch.h"

#include <math.h>
#include <string.h>

#include "json_writer.h"
#include "render.h"

/* Rates to the hundredth below 100/s, whole numbers above: JSON stays short and exact. */
static void json_rate(struct np_json *j, double v)
{
	if (isnan(v))
		np_json_null(j);
	else
		np_json_double(j, v >= 100 ? np_round(v) : np_round(v * 100) / 100);
}

static void json_kv_rate(struct np_json *j, const char *key, double v)
{
	np_json_key(j, key);
	json_rate(j, v);
}

static void json_sections(struct np_json *j, const struct np_watch_frame *f)
{
	np_json_key_arr_open(j, "stages");
	for (size_t i = 0; i < f->nstage; i++) {
		np_json_obj_open(j);
		np_json_kv_str(j, "stage", np_stage_name(f->stages[i].stage));
		np_json_kv_str(j, "scope", np_scope_name(f->stages[i].scope));
		json_kv_rate(j, "packets_per_s", f->stages[i].packets);
		json_kv_rate(j, "drops_per_s", f->stages[i].drops);
		np_json_obj_close(j);
	}
	np_json_arr_close(j);
	np_json_key_arr_open(j, "cpus");
	for (size_t i = 0; i < f->ncpu; i++) {
		const struct np_watch_cpu *c = &f->cpus[i];

		np_json_obj_open(j);
		np_json_kv_int(j, "cpu", c->cpu);
		json_kv_rate(j, "processed_per_s", c->processed);
		json_kv_rate(j, "dropped_per_s", c->dropped);
		json_kv_rate(j, "squeezed_per_s", c->squeezed);
		json_kv_rate(j, "rps_per_s", c->rps);
		json_kv_rate(j, "flow_limit_per_s", c->flow_limit);
		np_json_obj_close(j);
	}
	np_json_arr_close(j);
	np_json_key_arr_open(j, "queues");
	for (size_t i = 0; i < f->nqueue; i++) {
		const struct np_watch_queue *q = &f->queues[i];

		np_json_obj_open(j);
		np_json_kv_int(j, "queue", q->queue);
		json_kv_rate(j, "packets_per_s", q->packets);
		json_kv_rate(j, "drops_per_s", q->drops);
		np_json_kv_str(j, "source", q->source);
		np_json_kv_str(j, "drops_source", q->drops_source);
		np_json_obj_close(j);
	}
	np_json_arr_close(j);
	np_json_key_arr_open(j, "irqs");
	for (size_t i = 0; i < f->nirq; i++) {
		np_json_obj_open(j);
		np_json_kv_int(j, "cpu", f->irqs[i].cpu);
		json_kv_rate(j, "per_s", f->irqs[i].rate);
		np_json_obj_close(j);
	}
	np_json_arr_close(j);
}

static void json_kv_num(struct np_json *j, const char *key, double v, double scale)
{
	np_json_key(j, key);
	if (isnan(v))
		np_json_null(j);
	else
		np_json_double(j, np_round(v * scale) / scale);
}

static void json_walk(struct np_json *j, const struct np_watch_walk *w)
{
	np_json_key(j, "socket_walk");
	if (!w->known) {
		np_json_null(j);
		return;
	}
	np_json_obj_open(j);
	np_json_key(j, "full");
	np_json_bool(j, w->full);
	np_json_key(j, "only_listeners");
	np_json_bool(j, w->only_listeners);
	json_kv_num(j, "age_s", w->full ? 0 : w->age_s, 1000);
	np_json_key(j, "every");
	if (w->every)
		np_json_u64(j, w->every);
	else
		np_json_null(j);
	np_json_key(j, "adaptive");
	np_json_bool(j, w->adaptive);
	json_kv_num(j, "walk_cpu_ms", w->walk_cpu_ms, 100);
	json_kv_num(j, "frame_cpu_ms", w->frame_cpu_ms, 100);
	np_json_obj_close(j);
}

void np_render_watch_error_json(FILE *out, const char *msg, int exit_code)
{
	struct np_json j;

	np_json_init(&j, out, false);
	np_json_obj_open(&j);
	np_json_kv_str(&j, "schema", "netpath/error");
	np_json_key(&j, "version");
	np_json_int(&j, NP_JSON_VERSION);
	np_json_kv_str(&j, "command", "watch");
	np_json_kv_str(&j, "error", msg);
	np_json_key(&j, "exit_code");
	np_json_int(&j, exit_code);
	np_json_obj_close(&j);
	np_json_end(&j);
}

void np_render_watch_json(FILE *out, const struct np_watch_frame *f)
{
	struct np_json j;

	np_json_init(&j, out, false);
	np_json_obj_open(&j);
	np_json_kv_str(&j, "schema", NP_WATCH_SCHEMA);
	np_json_key(&j, "version");
	np_json_int(&j, NP_WATCH_VERSION);
	np_json_key(&j, "t");
	np_json_double(&j, np_round(f->elapsed * 1000) / 1000);
	np_json_kv_str(&j, "time", f->time[0] ? f->time : NULL);
	np_json_key(&j, "interval_s");
	np_json_double(&j, np_round(f->dt * 1000) / 1000);
	np_json_key(&j, "frame");
	np_json_u64(&j, f->seq);
	np_json_kv_str(&j, "interface", f->ifname);
	json_sections(&j, f);
	np_json_key(&j, "sockets");
	if (!f->has_socks) {
		np_json_null(&j);
	} else {
		np_json_arr_open(&j);
		for (size_t i = 0; i < f->nsock; i++) {
			np_json_obj_open(&j);
			np_json_kv_str(&j, "proto", f->socks[i].proto);
			np_json_kv_str(&j, "local", f->socks[i].local);
			json_kv_rate(&j, "drops_per_s", f->socks[i].rate);
			np_json_key(&j, "drops");
			np_json_u64(&j, f->socks[i].drops);
			np_json_obj_close(&j);
		}
		np_json_arr_close(&j);
	}
	json_walk(&j, &f->walk);
	np_json_key(&j, "findings");
	np_json_arr_open(&j);
	for (size_t i = 0; i < f->nfind; i++) {
		const struct np_watch_finding *w = &f->findings[i];

		np_json_obj_open(&j);
		np_json_kv_str(&j, "id", w->check->id);
		np_json_kv_str(&j, "stage", np_stage_name(w->check->stage));
		np_json_kv_str(&j, "severity", np_severity_name(w->severity));
		np_json_key(&j, "new");
		np_json_bool(&j, w->is_new);
		np_json_key(&j, "from_walk");
		np_json_bool(&j, w->from_walk);
		np_json_kv_str(&j, "summary", w->summary);
		np_json_obj_close(&j);
	}
	np_json_arr_close(&j);
	np_json_key(&j, "unavailable");
	np_json_obj_open(&j);
	if (f->nqueue == 0 && f->queue_note[0])
		np_json_kv_str(&j, "queues", f->queue_note);
	if (f->irq_note[0])
		np_json_kv_str(&j, "irqs", f->irq_note);
	if (f->sock_note[0] && !f->has_socks)
		np_json_kv_str(&j, "sockets", f->sock_note);
	np_json_obj_close(&j);
	np_json_obj_close(&j);
	np_json_end(&j);
}
