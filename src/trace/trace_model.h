/* SPDX-License-Identifier: GPL-2.0-only */
/* From raw BPF counts to report rows: names, stages, rates, severities. Pure. */
#ifndef NP_TRACE_MODEL_H
#define NP_TRACE_MODEL_H

#include "finding.h"
#include "trace.h"
#include "trace_ksyms.h"

/* The thresholds of a drop reason that no doctor check judges (np_reason_check), as doctor's
 * drop counters: drops per second over the window. Benign reasons are never more than ok. */
#define NP_TRACE_WARN_RATE 1.0
#define NP_TRACE_CRIT_RATE 100.0

/* Freeing addresses shown per row; the rest are summed in locs_other. */
#define NP_TRACE_MAX_LOCS 3

/* Where in the kernel a row's drops were freed: the tracepoint's location argument. */
struct np_trace_loc {
	uint64_t addr;
	uint64_t count;
	char text[112];		/* "udp_queue_rcv_one_skb+0x1a", or the address in hex */
};

/* One of a row's top flows, keyed as --by asked. */
struct np_trace_flow {
	struct np_flow_key key;
	uint64_t count;
};

struct np_trace_row {
	char name[64];		/* reason name; the freeing function on kernels without reasons */
	char location[96];	/* the freeing function of a NOT_SPECIFIED free, else "" */
	uint32_t reason;	/* the reason's value (its flows are keyed by it) */
	const char *check;	/* the doctor check whose thresholds rate it; NULL: trace's own */
	size_t nlocs;
	struct np_trace_loc *locs;	/* by count, at most NP_TRACE_MAX_LOCS after summarizing */
	uint64_t locs_other;	/* drops at further addresses */
	size_t nflows;
	struct np_trace_flow *flows;	/* the top flows, by count (np_trace_attribute) */
	uint64_t flows_other;	/* drops of flows beyond the top N, including flows_full */
	uint64_t flows_full;	/* drops whose flow the kernel could not key: its map was full */
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
	uint64_t arrivals;	/* netif_receive_skb, all queues and CPUs; or rx_packets */
	const char *arrivals_from;	/* "rx_packets", "netif_receive_skb" or NULL: unknown */
	uint64_t arrivals_gro;	/* napi_gro_receive_entry */
	/* One accounting per stage: the non-benign drops of the rows shown under it. */
	uint64_t stage_drops[NP_STAGE__COUNT];
	/* Attribution (np_trace_attribute). */
	bool flows_on;
	enum np_flow_by by;
	size_t top;		/* flows kept per row */
	size_t flow_cap;	/* the kernel map's capacity */
	size_t flow_keys;	/* keys it held at the end */
	uint64_t flows_full;	/* drops no key could take, all rows */
	uint64_t filtered;	/* drops the filters left out */
};

/* names: the kernel's reason enum (NULL or empty: none); ksyms: for locations (may be NULL:
 * addresses stay hex). all: keep benign rows. Returns 0 or -ENOMEM. */
int np_trace_summarize(const struct np_trace_raw *raw, const struct np_reason_names *names,
		       const struct np_ksyms *ksyms, double duration, bool all,
		       struct np_trace_summary *out);
/* Attach to every row its top flows from raw (keys of its reason value): the N largest by
 * count, the rest and the kernel's "other" bucket summed into flows_other. Rows without a
 * reason (kernels before 5.17) get none. Returns 0 or -ENOMEM. */
int np_trace_attribute(struct np_trace_summary *s, const struct np_trace_raw *raw, size_t top);
void np_trace_summary_free(struct np_trace_summary *s);
/* Severity of count drops over seconds for a reason rated by check (NULL: trace's own
 * thresholds). Benign or zero: ok. */
enum np_severity np_trace_severity(const char *check, bool benign, uint64_t count,
				   double per_second);
/* Worst severity over the rows (benign rows count as ok). */
enum np_severity np_trace_worst(const struct np_trace_summary *s);

#endif
