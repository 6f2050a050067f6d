// SPDX-License-Identifier: GPL-2.0-only
/*
 * The driver counter table against real counter-name lists of physical NICs' drivers
 * (tests/fixtures/driver_counters: mlx5, ixgbe, i40e, ice, bnxt, ena, igb): every counter a
 * fixture holds that classifies as a receive-path witness must be one this test expects, with
 * its meaning, stage and queue; everything else must classify as nothing or as transmit-side.
 * So a new table entry that catches a harmless counter fails here, and so does one that stops
 * catching an important one. (Virtual and unknown drivers, naming:
 * test_check_driver_counters_generic.c.)
 */
#include "synth.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver_counters.h"
#include "driver_counters_fixture.h"

static void test_mlx5(void **state)
{
	static const struct expect ex[] = {
		E("rx_out_of_buffer", RING_EMPTY, NIC, -1),
		E("dev_out_of_buffer", RING_EMPTY, NIC, -1),
		E("dev_internal_queue_oob", RING_EMPTY, NIC, -1),
		E("rx_discards_phy", PORT_DISCARD, NIC, -1),
		E("outbound_pci_buffer_overflow", PORT_DISCARD, PCIE, -1),
		E("rx_pci_signal_integrity", PHY_ERROR, PCIE, -1),
		E("rx_buff_alloc_err", ALLOC_FAIL, NIC, -1),
		E("rx_xsk_buff_alloc_err", ALLOC_FAIL, NIC, -1),
		E("rx0_buff_alloc_err", ALLOC_FAIL, NIC, 0),
		E("rx1_buff_alloc_err", ALLOC_FAIL, NIC, 1),
		E("rx_xdp_drop", XDP_DROP, INGRESS, -1),
		E("rx_xsk_xdp_drop", XDP_DROP, INGRESS, -1),
		E("rx_xdp_tx_full", XDP_DROP, INGRESS, -1),
		E("rx_xdp_tx_err", XDP_DROP, INGRESS, -1),
		E("rx0_xdp_*", XDP_DROP, INGRESS, 0),
		E("rx1_xdp_*", XDP_DROP, INGRESS, 1),
		E("rx_oversize_pkts_buffer", OVERSIZE, NIC, -1),
		E("rx_oversize_pkts_sw_drop", OVERSIZE, NIC, -1),
		E("rx0_oversize_pkts_sw_drop", OVERSIZE, NIC, 0),
		E("rx1_oversize_pkts_sw_drop", OVERSIZE, NIC, 1),
		E("rx_oversize_pkts_phy", OVERSIZE, LINK, -1),
		E("rx_out_of_range_len_phy", OVERSIZE, LINK, -1),
		E("rx_crc_errors_phy", PHY_ERROR, LINK, -1),
		E("rx_*symbol_err_phy", PHY_ERROR, LINK, -1),
		E("rx_jabbers_phy", PHY_ERROR, LINK, -1),
		E("rx_fragments_phy", PHY_ERROR, LINK, -1),
		E("rx_undersize_pkts_phy", PHY_ERROR, LINK, -1),
		E("rx_in_range_len_errors_phy", PHY_ERROR, LINK, -1),
		E("rx_pause_ctrl_phy", PAUSE_RX, NIC, -1),
		E("tx_pause_ctrl_phy", PAUSE_TX, NIC, -1),
	};
	static const char *const tx[] = { "tx_discards_phy", "tx0_dropped", "tx1_dropped",
					  "tx_queue_dropped", "tx0_xdp_full", "tx1_xdp_err",
					  "tx_packets", "tx0_bytes", "tx_pci_signal_integrity",
					  NULL };

	(void)state;
	check_fixture("mlx5_core.txt", "mlx5_core", ex, N(ex), tx);
	/* The representor driver shares the table. */
	check_fixture("mlx5_core.txt", "mlx5e_rep", ex, N(ex), tx);
}

static void test_ixgbe(void **state)
{
	static const struct expect ex[] = {
		E("rx_missed_errors", RING_EMPTY, NIC, -1),
		E("rx_no_dma_resources", RING_EMPTY, NIC, -1),
		E("rx_no_buffer_count", RING_EMPTY, NIC, -1),
		E("alloc_rx_page_failed", ALLOC_FAIL, NIC, -1),
		E("alloc_rx_buff_failed", ALLOC_FAIL, NIC, -1),
		E("rx_flow_control_xoff", PAUSE_RX, NIC, -1),
		E("tx_flow_control_xoff", PAUSE_TX, NIC, -1),
		E("rx_pb_?_pxoff", PAUSE_RX, NIC, -1),	/* packet buffer, not a queue */
		E("tx_pb_?_pxoff", PAUSE_TX, NIC, -1),
		E("rx_crc_errors", PHY_ERROR, LINK, -1),
		E("rx_short_length_errors", PHY_ERROR, LINK, -1),
		E("rx_long_length_errors", OVERSIZE, LINK, -1),
	};
	static const char *const tx[] = { "tx_dropped", "tx_fifo_errors", "tx_queue_1_packets",
					  NULL };

	(void)state;
	check_fixture("ixgbe.txt", "ixgbe", ex, N(ex), tx);
}

