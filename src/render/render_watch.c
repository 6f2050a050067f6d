// SPDX-License-Identifier: GPL-2.0-only
/* Watch frame renderers: tagged lines, shared by text and the TUI (JSON: render_watch_json.c). */
#include "render_watch.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"
#include "text_wrap.h"

/* Column layout of the tables: a label column then numbers right-aligned in 12. */
#define NUM "%12s"

/* "-" for not reported, one decimal under 10/s (a trickle is worth seeing), else "1,234". */
static const char *fmt_rate(double v, char *buf, size_t size)
{
	if (isnan(v))
		snprintf(buf, size, "-");
	else if (v < 0.05)
		snprintf(buf, size, "0");
	else if (v < 10 && fabs(v - np_round(v)) >= 0.05)
		snprintf(buf, size, "%.1f", v);
	else if (v < 10)
		snprintf(buf, size, "%.0f", v);
	else
		np_fmt_count(np_round(v), buf, size);
	return buf;
}

struct emitter {
	np_watch_line_fn fn;
	void *arg;
	enum np_watch_section section;
	char buf[512];
};

static void emit(struct emitter *e, enum np_watch_line_kind kind, bool hot, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void emit(struct emitter *e, enum np_watch_line_kind kind, bool hot, const char *fmt, ...)
{
	struct np_watch_line l = { .section = e->section, .kind = kind, .hot = hot,
				   .text = e->buf };
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->buf, sizeof(e->buf), fmt, ap);
	va_end(ap);
	e->fn(e->arg, &l);
}

static bool dropping(double v)
{
	return !isnan(v) && v >= 0.05;
}

/* Which rows of a table of n to show when only max fit: the max with the highest score, kept
 * in table order. keep[] must hold n entries. Returns how many were left out. */
static size_t pick_rows(const double *score, size_t n, size_t max, bool *keep)
{
	size_t kept = 0;

	for (size_t i = 0; i < n; i++)
		keep[i] = max == 0 || n <= max;
	if (max == 0 || n <= max)
		return 0;
	while (kept < max) {
		size_t best = n;

		for (size_t i = 0; i < n; i++)
			if (!keep[i] && (best == n || score[i] > score[best]))
				best = i;
		keep[best] = true;
		kept++;
	}
	return n - max;
}

static double nz(double v)
{
	return isnan(v) ? 0 : v;
}

static const struct np_watch_irq *irq_of(const struct np_watch_frame *f, int cpu)
{
	for (size_t i = 0; i < f->nirq; i++)
		if (f->irqs[i].cpu == cpu)
			return &f->irqs[i];
	return NULL;
}

static void lines_stages(struct emitter *e, const struct np_watch_frame *f)
{
	char a[32], b[32];

	e->section = NP_WS_STAGES;
	emit(e, NP_WL_HEAD, false, "%-11s%-10s" NUM NUM, "stage", "scope", "packets/s",
	     "drops/s");
	for (size_t i = 0; i < f->nstage; i++) {
		const struct np_watch_stage *s = &f->stages[i];

		emit(e, NP_WL_ROW, dropping(s->drops), "%-11s%-10s" NUM NUM,
		     np_stage_name(s->stage), np_scope_name(s->scope),
		     fmt_rate(s->packets, a, sizeof(a)), fmt_rate(s->drops, b, sizeof(b)));
	}
}

