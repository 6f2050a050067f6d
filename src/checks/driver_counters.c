// SPDX-License-Identifier: GPL-2.0-only
/* What each driver's private `ethtool -S` counters witness: per-driver tables, generic patterns. */
#include "driver_counters.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Patterns match a whole counter name, case-insensitively:
 *   %  one or more digits, captured as the queue index ("rx%_xdp_drop" -> rx3_xdp_drop: queue 3)
 *   #  one or more digits that are not a queue (a priority, packet buffer or lane)
 *   *  any run of characters, possibly empty
 * The first matching entry of the driver's table decides; an entry with meaning NONE is a
 * counter we know to be harmless (it stops the generic patterns from guessing). Names the table
 * does not know fall through to the generic patterns, so new counters still get a meaning.
 */
struct drv_pat {
	const char *pat;
	unsigned char meaning;	/* enum np_drv_meaning */
	unsigned char stage;	/* enum np_stage */
	unsigned char dir;	/* DIR_RX, DIR_TX, or DIR_NAME: from the name's rx/tx token */
};

enum { DIR_RX, DIR_TX, DIR_NAME };

#define RX(p, m, st) { p, NP_DRV_##m, NP_STAGE_##st, DIR_RX }
#define TX(p, m) { p, NP_DRV_##m, NP_STAGE_NIC, DIR_TX }
#define KNOWN(p) { p, NP_DRV_NONE, NP_STAGE_NIC, DIR_NAME }
#define END { NULL, 0, 0, 0 }

/* mlx5: Documentation/networking/device_drivers/ethernet/mellanox/mlx5/counters.rst. Totals
 * (rx_xdp_drop) and per-channel copies (rx3_xdp_drop) both exist: the queue index tells. */
static const struct drv_pat mlx5_tab[] = {
	RX("rx_out_of_buffer", RING_EMPTY, NIC),	/* RQ had no posted buffer */
	RX("dev_out_of_buffer", RING_EMPTY, NIC),
	RX("dev_internal_queue_oob", RING_EMPTY, NIC),
	RX("rx_discards_phy", PORT_DISCARD, NIC),	/* port buffer full: host too slow */
	/* Port buffer above 85%: the warning before rx_discards_phy, counted in events, not
	 * packets. Summed with the discards it would invent losses, so it stays informative. */
	KNOWN("rx_buffer_passed_thres_phy"),
	KNOWN("rx_prio#_discards"),			/* per-priority share of rx_discards_phy */
	RX("rx_prio#_buf_discard", PORT_DISCARD, NIC),
	RX("rx_prio#_cong_discard", PORT_DISCARD, NIC),
	RX("outbound_pci_buffer_overflow", PORT_DISCARD, PCIE),	/* PCIe slower than the wire */
	RX("rx_pci_signal_integrity", PHY_ERROR, PCIE),
	TX("tx_pci_signal_integrity", NONE),
	RX("rx_buff_alloc_err", ALLOC_FAIL, NIC),
	RX("rx%_buff_alloc_err", ALLOC_FAIL, NIC),
	RX("rx_xsk_buff_alloc_err", ALLOC_FAIL, NIC),
	RX("rx%_xsk_buff_alloc_err", ALLOC_FAIL, NIC),
	RX("rx_xdp_drop", XDP_DROP, INGRESS),
	RX("rx%_xdp_drop", XDP_DROP, INGRESS),
	RX("rx_xdp_tx_full", XDP_DROP, INGRESS),	/* XDP_TX verdict, XDP SQ full: dropped */
	RX("rx%_xdp_tx_full", XDP_DROP, INGRESS),
	RX("rx_xdp_tx_err", XDP_DROP, INGRESS),
	RX("rx%_xdp_tx_err", XDP_DROP, INGRESS),
	RX("rx_oversize_pkts_buffer", OVERSIZE, NIC),	/* frame larger than the posted buffer */
	RX("rx_oversize_pkts_sw_drop", OVERSIZE, NIC),
	RX("rx%_oversize_pkts_sw_drop", OVERSIZE, NIC),
	RX("rx_oversize_pkts_phy", OVERSIZE, LINK),	/* over the MTU on the wire */
	RX("rx_out_of_range_len_phy", OVERSIZE, LINK),
	RX("rx_crc_errors_phy", PHY_ERROR, LINK),
	RX("rx_symbol_err_phy", PHY_ERROR, LINK),
	RX("rx_pcs_symbol_err_phy", PHY_ERROR, LINK),
	RX("rx_jabbers_phy", PHY_ERROR, LINK),
	RX("rx_fragments_phy", PHY_ERROR, LINK),
	RX("rx_undersize_pkts_phy", PHY_ERROR, LINK),
	RX("rx_in_range_len_errors_phy", PHY_ERROR, LINK),
	KNOWN("rx_corrected_bits_phy"),			/* FEC corrected them: nothing lost */
	KNOWN("rx_err_lane_#_phy"),
	RX("rx_pause_ctrl_phy", PAUSE_RX, NIC),
	RX("tx_pause_ctrl_phy", PAUSE_TX, NIC),
	KNOWN("rx_global_pause"),			/* the same frames as *_pause_ctrl_phy */
	KNOWN("tx_global_pause"),
	/* PFC: a different opcode, not in _ctrl_phy */
	RX("rx_prio#_pause", PAUSE_RX, NIC),
	RX("tx_prio#_pause", PAUSE_TX, NIC),
	KNOWN("tx_pause_storm_*_events"),		/* events, not frames */
	KNOWN("*_pause_duration"),
	KNOWN("*_pause_transition"),
	/* Traffic no steering rule accepts, like frames for another MAC: not a capacity loss. */
	KNOWN("rx_steer_missed_packets"),
	KNOWN("rx_if_down_packets"),
	KNOWN("rx*_arfs_err"),
	KNOWN("rx*_pp_*"),
	KNOWN("ptp_*"),
	TX("tx_discards_phy", PORT_DISCARD),
	TX("tx%_dropped", QUEUE_DROP),
	TX("tx_queue_dropped", QUEUE_DROP),
	TX("tx_xdp_full", XDP_DROP),
	TX("tx%_xdp_full", XDP_DROP),
	TX("tx_xdp_err", XDP_DROP),
	TX("tx%_xdp_err", XDP_DROP),
	END
};

