// SPDX-License-Identifier: GPL-2.0-only
/*
 * The driver counter table beyond physical NICs' drivers: virtio and veth fixtures checked the
 * same way, harmless look-alike names, unknown drivers through the generic patterns and their
 * per-queue index styles, name suffixes, and per-queue received packets.
 */
#include "synth.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver_counters.h"
#include "driver_counters_fixture.h"

static void test_virtio(void **state)
{
	static const struct expect live[] = {
		E("rx_drops", QUEUE_DROP, NIC, -1),
		E("rx0_drops", QUEUE_DROP, NIC, 0),
		E("rx_xdp_drops", XDP_DROP, INGRESS, -1),
		E("rx0_xdp_drops", XDP_DROP, INGRESS, 0),
	};
	static const struct expect old[] = {
		E("rx_queue_0_drops", QUEUE_DROP, NIC, 0),
		E("rx_queue_1_drops", QUEUE_DROP, NIC, 1),
		E("rx_queue_0_xdp_drops", XDP_DROP, INGRESS, 0),
		E("rx_queue_1_xdp_drops", XDP_DROP, INGRESS, 1),
	};
	static const struct expect dev[] = {
		E("rx_drops", QUEUE_DROP, NIC, -1),
		E("rx_xdp_drops", XDP_DROP, INGRESS, -1),
		E("rx0_drops", QUEUE_DROP, NIC, 0),
		E("rx1_drops", QUEUE_DROP, NIC, 1),
		E("rx0_xdp_drops", XDP_DROP, INGRESS, 0),
		E("rx1_xdp_drops", XDP_DROP, INGRESS, 1),
		E("rx0_hw_drops", QUEUE_DROP, NIC, 0),
		E("rx1_hw_drops", QUEUE_DROP, NIC, 1),
		E("rx0_hw_drop_overruns", RING_EMPTY, NIC, 0),
		E("rx1_hw_drop_overruns", RING_EMPTY, NIC, 1),
		E("rx0_hw_ratelimit_packets", CLOUD_ALLOWANCE, NIC, 0),
		E("rx1_hw_ratelimit_packets", CLOUD_ALLOWANCE, NIC, 1),
	};
	static const char *const tx_live[] = { "tx_xdp_tx_drops", "tx0_xdp_tx_drops",
					       "tx0_tx_timeouts", NULL };
	static const char *const tx_old[] = { "tx_queue_0_xdp_tx_drops", NULL };
	static const char *const tx_dev[] = { "tx0_hw_drops", "tx1_hw_drop_malformed",
					      "tx0_hw_ratelimit_packets", NULL };

	(void)state;
	check_fixture("virtio_net.txt", "virtio_net", live, N(live), tx_live);
	check_fixture("virtio_net-5.15.txt", "virtio_net", old, N(old), tx_old);
	check_fixture("virtio_net-devstats.txt", "virtio_net", dev, N(dev), tx_dev);
}

static void test_veth(void **state)
{
	static const struct expect ex[] = {
		E("rx_queue_0_drops", QUEUE_DROP, NIC, 0),
		E("rx_queue_1_drops", QUEUE_DROP, NIC, 1),
		E("rx_queue_0_xdp_*", XDP_DROP, INGRESS, 0),
		E("rx_queue_1_xdp_*", XDP_DROP, INGRESS, 1),
	};
	static const char *const tx[] = { "tx_queue_0_xdp_xmit_errors", "tx_queue_1_xdp_xmit",
					  NULL };
	struct np_drv_class c;

	(void)state;
	check_fixture("veth.txt", "veth", ex, N(ex), tx);
	assert_false(np_drv_classify("veth", "peer_ifindex", &c));
	/* Older kernels prefixed the peer's transmit counters. */
	np_drv_classify("veth", "peer_tx_queue_2_xdp_xmit_errors", &c);
	assert_true(c.is_tx);
}

