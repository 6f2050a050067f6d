// SPDX-License-Identifier: GPL-2.0-only
/* What each driver's private `ethtool -S` counters witness, by driver name. */
#include "driver_counter_tables.h"

#include <stddef.h>
#include <string.h>

#define RX(p, m, st) { p, NP_DRV_##m, NP_STAGE_##st, NP_DRV_DIR_RX, sizeof(p) - 1 }
#define TX(p, m) { p, NP_DRV_##m, NP_STAGE_NIC, NP_DRV_DIR_TX, sizeof(p) - 1 }
#define KNOWN(p) { p, NP_DRV_NONE, NP_STAGE_NIC, NP_DRV_DIR_NAME, sizeof(p) - 1 }
#define END { NULL, 0, 0, 0, 0 }

/* mlx5: Documentation/networking/device_drivers/ethernet/mellanox/mlx5/counters.rst. Totals
 * (rx_xdp_drop) and per-channel copies (rx3_xdp_drop) both exist: the queue index tells. */
static const struct np_drv_pat mlx5_tab[] = {
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
static const struct np_drv_pat ixgbe_tab[] = {
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
static const struct np_drv_pat i40e_tab[] = {
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
static const struct np_drv_pat ice_tab[] = {
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
static const struct np_drv_pat bnxt_tab[] = {
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
static const struct np_drv_pat virtio_tab[] = {
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
static const struct np_drv_pat ena_tab[] = {
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
static const struct np_drv_pat veth_tab[] = {
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
static const struct np_drv_pat igb_tab[] = {
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
	const struct np_drv_pat *tab;
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

const struct np_drv_pat *np_drv_patterns(const char *driver)
{
	if (!driver)
		return NULL;
	/* the first byte before strcmp: this runs once per counter name (issue #35) */
	for (size_t i = 0; i < sizeof(drivers) / sizeof(drivers[0]); i++)
		if (drivers[i].driver[0] == driver[0] && strcmp(drivers[i].driver, driver) == 0)
			return drivers[i].tab;
	return NULL;
}

bool np_drv_known(const char *driver)
{
	return np_drv_patterns(driver) != NULL;
}
