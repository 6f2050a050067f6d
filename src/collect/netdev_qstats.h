/* SPDX-License-Identifier: GPL-2.0-only */
/* netdev generic netlink per-queue statistics (6.9+): the reply parser and the collector. */
#ifndef NP_NETDEV_QSTATS_H
#define NP_NETDEV_QSTATS_H

#include "genl.h"
#include "snapshot.h"

/* include/uapi/linux/netdev.h is missing from the build host (Debian 12 ships 6.1 headers):
 * the values below are from the kernel's netdev.yaml spec. Counters are the netlink "uint"
 * type: 4 or 8 bytes, read by length. */
#define NP_NETDEV_FAMILY_NAME			"netdev"
#define NP_NETDEV_FAMILY_VERSION		1
#define NP_NETDEV_CMD_QSTATS_GET		12
#define NP_NETDEV_QUEUE_TYPE_RX			0
#define NP_NETDEV_QUEUE_TYPE_TX			1
#define NP_NETDEV_QSTATS_SCOPE_QUEUE		1
#define NP_NETDEV_A_QSTATS_IFINDEX		1
#define NP_NETDEV_A_QSTATS_QUEUE_TYPE		2
#define NP_NETDEV_A_QSTATS_QUEUE_ID		3
#define NP_NETDEV_A_QSTATS_SCOPE		4
#define NP_NETDEV_A_QSTATS_RX_PACKETS		8
#define NP_NETDEV_A_QSTATS_RX_BYTES		9
#define NP_NETDEV_A_QSTATS_RX_ALLOC_FAIL	12
#define NP_NETDEV_A_QSTATS_RX_HW_DROPS		13
#define NP_NETDEV_A_QSTATS_RX_HW_DROP_OVERRUNS	14
#define NP_NETDEV_A_QSTATS_RX_CSUM_NONE		17
#define NP_NETDEV_A_QSTATS_RX_CSUM_BAD		18
#define NP_NETDEV_A_QSTATS_RX_HW_DROP_RATELIMITS 23

/* One QSTATS_GET dump message: an rx queue is appended to e->qstats (counters the driver does
 * not keep stay NP_NA); tx queues are skipped. 0, -EINVAL (not a qstats message), -EBADMSG
 * (truncated or a counter of a bad size; the queue is kept with what parsed), -ENOMEM. */
int np_qstats_parse(const struct nlmsghdr *nlh, struct np_ethtool *e);

/* The collector over an open transport (np_collect_qstats opens a real socket). */
void np_qstats_collect(struct np_nl *g, struct np_snapshot *s, unsigned ifindex);

#endif
