/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The NIC side of the snapshot: what ethtool (generic netlink and the SIOCETHTOOL ioctl),
 * netdev qstats and rtnetlink report. Plain structs, filled by collectors; every value a driver
 * does not report stays NP_NA (or -1 for tri-state flags), and each request's outcome is in the
 * snapshot's src[] table (NP_SRC_UNSUPPORTED = "driver does not report it").
 */
#ifndef NP_NIC_H
#define NP_NIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "counters.h"
#include "link_stats.h"

/* Link mode bitmaps (ETHTOOL_LINK_MODE_* bits), wide enough for today's ~120 modes. */
#define NP_LINKMODE_WORDS 4

struct np_linkmodes {
	uint64_t speed_mbps;		/* negotiated, NP_NA when unknown */
	int duplex;			/* 0 half, 1 full, -1 unknown */
	int autoneg;			/* 0 off, 1 on, -1 unknown */
	bool has_supported, has_advertised, has_peer;
	uint64_t supported[NP_LINKMODE_WORDS];
	uint64_t advertised[NP_LINKMODE_WORDS];
	uint64_t peer[NP_LINKMODE_WORDS];	/* link partner's advertised modes */
};

struct np_rings {
	uint64_t rx, rx_max, rx_mini, rx_mini_max, rx_jumbo, rx_jumbo_max, tx, tx_max;
	uint64_t rx_buf_len;
};

struct np_channels {
	uint64_t rx, tx, other, combined;
	uint64_t rx_max, tx_max, other_max, combined_max;
};

struct np_coalesce {
	uint64_t rx_usecs, rx_max_frames, tx_usecs, tx_max_frames;
	int adaptive_rx, adaptive_tx;	/* -1 not reported */
};

/* Offloads that matter on the receive path: -1 unknown, 0 off, 1 on (active state). */
struct np_features {
	int gro, lro, gro_hw, rx_checksum, rxhash, ntuple;
};

struct np_pause {
	int autoneg, rx, tx;		/* -1 unknown */
	uint64_t tx_frames, rx_frames;	/* ETHTOOL_FLAG_STATS (5.10+), NP_NA otherwise */
};

/* netdev generic netlink qstats (6.9+), one per rx queue. */
struct np_qstat {
	int queue;
	uint64_t rx_packets, rx_bytes, rx_alloc_fail, rx_hw_drops, rx_hw_drop_overruns,
		rx_hw_drop_ratelimits, rx_csum_none, rx_csum_bad;
};

struct np_ethtool {
	/* ETHTOOL_GDRVINFO (ioctl) */
	char driver[32], version[32], fw_version[64], bus_info[64];
	struct np_linkmodes link;
	struct np_rings rings;
	struct np_channels channels;
	struct np_coalesce coalesce;
	struct np_features features;
	struct np_pause pause;
	/* Standard statistics groups (STATS_GET): "eth-mac.FrameCheckSequenceErrors",
	 * "eth-phy.SymbolErrorDuringCarrier", "rmon.undersize_pkts", ... */
	struct np_counters std_stats;
	/* RSS indirection table: entry i -> rx queue. */
	size_t rss_size;
	uint32_t *rss_indir;
	/* Driver-private statistics (ETHTOOL_GSTATS), names as the driver spells them. */
	struct np_counters drv_stats;
	size_t nqstats;
	struct np_qstat *qstats;
};

struct np_qdisc {
	char kind[16];			/* "pfifo_fast", "mq", "fq", "clsact", ... */
	uint32_t handle, parent;
	bool root, ingress;		/* parent TC_H_ROOT / TC_H_INGRESS (ingress and clsact) */
	uint64_t bytes, packets, drops, overlimits, requeues, backlog, qlen;
};

/* RTM_GETLINK and RTM_GETQDISC (libnl-route-3). */
struct np_rtnl {
	bool has_stats64;
	size_t stats64_len;		/* 184/192/200: which optional fields the kernel has */
	struct np_link_stats stats64;
	uint64_t mtu, txqlen;
	char operstate[16];
	char kind[16];			/* IFLA_INFO_KIND: "bond", "bridge", "vlan", "veth"...; "" physical */
	int master;			/* IFLA_MASTER ifindex, 0 none */
	int link;			/* IFLA_LINK ifindex (parent, veth peer), 0 none */
	bool link_other_netns;		/* IFLA_LINK_NETNSID: the link is in another namespace */
	int link_netnsid;		/* its value: the link's namespace as ours numbers it; -1 */
	char ifname[16];		/* IFLA_IFNAME, "" when absent */
	/* veth: its peer as its own namespace shows it (RTM_GETLINK by ifindex with
	 * IFLA_TARGET_NETNSID = link_netnsid when it lives elsewhere): "" when not found. */
	char peer_name[16];
	uint64_t peer_mtu, peer_rx_dropped;	/* NP_NA unknown */
	int underlay;			/* vxlan: IFLA_VXLAN_LINK, the device it sends over; 0 */
	int xdp_attached;		/* XDP_ATTACHED_*: 0 none, 1 drv, 2 skb, 3 hw, 4 multi; -1 unknown */
	uint32_t xdp_prog_id;
	size_t nqdisc;
	struct np_qdisc *qdiscs;
};

void np_ethtool_init(struct np_ethtool *e);
void np_ethtool_free(struct np_ethtool *e);
void np_rtnl_init(struct np_rtnl *r);
void np_rtnl_free(struct np_rtnl *r);

#endif
