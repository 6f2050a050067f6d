/* SPDX-License-Identifier: GPL-2.0-only */
/* netpath trace: BPF counts of drops by reason and of arrivals by rx queue for one device. */
#ifndef NP_TRACE_H
#define NP_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace_flow.h"
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

/* One (reason, flow) key of the flows map: packets dropped for reason, of that flow. */
struct np_trace_raw_flow {
	struct np_flow_key key;
	uint64_t count;
};

/* Drops of one reason whose flow found the flows map full. */
struct np_trace_raw_other {
	uint32_t reason;
	uint64_t count;
};

/* --stack: drops of one reason with one kernel stack (ips innermost first; nips 0 when the
 * stack could not be recorded: the stack map was full or two stacks collided). */
struct np_trace_raw_stack {
	uint32_t reason;
	uint64_t count;
	size_t nips;
	uint64_t ips[NP_BPF_STACK_DEPTH];
};

/* What the programs counted since they were attached. */
struct np_trace_raw {
	unsigned int ncpu;	/* possible CPUs: the length of every per_cpu array */
	size_t ndrops, narrivals;
	struct np_trace_raw_drop *drops;
	struct np_trace_raw_arrival *arrivals;
	size_t nflows, nother;
	struct np_trace_raw_flow *flows;
	struct np_trace_raw_other *other;
	size_t flow_cap;	/* NP_BPF_MAX_FLOWS: the flows map's capacity */
	size_t flow_slot_keys;	/* flows counted in a per-CPU slot only (not map keys) */
	bool flows_on;		/* attribution was asked for (--top > 0) */
	enum np_flow_by by;
	uint64_t lost;		/* events that could not be counted (a map was full) */
	uint64_t filtered;	/* drops on the device that the filters left out */
	bool stacks_on;		/* --stack */
	size_t nstacks;
	struct np_trace_raw_stack *stacks;
	uint64_t stacks_unkeyed;	/* drops whose (reason, stack) found the counts map full */
	bool has_reason;	/* the kernel passes drop reasons (5.17+) */
	bool by_location;	/* every drop keyed by its freeing function (no reasons) */
	bool gro_attached;	/* napi_gro_receive_entry could be attached */
	bool arrivals_bpf;	/* --arrivals: the rows above come from per-packet programs */
	bool rx_counted;	/* else: rx_packets holds the kernel counter's growth */
	uint64_t rx_packets;	/* the device's rx_packets over the window (IFLA_STATS64) */
	const char *attach;	/* "tp_btf" or "raw_tp" */
};

void np_trace_raw_free(struct np_trace_raw *r);

struct np_tracer;

/* What the kernel side does besides counting reasons. */
struct np_trace_opts {
	bool flows;			/* count each drop's flow (--top > 0) */
	enum np_flow_by by;
	struct np_trace_filter filter;	/* applied in the kernel */
	bool stacks;			/* --stack: the kernel stack of every counted drop */
	bool arrivals;			/* --arrivals: count arrivals per rx queue and CPU with
					 * programs on every packet, not from rx_packets */
};

/*
 * Load and attach the tracepoint programs for IFNAME of the current network namespace (the
 * caller enters --netns first). The attachments are bpf_links owned by this process: they
 * vanish when it exits, however it exits. Returns 0, or -errno with a one-line reason in err:
 * -ENOTSUP built without BPF or kernel without BTF, -EPERM not privileged, -ENODEV no such
 * interface.
 */
int np_trace_start(const char *ifname, const struct np_trace_opts *opt, struct np_tracer **out,
		   char *err, size_t errlen);
/* Everything counted: detaches the drop program first, so that the maps read agree (call it
 * once, at the end of the window). */
int np_trace_read(struct np_tracer *t, struct np_trace_raw *out);
/* The drop counts so far (drops and lost only), the programs left attached: `netpath record
 * --drops` reads them every sample. Counts of different reasons may be a moment apart. */
int np_trace_peek(struct np_tracer *t, struct np_trace_raw *out);
/* The flows counted since the last call (opt.flows), taken out of the kernel's map so that
 * each call starts a new period: *out (malloc'd, *n of them; free it). 0 or -errno. */
int np_trace_take_flows(struct np_tracer *t, struct np_trace_raw_flow **out, size_t *n);
/* The traced device's ifindex. */
int np_trace_ifindex(const struct np_tracer *t);
/* The reason names of the running kernel (empty when it has none). */
const struct np_reason_names *np_trace_names(const struct np_tracer *t);
uint32_t np_trace_netns_inum(const struct np_tracer *t);
/* Detach and free; NULL is fine. */
void np_trace_stop(struct np_tracer *t);

#endif
