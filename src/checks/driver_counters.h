/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Driver counter knowledge: what each driver's private `ethtool -S` counters witness. Names and
 * their meaning differ per driver and per kernel version, so the table is keyed by the driver
 * name (ETHTOOL_GDRVINFO) with a generic pattern fallback. Pure: no I/O.
 */
#ifndef NP_DRIVER_COUNTERS_H
#define NP_DRIVER_COUNTERS_H

#include <stdbool.h>

#include "finding.h"

enum np_drv_meaning {
	NP_DRV_NONE,
	NP_DRV_RING_EMPTY,	/* no RX descriptor/buffer: out_of_buffer, missed, no_dma_resources */
	NP_DRV_PORT_DISCARD,	/* the NIC's port/packet buffer overflowed before any ring */
	NP_DRV_ALLOC_FAIL,	/* page/skb allocation failed while refilling the ring */
	NP_DRV_QUEUE_DROP,	/* a per-queue drop of unspecified cause */
	NP_DRV_XDP_DROP,	/* dropped by an XDP program (XDP_DROP/aborted) */
	NP_DRV_PAUSE_TX,	/* pause/XOFF frames sent: we asked the peer to stop (congested) */
	NP_DRV_PAUSE_RX,	/* pause/XOFF frames received: the peer throttles us */
	NP_DRV_CLOUD_ALLOWANCE,	/* cloud shaping outside the VM: bw/pps/conntrack allowance exceeded */
	NP_DRV_PHY_ERROR,	/* CRC/FCS, symbol, alignment errors counted by the driver */
	NP_DRV_OVERSIZE,	/* frames larger than the buffer/MTU */
	NP_DRV__COUNT
};

struct np_drv_class {
	enum np_drv_meaning meaning;
	enum np_stage stage;	/* where the loss happens (link, nic, ...) */
	int queue;		/* rx queue index for per-queue counters, -1 otherwise */
	bool is_tx;		/* a transmit-side counter (not on the receive path) */
};

/* Classify one counter of a driver ("mlx5_core", "ixgbe", ...; unknown drivers use the generic
 * patterns). Returns false (meaning NP_DRV_NONE) for counters that witness nothing we check. */
bool np_drv_classify(const char *driver, const char *name, struct np_drv_class *out);
const char *np_drv_meaning_name(enum np_drv_meaning m);	/* "ring_empty", "port_discard", ... */
/* The rx queue of a driver-private per-queue received-packets counter ("rx_queue_3_packets",
 * "rx3_packets", "rx-3.packets", "queue_3_rx_cnt", "[3]: rx_ucast_packets"), else -1. */
int np_drv_rx_packets_queue(const char *name);
/* True when the driver has its own table (not only the generic fallback). */
bool np_drv_known(const char *driver);

#endif
