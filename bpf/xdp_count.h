/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared between xdp_count.bpf.c and its loader: the counter map's layout. */
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

#endif
