/* SPDX-License-Identifier: GPL-2.0-only */
/* netpath trace: BPF counts of drops by reason and of arrivals by rx queue for one device. */
#ifndef NP_TRACE_H
#define NP_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace_names.h"

/* One key of the drops map, summed over CPUs. */
struct np_trace_raw_drop {
	uint32_t reason;	/* enum skb_drop_reason value; 0 when the kernel passes none */
	uint64_t location;	/* freeing address when keyed by location, else 0 */
	uint64_t count;
	uint64_t *per_cpu;	/* [ncpu] */
};

/* Arrivals on the device, one row per (rx queue, CPU) with anything counted. */
struct np_trace_raw_arrival {
	int queue;		/* rx queue; -1 when the driver recorded none */
	unsigned int cpu;
	uint64_t packets;	/* net:netif_receive_skb: skbs entering the stack (after GRO) */
	uint64_t gro;		/* net:napi_gro_receive_entry: frames the driver handed to GRO */
};

/* What the programs counted since they were attached. */
struct np_trace_raw {
	unsigned int ncpu;	/* possible CPUs: the length of every per_cpu array */
	size_t ndrops, narrivals;
	struct np_trace_raw_drop *drops;
	struct np_trace_raw_arrival *arrivals;
	uint64_t lost;		/* events that could not be counted (a map was full) */
	bool has_reason;	/* the kernel passes drop reasons (5.17+) */
	bool by_location;	/* every drop keyed by its freeing function (no reasons) */
	bool gro_attached;	/* napi_gro_receive_entry could be attached */
	const char *attach;	/* "tp_btf" or "raw_tp" */
};

void np_trace_raw_free(struct np_trace_raw *r);

struct np_tracer;

/*
 * Load and attach the tracepoint programs for IFNAME of the current network namespace (the
 * caller enters --netns first). The attachments are bpf_links owned by this process: they
 * vanish when it exits, however it exits. Returns 0, or -errno with a one-line reason in err:
 * -ENOTSUP built without BPF or kernel without BTF, -EPERM not privileged, -ENODEV no such
 * interface.
 */
int np_trace_start(const char *ifname, struct np_tracer **out, char *err, size_t errlen);
/* Everything counted so far (the maps are not reset). */
int np_trace_read(struct np_tracer *t, struct np_trace_raw *out);
/* The reason names of the running kernel (empty when it has none). */
const struct np_reason_names *np_trace_names(const struct np_tracer *t);
uint32_t np_trace_netns_inum(const struct np_tracer *t);
/* Detach and free; NULL is fine. */
void np_trace_stop(struct np_tracer *t);

#endif
