// SPDX-License-Identifier: GPL-2.0-only
/* record --drops: the tracepoint programs of every recorded interface (record_drops.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record_drops.h"

int np_record_drops_start(struct np_record_drops *d, const char (*names)[IF_NAMESIZE], size_t n,
			  char *err, size_t errlen)
{
	/* Flows keyed whole (addresses, ports, protocol, reason), as trace's --by flow. */
	struct np_trace_opts to = { .flows = true, .by = NP_BY_FLOW };
	char why[300];

	memset(d, 0, sizeof(*d));
	for (size_t i = 0; i < n && i < NP_STACK_MAX; i++) {
		int r = np_trace_start(names[i], &to, &d->t[i], why, sizeof(why));

		if (r < 0) {
			snprintf(err, errlen, "%s: %s", names[i], why);
			np_record_drops_stop(d);
			return r;
		}
		snprintf(d->ifname[i], IF_NAMESIZE, "%s", names[i]);
		d->n = i + 1;
	}
	return 0;
}

/* Does d trace exactly these interfaces, each under the ifindex the name has now? */
static bool traces_these(const struct np_record_drops *d, const char (*names)[IF_NAMESIZE],
			 size_t n)
{
	if (d->n != (n < NP_STACK_MAX ? n : NP_STACK_MAX))
		return false;
	for (size_t i = 0; i < d->n; i++)
		if (strcmp(d->ifname[i], names[i]) ||
		    np_trace_ifindex(d->t[i]) != (int)if_nametoindex(names[i]))
			return false;
	return true;
}

int np_record_drops_follow(struct np_record_drops *d, const char (*names)[IF_NAMESIZE], size_t n,
			   char *err, size_t errlen)
{
	if (traces_these(d, names, n))
		return 0;
	/* The programs filter on the ifindex they were loaded with: a re-created interface
	 * (same name, new ifindex) would count nothing. Their counts start over with them,
	 * which is right: the recorder begins a new run of the store here. */
	np_record_drops_stop(d);
	return np_record_drops_start(d, names, n, err, errlen);
}

void np_record_drops_stop(struct np_record_drops *d)
{
	for (size_t i = 0; i < d->n; i++)
		np_trace_stop(d->t[i]);
	free(d->reason);
	memset(d, 0, sizeof(*d));
}

static struct np_record_reason *reason_of(struct np_record_drops *d, const char *name,
					  uint32_t code)
{
	struct np_record_reason *p;

	for (size_t i = 0; i < d->nreason; i++)
		if (!strcmp(d->reason[i].name, name))
			return &d->reason[i];
	if (d->nreason == d->reason_cap) {
		size_t cap = d->reason_cap ? d->reason_cap * 2 : 16;

		p = realloc(d->reason, cap * sizeof(*p));
		if (!p)
			return NULL;
		d->reason = p;
		d->reason_cap = cap;
	}
	p = &d->reason[d->nreason++];
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->code = code;
	return p;
}

/* Interface i's counts by reason (its map is keyed by reason and location: one reason may
 * have several keys, summed here). A map that cannot be read keeps its last counts. */
static int peek(struct np_record_drops *d, size_t i)
{
	struct np_trace_raw raw;
	char name[48];

	if (np_trace_peek(d->t[i], &raw) < 0)
		return 0;
	d->lost[i] = raw.lost;
	for (size_t k = 0; k < d->nreason; k++)
		d->reason[k].count[i] = 0;
	for (size_t k = 0; k < raw.ndrops; k++) {
		struct np_record_reason *r;

		np_reason_name(np_trace_names(d->t[i]), raw.drops[k].reason, name, sizeof(name));
		r = reason_of(d, name, raw.drops[k].reason);
		if (!r) {
			np_trace_raw_free(&raw);
			return -ENOMEM;
		}
		r->count[i] += raw.drops[k].count;
	}
	np_trace_raw_free(&raw);
	return 0;
}

static int by_drops(const void *x, const void *y)
{
	const struct np_record_top *a = x, *b = y;

	return a->drops < b->drops ? 1 : a->drops > b->drops ? -1 : 0;
}

