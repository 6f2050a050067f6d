// SPDX-License-Identifier: GPL-2.0-only
/* Each second's top drop reason of a `record --drops` recording (history_reasons.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "history_reasons.h"

#define PREFIX "drops/"

void np_reason_track_free(struct np_reason_track *rt)
{
	free(rt->pos);
	free(rt->idx);
	free(rt->prev);
	free(rt->seen);
	memset(rt, 0, sizeof(*rt));
}

/* The index of reason name in h->reason, added if new; -1 out of memory. */
static int intern(struct np_history *h, struct np_reason_track *rt, const char *name)
{
	char (*p)[48];
	uint64_t *pv;
	bool *ps;

	for (size_t i = 0; i < h->nreason; i++)
		if (!strcmp(h->reason[i], name))
			return (int)i;
	if (h->nreason >= INT16_MAX)
		return -1;
	p = realloc(h->reason, (h->nreason + 1) * sizeof(*p));
	if (!p)
		return -1;
	h->reason = p;
	if (h->nreason + 1 > rt->seen_cap) {
		size_t cap = rt->seen_cap ? rt->seen_cap * 2 : 16;

		pv = realloc(rt->prev, cap * sizeof(*pv));
		if (pv)
			rt->prev = pv;
		ps = realloc(rt->seen, cap * sizeof(*ps));
		if (ps)
			rt->seen = ps;
		if (!pv || !ps)
			return -1;
		rt->seen_cap = cap;
	}
	snprintf(h->reason[h->nreason], sizeof(h->reason[0]), "%s", name);
	rt->seen[h->nreason] = false;
	return (int)h->nreason++;
}

/* Where the frame's "drops/" names are, and which reason each is (again after a schema
 * change: names are stable in between). */
static int map(struct np_history *h, struct np_reason_track *rt, const struct np_rec_frame *f)
{
	rt->n = 0;
	for (size_t i = 0; f->name && i < f->n; i++) {
		if (strncmp(f->name[i], PREFIX, sizeof(PREFIX) - 1) ||
		    !strcmp(f->name[i], PREFIX "lost"))
			continue;
		if (rt->n == rt->cap) {
			size_t cap = rt->cap ? rt->cap * 2 : 16;
			size_t *p = realloc(rt->pos, cap * sizeof(*p));
			int *q;

			if (!p)
				return -ENOMEM;
			rt->pos = p;
			q = realloc(rt->idx, cap * sizeof(*q));
			if (!q)
				return -ENOMEM;
			rt->idx = q;
			rt->cap = cap;
		}
		rt->pos[rt->n] = i;
		rt->idx[rt->n] = intern(h, rt, f->name[i] + sizeof(PREFIX) - 1);
		if (rt->idx[rt->n] < 0)
			return -ENOMEM;
		rt->n++;
	}
	rt->mapped = true;
	return 0;
}

int np_history_reasons(struct np_history *h, struct np_reason_track *rt,
		       const struct np_rec_frame *f, bool cont, double dt,
		       struct np_history_sec *s)
{
	float top = 0;

	if (s) {
		s->reason = -1;
		s->reason_rate = 0;
	}
	if ((!rt->mapped || (f->flags & (NP_REC_F_SCHEMA | NP_REC_F_FIRST))) && map(h, rt, f) < 0)
		return -ENOMEM;
	if (rt->n)
		h->has_reasons = true;
	for (size_t k = 0; k < rt->n; k++) {
		int r = rt->idx[k];
		uint64_t v = f->v[rt->pos[k]];

		/* A reason the frame before (continuous with this one) lacked rose from 0: its key
		 * enters the program's map with its first drop, so a burst's first second is
		 * counted, not lost to the name's first appearance. A count that went down started
		 * over (the program was loaded again). */
		uint64_t base = rt->seen[r] ? rt->prev[r] : 0;

		if (s && cont && dt > 0 && v > base) {
			float rate = (float)((double)(v - base) / dt);

			if (rate > top) {
				top = rate;
				s->reason = (int16_t)r;
				s->reason_rate = rate;
			}
		}
		rt->prev[r] = v;
		rt->seen[r] = true;
	}
	/* Reasons absent from this frame are not continuous with it. */
	for (size_t r = 0; rt->n != h->nreason && r < h->nreason; r++) {
		bool here = false;

		for (size_t k = 0; k < rt->n && !here; k++)
			here = rt->idx[k] == (int)r;
		if (!here)
			rt->seen[r] = false;
	}
	return 0;
}
