/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * floor() without libm. On baseline x86-64 the compiler calls libm's floor() (it inlines it
 * only with SSE4.1), and that one call made every run map and relocate libm.so (issue #35:
 * the loader was 13% of a doctor pass). Exact for every double: NaN, infinities and values
 * with |v| >= 2^52 are already whole, and a zero keeps its sign as floor() does.
 */
#ifndef NP_NPFLOOR_H
#define NP_NPFLOOR_H

#include <math.h>	/* isnan: a macro, no libm */

static inline double np_floor(double v)
{
	double t;

	if (!(v > -4503599627370496.0 && v < 4503599627370496.0) || v == 0)
		return v;
	t = (double)(long long)v;		/* toward zero, exact below 2^52 */
	return t > v ? t - 1 : t;
}

/* fmin() and fmax() without libm (they are calls into it, never inlined): the same results,
 * a NaN argument giving the other one. */
static inline double np_fmin(double a, double b)
{
	if (isnan(a))
		return b;
	if (isnan(b))
		return a;
	return b < a ? b : a;
}

static inline double np_fmax(double a, double b)
{
	if (isnan(a))
		return b;
	if (isnan(b))
		return a;
	return b > a ? b : a;
}

#endif