/* ixgbe: ixgbe_ethtool.c. With DROP_EN (the default with several queues) ring-full drops land
 * in rx_no_dma_resources, not in the missed-packet count. */
static const struct drv_pat ixgbe_tab[] = {
	RX("rx_missed_errors", RING_EMPTY, NIC),
	RX("rx_no_dma_resources", RING_EMPTY, NIC),
	RX("rx_no_buffer_count", RING_EMPTY, NIC),
	RX("rx_queue_%_drops", QUEUE_DROP, NIC),
	RX("alloc_rx_page_failed", ALLOC_FAIL, NIC),
	RX("alloc_rx_buff_failed", ALLOC_FAIL, NIC),
	RX("rx_flow_control_xoff", PAUSE_RX, NIC),
	RX("tx_flow_control_xoff", PAUSE_TX, NIC),
	RX("rx_pb_#_pxoff", PAUSE_RX, NIC),		/* per packet buffer (PFC), not per queue */
	RX("tx_pb_#_pxoff", PAUSE_TX, NIC),
	RX("rx_crc_errors", PHY_ERROR, LINK),
	RX("rx_short_length_errors", PHY_ERROR, LINK),
	RX("rx_long_length_errors", OVERSIZE, LINK),
	/* The rtnl rx_dropped (stack drops included), judged by the rtnl checks. */
	KNOWN("rx_dropped"),
	KNOWN("rx_fifo_errors"),			/* rtnl mirror ixgbe never sets */
	KNOWN("fdir_miss"),				/* flow director lookup miss: RSS instead */
	KNOWN("fdir_overflow"),
	KNOWN("*fcoe*"),				/* FCoE offload, not the IP receive path */
	END
};