static void test_i40e(void **state)
{
	static const struct expect ex[] = {
		E("port.rx_discards", PORT_DISCARD, NIC, -1),
		E("rx_missed_errors", RING_EMPTY, NIC, -1),
		E("rx_dropped", QUEUE_DROP, NIC, -1),
		E("rx_alloc_fail", ALLOC_FAIL, NIC, -1),
		E("rx_pg_alloc_fail", ALLOC_FAIL, NIC, -1),
		E("port.link_xoff_rx", PAUSE_RX, NIC, -1),
		E("port.link_xoff_tx", PAUSE_TX, NIC, -1),
		E("port.rx_priority_?_xoff_rx", PAUSE_RX, NIC, -1),
		E("port.tx_priority_?_xoff_tx", PAUSE_TX, NIC, -1),
		E("port.rx_crc_errors", PHY_ERROR, LINK, -1),
		E("port.illegal_bytes", PHY_ERROR, LINK, -1),
		E("port.rx_undersize", PHY_ERROR, LINK, -1),
		E("port.rx_fragments", PHY_ERROR, LINK, -1),
		E("port.rx_jabber", PHY_ERROR, LINK, -1),
		E("port.rx_length_errors", PHY_ERROR, LINK, -1),
		E("port.rx_oversize", OVERSIZE, LINK, -1),
	};
	static const char *const tx[] = { "tx_dropped", "port.tx_dropped_link_down", NULL };
	struct np_drv_class c;

	(void)state;
	check_fixture("i40e.txt", "i40e", ex, N(ex), tx);
	/* Before ~6.8 the port discards were called port.rx_dropped. */
	assert_true(np_drv_classify("i40e", "port.rx_dropped", &c));
	assert_int_equal(c.meaning, NP_DRV_PORT_DISCARD);
	/* The netdev copy of the port CRC counter would count every error twice. */
	assert_false(np_drv_classify("i40e", "rx_crc_errors", &c));
}

static void test_ice(void **state)
{
	static const struct expect ex[] = {
		E("rx_dropped.nic", PORT_DISCARD, NIC, -1),
		E("rx_dropped", QUEUE_DROP, NIC, -1),
		E("rx_alloc_fail", ALLOC_FAIL, NIC, -1),
		E("rx_pg_alloc_fail", ALLOC_FAIL, NIC, -1),
		E("link_xoff_rx.nic", PAUSE_RX, NIC, -1),
		E("link_xoff_tx.nic", PAUSE_TX, NIC, -1),
		E("rx_priority_?_xoff.nic", PAUSE_RX, NIC, -1),
		E("tx_priority_?_xoff.nic", PAUSE_TX, NIC, -1),
		E("rx_crc_errors.nic", PHY_ERROR, LINK, -1),
		E("illegal_bytes.nic", PHY_ERROR, LINK, -1),
		E("rx_undersize.nic", PHY_ERROR, LINK, -1),
		E("rx_fragments.nic", PHY_ERROR, LINK, -1),
		E("rx_jabber.nic", PHY_ERROR, LINK, -1),
		E("rx_oversize.nic", OVERSIZE, LINK, -1),
	};
	static const char *const tx[] = { "tx_dropped_link_down.nic", "tx_errors.nic", NULL };

	(void)state;
	check_fixture("ice.txt", "ice", ex, N(ex), tx);
}

static void test_bnxt(void **state)
{
	static const struct expect ex[] = {
		E("\\[0\\]: rx_discards", RING_EMPTY, NIC, 0),
		E("\\[1\\]: rx_discards", RING_EMPTY, NIC, 1),
		E("\\[0\\]: rx_buf_errors", RING_EMPTY, NIC, 0),
		E("\\[1\\]: rx_buf_errors", RING_EMPTY, NIC, 1),
		E("rx_total_ring_discards", RING_EMPTY, NIC, -1),
		E("rx_total_buf_errors", RING_EMPTY, NIC, -1),
		E("rx_total_oom_discards", ALLOC_FAIL, NIC, -1),
		E("rx_stat_discard", PORT_DISCARD, NIC, -1),
		E("rx_pause_frames", PAUSE_RX, NIC, -1),
		E("rx_pfc_frames", PAUSE_RX, NIC, -1),
		E("tx_pause_frames", PAUSE_TX, NIC, -1),
		E("tx_pfc_frames", PAUSE_TX, NIC, -1),
		E("rx_fcs_err_frames", PHY_ERROR, LINK, -1),
		E("rx_align_err_frames", PHY_ERROR, LINK, -1),
		E("rx_jbr_frames", PHY_ERROR, LINK, -1),
		E("rx_runt_frames", PHY_ERROR, LINK, -1),
		E("rx_undrsz_frames", PHY_ERROR, LINK, -1),
		E("rx_pcs_symbol_err", PHY_ERROR, LINK, -1),
		E("rx_fec_uncorrectable_blocks", PHY_ERROR, LINK, -1),
		E("rx_ovrsz_frames", OVERSIZE, LINK, -1),
		E("rx_mtu_err_frames", OVERSIZE, LINK, -1),
	};
	static const char *const tx[] = { "[0]: tx_discards", "[1]: tx_discards",
					  "tx_total_ring_discards", "tx_stat_discard", NULL };
	struct np_drv_class c;

	(void)state;
	check_fixture("bnxt_en.txt", "bnxt_en", ex, N(ex), tx);
	/* Older kernels (5.13-6.x) kept per-ring OOM discards. */
	assert_true(np_drv_classify("bnxt_en", "[5]: rx_oom_discards", &c));
	assert_int_equal(c.meaning, NP_DRV_ALLOC_FAIL);
	assert_int_equal(c.queue, 5);
}

