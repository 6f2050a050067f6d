/* SPDX-License-Identifier: GPL-2.0-only */
/* Interface counters with the kernel's rtnl_link_stats64 names, declared once. */
#ifndef NP_LINK_STATS_H
#define NP_LINK_STATS_H

#include <stddef.h>
#include <stdint.h>

/*
 * struct rtnl_link_stats64 in the kernel's order, one u64 each (include/uapi/linux/if_link.h).
 * The same names are the files under /sys/class/net/IF/statistics/. Both readers walk the one
 * table below: rtnetlink by position (a kernel's IFLA_STATS64 payload may be shorter or longer
 * than the build host's header, so the order here, not sizeof, says which u64 is which), sysfs
 * by name. A field appended by a newer kernel is one line here.
 */
#define NP_LINK_STATS_FIELDS(X)						\
	X(rx_packets) X(tx_packets) X(rx_bytes) X(tx_bytes)		\
	X(rx_errors) X(tx_errors) X(rx_dropped) X(tx_dropped)		\
	X(multicast) X(collisions)					\
	X(rx_length_errors) X(rx_over_errors) X(rx_crc_errors)		\
	X(rx_frame_errors) X(rx_fifo_errors) X(rx_missed_errors)	\
	X(tx_aborted_errors) X(tx_carrier_errors) X(tx_fifo_errors)	\
	X(tx_heartbeat_errors) X(tx_window_errors)			\
	X(rx_compressed) X(tx_compressed)				\
	X(rx_nohandler)		/* since 4.6 */				\
	X(rx_otherhost_dropped)	/* since 5.19 */

/* NP_NA where the source did not have the field (an older kernel, a missing file). */
struct np_link_stats {
#define NP_LINK_STATS_MEMBER(name) uint64_t name;
	NP_LINK_STATS_FIELDS(NP_LINK_STATS_MEMBER)
#undef NP_LINK_STATS_MEMBER
};

struct np_link_stats_field {
	const char *name;	/* rtnl_link_stats64's member and the sysfs file */
	size_t off;		/* into struct np_link_stats */
};

/* In rtnl_link_stats64's order; np_link_stats_nfields entries. */
extern const struct np_link_stats_field np_link_stats_fields[];
extern const size_t np_link_stats_nfields;

static inline uint64_t *np_link_stats_at(struct np_link_stats *st, size_t i)
{
	return (uint64_t *)((char *)st + np_link_stats_fields[i].off);
}

void np_link_stats_init(struct np_link_stats *st);

#endif