/* i40e: i40e_ethtool.c. port.* is the physical port, the rest the PF's VSI. */
static const struct drv_pat i40e_tab[] = {
	RX("port.rx_discards", PORT_DISCARD, NIC),
	RX("port.rx_dropped", PORT_DISCARD, NIC),	/* its name before ~6.8 */
	RX("rx_missed_errors", RING_EMPTY, NIC),	/* ~6.8+: VSI buffer exhaustion */
	RX("rx_dropped", QUEUE_DROP, NIC),		/* <=6.7 it held buffer exhaustion too */
	RX("rx_alloc_fail", ALLOC_FAIL, NIC),
	RX("rx_pg_alloc_fail", ALLOC_FAIL, NIC),
	RX("port.link_xoff_rx", PAUSE_RX, NIC),
	RX("port.link_xoff_tx", PAUSE_TX, NIC),
	RX("port.rx_priority_#_xoff_rx", PAUSE_RX, NIC),
	RX("port.tx_priority_#_xoff_tx", PAUSE_TX, NIC),
	KNOWN("port.rx_priority_#_xon_2_xoff"),
	RX("port.rx_crc_errors", PHY_ERROR, LINK),
	KNOWN("rx_crc_errors"),				/* netdev copy of port.rx_crc_errors */
	KNOWN("rx_length_errors"),			/* netdev copy of port.rx_length_errors */
	RX("port.illegal_bytes", PHY_ERROR, LINK),
	RX("port.rx_undersize", PHY_ERROR, LINK),
	RX("port.rx_fragments", PHY_ERROR, LINK),
	RX("port.rx_jabber", PHY_ERROR, LINK),
	RX("port.rx_length_errors", PHY_ERROR, LINK),
	RX("port.rx_oversize", OVERSIZE, LINK),
	KNOWN("port.fdir_*"),
	END
};

/* ice: ice_ethtool.c. ".nic" is the port; rx_dropped.nic is what rtnl shows as missed. */
static const struct drv_pat ice_tab[] = {
	RX("rx_dropped.nic", PORT_DISCARD, NIC),
	RX("rx_dropped", QUEUE_DROP, NIC),
	RX("rx_alloc_fail", ALLOC_FAIL, NIC),
	RX("rx_pg_alloc_fail", ALLOC_FAIL, NIC),
	RX("link_xoff_rx.nic", PAUSE_RX, NIC),
	RX("link_xoff_tx.nic", PAUSE_TX, NIC),
	RX("rx_priority_#_xoff.nic", PAUSE_RX, NIC),
	RX("tx_priority_#_xoff.nic", PAUSE_TX, NIC),
	RX("rx_crc_errors.nic", PHY_ERROR, LINK),
	RX("illegal_bytes.nic", PHY_ERROR, LINK),
	RX("rx_undersize.nic", PHY_ERROR, LINK),
	RX("rx_fragments.nic", PHY_ERROR, LINK),
	RX("rx_jabber.nic", PHY_ERROR, LINK),
	RX("rx_length_errors.nic", PHY_ERROR, LINK),
	RX("rx_oversize.nic", OVERSIZE, LINK),
	KNOWN("fdir_sb_*"),
	END
};

/* bnxt_en: bnxt_ethtool.c. "[N]: " prefixes the per-ring counters. */
static const struct drv_pat bnxt_tab[] = {
	RX("[%]: rx_discards", RING_EMPTY, NIC),	/* the ring had no buffer */
	RX("[%]: rx_buf_errors", RING_EMPTY, NIC),
	RX("[%]: rx_oom_discards", ALLOC_FAIL, NIC),
	KNOWN("[%]: rx_netpoll_discards"),
	KNOWN("[%]: missed_irqs"),
	TX("[%]: tx_discards", QUEUE_DROP),
	RX("rx_total_ring_discards", RING_EMPTY, NIC),
	RX("rx_total_buf_errors", RING_EMPTY, NIC),
	RX("rx_total_oom_discards", ALLOC_FAIL, NIC),
	KNOWN("rx_total_netpoll_discards"),
	KNOWN("total_missed_irqs"),
	TX("tx_total_ring_discards", QUEUE_DROP),
	RX("rx_stat_discard", PORT_DISCARD, NIC),
	KNOWN("rx_discard_*_cos#"),			/* per-CoS share of the port's discards */
	KNOWN("rx_buffer_passed_threshold"),		/* occupancy events, as on mlx5 */
	RX("rx_pause_frames", PAUSE_RX, NIC),
	RX("tx_pause_frames", PAUSE_TX, NIC),
	RX("rx_pfc_frames", PAUSE_RX, NIC),
	RX("tx_pfc_frames", PAUSE_TX, NIC),
	KNOWN("*pfc_ena_frames_pri#"),
	KNOWN("pfc_pri#_*"),
	KNOWN("*_pause_events"),
	RX("rx_fcs_err_frames", PHY_ERROR, LINK),
	RX("rx_align_err_frames", PHY_ERROR, LINK),
	RX("rx_jbr_frames", PHY_ERROR, LINK),
	RX("rx_runt_frames", PHY_ERROR, LINK),
	RX("rx_undrsz_frames", PHY_ERROR, LINK),
	RX("rx_pcs_symbol_err", PHY_ERROR, LINK),
	RX("rx_fec_uncorrectable_blocks", PHY_ERROR, LINK),
	RX("rx_ovrsz_frames", OVERSIZE, LINK),
	RX("rx_mtu_err_frames", OVERSIZE, LINK),
	KNOWN("rx_fec_corrected_blocks"),
	KNOWN("rx_corrected_bits"),
	KNOWN("rx_filter_miss"),			/* no filter matched: not ours */
	KNOWN("rx_runt_bytes"),
	TX("tx_stat_discard", PORT_DISCARD),
	END
};

