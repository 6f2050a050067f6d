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
/* Capacity of the arrivals map: rx queues of one device (plus "not recorded"); a packet of
 * a higher queue is counted in NP_BPF_STAT_LOST. */
#define NP_BPF_MAX_QUEUES 1024

/*
 * Key of the drops map (per-CPU hash, value __u64 count). reason is the kernel's
 * enum skb_drop_reason value as passed to the tracepoint (0 on kernels before 5.17, which
 * have no reason); location is the caller that freed the skb, filled only when the loader
 * asks for it (kernels without reasons), so that reason-bearing kernels keep one key per
 * reason.
 */
struct np_drop_key {
	__u32 reason;
	__u32 pad;
	__u64 location;
};

/*
 * The arrivals map (per-CPU array) is indexed by skb->queue_mapping as the kernel left it,
 * i.e. rx queue + 1, or 0 when the driver recorded no queue (skb_record_rx_queue()).
 */
struct np_arrival_val {
	__u64 packets;		/* net:netif_receive_skb: skbs entering the stack (after GRO) */
	__u64 gro;		/* net:napi_gro_receive_entry: frames handed to GRO by the driver */
};

/* Slots of the per-CPU stats array. */
enum np_bpf_stat {
	NP_BPF_STAT_LOST,	/* an event that could not be counted: a map was full, or a
				 * queue beyond NP_BPF_MAX_QUEUES */
	NP_BPF_STAT__COUNT
};

#endif