static void test_ena(void **state)
{
	static const struct expect ex[] = {
		E("bw_in_allowance_exceeded", CLOUD_ALLOWANCE, NIC, -1),
		E("pps_allowance_exceeded", CLOUD_ALLOWANCE, NIC, -1),
		E("conntrack_allowance_exceeded", CLOUD_ALLOWANCE, NIC, -1),
		E("linklocal_allowance_exceeded", CLOUD_ALLOWANCE, NIC, -1),
		E("queue_0_rx_*alloc_fail", ALLOC_FAIL, NIC, 0),
		E("queue_1_rx_*alloc_fail", ALLOC_FAIL, NIC, 1),
		E("queue_0_rx_dma_mapping_err", ALLOC_FAIL, NIC, 0),
		E("queue_1_rx_dma_mapping_err", ALLOC_FAIL, NIC, 1),
		E("queue_0_rx_refil_partial", ALLOC_FAIL, NIC, 0),
		E("queue_1_rx_refil_partial", ALLOC_FAIL, NIC, 1),
		E("queue_0_rx_empty_rx_ring", RING_EMPTY, NIC, 0),
		E("queue_1_rx_empty_rx_ring", RING_EMPTY, NIC, 1),
		E("queue_0_rx_xdp_[adi]*", XDP_DROP, INGRESS, 0),
		E("queue_1_rx_xdp_[adi]*", XDP_DROP, INGRESS, 1),
	};
	static const char *const tx[] = { "bw_out_allowance_exceeded", "queue_0_tx_missed_tx",
					  "queue_1_tx_dma_mapping_err", NULL };
	struct np_drv_class c;

	(void)state;
	check_fixture("ena.txt", "ena", ex, N(ex), tx);
	/* A gauge and the driver's own admin queue are not losses. */
	assert_false(np_drv_classify("ena", "conntrack_allowance_available", &c));
	assert_false(np_drv_classify("ena", "admin_q_pause", &c));
	/* Out-of-tree ENA versions report the device's drops. */
	assert_true(np_drv_classify("ena", "rx_drops", &c));
	assert_int_equal(c.meaning, NP_DRV_QUEUE_DROP);
	assert_true(np_drv_classify("ena", "tx_drops", &c));
	assert_true(c.is_tx);
}

static void test_igb(void **state)
{
	static const struct expect ex[] = {
		E("rx_missed_errors", RING_EMPTY, NIC, -1),
		E("rx_no_buffer_count", RING_EMPTY, NIC, -1),
		E("rx_fifo_errors", RING_EMPTY, NIC, -1),
		E("rx_queue_0_drops", RING_EMPTY, NIC, 0),
		E("rx_queue_1_drops", RING_EMPTY, NIC, 1),
		E("rx_queue_0_alloc_failed", ALLOC_FAIL, NIC, 0),
		E("rx_queue_1_alloc_failed", ALLOC_FAIL, NIC, 1),
		E("rx_flow_control_xoff", PAUSE_RX, NIC, -1),
		E("tx_flow_control_xoff", PAUSE_TX, NIC, -1),
		E("rx_crc_errors", PHY_ERROR, LINK, -1),
		E("rx_align_errors", PHY_ERROR, LINK, -1),
		E("rx_short_length_errors", PHY_ERROR, LINK, -1),
		E("rx_long_length_errors", OVERSIZE, LINK, -1),
	};
	static const char *const tx[] = { "tx_dropped", "tx_fifo_errors", "tx_queue_1_restart",
					  NULL };
	struct np_drv_class c;

	(void)state;
	check_fixture("igb.txt", "igb", ex, N(ex), tx);
	assert_false(np_drv_classify("igb", "dropped_smbus", &c));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mlx5),
		cmocka_unit_test(test_ixgbe),
		cmocka_unit_test(test_i40e),
		cmocka_unit_test(test_ice),
		cmocka_unit_test(test_bnxt),
		cmocka_unit_test(test_ena),
		cmocka_unit_test(test_igb),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