/* virtio_net: <=6.9 rx_queue_N_*, 6.10+ rxN_* plus device counters rxN_hw_* (VIRTIO_NET_F_
 * DEVICE_STATS). rx_drops / rx_xdp_drops are the totals over the queues. */
static const struct drv_pat virtio_tab[] = {
	RX("rx_queue_%_drops", QUEUE_DROP, NIC),
	RX("rx_queue_%_xdp_drops", XDP_DROP, INGRESS),
	RX("rx%_drops", QUEUE_DROP, NIC),
	RX("rx_drops", QUEUE_DROP, NIC),
	RX("rx%_xdp_drops", XDP_DROP, INGRESS),
	RX("rx_xdp_drops", XDP_DROP, INGRESS),
	RX("rx%_hw_drops", QUEUE_DROP, NIC),
	RX("rx%_hw_drop_overruns", RING_EMPTY, NIC),	/* the device found no free descriptor */
	RX("rx%_hw_ratelimit_packets", CLOUD_ALLOWANCE, NIC),	/* the host's rate limit */
	KNOWN("rx%_hw_ratelimit_bytes"),
	END
};

/* ena (AWS): ena_ethtool.c. The ENI allowances are shaping by the hypervisor, outside the VM. */
static const struct drv_pat ena_tab[] = {
	RX("bw_in_allowance_exceeded", CLOUD_ALLOWANCE, NIC),
	TX("bw_out_allowance_exceeded", CLOUD_ALLOWANCE),
	RX("pps_allowance_exceeded", CLOUD_ALLOWANCE, NIC),
	RX("conntrack_allowance_exceeded", CLOUD_ALLOWANCE, NIC),
	RX("linklocal_allowance_exceeded", CLOUD_ALLOWANCE, NIC),
	KNOWN("conntrack_allowance_available"),		/* a gauge, not an event count */
	RX("queue_%_rx_page_alloc_fail", ALLOC_FAIL, NIC),
	RX("queue_%_rx_skb_alloc_fail", ALLOC_FAIL, NIC),
	RX("queue_%_rx_dma_mapping_err", ALLOC_FAIL, NIC),
	/* could not refill the whole ring */
	RX("queue_%_rx_refil_partial", ALLOC_FAIL, NIC),
	RX("queue_%_rx_empty_rx_ring", RING_EMPTY, NIC),
	RX("queue_%_rx_xdp_drop", XDP_DROP, INGRESS),
	RX("queue_%_rx_xdp_aborted", XDP_DROP, INGRESS),
	RX("queue_%_rx_xdp_invalid", XDP_DROP, INGRESS),
	RX("rx_drops", QUEUE_DROP, NIC),		/* device drops from the keep-alive */
	RX("rx_overruns", RING_EMPTY, NIC),
	TX("tx_drops", QUEUE_DROP),
	KNOWN("queue_%_tx_*"),
	KNOWN("queue_%_xdp_tx_*"),
	/* the driver's admin queue, not flow control */
	KNOWN("admin_q_pause"),
	KNOWN("ena_admin_q_*"),
	END
};

