// SPDX-License-Identifier: GPL-2.0-only
/* `netpath trace` text: one table along the receive path, counters and drop reasons together. */
#include "trace_render.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "render.h"
#include "text_wrap.h"
#include "trace_stack.h"
#include "xdp_render.h"

/* Rates: whole numbers from 100/s on, so big ones get their thousands separators. */
static const char *fmt_rate(double v, char *buf, size_t size)
{
	return np_fmt_count(v >= 100 ? np_round(v) : v, buf, size);
}

/* The finding to read first: worst severity, then the highest rank (drops per second). */
static const struct np_finding *top_finding(const struct np_report *r)
{
	const struct np_finding *best = NULL;

	for (size_t i = 0; r && i < r->n; i++) {
		const struct np_finding *f = &r->f[i];

		if (f->severity < NP_SEV_WARNING)
			continue;
		if (!best || f->severity > best->severity ||
		    (f->severity == best->severity && f->rank > best->rank))
			best = f;
	}
	return best;
}

static const struct np_trace_row *top_row(const struct np_trace_summary *s)
{
	const struct np_trace_row *best = NULL;

	for (size_t i = 0; i < s->n; i++) {
		const struct np_trace_row *r = &s->rows[i];

		if (r->severity < NP_SEV_INFO)
			continue;
		if (!best || r->severity > best->severity ||
		    (r->severity == best->severity && r->count > best->count))
			best = r;
	}
	return best;
}

static void print_top(FILE *out, const struct np_trace_view *v)
{
	const struct np_finding *f = top_finding(v->r);
	const struct np_trace_row *d = top_row(v->sum);
	char a[32], b[32];

	if (d && (!f || d->severity >= f->severity)) {
		fprintf(out, "Top: %s %s, %s drops (%s/s) in stage %s: %s\n",
			np_severity_name(d->severity), d->name,
			np_fmt_count((double)d->count, a, sizeof(a)),
			fmt_rate(d->per_second, b, sizeof(b)), np_stage_name(d->stage),
			d->explanation);
	} else if (f) {
		fprintf(out, "Top: %s %s: %s\n", np_severity_name(f->severity), f->check->id,
			f->summary);
	} else {
		fputs("Top: no drop on the receive path of this interface during the window\n",
		      out);
	}
}

/*
 * One accounting per stage: the counters' drops and the traced reasons under the row are two
 * lower bounds of the same loss (the counters see ring and hardware drops that free no skb and
 * cover the whole namespace; the reasons see drops no counter has, as netfilter's). The row
 * shows the larger, and says which it is, so it never reads "lost 0" above a reason that lost.
 */
static void counter_cells(FILE *out, const struct np_trace_view *v, enum np_stage st,
			  const struct np_counter_view *in, const struct np_counter_view *drop)
{
	uint64_t traced = v->sum->stage_drops[st];
	double dt = v->sum->duration;
	bool have = drop->present && drop->sampled;
	char a[32], b[32], c[32];
	const char *src = "-";

	if (in->present && in->sampled)
		fmt_rate(in->rate, a, sizeof(a));
	else
		snprintf(a, sizeof(a), "-");
	if (traced && (!have || traced > drop->delta)) {
		fmt_rate(dt > 0 ? (double)traced / dt : 0, b, sizeof(b));
		np_fmt_count((double)traced, c, sizeof(c));
		src = "reasons";
	} else if (have) {
		fmt_rate(drop->rate, b, sizeof(b));
		np_fmt_count((double)drop->delta, c, sizeof(c));
		src = "counters";
	} else {
		snprintf(b, sizeof(b), "-");
		snprintf(c, sizeof(c), "-");
	}
	fprintf(out, "%14s %12s %12s  %s", a, b, c, src);
}

static void print_flows(FILE *out, const struct np_trace_view *v, const struct np_trace_row *r)
{
	char f[160], a[32];

	for (size_t i = 0; i < r->nflows; i++)
		fprintf(out, "        %-56s %12s\n",
			np_flow_format(&r->flows[i].key, v->sum->by, f, sizeof(f)),
			np_fmt_count((double)r->flows[i].count, a, sizeof(a)));
	if (r->flows_other) {
		fprintf(out, "        %-56s %12s\n", "(other flows)",
			np_fmt_count((double)r->flows_other, a, sizeof(a)));
		if (r->flows_full)
			fprintf(out, "        (%s of them not keyed: the kernel's flow map was full "
				"at %zu keys)\n", np_fmt_count((double)r->flows_full, a, sizeof(a)),
				v->sum->flow_cap);
	}
}

