/* SPDX-License-Identifier: GPL-2.0-only */
/* The words of a `netpath path` verdict: why, the fix and its cost (path_fix.c), and the units
 * they and the renderer print rates and sizes in. */
#ifndef NP_PATH_FIX_H
#define NP_PATH_FIX_H

#include <stddef.h>

#include "path_test.h"

/* Fills v->why, v->fix and v->cost for v->limited_by (already decided). rate: the throughput
 * judged (bps); sndbuf, snd_wnd: the steady medians (NAN: not reported). */
void np_path_explain(const struct np_path_result *r, struct np_path_verdict *v, double rate,
		     double sndbuf, double snd_wnd);
/* "122 Mbit/s", "9.75 Gbit/s", "-" for NAN. */
const char *np_path_fmt_bps(double bps, char *buf, size_t size);
/* "1.9 MB" (decimal, as rates are), "208 KiB" style is not used; "-" for NAN. */
const char *np_path_fmt_bytes(double bytes, char *buf, size_t size);

#endif