/* veth: rx_queue_N_* exist in NAPI (XDP/GRO) mode; peer_ifindex is an ifindex, not a count. */
static const struct drv_pat veth_tab[] = {
	KNOWN("peer_ifindex"),
	RX("rx_queue_%_drops", QUEUE_DROP, NIC),	/* the 256-entry ptr_ring was full */
	RX("rx_queue_%_xdp_drops", XDP_DROP, INGRESS),
	RX("rx_queue_%_xdp_tx_errors", XDP_DROP, INGRESS),
	TX("tx_queue_%_xdp_xmit_errors", XDP_DROP),
	TX("peer_tx_queue_%_xdp_xmit_errors", XDP_DROP),
	END
};

/* igb: igb_ethtool.c. rx_fifo_errors is the sum of the per-queue RQDPC drops (no descriptor
 * with DROP_EN), rx_missed_errors the packet buffer overflow the empty ring caused. */
static const struct drv_pat igb_tab[] = {
	RX("rx_missed_errors", RING_EMPTY, NIC),
	RX("rx_no_buffer_count", RING_EMPTY, NIC),
	RX("rx_fifo_errors", RING_EMPTY, NIC),
	RX("rx_queue_%_drops", RING_EMPTY, NIC),
	RX("rx_queue_%_alloc_failed", ALLOC_FAIL, NIC),
	RX("rx_flow_control_xoff", PAUSE_RX, NIC),
	RX("tx_flow_control_xoff", PAUSE_TX, NIC),
	RX("rx_crc_errors", PHY_ERROR, LINK),
	RX("rx_align_errors", PHY_ERROR, LINK),
	RX("rx_short_length_errors", PHY_ERROR, LINK),
	RX("rx_long_length_errors", OVERSIZE, LINK),
	KNOWN("rx_length_errors"),			/* netdev sum of short + long */
	KNOWN("dropped_smbus"),				/* management traffic for the BMC */
	END
};

struct drv_table {
	const char *driver;
	const struct drv_pat *tab;
};

static const struct drv_table drivers[] = {
	{ "mlx5_core", mlx5_tab }, { "mlx5e_rep", mlx5_tab },
	{ "ixgbe", ixgbe_tab },
	{ "i40e", i40e_tab },
	{ "ice", ice_tab },
	{ "bnxt_en", bnxt_tab },
	{ "virtio_net", virtio_tab },
	{ "ena", ena_tab },
	{ "veth", veth_tab },
	{ "igb", igb_tab },
};

static const char *const meaning_names[NP_DRV__COUNT] = {
	[NP_DRV_NONE] = "none",
	[NP_DRV_RING_EMPTY] = "ring_empty",
	[NP_DRV_PORT_DISCARD] = "port_discard",
	[NP_DRV_ALLOC_FAIL] = "alloc_fail",
	[NP_DRV_QUEUE_DROP] = "queue_drop",
	[NP_DRV_XDP_DROP] = "xdp_drop",
	[NP_DRV_PAUSE_TX] = "pause_tx",
	[NP_DRV_PAUSE_RX] = "pause_rx",
	[NP_DRV_CLOUD_ALLOWANCE] = "cloud_allowance",
	[NP_DRV_PHY_ERROR] = "phy_error",
	[NP_DRV_OVERSIZE] = "oversize",
};

const char *np_drv_meaning_name(enum np_drv_meaning m)
{
	return (unsigned)m < NP_DRV__COUNT ? meaning_names[m] : "none";
}

static const struct drv_table *find_driver(const char *driver)
{
	if (!driver)
		return NULL;
	for (size_t i = 0; i < sizeof(drivers) / sizeof(drivers[0]); i++)
		if (strcmp(drivers[i].driver, driver) == 0)
			return &drivers[i];
	return NULL;
}

bool np_drv_known(const char *driver)
{
	return find_driver(driver) != NULL;
}

/* Whole-name glob with the rules above; *q gets the last %-capture. */
static bool glob(const char *p, const char *s, int *q)
{
	for (; *p; p++, s++) {
		if (*p == '*') {
			for (const char *t = s;; t++) {
				if (glob(p + 1, t, q))
					return true;
				if (!*t)
					return false;
			}
		}
		if (*p == '%' || *p == '#') {
			long v = 0;

			if (!isdigit((unsigned char)*s))
				return false;
			for (; isdigit((unsigned char)*s); s++)
				v = v < 100000 ? v * 10 + (*s - '0') : v;
			if (*p == '%')
				*q = (int)v;
			s--;
			continue;
		}
		if (tolower((unsigned char)*s) != *p)
			return false;
	}
	return *s == '\0';
}

