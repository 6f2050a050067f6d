/* SPDX-License-Identifier: GPL-2.0-only */
/* Interface counters with the kernel's rtnl_link_stats64 names. */
#ifndef NP_LINK_STATS_H
#define NP_LINK_STATS_H

#include <stdint.h>

/* Interface statistics with the kernel's rtnl_link_stats64 names. sysfs fills these in part 1;
 * rtnetlink IFLA_STATS64 fills the same struct later. */
struct np_link_stats {
	uint64_t rx_packets, tx_packets, rx_bytes, tx_bytes;
	uint64_t rx_errors, tx_errors, rx_dropped, tx_dropped, multicast, collisions;
	uint64_t rx_length_errors, rx_over_errors, rx_crc_errors, rx_frame_errors;
	uint64_t rx_fifo_errors, rx_missed_errors;
	uint64_t tx_aborted_errors, tx_carrier_errors, tx_fifo_errors;
	uint64_t tx_heartbeat_errors, tx_window_errors;
	uint64_t rx_compressed, tx_compressed, rx_nohandler, rx_otherhost_dropped;
};

void np_link_stats_init(struct np_link_stats *st);

#endif