static void lines_cpus(struct emitter *e, const struct np_watch_frame *f, size_t max)
{
	double *score = calloc(f->ncpu ? f->ncpu : 1, sizeof(*score));
	bool *keep = calloc(f->ncpu ? f->ncpu : 1, sizeof(*keep));
	char c[6][32];
	size_t hidden;

	e->section = NP_WS_CPUS;
	emit(e, NP_WL_HEAD, false, "%-4s" NUM NUM NUM NUM NUM NUM, "cpu", "processed/s",
	     "dropped/s", "squeezed/s", "rps/s", "flow-lim/s", "dev-irq/s");
	if (!score || !keep) {
		emit(e, NP_WL_NOTE, false, "  (out of memory)");
		goto out;
	}
	if (f->ncpu == 0)
		emit(e, NP_WL_NOTE, false, "  softnet_stat not readable");
	for (size_t i = 0; i < f->ncpu; i++) {
		const struct np_watch_cpu *w = &f->cpus[i];
		const struct np_watch_irq *q = irq_of(f, w->cpu);

		/* Drops and squeezes first, then the busiest CPUs. */
		score[i] = 1e12 * (nz(w->dropped) + nz(w->flow_limit)) + 1e9 * nz(w->squeezed) +
			   nz(w->processed) + (q ? nz(q->rate) : 0);
	}
	hidden = pick_rows(score, f->ncpu, max, keep);
	for (size_t i = 0; i < f->ncpu; i++) {
		const struct np_watch_cpu *w = &f->cpus[i];
		const struct np_watch_irq *q = irq_of(f, w->cpu);

		if (!keep[i])
			continue;
		emit(e, NP_WL_ROW, dropping(w->dropped) || dropping(w->squeezed) ||
		     dropping(w->flow_limit), "%-4d" NUM NUM NUM NUM NUM NUM, w->cpu,
		     fmt_rate(w->processed, c[0], sizeof(c[0])),
		     fmt_rate(w->dropped, c[1], sizeof(c[1])),
		     fmt_rate(w->squeezed, c[2], sizeof(c[2])),
		     fmt_rate(w->rps, c[3], sizeof(c[3])),
		     fmt_rate(w->flow_limit, c[4], sizeof(c[4])),
		     fmt_rate(q ? q->rate : NAN, c[5], sizeof(c[5])));
	}
	if (hidden)
		emit(e, NP_WL_NOTE, false, "  +%zu quieter CPUs not shown", hidden);
	if (f->irq_note[0])
		emit(e, NP_WL_NOTE, false, "  dev-irq/s: %s", f->irq_note);
out:
	free(score);
	free(keep);
}

static void lines_queues(struct emitter *e, const struct np_watch_frame *f, size_t max)
{
	double *score = calloc(f->nqueue ? f->nqueue : 1, sizeof(*score));
	bool *keep = calloc(f->nqueue ? f->nqueue : 1, sizeof(*keep));
	char a[32], b[32], src[32];
	size_t hidden;

	e->section = NP_WS_QUEUES;
	emit(e, NP_WL_HEAD, false, "%-6s" NUM NUM "  %s", "queue", "rx pkts/s", "drops/s",
	     "source");
	if (!score || !keep) {
		emit(e, NP_WL_NOTE, false, "  (out of memory)");
		goto out;
	}
	if (f->nqueue == 0)
		emit(e, NP_WL_NOTE, false, "  %s",
		     f->queue_note[0] ? f->queue_note : "not reported");
	for (size_t i = 0; i < f->nqueue; i++)
		score[i] = 1e12 * nz(f->queues[i].drops) + nz(f->queues[i].packets);
	hidden = pick_rows(score, f->nqueue, max, keep);
	for (size_t i = 0; i < f->nqueue; i++) {
		const struct np_watch_queue *q = &f->queues[i];

		if (!keep[i])
			continue;
		if (q->source && q->drops_source && strcmp(q->source, q->drops_source) != 0)
			snprintf(src, sizeof(src), "%s, drops %s", q->source, q->drops_source);
		else
			snprintf(src, sizeof(src), "%s", q->source ? q->source :
				 q->drops_source ? q->drops_source : "-");
		emit(e, NP_WL_ROW, dropping(q->drops), "%-6d" NUM NUM "  %s", q->queue,
		     fmt_rate(q->packets, a, sizeof(a)), fmt_rate(q->drops, b, sizeof(b)), src);
	}
	if (hidden)
		emit(e, NP_WL_NOTE, false, "  +%zu quieter queues not shown", hidden);
out:
	free(score);
	free(keep);
}

