/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared between xdp_count.bpf.c and its loader: the counter maps' layouts. */
#ifndef NP_XDP_COUNT_H
#define NP_XDP_COUNT_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/* Slots 0..NP_XDP_MAX_QUEUES-1 are rx queues; the last one collects every queue index beyond
 * (no NIC we know has more than 256 rx queues per port, but a count must never be lost). */
#define NP_XDP_MAX_QUEUES 256
#define NP_XDP_SLOTS (NP_XDP_MAX_QUEUES + 1)

/* One value per slot per CPU (a per-CPU array): plain increments, no atomics needed. */
struct np_xdp_slot {
	__u64 packets;
	__u64 bytes;
};

/*
 * Capacity of the per-source map (a preallocated per-CPU hash, values struct np_xdp_slot):
 * distinct source addresses over the whole window. Not an LRU, which would evict the counts
 * of early sources without a trace: a source that finds the map full is counted in
 * NP_XDP_SRC_UNKEYED, which the report shows. Memory: 4096 x 16 bytes per possible CPU
 * (64 KiB each) plus the keys, allocated when the program is loaded.
 */
#define NP_XDP_MAX_SOURCES 4096

/* Key of the per-source map: the frame's IPv4 or IPv6 source address, network order (IPv4
 * in the first 4 bytes, the rest zero). family is NP_FLOW_IPV4 / NP_FLOW_IPV6 (4 / 6). */
struct np_xdp_src_key {
	__u8 family;
	__u8 pad[3];
	__u8 addr[16];
};

/* Slots of the per-CPU array beside the per-source map: frames that have no source there. */
enum np_xdp_src_misc {
	NP_XDP_SRC_UNKEYED,	/* an IP source that found the per-source map full */
	NP_XDP_SRC_NON_IP,	/* not IPv4/IPv6, or its headers beyond the frame's end */
	NP_XDP_SRC__COUNT
};

#endif
