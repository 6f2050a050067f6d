// SPDX-License-Identifier: GPL-2.0-only
/* trace --xdp output, JSON and text, from the session's info and the folded counts only. */
#include "xdp_render.h"

#include <math.h>
#include <string.h>

#include "render.h"

#define WRAP_COLS 100

static void cells(struct np_json *j, const struct np_xdp_cell *v, size_t n, bool by_cpu)
{
	np_json_arr_open(j);
	for (size_t i = 0; i < n; i++) {
		np_json_obj_open(j);
		np_json_key(j, by_cpu ? "cpu" : "queue");
		if (by_cpu)
			np_json_int(j, v[i].cpu);
		else if (v[i].queue == NP_XDP_QUEUE_OVERFLOW)
			np_json_null(j);
		else
			np_json_int(j, v[i].queue);
		np_json_kv_u64(j, "packets", v[i].packets);
		np_json_kv_u64(j, "bytes", v[i].bytes);
		np_json_obj_close(j);
	}
	np_json_arr_close(j);
}

static void pair(struct np_json *j, const char *key, const struct np_xdp_slot *v, bool on)
{
	np_json_key(j, key);
	if (!on) {
		np_json_null(j);
		return;
	}
	np_json_obj_open(j);
	np_json_kv_u64(j, "packets", v->packets);
	np_json_kv_u64(j, "bytes", v->bytes);
	np_json_obj_close(j);
}

/* "sources" and what lies beyond them; all null when the sources were not counted. */
static void sources_json(struct np_json *j, const struct np_xdp_sources *s)
{
	char a[64];

	np_json_key(j, "sources");
	if (s->on) {
		np_json_arr_open(j);
		for (size_t i = 0; i < s->n; i++) {
			np_json_obj_open(j);
			np_json_kv_str(j, "addr", np_xdp_source_addr(&s->top[i], a, sizeof(a)));
			np_json_kv_u64(j, "packets", s->top[i].packets);
			np_json_kv_u64(j, "bytes", s->top[i].bytes);
			np_json_obj_close(j);
		}
		np_json_arr_close(j);
	} else {
		np_json_null(j);
	}
	pair(j, "sources_other", &s->other, s->on);
	pair(j, "sources_unkeyed", &s->unkeyed, s->on);
	pair(j, "sources_non_ip", &s->non_ip, s->on);
	np_json_key(j, "sources_map");
	if (s->on) {
		np_json_obj_open(j);
		np_json_kv_u64(j, "cap", s->cap);
		np_json_kv_u64(j, "keys", s->keys);
		np_json_obj_close(j);
	} else {
		np_json_null(j);
	}
}

void np_xdp_render_json(struct np_json *j, const struct np_xdp_info *info,
			const struct np_xdp_counts *c, double duration)
{
	np_json_obj_open(j);
	np_json_kv_str(j, "mode", np_xdp_mode_name(info->mode));
	np_json_kv_u64(j, "program_id", info->program_id);
	np_json_kv_str(j, "driver", info->driver[0] ? info->driver : NULL);
	np_json_kv_bool(j, "acknowledged", info->acknowledged);
	np_json_kv_str(j, "notes", info->notes);
	np_json_kv_double(j, "duration_s", duration);
	np_json_kv_u64(j, "packets", c->packets);
	np_json_kv_u64(j, "bytes", c->bytes);
	np_json_kv_double(j, "per_second", duration > 0 ? (double)c->packets / duration : 0);
	np_json_key(j, "per_queue");
	cells(j, c->per_queue, c->nqueue, false);
	np_json_key(j, "per_cpu");
	cells(j, c->per_cpu, c->ncpu, true);
	sources_json(j, &c->sources);
	np_json_obj_close(j);
}

static void row(FILE *out, const char *what, int id, const struct np_xdp_cell *v)
{
	char p[32], b[32];

	np_fmt_count((double)v->packets, p, sizeof(p));
	np_fmt_count((double)v->bytes, b, sizeof(b));
	if (id == NP_XDP_QUEUE_OVERFLOW)
		fprintf(out, "  %s >= %d  %14s packets %18s bytes\n", what, id, p, b);
	else
		fprintf(out, "  %s %-4d  %14s packets %18s bytes\n", what, id, p, b);
}

static void source_row(FILE *out, const char *what, const struct np_xdp_slot *v)
{
	char p[32], b[32];

	np_fmt_count((double)v->packets, p, sizeof(p));
	np_fmt_count((double)v->bytes, b, sizeof(b));
	fprintf(out, "    %-39s %14s packets %18s bytes\n", what, p, b);
}

static void sources_text(FILE *out, const struct np_xdp_sources *s)
{
	char a[64];

	if (!s->on)
		return;
	fprintf(out, "  Top %zu sources (a per-CPU map of %zu keys, %zu used):\n", s->n, s->cap,
		s->keys);
	for (size_t i = 0; i < s->n; i++)
		source_row(out, np_xdp_source_addr(&s->top[i], a, sizeof(a)),
			   &(struct np_xdp_slot){ s->top[i].packets, s->top[i].bytes });
	if (s->other.packets)
		source_row(out, "(other sources)", &s->other);
	if (s->non_ip.packets)
		source_row(out, "(not IPv4/IPv6)", &s->non_ip);
	if (s->unkeyed.packets)
		fprintf(out, "    (%llu packets not keyed: the per-source map was full at %zu "
			"sources; they are in the other sources)\n",
			(unsigned long long)s->unkeyed.packets, s->cap);
}

/* PREFIX then TEXT, wrapped at word boundaries, continuation lines indented like the text. */
static void wrapped(FILE *out, const char *prefix, const char *text)
{
	size_t indent = strlen(prefix), col = indent;
	const char *p = text;

	fputs(prefix, out);
	while (*p) {
		size_t n = strcspn(p, " ");

		if (col > indent && col + 1 + n > WRAP_COLS) {
			fprintf(out, "\n%*s", (int)indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', out);
			col++;
		}
		fwrite(p, 1, n, out);
		col += n;
		p += n;
		while (*p == ' ')
			p++;
	}
	fputc('\n', out);
}

void np_xdp_render_text(FILE *out, const struct np_xdp_info *info,
			const struct np_xdp_counts *c, double duration, int verbose)
{
	char p[32], b[32], r[32];
	double rate;

	np_fmt_count((double)c->packets, p, sizeof(p));
	np_fmt_count((double)c->bytes, b, sizeof(b));
	rate = duration > 0 ? (double)c->packets / duration : 0;
	/* Whole numbers from 100/s on, as trace's other rates. */
	np_fmt_count(rate >= 100 ? np_round(rate) : rate, r, sizeof(r));
	fprintf(out, "XDP at the driver (%s mode, program %u%s%s): %s packets, %s bytes in %.1f s "
		"(%s/s)\n", np_xdp_mode_name(info->mode), info->program_id,
		info->driver[0] ? ", driver " : "", info->driver, p, b, duration, r);
	for (size_t i = 0; i < c->nqueue; i++)
		row(out, "rx queue", c->per_queue[i].queue, &c->per_queue[i]);
	for (size_t i = 0; verbose && i < c->ncpu; i++)
		row(out, "CPU", c->per_cpu[i].cpu, &c->per_cpu[i]);
	if (!c->nqueue)
		fputs("  no frame reached the XDP hook during the window\n", out);
	else
		sources_text(out, &c->sources);
	wrapped(out, "  Note: ", info->notes);
}