/* The name's direction: its first rx/tx-ish token ("rx", "rx3", "rxq", "tx", "tx0", "xmit"). */
static int name_dir(const char *name)
{
	const char *s = name;

	while (*s) {
		const char *t;
		size_t n;

		while (*s && !isalnum((unsigned char)*s))
			s++;
		for (t = s; *t && isalnum((unsigned char)*t); t++)
			;
		n = (size_t)(t - s);
		if (n >= 2 && (s[0] == 'r' || s[0] == 't') && s[1] == 'x') {
			size_t k = 2;

			if (k < n && s[k] == 'q')
				k++;
			while (k < n && isdigit((unsigned char)s[k]))
				k++;
			if (k == n)
				return s[0] == 't' ? DIR_TX : DIR_RX;
		}
		if (n == 4 && strncmp(s, "xmit", 4) == 0)
			return DIR_TX;
		s = t;
	}
	return DIR_RX;	/* no direction named: port counters are receive-side by habit */
}

/* The queue in "rx_queue_3_", "queue_3_", "rx3_", "rxq3", "rx-3.", "q3_", "[3]: ", or -1. */
static int name_queue(const char *name)
{
	static const char *const pre[] = { "queue_", "queue-", "queue", "rxq", "txq", "rx-",
					   "tx-", "rx", "tx", "q" };

	for (const char *s = name; *s; s++) {
		if (*s == '[' && isdigit((unsigned char)s[1])) {
			char *end;
			long v = strtol(s + 1, &end, 10);

			if (*end == ']' && v >= 0 && v < 100000)
				return (int)v;
		}
		if (s != name && isalnum((unsigned char)s[-1]))
			continue;	/* prefixes start a token: "prio3" is no queue */
		for (size_t i = 0; i < sizeof(pre) / sizeof(pre[0]); i++) {
			size_t n = strlen(pre[i]);
			const char *d = s + n;
			const char *e = d;

			if (strncmp(s, pre[i], n) != 0 || !isdigit((unsigned char)*d))
				continue;
			while (isdigit((unsigned char)*e))
				e++;
			if (isalpha((unsigned char)*e) || e - d > 5)
				continue;	/* "rx64b..." is a size bucket, not a queue */
			return atoi(d);
		}
	}
	return -1;
}

static bool has(const char *s, const char *word)
{
	return strstr(s, word) != NULL;
}

static bool has_any(const char *s, const char *const *words)
{
	for (; *words; words++)
		if (strstr(s, *words))
			return true;
	return false;
}

/* "missed" words that are not lost packets: lookups that fell back, timers, interrupts. */
static const char *const miss_benign[] = { "irq", "intr", "fdir", "filter", "steer", "cache",
					   "cmpl", "compl", "arfs", "flow", "hash", "lookup",
					   "bp_", "timer", NULL };
static const char *const ring_words[] = { "out_of_buffer", "no_buffer", "no_buf", "nobuf",
					  "no_dma", "no_desc", "overrun", "empty_rx_ring", NULL };
static const char *const phy_words[] = { "crc", "fcs", "symbol", "align", "jabber",
					 "undersize", "runt", "fragments", "illegal",
					 "uncorrectable", NULL };
static const char *const over_words[] = { "oversize", "too_long", "toolong", "long_length",
					  "giant", "mtu_err", NULL };
static const char *const port_words[] = { "port", "phy", ".nic", "mac", "cos", "prio", "pb_",
					  NULL };

