/* SPDX-License-Identifier: GPL-2.0-only */
/* Stage "softnet" is split over softnet.c and softnet_cpu.c; this joins them. */
#ifndef NP_SOFTNET_PRIV_H
#define NP_SOFTNET_PRIV_H

#include "check_util.h"

/* How many CPUs a finding names in its evidence. */
#define NP_SN_TOP 4

/* "CPU 2: 1,234/s, CPU 5: 66/s" for the top CPUs of a sorted array (since boot if unsampled). */
void np_sn_top_text(const struct np_sn_cpu *c, size_t n, bool sampled, char *buf, size_t size);
/* Evidence "cpuN.<what>" for the top CPUs of a sorted array. */
void np_sn_top_ev(struct np_finding *f, const struct np_sn_cpu *c, size_t n, const char *what,
		  const char *unit);
/*
 * The opening of the per-CPU counter checks: skips the check without softnet_stat (or memory)
 * and judges the sum of field 'off' with its thresholds. Returns the views, biggest first, with
 * their sum in *tot and the verdict in *sev, for the caller to free; NULL when the check was
 * skipped or the verdict is OK.
 */
struct np_sn_cpu *np_sn_verdict(const struct np_analysis *a, struct np_report *r, size_t off,
				struct np_counter_view *tot, enum np_severity *sev);
/* A sysctl's first value, or dflt (with *ok false) when it was not read. */
int64_t np_sn_sysctl_or(const struct np_snapshot *s, enum np_sysctl_id id, int64_t dflt, bool *ok);

#endif
