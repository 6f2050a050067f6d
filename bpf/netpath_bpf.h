/* SPDX-License-Identifier: GPL-2.0-only */
/* Structures shared by the BPF programs in bpf/ and their loaders in src/trace/. */
#ifndef NETPATH_BPF_H
#define NETPATH_BPF_H

/* The BPF side gets the kernel's types from vmlinux.h; userspace from the UAPI headers. */
#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/* Capacity of the drops map: distinct (reason, location) keys. A full map is counted in
 * NP_BPF_STAT_LOST, never silently. */
#define NP_BPF_MAX_DROP_KEYS 8192
/* Capacity of the flows map: distinct (reason, flow) keys over the whole window. A fixed-size
 * hash, not an LRU: an LRU would silently evict the counts of early flows; here a flow that
 * finds the map full is counted in its reason's "other" bucket, which the report shows. */
#define NP_BPF_MAX_FLOWS 4096
/* Reasons with an "other" bucket (the flow_other array is indexed by reason value; the enum
 * has about 130 values in 6.18). A reason beyond it is counted in NP_BPF_STAT_LOST. */
#define NP_BPF_MAX_REASONS 512
/* Capacity of the arrivals map: rx queues of one device (plus "not recorded"); a packet of
 * a higher queue is counted in NP_BPF_STAT_LOST. */
#define NP_BPF_MAX_QUEUES 1024

/*
 * Key of the drops map (per-CPU hash, value __u64 count). reason is the kernel's
 * enum skb_drop_reason value as passed to the tracepoint (0 on kernels before 5.17, which
 * have no reason); location is the address that freed the skb (the tracepoint's location
 * argument), so every reason also says where in the kernel it was dropped.
 */
struct np_drop_key {
	__u32 reason;
	__u32 pad;
	__u64 location;
};

/* The per-CPU array drop_fast, indexed by reason: the first location to drop for the reason
 * on a CPU and its count there (location 0: unused). Other locations go to the drops map. */
struct np_drop_slot {
	__u64 location;
	__u64 count;
};

/* np_flow_key.family */
#define NP_FLOW_NONE 0		/* not IPv4/IPv6, or its headers could not be read */
#define NP_FLOW_IPV4 4
#define NP_FLOW_IPV6 6
/* np_flow_key.vlan: the VLAN id with this bit set when the frame was tagged. */
#define NP_FLOW_VLAN 0x8000

/*
 * Key of the flows map (hash, value __u64 count): one dropped packet's reason and flow, with
 * the fields that --by leaves out zeroed in the kernel (so that more distinct keys fit).
 * Addresses are in network order (IPv4 in the first 4 bytes); ports in host order; for ICMP
 * and ICMPv6, sport is the type and dport the code.
 */
struct np_flow_key {
	__u32 reason;
	__u8 family;
	__u8 proto;		/* IPPROTO_*; for IPv6 the first next header (no extension walk) */
	__u16 vlan;
	__u8 src[16];
	__u8 dst[16];
	__u16 sport;
	__u16 dport;
	__u32 pad;
};

/* The per-CPU array flow_fast, indexed by reason: the first flow (key as masked by --by) to be
 * dropped for the reason on a CPU, and its count there (count 0: unused). The key never
 * changes once the slot is taken; other flows of the reason go to the flows map. */
struct np_flow_slot {
	struct np_flow_key key;
	__u64 count;
};

/* --by: which fields of a flow key the kernel keeps. */
enum np_flow_by { NP_BY_FLOW, NP_BY_SRC, NP_BY_DST, NP_BY_PORT };

/*
 * The arrivals map (per-CPU array) is indexed by skb->queue_mapping as the kernel left it,
 * i.e. rx queue + 1, or 0 when the driver recorded no queue (skb_record_rx_queue()).
 */
struct np_arrival_val {
	__u64 packets;		/* net:netif_receive_skb: skbs entering the stack (after GRO) */
	__u64 gro;		/* net:napi_gro_receive_entry: frames handed to GRO by the driver */
};

/*
 * --stack: the kernel stacks of counted drops. A stack map (BPF_MAP_TYPE_STACK_TRACE) of
 * NP_BPF_MAX_STACKS distinct stacks of at most NP_BPF_STACK_DEPTH frames (32 x 8 bytes each:
 * 256 KiB), and a hash of (reason, stack id) -> count of NP_BPF_MAX_STACK_KEYS keys. A stack
 * the stack map cannot take (full, or a hash collision with another stack) is counted under
 * stack id -1; a key the counts map cannot take in NP_BPF_STAT_STACK_UNKEYED. Both maps are
 * sized 1 when --stack is not given.
 */
#define NP_BPF_STACK_DEPTH 32
#define NP_BPF_MAX_STACKS 1024
#define NP_BPF_MAX_STACK_KEYS 2048

struct np_stack_key {
	__u32 reason;
	__s32 stackid;		/* in the stack map; -1: the stack could not be recorded */
};

/* Slots of the per-CPU stats array. */
enum np_bpf_stat {
	NP_BPF_STAT_LOST,	/* an event that could not be counted: a map was full, or a
				 * queue beyond NP_BPF_MAX_QUEUES */
	NP_BPF_STAT_FILTERED,	/* drops on the device that --host/--port/--proto left out */
	NP_BPF_STAT_STACK_UNKEYED,	/* --stack: the (reason, stack) counts map was full */
	NP_BPF_STAT__COUNT
};

#endif