/* Names that carry words the generic patterns react to but witness nothing. */
static void test_harmless_lookalikes(void **state)
{
	static const struct {
		const char *drv, *name;
	} quiet[] = {
		{ "mlx5_core", "rx_steer_missed_packets" },	/* "missed" */
		{ "mlx5_core", "rx_buffer_passed_thres_phy" },	/* events, not packets */
		{ "mlx5_core", "rx_prio3_discards" },		/* share of rx_discards_phy */
		{ "mlx5_core", "rx_global_pause" },		/* same frames as ctrl_phy */
		{ "mlx5_core", "rx_global_pause_duration" },
		{ "mlx5_core", "rx_prio2_pause_transition" },
		{ "mlx5_core", "rx_corrected_bits_phy" },
		{ "mlx5_core", "rx_err_lane_3_phy" },
		{ "mlx5_core", "rx_pp_alloc_empty" },
		{ "ixgbe", "fdir_miss" },
		{ "ixgbe", "rx_dropped" },			/* the rtnl copy */
		{ "ixgbe", "fcoe_bad_fccrc" },
		{ "i40e", "port.rx_priority_3_xon_2_xoff" },
		{ "bnxt_en", "rx_filter_miss" },
		{ "bnxt_en", "[3]: missed_irqs" },
		{ "bnxt_en", "rx_fec_corrected_blocks" },
		{ "bnxt_en", "rx_discard_packets_cos2" },
		{ "bnxt_en", "continuous_pause_events" },
		{ "foo", "rx_packets" },
		{ "foo", "rx_bytes" },
		{ "foo", "rx_queue_3_packets" },
		{ "foo", "missed_irqs" },
		{ "foo", "fdir_miss" },
		{ "foo", "rx_hash_lookup_miss" },
		{ "foo", "tx_pb_1_pxon" },
		{ "foo", "rx_pfc_pri0_duration" },
		{ "foo", "rx_csum_complete" },
	};
	struct np_drv_class c;

	(void)state;
	for (size_t i = 0; i < N(quiet); i++) {
		if (np_drv_classify(quiet[i].drv, quiet[i].name, &c))
			fail_msg("%s %s classified %s", quiet[i].drv, quiet[i].name,
				 np_drv_meaning_name(c.meaning));
		assert_int_equal(c.meaning, NP_DRV_NONE);
	}
}

/* Unknown drivers: the generic patterns and the per-queue index styles. */
static void test_generic(void **state)
{
	static const struct {
		const char *name;
		enum np_drv_meaning m;
		enum np_stage st;
		int queue;
		bool tx;
	} cases[] = {
		{ "rx_queue_3_drops", NP_DRV_QUEUE_DROP, NP_STAGE_NIC, 3, false },
		{ "rx3_out_of_buffer", NP_DRV_RING_EMPTY, NP_STAGE_NIC, 3, false },
		{ "rx-3.missed", NP_DRV_RING_EMPTY, NP_STAGE_NIC, 3, false },
		{ "[3]: rx_discards", NP_DRV_QUEUE_DROP, NP_STAGE_NIC, 3, false },
		{ "rxq12_no_buffer", NP_DRV_RING_EMPTY, NP_STAGE_NIC, 12, false },
		{ "queue_7_rx_page_alloc_fail", NP_DRV_ALLOC_FAIL, NP_STAGE_NIC, 7, false },
		{ "rx_dropped", NP_DRV_QUEUE_DROP, NP_STAGE_NIC, -1, false },
		{ "rx_missed_errors", NP_DRV_RING_EMPTY, NP_STAGE_NIC, -1, false },
		{ "rx_no_dma_resources", NP_DRV_RING_EMPTY, NP_STAGE_NIC, -1, false },
		{ "port.rx_discards", NP_DRV_PORT_DISCARD, NP_STAGE_NIC, -1, false },
		{ "rx_discards_phy", NP_DRV_PORT_DISCARD, NP_STAGE_NIC, -1, false },
		{ "rx_prio3_discards", NP_DRV_PORT_DISCARD, NP_STAGE_NIC, -1, false },
		{ "rx_fifo_errors", NP_DRV_PORT_DISCARD, NP_STAGE_NIC, -1, false },
		{ "rx_alloc_fail", NP_DRV_ALLOC_FAIL, NP_STAGE_NIC, -1, false },
		{ "rx_oom_drops", NP_DRV_ALLOC_FAIL, NP_STAGE_NIC, -1, false },
		{ "rx_xdp_drop", NP_DRV_XDP_DROP, NP_STAGE_INGRESS, -1, false },
		{ "rx_pause_frames", NP_DRV_PAUSE_RX, NP_STAGE_NIC, -1, false },
		{ "tx_pause_frames", NP_DRV_PAUSE_TX, NP_STAGE_NIC, -1, false },
		{ "link_xoff_tx", NP_DRV_PAUSE_TX, NP_STAGE_NIC, -1, false },
		{ "rx_pb_3_pxoff", NP_DRV_PAUSE_RX, NP_STAGE_NIC, -1, false },
		{ "rx_crc_errors", NP_DRV_PHY_ERROR, NP_STAGE_LINK, -1, false },
		{ "rx_fcs_err", NP_DRV_PHY_ERROR, NP_STAGE_LINK, -1, false },
		{ "rx_oversize_pkts", NP_DRV_OVERSIZE, NP_STAGE_LINK, -1, false },
		{ "pps_allowance_exceeded", NP_DRV_CLOUD_ALLOWANCE, NP_STAGE_NIC, -1, false },
		{ "bw_out_allowance_exceeded", NP_DRV_CLOUD_ALLOWANCE, NP_STAGE_NIC, -1, true },
		{ "tx_dropped", NP_DRV_QUEUE_DROP, NP_STAGE_NIC, -1, true },
		{ "tx_queue_2_drops", NP_DRV_QUEUE_DROP, NP_STAGE_NIC, 2, true },
		{ "[4]: tx_discards", NP_DRV_QUEUE_DROP, NP_STAGE_NIC, 4, true },
		{ "tx5_xdp_drops", NP_DRV_XDP_DROP, NP_STAGE_INGRESS, 5, true },
	};
	struct np_drv_class c;

	(void)state;
	assert_false(np_drv_known("foo"));
	for (size_t i = 0; i < N(cases); i++) {
		if (!np_drv_classify("foo", cases[i].name, &c))
			fail_msg("%s not classified", cases[i].name);
		if (c.meaning != cases[i].m || c.stage != cases[i].st ||
		    c.queue != cases[i].queue || c.is_tx != cases[i].tx)
			fail_msg("%s: %s/%s/q%d/%s", cases[i].name, np_drv_meaning_name(c.meaning),
				 np_stage_name(c.stage), c.queue, c.is_tx ? "tx" : "rx");
		/* No driver name at all: the same generic answer. */
		assert_true(np_drv_classify(NULL, cases[i].name, &c));
		assert_int_equal(c.meaning, cases[i].m);
	}
	assert_false(np_drv_classify("foo", NULL, &c));
	assert_int_equal(c.queue, -1);
}

