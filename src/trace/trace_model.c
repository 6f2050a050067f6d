// SPDX-License-Identifier: GPL-2.0-only
/* Aggregation of the drops map into report rows: pure, fed by tests with synthetic counts. */
#include "trace_model.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "trace_stage.h"

void np_trace_raw_free(struct np_trace_raw *r)
{
	for (size_t i = 0; i < r->ndrops; i++)
		free(r->drops[i].per_cpu);
	free(r->drops);
	free(r->arrivals);
	free(r->flows);
	free(r->other);
	free(r->stacks);
	memset(r, 0, sizeof(*r));
}

/* "udp_queue_rcv_one_skb+0x1a" → "udp_queue_rcv_one_skb" (offsets of one function merge). */
static void func_of(const struct np_ksyms *k, uint64_t addr, char *buf, size_t size)
{
	const struct np_ksym *s = np_ksyms_find(k, addr, NULL);

	if (s)
		snprintf(buf, size, "%s", s->name);
	else
		snprintf(buf, size, "0x%llx", (unsigned long long)addr);
}

enum np_severity np_trace_severity(const char *check, bool benign, uint64_t count,
				   double per_second)
{
	double warn = NP_TRACE_WARN_RATE, crit = NP_TRACE_CRIT_RATE;
	const struct np_check *c = check ? np_check_find(check) : NULL;

	if (benign || count == 0)
		return NP_SEV_OK;
	/* The same rule as doctor's np_verdict(): a check without thresholds (not a loss of
	 * wanted traffic, as UDP to closed ports) never rates above info. */
	if (c) {
		warn = c->warn;
		crit = c->crit;
	}
	if (!isnan(crit) && per_second >= crit)
		return NP_SEV_CRITICAL;
	if (!isnan(warn) && per_second >= warn)
		return NP_SEV_WARNING;
	return NP_SEV_INFO;
}

static struct np_trace_row *row_for(struct np_trace_summary *s, const char *name,
				    const char *loc, unsigned int ncpu)
{
	struct np_trace_row *r;

	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->rows[i].name, name) == 0 && strcmp(s->rows[i].location, loc) == 0)
			return &s->rows[i];
	r = realloc(s->rows, (s->n + 1) * sizeof(*r));
	if (!r)
		return NULL;
	s->rows = r;
	r = &r[s->n];
	memset(r, 0, sizeof(*r));
	r->per_cpu = calloc(ncpu ? ncpu : 1, sizeof(*r->per_cpu));
	if (!r->per_cpu)
		return NULL;
	s->n++;
	r->ncpu = ncpu;
	snprintf(r->name, sizeof(r->name), "%s", name);
	snprintf(r->location, sizeof(r->location), "%s", loc);
	return r;
}

/* Count drops at addr for the row (the same address from several keys merges). */
static int add_loc(struct np_trace_row *r, uint64_t addr, uint64_t count)
{
	struct np_trace_loc *l;

	if (!addr)
		return 0;
	for (size_t i = 0; i < r->nlocs; i++) {
		if (r->locs[i].addr == addr) {
			r->locs[i].count += count;
			return 0;
		}
	}
	l = realloc(r->locs, (r->nlocs + 1) * sizeof(*l));
	if (!l)
		return -ENOMEM;
	r->locs = l;
	memset(&l[r->nlocs], 0, sizeof(*l));
	l[r->nlocs].addr = addr;
	l[r->nlocs++].count = count;
	return 0;
}

static int cmp_locs(const void *a, const void *b)
{
	const struct np_trace_loc *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The NP_TRACE_MAX_LOCS busiest addresses as function+offset, the rest summed. */
static void finish_locs(struct np_trace_row *r, const struct np_ksyms *ksyms)
{
	if (!r->nlocs)
		return;
	qsort(r->locs, r->nlocs, sizeof(*r->locs), cmp_locs);
	for (size_t i = NP_TRACE_MAX_LOCS; i < r->nlocs; i++)
		r->locs_other += r->locs[i].count;
	if (r->nlocs > NP_TRACE_MAX_LOCS)
		r->nlocs = NP_TRACE_MAX_LOCS;
	for (size_t i = 0; i < r->nlocs; i++)
		np_ksyms_format(ksyms, r->locs[i].addr, r->locs[i].text, sizeof(r->locs[i].text));
}

static void row_free(struct np_trace_row *r)
{
	free(r->per_cpu);
	free(r->locs);
	free(r->flows);
}

static int cmp_rows(const void *a, const void *b)
{
	const struct np_trace_row *x = a, *y = b;

	if (x->stage != y->stage)
		return x->stage < y->stage ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->name, y->name);
}

int np_trace_summarize(const struct np_trace_raw *raw, const struct np_reason_names *names,
		       const struct np_ksyms *ksyms, double duration, bool all,
		       struct np_trace_summary *out)
{
	size_t keep = 0;