/* "  full TCP walk every 10 frames (adaptive: 312 ms CPU a walk, 4.1 ms a frame between),
 * last 0.8 s ago; listeners and UDP every frame": where the established flows come from. */
static void line_walk(struct emitter *e, const struct np_watch_frame *f)
{
	const struct np_watch_walk *w = &f->walk;
	char every[32], cost[96] = "", age[32];

	if (!w->known)
		return;
	if (w->only_listeners) {
		emit(e, NP_WL_NOTE, false, "  no TCP socket here but listeners (sockstat): no full "
		     "TCP walk needed; listeners and UDP every frame");
		return;
	}
	if (w->every == 1)
		snprintf(every, sizeof(every), " every frame");
	else if (w->every)
		snprintf(every, sizeof(every), " every %u frames", w->every);
	else
		every[0] = '\0';
	if (w->adaptive && !isnan(w->walk_cpu_ms) && !isnan(w->frame_cpu_ms))
		snprintf(cost, sizeof(cost), " (adaptive: %.0f ms CPU a walk, %.1f ms a frame "
			 "between)", w->walk_cpu_ms, w->frame_cpu_ms);
	else if (w->adaptive && !isnan(w->walk_cpu_ms))
		snprintf(cost, sizeof(cost), " (adaptive: %.0f ms CPU a walk)", w->walk_cpu_ms);
	else if (!w->adaptive && w->every)
		snprintf(cost, sizeof(cost), " (--socket-walk-every)");
	if (w->full)
		snprintf(age, sizeof(age), "this frame");
	else if (isnan(w->age_s))
		snprintf(age, sizeof(age), "unknown");
	else
		snprintf(age, sizeof(age), "%.1f s ago", w->age_s);
	emit(e, NP_WL_NOTE, false, "  full TCP walk%s%s, last %s; listeners and UDP every frame",
	     every, cost, age);
}

static void lines_socks(struct emitter *e, const struct np_watch_frame *f, size_t max)
{
	char a[32], b[32];
	size_t n = max && f->nsock > max ? max : f->nsock;

	e->section = NP_WS_SOCKS;
	emit(e, NP_WL_HEAD, false, "%-7s%-33s" NUM "%14s", "socket", "local address", "drops/s",
	     "drops");
	line_walk(e, f);
	if (!f->has_socks || f->nsock == 0)
		emit(e, NP_WL_NOTE, false, "  %s", f->sock_note[0] ? f->sock_note : "not reported");
	for (size_t i = 0; i < n; i++) {
		const struct np_watch_sock *s = &f->socks[i];

		emit(e, NP_WL_ROW, dropping(s->rate), "%-7s%-33s" NUM "%14s", s->proto, s->local,
		     fmt_rate(s->rate, a, sizeof(a)), np_fmt_count((double)s->drops, b, sizeof(b)));
	}
	if (n < f->nsock)
		emit(e, NP_WL_NOTE, false, "  +%zu more sockets not shown", f->nsock - n);
}

static void lines_findings(struct emitter *e, const struct np_watch_frame *f, size_t max)
{
	size_t n = max && f->nfind > max ? max : f->nfind, nnew = 0;
	static const char *const sev[] = { "ok", "INFO", "WARNING", "CRITICAL" };

	e->section = NP_WS_FINDINGS;
	for (size_t i = 0; i < f->nfind; i++)
		nnew += f->findings[i].is_new;
	emit(e, NP_WL_HEAD, false, "findings: %zu, %zu new since the first frame", f->nfind, nnew);
	for (size_t i = 0; i < n; i++) {
		const struct np_watch_finding *w = &f->findings[i];
		struct np_watch_line l = { .section = NP_WS_FINDINGS, .kind = NP_WL_FINDING,
					   .hot = w->severity >= NP_SEV_WARNING,
					   .is_new = w->is_new, .severity = w->severity,
					   .text = e->buf };

		snprintf(e->buf, sizeof(e->buf), "%-4s%-9s%-32s %s%s", w->is_new ? "NEW" : "",
			 sev[w->severity], w->check->id, w->summary,
			 w->from_walk ? "  [from the last full TCP walk]" : "");
		e->fn(e->arg, &l);
	}
	if (n < f->nfind)
		emit(e, NP_WL_NOTE, false, "  +%zu more findings not shown", f->nfind - n);
}