/* The generic patterns, on a lowercased name. */
static enum np_drv_meaning generic(const char *s, int dir, bool *tx_out)
{
	if (has(s, "allowance_exceeded") || (has(s, "ratelimit") && !has(s, "bytes"))) {
		if (has(s, "bw_out") || has(s, "_out_allowance"))
			*tx_out = true;
		return NP_DRV_CLOUD_ALLOWANCE;
	}
	if ((has(s, "pause") || has(s, "xoff") || has(s, "pfc")) && !has(s, "xon") &&
	    !has(s, "duration") && !has(s, "transition") && !has(s, "bytes")) {
		*tx_out = false;	/* pause frames we send witness OUR receive congestion */
		return dir == DIR_TX ? NP_DRV_PAUSE_TX : NP_DRV_PAUSE_RX;
	}
	if (has(s, "xdp") && (has(s, "drop") || has(s, "abort") || has(s, "err") ||
			      has(s, "full")))
		return NP_DRV_XDP_DROP;
	if ((has(s, "alloc") && (has(s, "fail") || has(s, "err"))) || has(s, "oom"))
		return NP_DRV_ALLOC_FAIL;
	if (has_any(s, ring_words) || (has(s, "miss") && !has_any(s, miss_benign)))
		return NP_DRV_RING_EMPTY;
	if (has_any(s, phy_words) && !has(s, "corrected"))
		return NP_DRV_PHY_ERROR;
	if (has_any(s, over_words))
		return NP_DRV_OVERSIZE;
	if (has(s, "fifo") || (has(s, "discard") && has_any(s, port_words)))
		return NP_DRV_PORT_DISCARD;
	if (has(s, "drop") || has(s, "discard"))
		return NP_DRV_QUEUE_DROP;
	return NP_DRV_NONE;
}

static enum np_stage default_stage(enum np_drv_meaning m)
{
	switch (m) {
	case NP_DRV_XDP_DROP:
		return NP_STAGE_INGRESS;
	case NP_DRV_PHY_ERROR:
	case NP_DRV_OVERSIZE:
		return NP_STAGE_LINK;
	default:
		return NP_STAGE_NIC;
	}
}

/* Driver-private names of per-queue received packets (bnxt splits them by cast type), in the
 * pattern syntax above. Not losses, so apart from the tables: watch's per-queue rates. */
static const char *const rx_packets_pats[] = {
	"rx_queue_%_packets",	/* ixgbe, igb, ice, virtio_net <= 6.9 */
	"rx%_packets",		/* mlx5, virtio_net with per-queue stats */
	"rx-%.packets",		/* i40e */
	"queue_%_rx_cnt",	/* ena */
	"[%]: rx_ucast_packets", "[%]: rx_mcast_packets", "[%]: rx_bcast_packets",	/* bnxt */
};

int np_drv_rx_packets_queue(const char *name)
{
	for (size_t i = 0; i < sizeof(rx_packets_pats) / sizeof(rx_packets_pats[0]); i++) {
		int q = -1;

		if (glob(rx_packets_pats[i], name, &q))
			return q;
	}
	return -1;
}

bool np_drv_classify(const char *driver, const char *name, struct np_drv_class *out)
{
	const struct drv_table *t = find_driver(driver);
	char lc[128];
	size_t n;
	int dir;

	memset(out, 0, sizeof(*out));
	out->meaning = NP_DRV_NONE;
	out->stage = NP_STAGE_NIC;
	out->queue = -1;
	if (!name)
		return false;
	/* The ioctl collector renames repeated labels "name#2", "name#3": same meaning. */
	n = strlen(name);
	for (size_t i = n; i > 0; i--) {
		if (isdigit((unsigned char)name[i - 1]))
			continue;
		if (name[i - 1] == '#' && i < n && i > 1)
			n = i - 1;
		break;
	}
	if (n >= sizeof(lc))
		n = sizeof(lc) - 1;
	for (size_t i = 0; i < n; i++)
		lc[i] = (char)tolower((unsigned char)name[i]);
	lc[n] = '\0';
	dir = name_dir(lc);

	for (const struct drv_pat *p = t ? t->tab : NULL; p && p->pat; p++) {
		int q = -1;

		if (!glob(p->pat, lc, &q))
			continue;
		out->meaning = p->meaning;
		out->stage = p->stage;
		out->queue = q;
		out->is_tx = p->dir == DIR_TX || (p->dir == DIR_NAME && dir == DIR_TX);
		return out->meaning != NP_DRV_NONE;
	}
	out->is_tx = dir == DIR_TX;
	out->meaning = generic(lc, dir, &out->is_tx);
	out->stage = default_stage(out->meaning);
	if (out->meaning != NP_DRV_NONE)
		out->queue = name_queue(lc);
	return out->meaning != NP_DRV_NONE;
}
