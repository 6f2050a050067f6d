/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NP_TRACE_RXCOUNT_H
#define NP_TRACE_RXCOUNT_H

#include <stdint.h>

/* The kernel's rx_packets counter of IFINDEX in the current network namespace (RTM_GETLINK,
 * IFLA_STATS64: what `ip -s link` shows): trace's arrivals without a per-packet program.
 * 0 or -errno. */
int np_trace_rx_packets(int ifindex, uint64_t *out);

#endif