void np_watch_lines(const struct np_watch_frame *f, const struct np_watch_layout *lay,
		    np_watch_line_fn fn, void *arg)
{
	static const struct np_watch_layout all = { 0 };
	struct emitter e = { .fn = fn, .arg = arg, .section = NP_WS_TITLE };

	if (!lay)
		lay = &all;
	emit(&e, NP_WL_TITLE, false, "netpath watch %s  frame %u  over %.2f s%s%s", f->ifname,
	     f->seq, f->dt, f->time[0] ? "  " : "", f->time);
	lines_stages(&e, f);
	lines_cpus(&e, f, lay->max_cpus);
	lines_queues(&e, f, lay->max_queues);
	lines_socks(&e, f, lay->max_socks);
	lines_findings(&e, f, lay->max_findings);
}

struct counter {
	size_t n[NP_WS__COUNT];
};

static void count_line(void *arg, const struct np_watch_line *l)
{
	((struct counter *)arg)->n[l->section]++;
}

/* Lines a table of want rows takes when k are shown: a "+N more" note when some are left out. */
static size_t table_cost(size_t want, size_t k)
{
	return k + (k < want ? 1 : 0);
}

/* The title, stages and table headers always, and at least one row of each table; then the
 * tables grow a row at a time in turn (findings, CPUs, queues, sockets) while the screen has
 * room, the busiest rows first (pick_rows). */
void np_watch_layout_fit(const struct np_watch_frame *f, size_t rows, struct np_watch_layout *lay)
{
	struct counter c = { { 0 } };
	size_t want[4] = { f->nfind, f->ncpu, f->nqueue, f->nsock }, k[4], used;
	size_t *max[4] = { &lay->max_findings, &lay->max_cpus, &lay->max_queues, &lay->max_socks };
	bool grew = true;

	memset(lay, 0, sizeof(*lay));
	np_watch_lines(f, NULL, count_line, &c);
	/* Everything but the tables' data rows: titles, headers and notes. */
	used = c.n[NP_WS_TITLE] + c.n[NP_WS_STAGES] + (c.n[NP_WS_CPUS] - f->ncpu) +
	       (c.n[NP_WS_QUEUES] - f->nqueue) + (c.n[NP_WS_SOCKS] - f->nsock) +
	       (c.n[NP_WS_FINDINGS] - f->nfind);
	if (used + f->ncpu + f->nqueue + f->nsock + f->nfind <= rows)
		return;
	for (int i = 0; i < 4; i++) {
		k[i] = want[i] ? 1 : 0;
		used += table_cost(want[i], k[i]);
	}
	while (grew) {
		grew = false;
		for (int i = 0; i < 4; i++) {
			size_t more;

			if (k[i] >= want[i])
				continue;
			more = table_cost(want[i], k[i] + 1) - table_cost(want[i], k[i]);
			if (used + more > rows)
				continue;
			k[i]++;
			used += more;
			grew = true;
		}
	}
	for (int i = 0; i < 4; i++)
		*max[i] = k[i] < want[i] ? k[i] : 0;
}

static void text_line(void *arg, const struct np_watch_line *l)
{
	FILE *out = arg;
	size_t len = strlen(l->text);

	/* Tables pad to fixed columns; trailing blanks help nobody in a log. */
	while (len && l->text[len - 1] == ' ')
		len--;
	fprintf(out, "%.*s\n", (int)len, l->text);
}

void np_render_watch_text(FILE *out, const struct np_watch_frame *f, int width)
{
	struct np_wrap_stream w;
	FILE *o = np_wrap_open(&w, out, width);

	np_watch_lines(f, NULL, text_line, o);
	fputc('\n', o);
	np_wrap_close(&w);
}
