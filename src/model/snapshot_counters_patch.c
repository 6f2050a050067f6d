// SPDX-License-Identifier: GPL-2.0-only
/*
 * The rate counters of a long run of frames into one snapshot without apply's rebuild
 * (snapshot_counters.h). Apply clears every table and builds it anew from the names, which
 * costs as much as the rest of a history scan together; with the same names and the same
 * snapshot the layout it builds is the same every time, only the values differ. A plan finds,
 * once, where apply put each frame counter of the covered sections (link statistics, stats64,
 * softnet rows, MIB, conntrack, qdisc drops and overlimits) by applying the frame with every value replaced by a marker
 * (its index under a pattern no counter has), then applies the frame itself; each later frame
 * is copied through the plan. What the plan does not cover keeps the planned frame's values.
 */
#include "snapshot_counters.h"
#include "snapshot_counters_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MARK_HI 0x5eed0000a5a50000ull
#define MARK_MASK 0xffffffffffff0000ull
#define MARK_MAX 0xffffull	/* low bits: the index within its group of 65,536 */

void np_snapcnt_plan_free(struct np_snapcnt_plan *p)
{
	free(p->loc);
	free(p->idx);
	memset(p, 0, sizeof(*p));
}

/* The covered u64 slots of s in a fixed order; visit(ctx, ordinal, slot) for each. In these
 * sections where a counter goes depends on its name only, so two applies of the same names
 * put it at the same ordinal (not the same address: apply allocates the arrays anew). */
static int walk(struct np_snapshot *s, int (*visit)(void *, size_t, void *), void *ctx)
{
	size_t o = 0;
	int err = 0;

	for (size_t i = 0; !err && i < np_link_stats_nfields; i++) {
		err = visit(ctx, o++, np_link_stats_at(&s->dev.stats, i));
		if (!err)
			err = visit(ctx, o++, np_link_stats_at(&s->rtnl.stats64, i));
	}
	for (size_t r = 0; !err && r < s->hs->softnet.n; r++)
		for (const struct np_snapcnt_field *f = np_snapcnt_softnet; !err && f->name; f++)
			err = visit(ctx, o++, (char *)&s->hs->softnet.rows[r] + f->off);
	for (size_t k = 0; !err && k < s->hs->mib.n; k++)
		err = visit(ctx, o++, &s->hs->mib.e[k].value);
	for (size_t k = 0; !err && k < s->hs->conntrack.n; k++)
		err = visit(ctx, o++, &s->hs->conntrack.e[k].value);
	/* history's congestion stage: the egress qdiscs' drops and overlimits (qdiscs are the
	 * configuration's, matched by handle and parent: their places do not move). */
	for (size_t k = 0; !err && k < s->rtnl.nqdisc; k++) {
		err = visit(ctx, o++, &s->rtnl.qdiscs[k].drops);
		if (!err)
			err = visit(ctx, o++, &s->rtnl.qdiscs[k].overlimits);
	}
	return err;
}

struct seen {
	struct np_snapcnt_plan *p;
	size_t base, n;
};

/* A slot holding a marker: frame counter (base + its low bits) lands at that ordinal (kept in
 * loc until the pointers are known). Apply writes a slot once per name, the last name
 * winning; the marker left is that name's, as the plan then does. */
static int see(void *ctx, size_t ordinal, void *slot)
{
	struct seen *c = ctx;
	struct np_snapcnt_plan *p = c->p;
	uint64_t v;
	size_t i;

	memcpy(&v, slot, sizeof(v));
	if ((v & MARK_MASK) != MARK_HI)
		return 0;
	i = c->base + (size_t)(v & MARK_MAX);
	if (i >= c->n)
		return 0;
	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 64;
		void **l = realloc(p->loc, cap * sizeof(*l));
		uint32_t *x;

		if (!l)
			return -ENOMEM;
		p->loc = l;
		x = realloc(p->idx, cap * sizeof(*x));
		if (!x)
			return -ENOMEM;
		p->idx = x;
		p->cap = cap;
	}
	p->loc[p->n] = (void *)(uintptr_t)ordinal;
	p->idx[p->n++] = (uint32_t)i;
	return 0;
}

struct addrs {
	void **a;
	size_t n, cap;
};

/* Every covered slot's address, by ordinal. */
static int addr(void *ctx, size_t ordinal, void *slot)
{
	struct addrs *c = ctx;

	if (ordinal >= c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 256;
		void **a = realloc(c->a, cap * sizeof(*a));

		if (!a)
			return -ENOMEM;
		c->a = a;
		c->cap = cap;
	}
	c->a[ordinal] = slot;
	c->n = ordinal + 1;
	return 0;
}

int np_snapcnt_plan(struct np_snapshot *s, struct np_snapcnt_plan *p, const char *const *names,
		    const uint64_t *v, size_t n)
{
	struct addrs at = { 0 };
	uint64_t *mark;
	int err = 0;

	np_snapcnt_plan_free(p);
	if (n >= UINT32_MAX)
		return -E2BIG;
	mark = malloc((n ? n : 1) * sizeof(*mark));
	if (!mark)
		return -ENOMEM;
	/* Markers tell 65,536 counters apart: larger frames are planned a group at a time (the
	 * counters outside the group are 0, which no marker is). */
	for (size_t base = 0; !err && base < n; base += MARK_MAX + 1) {
		struct seen c = { p, base, n };

		for (size_t i = 0; i < n; i++)
			mark[i] = i >= base && i - base <= MARK_MAX ?
				  MARK_HI | (uint64_t)(i - base) : 0;
		err = np_snapcnt_apply(s, names, mark, n);
		if (!err)
			err = walk(s, see, &c);
	}
	free(mark);
	/* The frame itself, as apply puts it; then the ordinals become addresses. */
	if (!err)
		err = np_snapcnt_apply(s, names, v, n);
	if (!err)
		err = walk(s, addr, &at);
	for (size_t j = 0; !err && j < p->n; j++) {
		size_t o = (size_t)(uintptr_t)p->loc[j];

		if (o >= at.n)
			err = -EIO;	/* not the same layout: cannot happen, never patch then */
		else
			p->loc[j] = at.a[o];
	}
	free(at.a);
	if (err)
		np_snapcnt_plan_free(p);
	else
		p->n_frame = n;
	return err;
}

void np_snapcnt_patch(const struct np_snapcnt_plan *p, const uint64_t *v)
{
	for (size_t j = 0; j < p->n; j++)
		memcpy(p->loc[j], &v[p->idx[j]], sizeof(*v));
}

static bool in_table(const struct np_counters *t, const void *loc)
{
	return t->n && (const char *)loc >= (const char *)t->e &&
	       (const char *)loc < (const char *)(t->e + t->n);
}

void np_snapcnt_plan_narrow(struct np_snapcnt_plan *p, const struct np_snapshot *s,
			    const uint64_t *const *keep, size_t n)
{
	size_t m = 0;

	for (size_t j = 0; j < p->n; j++) {
		bool kept = !in_table(&s->hs->mib, p->loc[j]) &&
			    !in_table(&s->hs->conntrack, p->loc[j]);

		for (size_t i = 0; !kept && i < n; i++)
			kept = keep[i] && (const void *)keep[i] == p->loc[j];
		if (kept) {
			p->loc[m] = p->loc[j];
			p->idx[m++] = p->idx[j];
		}
	}
	p->n = m;
}

