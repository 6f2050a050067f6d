// SPDX-License-Identifier: GPL-2.0-only
/* Aggregation of the drops map into report rows: pure, fed by tests with synthetic counts. */
#include "trace_model.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_stage.h"

void np_trace_raw_free(struct np_trace_raw *r)
{
	for (size_t i = 0; i < r->ndrops; i++)
		free(r->drops[i].per_cpu);
	free(r->drops);
	free(r->arrivals);
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

static enum np_severity severity(const struct np_trace_row *r)
{
	if (r->benign || r->count == 0)
		return NP_SEV_OK;
	if (r->per_second >= NP_TRACE_CRIT_RATE)
		return NP_SEV_CRITICAL;
	if (r->per_second >= NP_TRACE_WARN_RATE)
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
	for (size_t i = 0; i < raw->narrivals; i++) {
		out->arrivals += raw->arrivals[i].packets;
		out->arrivals_gro += raw->arrivals[i].gro;
	}
	for (size_t i = 0; i < raw->ndrops; i++) {
		const struct np_trace_raw_drop *d = &raw->drops[i];
		char name[64], loc[96] = "";
		struct np_reason_info info;
		struct np_trace_row *r;

		if (raw->has_reason) {
			np_reason_name(names, d->reason, name, sizeof(name));
			info = np_reason_info(name);
			if (d->location) {
				/* A NOT_SPECIFIED free: the function is the only clue to the
				 * stage; it stays benign. */
				func_of(ksyms, d->location, loc, sizeof(loc));
				info.stage = np_symbol_info(loc).stage;
			}
		} else {
			func_of(ksyms, d->location, name, sizeof(name));
			info = np_symbol_info(name);
		}
		r = row_for(out, name, loc, raw->ncpu);
		if (!r) {
			np_trace_summary_free(out);
			return -ENOMEM;
		}
		r->stage = info.stage;
		r->explanation = info.explanation;
		r->benign = info.benign;
		r->count += d->count;
		for (unsigned int c = 0; c < raw->ncpu; c++)
			r->per_cpu[c] += d->per_cpu[c];
	}
	/* Rates, severities, and the benign rows dropped unless --all. */
	for (size_t i = 0; i < out->n; i++) {
		struct np_trace_row *r = &out->rows[i];

		r->per_second = duration > 0 ? (double)r->count / duration : 0;
		r->severity = severity(r);
		if (r->benign && !all) {
			out->nhidden++;
			out->hidden_benign += r->count;
			free(r->per_cpu);
			continue;
		}
		out->rows[keep++] = *r;
	}
	out->n = keep;
	if (out->n)
		qsort(out->rows, out->n, sizeof(*out->rows), cmp_rows);
	return 0;
}

void np_trace_summary_free(struct np_trace_summary *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->rows[i].per_cpu);
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