/* Returns whether the stage was printed (its findings are then shown in it). */
static bool print_stage(FILE *out, const struct np_trace_view *v, enum np_stage st)
{
	const struct np_funnel_row *fr = NULL;
	static const struct np_counter_view none;
	bool any = false;

	for (size_t i = 0; v->funnel && i < v->funnel->n; i++)
		if (v->funnel->rows[i].stage == st)
			fr = &v->funnel->rows[i];
	for (size_t i = 0; i < v->sum->n; i++)
		any |= v->sum->rows[i].stage == st;
	if (!fr && !any)
		return false;
	fprintf(out, "%-11s %-9s ", np_stage_name(st), fr ? np_scope_name(fr->scope) : "");
	counter_cells(out, v, st, fr ? &fr->in : &none, fr ? &fr->drop : &none);
	fputc('\n', out);
	if (st == NP_STAGE_NIC)
		fputs("    (ring and hardware drops free no skb: only these counters see them)\n",
		      out);
	/* Doctor's verdicts on this stage: losses only a counter witnesses (a veth refusing
	 * frames above its MTU frees them on the sending device, out of the tracer's sight). */
	for (size_t i = 0; v->r && i < v->r->n; i++) {
		const struct np_finding *f = &v->r->f[i];

		if (f->severity >= NP_SEV_WARNING && f->check->stage == st)
			fprintf(out, "    %-8s %s: %s\n", np_severity_name(f->severity),
				f->check->id, f->summary);
	}
	for (size_t i = 0; i < v->sum->n; i++) {
		const struct np_trace_row *r = &v->sum->rows[i];
		char a[32], b[32];

		if (r->stage != st)
			continue;
		fprintf(out, "    %-26s %12s %10s/s  %s%s%s%s\n", r->name,
			np_fmt_count((double)r->count, a, sizeof(a)),
			fmt_rate(r->per_second, b, sizeof(b)),
			r->location[0] ? "in " : "", r->location, r->location[0] ? ": " : "",
			r->explanation);
		if (r->nlocs) {
			fprintf(out, "        at %s", r->locs[0].text);
			for (size_t k = 1; k < r->nlocs; k++)
				fprintf(out, ", %s", r->locs[k].text);
			if (r->locs_other)
				fputs(", ...", out);
			fputc('\n', out);
		}
		print_flows(out, v, r);
		if (v->nfrules && !strcmp(r->name, "NETFILTER_DROP"))
			np_nfrule_render_text(out, v->nfrules, "        ");
	}
	return true;
}

static void print_arrivals(FILE *out, const struct np_trace_view *v, int verbose)
{
	const struct np_trace_raw *raw = v->raw;
	char a[32], b[32], c[32];
	double dt = v->sum->duration;

	if (!v->sum->arrivals_from) {
		fprintf(out, "\nArrivals on %s: unknown (the rx_packets counter could not be read)\n",
			v->ifname);
		return;
	}
	if (!strcmp(v->sum->arrivals_from, "rx_packets")) {
		fprintf(out, "\nArrivals on %s (its rx_packets counter): %s packets, %s/s"
			"; per rx queue and CPU: --arrivals\n", v->ifname,
			np_fmt_count((double)v->sum->arrivals, a, sizeof(a)),
			fmt_rate(dt > 0 ? (double)v->sum->arrivals / dt : 0, b, sizeof(b)));
		return;
	}
	fprintf(out, "\nArrivals on %s (net:netif_receive_skb, after GRO): %s skbs, %s/s",
		v->ifname, np_fmt_count((double)v->sum->arrivals, a, sizeof(a)),
		fmt_rate(dt > 0 ? (double)v->sum->arrivals / dt : 0, b, sizeof(b)));
	if (v->gro_attached)
		fprintf(out, "; handed to GRO by the driver: %s",
			np_fmt_count((double)v->sum->arrivals_gro, c, sizeof(c)));
	fputc('\n', out);
	for (size_t i = 0; i < raw->narrivals; i++) {
		const struct np_trace_raw_arrival *x = &raw->arrivals[i];
		char q[16];

		if (x->queue < 0)
			snprintf(q, sizeof(q), "-");
		else
			snprintf(q, sizeof(q), "%d", x->queue);
		if (i >= 16 && verbose < 1) {
			fprintf(out, "  ... %zu more rows (-v shows all)\n", raw->narrivals - i);
			break;
		}
		fprintf(out, "  queue %-4s cpu %-4u %14s skbs  %14s to GRO\n", q, x->cpu,
			np_fmt_count((double)x->packets, a, sizeof(a)),
			np_fmt_count((double)x->gro, b, sizeof(b)));
	}
}