static void test_names_and_suffixes(void **state)
{
	static const char *const drivers[] = { "mlx5_core", "ixgbe", "i40e", "ice", "bnxt_en",
					       "virtio_net", "ena", "veth", "igb" };
	struct np_drv_class c;

	(void)state;
	for (size_t i = 0; i < N(drivers); i++)
		assert_true(np_drv_known(drivers[i]));
	assert_false(np_drv_known("e1000e"));
	assert_false(np_drv_known(""));
	assert_false(np_drv_known(NULL));
	/* Every meaning has its own name. */
	for (int a = 0; a < NP_DRV__COUNT; a++) {
		assert_non_null(np_drv_meaning_name(a));
		for (int b = 0; b < a; b++)
			assert_string_not_equal(np_drv_meaning_name(a), np_drv_meaning_name(b));
	}
	assert_string_equal(np_drv_meaning_name(NP_DRV_RING_EMPTY), "ring_empty");
	assert_string_equal(np_drv_meaning_name(NP_DRV__COUNT), "none");
	/* Repeated labels renamed by the ioctl collector keep their meaning and queue. */
	assert_true(np_drv_classify("mlx5_core", "rx_out_of_buffer#2", &c));
	assert_int_equal(c.meaning, NP_DRV_RING_EMPTY);
	assert_true(np_drv_classify("mlx5_core", "rx7_buff_alloc_err#3", &c));
	assert_int_equal(c.meaning, NP_DRV_ALLOC_FAIL);
	assert_int_equal(c.queue, 7);
	/* Case does not matter; i40e spells some names in capitals. */
	assert_true(np_drv_classify("i40e", "Port.RX_Discards", &c));
	assert_int_equal(c.meaning, NP_DRV_PORT_DISCARD);
	/* A priority is not a queue, a PFC counter on mlx5 is pause. */
	assert_true(np_drv_classify("mlx5_core", "rx_prio3_pause", &c));
	assert_int_equal(c.meaning, NP_DRV_PAUSE_RX);
	assert_int_equal(c.queue, -1);
	assert_false(c.is_tx);
	assert_true(np_drv_classify("mlx5_core", "tx_prio3_pause", &c));
	assert_int_equal(c.meaning, NP_DRV_PAUSE_TX);
	assert_false(c.is_tx);
	/* Multi-digit queues and a name longer than any buffer. */
	assert_true(np_drv_classify("mlx5_core", "rx127_xdp_drop", &c));
	assert_int_equal(c.queue, 127);
	char longname[300];

	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	memcpy(longname, "rx_drop", 7);
	assert_true(np_drv_classify("foo", longname, &c));
}

