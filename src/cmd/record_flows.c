// SPDX-License-Identifier: GPL-2.0-only
/* The top dropped flows of a recording's minutes (record_flows.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rec_store.h"
#include "record_drops.h"
#include "record_flows.h"
#include "trace_flow.h"

/* One minute's slot while the minutes are summed. */
struct acc {
	char iface[16];
	struct np_flow_key key;
	uint64_t drops;
};

struct sum {
	struct acc *a;
	size_t n, cap;
};

static const char *after(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);

	return strncmp(name, prefix, n) ? NULL : name + n;
}

/* The value of the counter called name in f; false without one. */
static bool value(const struct np_rec_frame *f, const char *name, uint64_t *v)
{
	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->name[i], name)) {
			*v = f->v[i];
			return true;
		}
	return false;
}

/* The name of the counter under prefix whose value is v ("traced/IFNAME" by ifindex). */
static bool name_of(const struct np_rec_frame *f, const char *prefix, uint64_t v, char *buf,
		    size_t size)
{
	for (size_t i = 0; i < f->n; i++) {
		const char *p = after(f->name[i], prefix);

		if (p && f->v[i] == v) {
			snprintf(buf, size, "%s", p);
			return true;
		}
	}
	return false;
}

static int add(struct sum *s, const char *iface, const struct np_flow_key *k, uint64_t drops)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->a[i].iface, iface) && !memcmp(&s->a[i].key, k, sizeof(*k))) {
			s->a[i].drops += drops;
			return 0;
		}
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 32;
		struct acc *p = realloc(s->a, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		s->a = p;
		s->cap = cap;
	}
	memset(&s->a[s->n], 0, sizeof(s->a[0]));
	snprintf(s->a[s->n].iface, sizeof(s->a[0].iface), "%s", iface);
	s->a[s->n].key = *k;
	s->a[s->n++].drops = drops;
	return 0;
}

/* The slots of frame f (which holds minute's top flows) into s. */
static int take(const struct np_rec_frame *f, struct sum *s)
{
	char name[64];

	for (size_t k = 0; k < NP_RECORD_TOP_FLOWS; k++) {
		uint64_t drops = 0, ifindex = 0, w[NP_RECORD_FLOW_WORDS] = { 0 };
		struct np_flow_key key;
		char iface[16] = "?";

		snprintf(name, sizeof(name), "flows/%zu/drops", k);
		if (!value(f, name, &drops) || !drops)
			break;
		snprintf(name, sizeof(name), "flows/%zu/ifindex", k);
		if (value(f, name, &ifindex))
			name_of(f, "traced/", ifindex, iface, sizeof(iface));
		for (size_t j = 0; j < NP_RECORD_FLOW_WORDS; j++) {
			snprintf(name, sizeof(name), "flows/%zu/key%zu", k, j);
			value(f, name, &w[j]);
		}
		memcpy(&key, w, sizeof(key));
		if (add(s, iface, &key, drops) < 0)
			return -ENOMEM;
	}
	return 0;
}

static int by_drops(const void *x, const void *y)
{
	const struct acc *a = x, *b = y;

	return a->drops < b->drops ? 1 : a->drops > b->drops ? -1 : 0;
}

/* A summed flow as shown; the reason's name from the frame's "reason/NAME" counters. */
static void show(const struct acc *a, const struct np_rec_frame *f, struct np_rec_flow *o)
{
	const struct np_flow_key *k = &a->key;

	memset(o, 0, sizeof(*o));
	snprintf(o->iface, sizeof(o->iface), "%s", a->iface);
	if (!f || !name_of(f, "reason/", k->reason, o->reason, sizeof(o->reason)))
		snprintf(o->reason, sizeof(o->reason), "reason %u", k->reason);
	np_flow_format(k, NP_BY_FLOW, o->flow, sizeof(o->flow));
	o->sport = o->dport = -1;
	if (k->family != NP_FLOW_NONE) {
		np_proto_name(k->proto, o->proto, sizeof(o->proto));
		np_flow_addr(k, true, o->src, sizeof(o->src));
		np_flow_addr(k, false, o->dst, sizeof(o->dst));
		if (k->sport || k->dport || np_flow_is_icmp(k)) {
			o->sport = k->sport;
			o->dport = k->dport;
		}
	}
	o->drops = a->drops;
}

int np_rec_flows_read(const char *dir, int64_t from, int64_t to, struct np_rec_flows *out)
{
	struct np_rec_reader *r;
	struct np_rec_frame f;
	struct sum s = { 0 };
	char why[300];
	/* The last frame with flows: its names give the reasons and interfaces (they only
	 * grow within a run). Copied, since the reader's buffers move on. */
	char **rname = NULL;
	uint64_t *rv = NULL;
	size_t rn = 0;
	int err;

	memset(out, 0, sizeof(*out));
	err = np_rec_reader_open(dir, &r, why, sizeof(why));
	if (err < 0)
		return err;
	for (int64_t m = from / 60 * 60; !err && m < to; m += 60) {
		int got;

		/* Minute m's flows are in the frames of the minute after it. */
		if (np_rec_reader_seek(r, (m + 60) * 1000000000) < 0)
			break;
		while ((got = np_rec_reader_next(r, &f)) > 0 && f.wall_ns < (m + 125) * 1000000000) {
			uint64_t minute, a = 0, b = 0;

			if (!f.name || !value(&f, "flows/minute", &minute) || minute < (uint64_t)m)
				continue;
			if (minute > (uint64_t)m)
				break;	/* not recorded (a gap): none for m */
			value(&f, "flows/from", &a);
			value(&f, "flows/to", &b);
			if (!out->minutes || (int64_t)a < out->from)
				out->from = (int64_t)a;
			if ((int64_t)b > out->to)
				out->to = (int64_t)b;
			out->minutes++;
			out->recorded = true;
			err = take(&f, &s);
			if (!err) {
				for (size_t i = 0; i < rn; i++)
					free(rname[i]);
				free(rname);
				free(rv);
				rn = 0;
				rname = calloc(f.n ? f.n : 1, sizeof(*rname));
				rv = malloc((f.n ? f.n : 1) * sizeof(*rv));
				if (!rname || !rv)
					err = -ENOMEM;
				for (size_t i = 0; !err && i < f.n; i++, rn++) {
					rname[i] = strdup(f.name[i]);
					rv[i] = f.v[i];
					if (!rname[i])
						err = -ENOMEM;
				}
			}
			break;
		}
		if (got < 0)
			err = got;
	}
	np_rec_reader_close(r);
	if (!err && s.n) {
		struct np_rec_frame names = {
			.n = rn, .v = rv, .name = (const char *const *)rname,
		};

		qsort(s.a, s.n, sizeof(*s.a), by_drops);
		for (size_t i = 0; i < s.n && out->n < NP_REC_FLOWS_MAX; i++)
			show(&s.a[i], &names, &out->f[out->n++]);
	}
	for (size_t i = 0; i < rn; i++)
		free(rname[i]);
	free(rname);
	free(rv);
	free(s.a);
	return err;
}
