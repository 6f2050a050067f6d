/* SPDX-License-Identifier: GPL-2.0-only */
/* From raw BPF counts to report rows: names, stages, rates, severities. Pure. */
#ifndef NP_TRACE_MODEL_H
#define NP_TRACE_MODEL_H

#include "finding.h"
#include "trace.h"
#include "trace_ksyms.h"

/* The thresholds a drop reason is judged by, as doctor's drop counters: drops per second over
 * the window. Benign reasons are never more than ok. */
#define NP_TRACE_WARN_RATE 1.0
#define NP_TRACE_CRIT_RATE 100.0

struct np_trace_row {
	char name[64];		/* reason name; the freeing function on kernels without reasons */
	char location[96];	/* the freeing function of a NOT_SPECIFIED free, else "" */
	enum np_stage stage;
	const char *explanation;
	bool benign;
	enum np_severity severity;
	uint64_t count;
	double per_second;
	unsigned int ncpu;
	uint64_t *per_cpu;	/* [ncpu] */
};

struct np_trace_summary {
	double duration;	/* seconds the programs were attached */
	size_t n;
	struct np_trace_row *rows;	/* shown: along the receive path, then by count */
	size_t nhidden;		/* benign rows left out (all == false) */
	uint64_t hidden_benign;	/* the drops in them */
	uint64_t lost;
	uint64_t arrivals;	/* netif_receive_skb, all queues and CPUs */
	uint64_t arrivals_gro;	/* napi_gro_receive_entry */
};

/* names: the kernel's reason enum (NULL or empty: none); ksyms: for locations (may be NULL:
 * addresses stay hex). all: keep benign rows. Returns 0 or -ENOMEM. */
int np_trace_summarize(const struct np_trace_raw *raw, const struct np_reason_names *names,
		       const struct np_ksyms *ksyms, double duration, bool all,
		       struct np_trace_summary *out);
void np_trace_summary_free(struct np_trace_summary *s);
/* Worst severity over the rows (benign rows count as ok). */
enum np_severity np_trace_worst(const struct np_trace_summary *s);

#endif
