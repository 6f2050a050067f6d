// SPDX-License-Identifier: GPL-2.0-only
/* netpath history's text and JSON (render_history.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json_writer.h"
#include "render_history.h"
#include "render_recflows.h"
#include "text_wrap.h"
#include "textenc.h"
#include "when.h"

void np_history_free(struct np_history *h)
{
	free(h->sec);
	free(h->gaps);
	free(h->worst);
	free(h->worst_min);
	free(h->reason);
	free(h->steps);
	memset(h, 0, sizeof(*h));
}

static double secs(int64_t ns)
{
	return (double)ns / 1e9;
}

static void when(int64_t ns, char *buf, size_t size)
{
	np_when_format(secs(ns), buf, size);
}

/* Eight heights, then none; the ASCII ones where the terminal's codeset is not UTF-8. */
static const char *const bars_utf8[8] = { "\u2581", "\u2582", "\u2583", "\u2584", "\u2585",
					  "\u2586", "\u2587", "\u2588" };
static const char *const bars_ascii[8] = { ".", ":", "-", "=", "+", "*", "#", "@" };

#define LABEL_COLS 11		/* "  softnet  " */
#define PEAK_COLS 30		/* "  peak 1,234,567/s at 03:12:40" */

/* The worst second of each cell of row st; -1 for a cell with no second recorded. */
static void cells(const struct np_history *h, enum np_stage st, double *cell, size_t ncell,
		  int64_t from, int64_t span)
{
	for (size_t c = 0; c < ncell; c++)
		cell[c] = -1;
	for (size_t i = 0; i < h->n; i++) {
		double v = h->sec[i].drops[st];
		size_t c = (size_t)((double)(h->sec[i].t - from) / (double)span * (double)ncell);

		if (c >= ncell)
			c = ncell - 1;
		if (isnan(v))
			v = 0;
		if (v > cell[c])
			cell[c] = v;
	}
}

static void stage_row(FILE *out, const struct np_history *h, enum np_stage st, size_t ncell,
		      bool utf8, double *cell)
{
	int64_t from = h->first, span = h->last - h->first + 1;
	double peak = 0;
	int64_t peak_t = 0;
	char num[32], at[40];

	for (size_t i = 0; i < h->n; i++)
		if (!isnan(h->sec[i].drops[st]) && h->sec[i].drops[st] > peak) {
			peak = h->sec[i].drops[st];
			peak_t = h->sec[i].t;
		}
	cells(h, st, cell, ncell, from, span);
	fprintf(out, "  %-9s", np_stage_name(st));
	for (size_t c = 0; c < ncell; c++) {
		if (cell[c] < 0)
			fputc(' ', out);
		else if (cell[c] == 0)
			fputc('_', out);
		else {
			/* Height by the share of the row's peak: a burst stands out, a trickle
			 * still shows as the lowest bar. */
			int k = (int)ceil(cell[c] / peak * 8) - 1;

			k = k < 0 ? 0 : k > 7 ? 7 : k;
			fputs(utf8 ? bars_utf8[k] : bars_ascii[k], out);
		}
	}
	when(peak_t, at, sizeof(at));
	/* The clock time alone: the date is in the header. */
	fprintf(out, "  peak %s/s at %s\n", np_fmt_count(peak, num, sizeof(num)),
		strlen(at) > 11 ? at + 11 : at);
}

static bool stage_dropped(const struct np_history *h, enum np_stage st)
{
	for (size_t i = 0; i < h->n; i++)
		if (h->sec[i].drops[st] > 0)
			return true;
	return false;
}

