// SPDX-License-Identifier: GPL-2.0-only
/* A counter over the interval (deltas, rates, 32-bit wraps, resets) and the common drop-counter
 * verdict. */
#include "check.h"

static struct np_counter_view view(const struct np_analysis *a, uint64_t prev, uint64_t cur,
				   uint64_t modulo)
{
	struct np_counter_view v = { 0 };

	if (!np_has(cur))
		return v;
	v.present = true;
	v.total = cur;
	if (!a->prev || a->dt <= 0 || !np_has(prev))
		return v;
	v.sampled = true;
	if (cur >= prev)
		v.delta = cur - prev;
	else if (modulo)
		v.delta = modulo - prev + cur;	/* one wrap of a 32-bit counter */
	else
		v.delta = 0;			/* reset (device re-created): no evidence */
	v.rate = (double)v.delta / a->dt;
	return v;
}

struct np_counter_view np_view_u64(const struct np_analysis *a, uint64_t prev, uint64_t cur)
{
	return view(a, prev, cur, 0);
}

struct np_counter_view np_view_u32(const struct np_analysis *a, uint64_t prev, uint64_t cur)
{
	return view(a, prev, cur, 1ull << 32);
}

struct np_counter_view np_view_mib(const struct np_analysis *a, const char *name)
{
	return view(a, a->prev ? np_mib(a->prev, name) : NP_NA, np_mib(a->cur, name), 0);
}

struct np_counter_view np_view_sum(struct np_counter_view x, struct np_counter_view y)
{
	struct np_counter_view v;

	if (!x.present)
		return y;
	if (!y.present)
		return x;
	v.present = true;
	v.total = x.total + y.total;
	v.sampled = x.sampled && y.sampled;
	v.delta = v.sampled ? x.delta + y.delta : 0;
	v.rate = v.sampled ? x.rate + y.rate : 0;
	return v;
}

enum np_severity np_verdict(const struct np_counter_view *v, double warn, double crit)
{
	if (!v->present || v->total == 0)
		return NP_SEV_OK;
	if (!v->sampled)
		return NP_SEV_INFO;
	if (v->delta == 0)
		return NP_SEV_INFO;
	if (!isnan(crit) && v->rate >= crit)
		return NP_SEV_CRITICAL;
	if (!isnan(warn) && v->rate >= warn)
		return NP_SEV_WARNING;
	return NP_SEV_INFO;
}
