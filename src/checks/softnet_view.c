// SPDX-License-Identifier: GPL-2.0-only
/* Per-CPU softnet_stat views over the interval, rows matched by CPU id. */
#include "check_util.h"

#include <stdlib.h>
#include <string.h>

static uint64_t sn_field(const struct np_softnet_row *row, size_t off)
{
	return *(const uint64_t *)(const void *)((const char *)row + off);
}

bool np_sn_sampled(const struct np_analysis *a)
{
	return a->prev && a->dt > 0 && np_src_ok(a->prev, NP_SRC_SOFTNET) && a->prev->hs->softnet.n;
}

/* Rows are matched by CPU id, not position: a CPU may go offline between the snapshots. */
static const struct np_softnet_row *sn_prev_row(const struct np_analysis *a, size_t i, int cpu)
{
	const struct np_softnet *p;

	if (!np_sn_sampled(a))
		return NULL;
	p = &a->prev->hs->softnet;
	if (i < p->n && p->rows[i].cpu == cpu)
		return &p->rows[i];
	for (size_t j = 0; j < p->n; j++)
		if (p->rows[j].cpu == cpu)
			return &p->rows[j];
	return NULL;
}

static int sn_cmp(const void *x, const void *y)
{
	const struct np_sn_cpu *a = x, *b = y;

	return a->key < b->key ? 1 : a->key > b->key ? -1 : a->cpu - b->cpu;
}

struct np_sn_cpu *np_sn_views(const struct np_analysis *a, size_t off, bool sorted,
			      struct np_counter_view *total)
{
	const struct np_softnet *s = &a->cur->hs->softnet;
	struct np_sn_cpu *c;

	memset(total, 0, sizeof(*total));
	if (!s->n || !(c = calloc(s->n, sizeof(*c))))
		return NULL;
	total->sampled = np_sn_sampled(a);
	for (size_t i = 0; i < s->n; i++) {
		const struct np_softnet_row *pr = sn_prev_row(a, i, s->rows[i].cpu);

		c[i].cpu = s->rows[i].cpu;
		c[i].v = np_view_u32(a, pr ? sn_field(pr, off) : NP_NA, sn_field(&s->rows[i], off));
		c[i].key = total->sampled ? (double)c[i].v.delta : (double)c[i].v.total;
		if (!c[i].v.present)
			continue;
		total->present = true;
		total->total += c[i].v.total;
		total->delta += c[i].v.delta;
	}
	total->rate = total->sampled ? (double)total->delta / a->dt : 0;
	if (sorted)
		qsort(c, s->n, sizeof(*c), sn_cmp);
	return c;
}

const struct np_sn_cpu *np_sn_find(const struct np_sn_cpu *c, size_t n, int cpu)
{
	for (size_t i = 0; i < n; i++)
		if (c[i].cpu == cpu)
			return &c[i];
	return NULL;
}