static void worst_lines(FILE *out, const char *title, const struct np_history_worst *w,
			size_t n, bool minutes, int width)
{
	char at[40], num[32], line[256];
	int len;

	if (!n)
		return;
	fprintf(out, "%s:\n", title);
	for (size_t i = 0; i < n; i++) {
		when(w[i].t, at, sizeof(at));
		if (minutes && strlen(at) > 16)
			at[16] = '\0';
		len = snprintf(line, sizeof(line), "  %-19s  %-9s %10s/s", at,
			       np_stage_name(w[i].stage), np_fmt_count(w[i].rate, num, sizeof(num)));
		if (w[i].check[0] && len > 0 && (size_t)len < sizeof(line))
			len += snprintf(line + len, sizeof(line) - (size_t)len, "  %s (%s)",
					w[i].check, np_severity_name(w[i].severity));
		else if (w[i].summary[0] && len > 0 && (size_t)len < sizeof(line))
			len += snprintf(line + len, sizeof(line) - (size_t)len, "  not judged");
		if (w[i].reason && len > 0 && (size_t)len < sizeof(line))
			snprintf(line + len, sizeof(line) - (size_t)len, "  reason %s", w[i].reason);
		np_wrap_line(out, line, strlen(line), width);
		/* record --drops: the minute's top dropped flows, as the recorder kept them. */
		if (minutes)
			np_render_recflows_text(out, &w[i].flows, "    ");
	}
}

void np_render_history_text(FILE *out, const struct np_history *h, int width, bool utf8)
{
	char a[40], b[40], quiet[256] = "", line[1024];
	size_t ncell, shown = 0;
	double *cell;

	if (width <= 0)
		width = 80;
	if (!h->n) {
		fprintf(out, "netpath history %s: no samples with rates in the span asked for\n",
			h->dir);
		return;
	}
	when(h->first, a, sizeof(a));
	when(h->last, b, sizeof(b));
	snprintf(line, sizeof(line), "netpath history %s: %s, %s to %s (%zu s with rates, "
		 "%.3g s samples)", h->dir, h->dev[0] ? h->dev : "?", a, b, h->n, h->interval);
	np_wrap_line(out, line, strlen(line), width);
	ncell = width > LABEL_COLS + PEAK_COLS + 8 ? (size_t)(width - LABEL_COLS - PEAK_COLS) : 8;
	cell = calloc(ncell, sizeof(*cell));
	if (!cell)
		return;
	snprintf(line, sizeof(line), "drops per second by stage; a mark is the worst second of "
		 "%.0f s ('_' none, ' ' not recorded):",
		 ceil(secs(h->last - h->first + 1) / (double)ncell));
	np_wrap_line(out, line, strlen(line), width);
	for (int st = 0; st < NP_STAGE__COUNT; st++) {
		if (!(h->stages & (1u << st)))
			continue;
		if (stage_dropped(h, (enum np_stage)st)) {
			stage_row(out, h, (enum np_stage)st, ncell, utf8, cell);
			shown++;
		} else {
			snprintf(quiet + strlen(quiet), sizeof(quiet) - strlen(quiet), "%s%s",
				 quiet[0] ? ", " : "", np_stage_name((enum np_stage)st));
		}
	}
	free(cell);
	if (!shown)
		fputs("  no drops at any stage\n", out);
	if (quiet[0] && shown) {
		snprintf(line, sizeof(line), "no drops: %s", quiet);
		np_wrap_line(out, line, strlen(line), width);
	}
	for (size_t i = 0; i < h->ngaps; i++) {
		when(h->gaps[i].from, a, sizeof(a));
		when(h->gaps[i].to, b, sizeof(b));
		snprintf(line, sizeof(line), "not recorded: %s to %s (%.0f s)", a, b,
			 secs(h->gaps[i].to - h->gaps[i].from));
		np_wrap_line(out, line, strlen(line), width);
	}
	for (size_t i = 0; i < h->nsteps; i++) {
		when(h->steps[i].t, a, sizeof(a));
		snprintf(line, sizeof(line), "the clock stepped by %+.1f s at %s (rates are on the "
			 "monotonic clock: not affected)", secs(h->steps[i].step), a);
		np_wrap_line(out, line, strlen(line), width);
	}
	if (h->damaged)
		fprintf(out, "damaged: %u block%s of the recording skipped\n", h->damaged,
			h->damaged == 1 ? "" : "s");
	worst_lines(out, "worst seconds", h->worst, h->nworst, false, width);
	worst_lines(out, "worst minutes", h->worst_min, h->nworst_min, true, width);
}