/* The minute ended: every interface's flows taken out, the top ones kept. */
static int take_top(struct np_record_drops *d, int64_t now)
{
	struct np_record_top *all = NULL;
	size_t nall = 0;

	for (size_t i = 0; i < d->n; i++) {
		struct np_trace_raw_flow *f;
		struct np_record_top *p;
		size_t n;

		if (np_trace_take_flows(d->t[i], &f, &n) < 0)
			continue;	/* not taken: counted in the next minute */
		p = realloc(all, (nall + n + 1) * sizeof(*p));
		if (!p) {
			free(f);
			free(all);
			return -ENOMEM;
		}
		all = p;
		for (size_t k = 0; k < n; k++)
			all[nall++] = (struct np_record_top){
				.key = f[k].key, .drops = f[k].count,
				.ifindex = np_trace_ifindex(d->t[i]),
			};
		free(f);
	}
	if (nall)
		qsort(all, nall, sizeof(*all), by_drops);
	d->ntop = nall < NP_RECORD_TOP_FLOWS ? nall : NP_RECORD_TOP_FLOWS;
	memset(d->top, 0, sizeof(d->top));
	if (d->ntop)
		memcpy(d->top, all, d->ntop * sizeof(*all));
	free(all);
	d->top_minute = d->minute;
	d->top_from = d->from;
	d->top_to = now;
	return 0;
}

int np_record_flows_add(const struct np_record_drops *d, struct np_named_counters *nc)
{
	int r = np_named_counters_add(nc, (uint64_t)d->top_minute, "flows/minute");

	if (!r)
		r = np_named_counters_add(nc, (uint64_t)d->top_from, "flows/from");
	if (!r)
		r = np_named_counters_add(nc, (uint64_t)d->top_to, "flows/to");
	/* Every slot in every frame, empty ones 0: the names never change. */
	for (size_t k = 0; !r && k < NP_RECORD_TOP_FLOWS; k++) {
		uint64_t w[NP_RECORD_FLOW_WORDS];

		memcpy(w, &d->top[k].key, sizeof(w));
		r = np_named_counters_add(nc, k < d->ntop ? d->top[k].drops : 0, "flows/%zu/drops",
					  k);
		if (!r)
			r = np_named_counters_add(nc, (uint64_t)d->top[k].ifindex,
						  "flows/%zu/ifindex", k);
		for (size_t j = 0; !r && j < NP_RECORD_FLOW_WORDS; j++)
			r = np_named_counters_add(nc, w[j], "flows/%zu/key%zu", k, j);
	}
	return r;
}

int np_record_drops_add(struct np_record_drops *d, struct np_named_counters *nc, int64_t wall_ns)
{
	int64_t now = wall_ns / 1000000000, minute = now / 60 * 60;
	uint64_t lost = 0;
	int r = 0;

	if (!d->n)
		return 0;
	for (size_t i = 0; i < d->n && !r; i++)
		r = peek(d, i);
	if (r < 0)
		return r;
	if (!d->minute) {
		d->minute = minute;
		d->from = now;
	} else if (minute != d->minute) {	/* a step back too: a new period */
		if (take_top(d, now) < 0)
			return -ENOMEM;
		d->minute = minute;
		d->from = now;
	}
	for (size_t i = 0; i < d->n; i++)
		lost += d->lost[i];
	r = np_named_counters_add(nc, lost, "drops/lost");
	for (size_t k = 0; !r && k < d->nreason; k++) {
		uint64_t sum = 0;

		for (size_t i = 0; i < d->n; i++)
			sum += d->reason[k].count[i];
		r = np_named_counters_add(nc, sum, "drops/%s", d->reason[k].name);
		if (!r)
			r = np_named_counters_add(nc, d->reason[k].code, "reason/%s",
						  d->reason[k].name);
		for (size_t i = 0; !r && d->n > 1 && i < d->n; i++)
			r = np_named_counters_add(nc, d->reason[k].count[i], "ifdrops/%s/%s",
						  d->ifname[i], d->reason[k].name);
	}
	for (size_t i = 0; !r && i < d->n; i++)
		r = np_named_counters_add(nc, (uint64_t)np_trace_ifindex(d->t[i]), "traced/%s",
					  d->ifname[i]);
	if (!r)
		r = np_record_flows_add(d, nc);
	/* A name too long is left out (reasons are short): never the whole frame. */
	return r == -ENAMETOOLONG ? 0 : r;
}