/* What the kernel side keyed and filtered, when it did either. */
static void print_attribution(FILE *out, const struct np_trace_view *v)
{
	char f[160] = "", a[32];

	if (v->filter)
		np_trace_filter_text(v->filter, f, sizeof(f));
	if (f[0])
		fprintf(out, "Filter (in the kernel): %s; %s drops on %s did not match\n", f,
			np_fmt_count((double)v->sum->filtered, a, sizeof(a)), v->ifname);
	if (v->sum->flows_on)
		fprintf(out, "Top %zu flows per reason by %s (%zu of %zu kernel keys used)\n",
			v->sum->top, np_trace_by_name(v->sum->by), v->sum->flow_keys,
			v->sum->flow_cap);
}

static void trace_text(FILE *out, const struct np_trace_view *v, int verbose)
{
	bool in_table[NP_STAGE__COUNT] = { false };
	char a[32];

	fprintf(out, "netpath trace %s: %.1f s%s, %s, namespace inode %" PRIu32 "%s%s\n",
		v->ifname, v->sum->duration, v->interrupted ? " (interrupted)" : "",
		v->has_reason ? "drop reasons from BTF" : "drop locations (kernel without reasons)",
		v->netns_inum, v->netns ? " --netns " : "", v->netns ? v->netns : "");
	print_top(out, v);
	print_attribution(out, v);
	fprintf(out, "\n%-11s %-9s %14s %12s %12s  %s\n", "stage", "scope", "packets/s", "lost/s",
		"lost", "from");
	for (int st = 0; st < NP_STAGE__COUNT; st++)
		in_table[st] = print_stage(out, v, (enum np_stage)st);
	print_arrivals(out, v, verbose);
	if (v->xdp && v->xdp_counts) {
		fputc('\n', out);
		np_xdp_render_text(out, v->xdp, v->xdp_counts, v->sum->duration, verbose);
	}
	np_trace_stacks_text(out, v->stacks);
	for (size_t i = 0, shown = 0; v->r && i < v->r->n; i++) {
		const struct np_finding *f = &v->r->f[i];

		/* Warnings and worse not already in the table; every finding with -v. */
		if (f->severity < NP_SEV_WARNING && verbose < 1)
			continue;
		if (f->severity >= NP_SEV_WARNING && in_table[f->check->stage] && verbose < 1)
			continue;
		if (!shown++)
			fputs("\nFindings over the same window (netpath doctor's checks):\n", out);
		fprintf(out, "  %-8s %-10s %-28s %s\n", np_severity_name(f->severity),
			np_stage_name(f->check->stage), f->check->id, f->summary);
	}
	if (v->sum->nhidden)
		fprintf(out, "\n%s benign frees in %zu rows hidden (NOT_SPECIFIED and normal "
			"frees); --all shows them\n",
			np_fmt_count((double)v->sum->hidden_benign, a, sizeof(a)), v->sum->nhidden);
	if (v->sum->lost)
		fprintf(out, "%s events not counted: a BPF map was full, or a packet "
			"came from an rx queue above 1023\n",
			np_fmt_count((double)v->sum->lost, a, sizeof(a)));
}

void np_render_trace_text(FILE *out, const struct np_trace_view *v, int verbose, int width)
{
	struct np_wrap_stream w;

	trace_text(np_wrap_open(&w, out, width), v, verbose);
	np_wrap_close(&w);
}