static void json_worst(struct np_json *j, const char *key, const struct np_history_worst *w,
		       size_t n, bool minutes)
{
	np_json_key_arr_open(j, key);
	for (size_t i = 0; i < n; i++) {
		np_json_obj_open(j);
		np_json_kv_fixed(j, "time", secs(w[i].t), 3);
		np_json_kv_str(j, "stage", np_stage_name(w[i].stage));
		np_json_kv_double(j, "drops_per_second", w[i].rate);
		np_json_kv_double(j, "all_stages_drops_per_second", w[i].total_rate);
		np_json_kv_str(j, "check", w[i].check[0] ? w[i].check : NULL);
		np_json_kv_str(j, "severity", w[i].check[0] ? np_severity_name(w[i].severity) :
			       NULL);
		np_json_kv_str(j, "summary", w[i].summary[0] ? w[i].summary : NULL);
		np_json_kv_str(j, "reason", w[i].reason);
		if (minutes && w[i].flows.recorded) {
			np_json_key(j, "top_flows");
			np_render_recflows_json(j, &w[i].flows);
		}
		np_json_obj_close(j);
	}
	np_json_arr_close(j);
}

void np_render_history_json(FILE *out, const struct np_history *h)
{
	struct np_json j;

	np_json_init(&j, out, false);
	np_json_obj_open(&j);
	np_json_kv_str(&j, "schema", NP_HISTORY_SCHEMA);
	np_json_kv_int(&j, "version", NP_HISTORY_VERSION);
	np_json_kv_str(&j, "recording", h->dir);
	np_json_kv_str(&j, "interface", h->dev[0] ? h->dev : NULL);
	np_json_kv_fixed(&j, "interval", h->interval, 3);
	if (h->n) {
		np_json_kv_fixed(&j, "first", secs(h->first), 3);
		np_json_kv_fixed(&j, "last", secs(h->last), 3);
	} else {
		np_json_kv_null(&j, "first");
		np_json_kv_null(&j, "last");
	}
	np_json_key_arr_open(&j, "seconds");
	for (size_t i = 0; i < h->n; i++) {
		np_json_obj_open(&j);
		np_json_kv_fixed(&j, "time", secs(h->sec[i].t), 3);
		np_json_key_obj_open(&j, "drops");
		for (int st = 0; st < NP_STAGE__COUNT; st++) {
			if (!(h->stages & (1u << st)))
				continue;
			if (isnan(h->sec[i].drops[st]))
				np_json_kv_null(&j, np_stage_name((enum np_stage)st));
			else
				np_json_kv_double(&j, np_stage_name((enum np_stage)st),
						  h->sec[i].drops[st]);
		}
		np_json_obj_close(&j);
		if (h->has_reasons) {
			const struct np_history_sec *s = &h->sec[i];

			np_json_key_obj_open(&j, "top_reason");
			np_json_kv_str(&j, "reason", s->reason >= 0 ? h->reason[s->reason] : NULL);
			np_json_kv_double(&j, "per_second", s->reason >= 0 ? s->reason_rate : 0);
			np_json_obj_close(&j);
		}
		np_json_obj_close(&j);
	}
	np_json_arr_close(&j);
	np_json_key_arr_open(&j, "gaps");
	for (size_t i = 0; i < h->ngaps; i++) {
		np_json_obj_open(&j);
		np_json_kv_fixed(&j, "from", secs(h->gaps[i].from), 3);
		np_json_kv_fixed(&j, "to", secs(h->gaps[i].to), 3);
		np_json_obj_close(&j);
	}
	np_json_arr_close(&j);
	np_json_key_arr_open(&j, "clock_steps");
	for (size_t i = 0; i < h->nsteps; i++) {
		np_json_obj_open(&j);
		np_json_kv_fixed(&j, "time", secs(h->steps[i].t), 3);
		np_json_kv_fixed(&j, "step_s", secs(h->steps[i].step), 3);
		np_json_obj_close(&j);
	}
	np_json_arr_close(&j);
	json_worst(&j, "worst_seconds", h->worst, h->nworst, false);
	json_worst(&j, "worst_minutes", h->worst_min, h->nworst_min, true);
	np_json_kv_u64(&j, "damaged_blocks", h->damaged);
	np_json_obj_close(&j);
	np_json_end(&j);
}