/* A table pattern matches the whole name, never its tail or its head: the classifier rejects
 * table patterns by their literal end first (issue #35), and the generic words by the pairs of
 * bytes in the name, so the words at either end, in capitals and after '.' count. */
static void test_whole_name_and_words(void **state)
{
	struct np_drv_class c;

	(void)state;
	assert_false(np_drv_classify("ixgbe", "rx_fifo_errors", &c));	/* KNOWN */
	assert_false(np_drv_classify("ixgbe", "RX_FIFO_Errors#2", &c));
	assert_true(np_drv_classify("ixgbe", "xrx_fifo_errors", &c));	/* generic "fifo" */
	assert_int_equal(c.meaning, NP_DRV_PORT_DISCARD);
	assert_true(np_drv_classify("ixgbe", "rx_fifo_error", &c));
	assert_int_equal(c.meaning, NP_DRV_PORT_DISCARD);
	assert_true(np_drv_classify("ixgbe", "rx_fifo_errors_", &c));
	assert_int_equal(c.meaning, NP_DRV_PORT_DISCARD);
	assert_false(np_drv_classify("virtio_net", "rx_kicks", &c));
	assert_true(np_drv_classify("virtio_net", "rx_drops", &c));
	assert_int_equal(c.meaning, NP_DRV_QUEUE_DROP);
	assert_true(np_drv_classify("virtio_net", "rx3_hw_drop_overruns", &c));
	assert_int_equal(c.meaning, NP_DRV_RING_EMPTY);
	assert_int_equal(c.queue, 3);
	assert_false(np_drv_classify("virtio_net", "rx3_hw_ratelimit_bytes", &c));
	assert_true(np_drv_classify("foo", "rx_discard.nic", &c));
	assert_int_equal(c.meaning, NP_DRV_PORT_DISCARD);
	assert_true(np_drv_classify("foo", "Mac_RX_Discard", &c));
	assert_int_equal(c.meaning, NP_DRV_PORT_DISCARD);
	assert_true(np_drv_classify("foo", "rx_discard", &c));
	assert_int_equal(c.meaning, NP_DRV_QUEUE_DROP);
	assert_true(np_drv_classify("foo", "OOM", &c));
	assert_int_equal(c.meaning, NP_DRV_ALLOC_FAIL);
	assert_false(np_drv_classify("foo", "oo", &c));
	assert_false(np_drv_classify("foo", "", &c));
	assert_true(np_drv_classify("foo", "rx_missed", &c));
	assert_int_equal(c.meaning, NP_DRV_RING_EMPTY);
	assert_false(np_drv_classify("foo", "rx_missed_irq", &c));
}

/* Per-queue received packets (watch's per-queue rates), per driver naming; losses and
 * look-alikes are not packets. */
static void test_rx_packets_queue(void **state)
{
	(void)state;
	assert_int_equal(np_drv_rx_packets_queue("rx_queue_3_packets"), 3);	/* ixgbe, igb */
	assert_int_equal(np_drv_rx_packets_queue("rx12_packets"), 12);		/* mlx5 */
	assert_int_equal(np_drv_rx_packets_queue("rx-0.packets"), 0);		/* i40e */
	assert_int_equal(np_drv_rx_packets_queue("queue_7_rx_cnt"), 7);		/* ena */
	assert_int_equal(np_drv_rx_packets_queue("[2]: rx_mcast_packets"), 2);	/* bnxt */
	assert_int_equal(np_drv_rx_packets_queue("rx_packets"), -1);
	assert_int_equal(np_drv_rx_packets_queue("rx_queue_3_drops"), -1);
	assert_int_equal(np_drv_rx_packets_queue("tx_queue_3_packets"), -1);
	assert_int_equal(np_drv_rx_packets_queue("rx_queue__packets"), -1);
	assert_int_equal(np_drv_rx_packets_queue("rx_queue_3_packets_x"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_virtio),
		cmocka_unit_test(test_veth),
		cmocka_unit_test(test_harmless_lookalikes),
		cmocka_unit_test(test_generic),
		cmocka_unit_test(test_names_and_suffixes),
		cmocka_unit_test(test_whole_name_and_words),
		cmocka_unit_test(test_rx_packets_queue),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