	memset(out, 0, sizeof(*out));
	out->duration = duration;
	out->lost = raw->lost;
	out->filtered = raw->filtered;
	for (size_t i = 0; i < raw->narrivals; i++) {
		out->arrivals += raw->arrivals[i].packets;
		out->arrivals_gro += raw->arrivals[i].gro;
	}
	/* Without --arrivals, the device's own counter (no rows per queue and CPU). */
	if (raw->arrivals_bpf)
		out->arrivals_from = "netif_receive_skb";
	else if (raw->rx_counted)
		out->arrivals_from = "rx_packets";
	if (!raw->arrivals_bpf && raw->rx_counted)
		out->arrivals = raw->rx_packets;
	for (size_t i = 0; i < raw->ndrops; i++) {
		const struct np_trace_raw_drop *d = &raw->drops[i];
		char name[64], loc[96] = "";
		struct np_reason_info info;
		struct np_trace_row *r;

		if (raw->has_reason) {
			np_reason_name(names, d->reason, name, sizeof(name));
			info = np_reason_info(name);
			if (d->location && strcmp(name, "NOT_SPECIFIED") == 0) {
				/* A NOT_SPECIFIED free: the function is the only clue to the
				 * stage, so each function gets its row; it stays benign. */
				func_of(ksyms, d->location, loc, sizeof(loc));
				info.stage = np_symbol_info(loc).stage;
			}
		} else {
			func_of(ksyms, d->location, name, sizeof(name));
			info = np_symbol_info(name);
		}
		r = row_for(out, name, loc, raw->ncpu);
		if (!r || add_loc(r, d->location, d->count) < 0) {
			np_trace_summary_free(out);
			return -ENOMEM;
		}
		r->reason = d->reason;
		r->stage = info.stage;
		r->explanation = info.explanation;
		r->benign = info.benign;
		r->check = raw->has_reason ? np_reason_check(name) : NULL;
		r->count += d->count;
		for (unsigned int c = 0; c < raw->ncpu; c++)
			r->per_cpu[c] += d->per_cpu[c];
	}
	/* Rates, severities, locations, and the benign rows dropped unless --all. */
	for (size_t i = 0; i < out->n; i++) {
		struct np_trace_row *r = &out->rows[i];

		r->per_second = duration > 0 ? (double)r->count / duration : 0;
		r->severity = np_trace_severity(r->check, r->benign, r->count, r->per_second);
		if (r->benign && !all) {
			out->nhidden++;
			out->hidden_benign += r->count;
			row_free(r);
			continue;
		}
		finish_locs(r, ksyms);
		if (!r->benign)
			out->stage_drops[r->stage] += r->count;
		out->rows[keep++] = *r;
	}
	out->n = keep;
	if (out->n)
		qsort(out->rows, out->n, sizeof(*out->rows), cmp_rows);
	return 0;
}

static int cmp_flows(const void *a, const void *b)
{
	const struct np_trace_flow *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return memcmp(&x->key, &y->key, sizeof(x->key));	/* a stable order for ties */
}

int np_trace_attribute(struct np_trace_summary *s, const struct np_trace_raw *raw, size_t top)
{
	s->flows_on = raw->flows_on && raw->has_reason;
	s->by = raw->by;
	s->top = top;
	s->flow_cap = raw->flow_cap;
	s->flow_keys = raw->nflows - raw->flow_slot_keys;	/* the map's keys, not slots' */
	for (size_t i = 0; i < raw->nother; i++)
		s->flows_full += raw->other[i].count;
	if (!s->flows_on)
		return 0;
	for (size_t i = 0; i < s->n; i++) {
		struct np_trace_row *r = &s->rows[i];
		size_t n = 0;

		/* NOT_SPECIFIED rows are split by function, but flows are keyed by reason
		 * only: those rows get no flows rather than the same ones repeated. */
		if (r->location[0])
			continue;
		for (size_t k = 0; k < raw->nflows; k++)
			n += raw->flows[k].key.reason == r->reason;
		for (size_t k = 0; k < raw->nother; k++)
			if (raw->other[k].reason == r->reason)
				r->flows_full += raw->other[k].count;
		r->flows_other = r->flows_full;
		if (!n)
			continue;
		r->flows = calloc(n, sizeof(*r->flows));
		if (!r->flows)
			return -ENOMEM;
		for (size_t k = 0; k < raw->nflows; k++)
			if (raw->flows[k].key.reason == r->reason)
				r->flows[r->nflows++] = (struct np_trace_flow){ raw->flows[k].key,
										raw->flows[k].count };
		qsort(r->flows, r->nflows, sizeof(*r->flows), cmp_flows);
		for (size_t k = top; k < r->nflows; k++)
			r->flows_other += r->flows[k].count;
		if (r->nflows > top)
			r->nflows = top;
	}
	return 0;
}

void np_trace_summary_free(struct np_trace_summary *s)
{
	for (size_t i = 0; i < s->n; i++)
		row_free(&s->rows[i]);
	free(s->rows);
	memset(s, 0, sizeof(*s));
}

enum np_severity np_trace_worst(const struct np_trace_summary *s)
{
	enum np_severity w = NP_SEV_OK;

	for (size_t i = 0; i < s->n; i++)
		if (s->rows[i].severity > w)
			w = s->rows[i].severity;
	return w;
}
