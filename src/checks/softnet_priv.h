/* SPDX-License-Identifier: GPL-2.0-only */
/* Stage "softnet" is split over softnet.c and softnet_cpu.c; this joins them. */
#ifndef NP_SOFTNET_PRIV_H
#define NP_SOFTNET_PRIV_H

#include "check.h"

#include <stddef.h>

/* softnet_cpu.c */
extern const struct np_check np_check_softnet_time_squeeze, np_check_softnet_single_cpu;

/* softnet_stat fields, as offsets into struct np_softnet_row. */
#define NP_SN_DROPPED offsetof(struct np_softnet_row, dropped)
#define NP_SN_SQUEEZE offsetof(struct np_softnet_row, time_squeeze)
#define NP_SN_PROCESSED offsetof(struct np_softnet_row, processed)
#define NP_SN_FLOWLIM offsetof(struct np_softnet_row, flow_limit_count)

/* How many CPUs a finding names in its evidence. */
#define NP_SN_TOP 4

/* One CPU's view of one softnet_stat field. */
struct np_sn_cpu {
	int cpu;
	struct np_counter_view v;
	double key;		/* what the CPUs are ranked by: delta when sampled, else total */
};

/* The analysis has a previous softnet_stat to take deltas from. */
bool np_sn_sampled(const struct np_analysis *a);
/*
 * Per-CPU views of one field (32-bit, wrapping; rows matched by CPU id) and their sum in
 * *total. The array is in row order unless 'sorted' (then biggest first); the caller frees it.
 * NULL on allocation failure or without rows.
 */
struct np_sn_cpu *np_sn_views(const struct np_analysis *a, size_t off, bool sorted,
			      struct np_counter_view *total);
const struct np_sn_cpu *np_sn_find(const struct np_sn_cpu *c, size_t n, int cpu);
/* "1,234" (integers with thousands separators), "0.5" below 10. */
const char *np_sn_fmt_num(double v, char *buf, size_t size);
/* "CPU 2: 1,234/s, CPU 5: 66/s" for the top CPUs of a sorted array (since boot if unsampled). */
void np_sn_top_text(const struct np_sn_cpu *c, size_t n, bool sampled, char *buf, size_t size);
/* Evidence "cpuN.<what>" for the top CPUs of a sorted array. */
void np_sn_top_ev(struct np_finding *f, const struct np_sn_cpu *c, size_t n, const char *what,
		  const char *unit);
/* A sysctl's first value, or dflt (with *ok false) when it was not read. */
int64_t np_sn_sysctl_or(const struct np_snapshot *s, const char *key, int64_t dflt, bool *ok);
unsigned np_sn_ncpu_online(const struct np_snapshot *s);

#endif
