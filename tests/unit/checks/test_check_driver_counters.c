// SPDX-License-Identifier: GPL-2.0-only
/*
 * The driver counter table against real counter-name lists (tests/fixtures/driver_counters):
 * every counter a fixture holds that classifies as a receive-path witness must be one this test
 * expects, with its meaning, stage and queue; everything else must classify as nothing or as
 * transmit-side. So a new table entry that catches a harmless counter fails here, and so does
 * one that stops catching an important one.
 */
#include "synth.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver_counters.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

struct expect {
	const char *name;	/* fnmatch pattern over the fixture's names ("\\[" for "[") */
	enum np_drv_meaning m;
	enum np_stage st;
	int queue;
};

#define E(n, m, st, q) { n, NP_DRV_##m, NP_STAGE_##st, q }

struct names {
	size_t n;
	char **v;
};

static void load(const char *file, struct names *out)
{
	char path[512], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/driver_counters/%s", NP_FIXTURES, file);
	f = fopen(path, "r");
	if (!f)
		fail_msg("cannot open %s", path);
	out->n = 0;
	out->v = NULL;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		out->v = realloc(out->v, (out->n + 1) * sizeof(*out->v));
		assert_non_null(out->v);
		out->v[out->n++] = strdup(line);
	}
	fclose(f);
	assert_true(out->n > 0);
}

static void names_free(struct names *nm)
{
	for (size_t i = 0; i < nm->n; i++)
		free(nm->v[i]);
	free(nm->v);
}

/* A name that reads as transmit-side: "tx...", "[N]: tx...", "port.tx...". */
static bool tx_named(const char *s)
{
	return strncmp(s, "tx", 2) == 0 || strstr(s, ": tx") || strncmp(s, "port.tx", 7) == 0;
}

/* A plain traffic counter ("rx_bytes", "rx-0.packets") with no loss word in it. */
static bool plain_traffic(const char *s)
{
	static const char *const loss[] = { "drop", "discard", "pause", "xoff", "alloc",
					    "ratelimit", "size", "allowance", "err", "illegal",
					    NULL };
	size_t n = strlen(s);
	bool traffic = (n > 8 && strcmp(s + n - 8, "_packets") == 0) ||
		       (n > 6 && strcmp(s + n - 6, "_bytes") == 0) ||
		       (n > 8 && strcmp(s + n - 8, ".packets") == 0) ||
		       (n > 6 && strcmp(s + n - 6, ".bytes") == 0);

	for (size_t i = 0; traffic && loss[i]; i++)
		if (strstr(s, loss[i]))
			return false;
	return traffic;
}

static void check_fixture(const char *file, const char *driver, const struct expect *ex,
			  size_t nex, const char *const *tx)
{
	struct names nm;
	bool *seen = calloc(nex ? nex : 1, sizeof(*seen));
	size_t nloss = 0;

	assert_non_null(seen);
	assert_true(np_drv_known(driver));
	load(file, &nm);
	for (size_t i = 0; i < nm.n; i++) {
		const char *name = nm.v[i];
		struct np_drv_class c;
		bool hit = np_drv_classify(driver, name, &c);
		size_t k;

		if (hit)
			assert_int_equal(hit, c.meaning != NP_DRV_NONE);
		else
			assert_int_equal(c.meaning, NP_DRV_NONE);
		/* Transmit-side counters are never a receive-path loss (pause frames we send
		 * are the exception: they witness OUR receive buffer filling up). */
		if (tx_named(name) && c.meaning != NP_DRV_PAUSE_TX && c.meaning != NP_DRV_NONE &&
		    !c.is_tx)
			fail_msg("%s: %s classified as receive-side %s", file, name,
				 np_drv_meaning_name(c.meaning));
		if (plain_traffic(name) && hit && !c.is_tx)
			fail_msg("%s: plain traffic counter %s classified %s", file, name,
				 np_drv_meaning_name(c.meaning));
		if (!hit || c.is_tx)
			continue;
		nloss++;
		for (k = 0; k < nex; k++)
			if (fnmatch(ex[k].name, name, 0) == 0)
				break;
		if (k == nex)
			fail_msg("%s: unexpected receive-path counter %s (%s, %s, queue %d)", file,
				 name, np_drv_meaning_name(c.meaning), np_stage_name(c.stage),
				 c.queue);
		seen[k] = true;
		if (c.meaning != ex[k].m || c.stage != ex[k].st || c.queue != ex[k].queue)
			fail_msg("%s: %s is %s/%s/q%d, expected %s/%s/q%d", file, name,
				 np_drv_meaning_name(c.meaning), np_stage_name(c.stage), c.queue,
				 np_drv_meaning_name(ex[k].m), np_stage_name(ex[k].st),
				 ex[k].queue);
	}
	for (size_t k = 0; k < nex; k++)
		if (!seen[k])
			fail_msg("%s: expected counter %s missing or not classified", file,
				 ex[k].name);
	for (size_t t = 0; tx && tx[t]; t++) {
		struct np_drv_class c;
		bool found = false;

		for (size_t i = 0; i < nm.n && !found; i++)
			found = strcmp(nm.v[i], tx[t]) == 0;
		if (!found)
			fail_msg("%s: %s not in the list", file, tx[t]);
		np_drv_classify(driver, tx[t], &c);
		if (!c.is_tx)
			fail_msg("%s: %s not transmit-side", file, tx[t]);
	}
	assert_true(nloss > 0);
	free(seen);
	names_free(&nm);
}

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
		cmocka_unit_test(test_mlx5),
		cmocka_unit_test(test_ixgbe),
		cmocka_unit_test(test_i40e),
		cmocka_unit_test(test_ice),
		cmocka_unit_test(test_bnxt),
		cmocka_unit_test(test_virtio),
		cmocka_unit_test(test_ena),
		cmocka_unit_test(test_veth),
		cmocka_unit_test(test_igb),
		cmocka_unit_test(test_harmless_lookalikes),
		cmocka_unit_test(test_generic),
		cmocka_unit_test(test_names_and_suffixes),
		cmocka_unit_test(test_rx_packets_queue),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
