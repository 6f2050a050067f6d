// SPDX-License-Identifier: GPL-2.0-only
/*
 * doctor's collectors over the two sosreport fixtures (tests/fixtures/sos/README.md): a real
 * sos 4.0 report of a Debian 12 VM (virtio_net) and a sos 3.4-named tree assembled from public
 * e1000e outputs. Each value asserted is one that can be read in the fixture's files; what a
 * fixture lacks must come out ABSENT with the file named, never as a zero.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "collect.h"
#include "ctx.h"
#include "sos.h"
#include "stack.h"

#define SOS4 NP_FIXTURES "/sos/sos4.0-debian12-virtio"
#define SOS3 NP_FIXTURES "/sos/sos3.4-composite-e1000e"

struct fx {
	struct np_ctx ctx;
	struct np_snapshot s;
};

static struct fx *open_fx(const char *root)
{
	struct fx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	assert_int_equal(np_ctx_open(&f->ctx, root), 0);
	np_sos_detect(&f->ctx);
	assert_int_equal(np_collect(&f->ctx, "eth0", NULL, &f->s), 0);
	return f;
}

static void close_fx(struct fx *f)
{
	np_snapshot_free(&f->s);
	np_ctx_close(&f->ctx);
	free(f);
}

static void assert_src(const struct np_snapshot *s, enum np_source id, enum np_src_status st,
		       const char *in_detail)
{
	if (np_srcp(s, id)->status != st || !strstr(np_srcp(s, id)->detail, in_detail))
		fail_msg("%s: status %s detail \"%s\", want %s with \"%s\"", np_source_name(id),
			 np_src_status_name(np_srcp(s, id)->status), np_srcp(s, id)->detail,
			 np_src_status_name(st), in_detail);
}

static void test_sos4_origin(void **state)
{
	struct np_ctx ctx;

	(void)state;
	assert_int_equal(np_ctx_open(&ctx, SOS4), 0);
	assert_null(ctx.origin);	/* nobody looked yet: a plain tree */
	np_sos_detect(&ctx);
	assert_true(np_ctx_is_sos(&ctx));
	assert_string_equal(ctx.origin->tool_version, "sos 4.0");
	assert_string_equal(ctx.origin->hostname, "vm");
	assert_string_equal(ctx.origin->kernel, "6.18.44-fc-v782");
	assert_string_equal(ctx.origin->taken, "2026-11-25 06:12:01 local");
	/* The fixture omits the hardware plugin: no /proc/interrupts. */
	assert_non_null(strstr(ctx.origin->lacks, "no proc/interrupts"));
	assert_null(strstr(ctx.origin->lacks, "ethtool_-g_eth0"));
	np_ctx_close(&ctx);
}

static void test_plain_tree_stays_tree(void **state)
{
	struct np_ctx ctx;

	(void)state;
	assert_int_equal(np_ctx_open(&ctx, NP_FIXTURES "/trees/lan-10g/after"), 0);
	np_sos_detect(&ctx);
	assert_null(ctx.origin);	/* a plain tree: nothing to say where it came from */
	assert_false(np_ctx_is_sos(&ctx));
	np_ctx_close(&ctx);
}

static void test_sos4_nic(void **state)
{
	struct fx *f = open_fx(SOS4);
	const struct np_snapshot *s = &f->s;

	(void)state;
	/* ethtool_-i_eth0 */
	assert_src(s, NP_SRC_ETHTOOL_DRVINFO, NP_SRC_OK, "ethtool_-i_eth0");
	assert_string_equal(s->eth.driver, "virtio_net");
	assert_string_equal(s->eth.bus_info, "0000:00:03.0");
	/* ethtool_-g_eth0: 256 of 256 both ways, mini/jumbo n/a */
	assert_src(s, NP_SRC_ETHTOOL_RINGS, NP_SRC_OK, "ethtool_-g_eth0");
	assert_int_equal(s->eth.rings.rx, 256);
	assert_int_equal(s->eth.rings.rx_max, 256);
	assert_int_equal(s->eth.rings.tx, 256);
	assert_true(s->eth.rings.rx_mini == NP_NA && s->eth.rings.rx_buf_len == NP_NA);
	/* ethtool_-l_eth0: combined 1 of 1, the rest n/a */
	assert_src(s, NP_SRC_ETHTOOL_CHANNELS, NP_SRC_OK, "ethtool_-l_eth0");
	assert_int_equal(s->eth.channels.combined, 1);
	assert_int_equal(s->eth.channels.combined_max, 1);
	assert_true(s->eth.channels.rx == NP_NA && s->eth.channels.rx_max == NP_NA);
	/* ethtool_-c_eth0: "Adaptive RX: off  TX: n/a", rx-usecs 0, rx-frames 1 */
	assert_int_equal(s->eth.coalesce.rx_usecs, 0);
	assert_int_equal(s->eth.coalesce.rx_max_frames, 1);
	assert_int_equal(s->eth.coalesce.adaptive_rx, 0);
	assert_int_equal(s->eth.coalesce.adaptive_tx, -1);
	/* ethtool_-k_eth0 */
	assert_int_equal(s->eth.features.gro, 1);
	assert_int_equal(s->eth.features.lro, 0);
	assert_int_equal(s->eth.features.gro_hw, 1);
	/* ethtool_-S_eth0 */
	assert_src(s, NP_SRC_DRIVER_STATS, NP_SRC_OK, "ethtool_-S_eth0");
	assert_int_equal(s->eth.drv_stats.n, 20);
	assert_int_equal(np_counters_get(&s->eth.drv_stats, "rx_kicks"), 1717);
	assert_int_equal(np_counters_get(&s->eth.drv_stats, "tx0_kicks"), 7069);
	/* ethtool_-a_eth0: virtio does not do pause */
	assert_src(s, NP_SRC_ETHTOOL_PAUSE, NP_SRC_UNSUPPORTED, "ethtool_-a_eth0");
	/* ip_-s_-d_link: MTU 1400, qlen 1000, counters */
	assert_src(s, NP_SRC_RTNL_LINK, NP_SRC_OK, "ip_-s_-d_link");
	assert_int_equal(s->rtnl.mtu, 1400);
	assert_int_equal(s->dev.mtu, 1400);
	assert_int_equal(s->rtnl.txqlen, 1000);
	assert_string_equal(s->rtnl.operstate, "up");
	assert_string_equal(s->rtnl.kind, "");
	assert_int_equal(s->rtnl.stats64.rx_bytes, 335179135);
	assert_int_equal(s->rtnl.stats64.rx_packets, 11850);
	assert_int_equal(s->dev.stats.tx_packets, 8623);
	/* tc_-s_qdisc_show: pfifo_fast at the root */
	assert_src(s, NP_SRC_RTNL_QDISC, NP_SRC_OK, "tc_-s_qdisc_show");
	assert_int_equal(s->rtnl.nqdisc, 1);
	assert_string_equal(s->rtnl.qdiscs[0].kind, "pfifo_fast");
	assert_true(s->rtnl.qdiscs[0].root);
	assert_int_equal(s->rtnl.qdiscs[0].packets, 8624);
	assert_int_equal(s->rtnl.qdiscs[0].bytes, 652580);
	/* lspci_-nnvv: the virtio NIC has no PCI Express capability */
	assert_src(s, NP_SRC_PCIE_LINK, NP_SRC_ABSENT, "no PCI Express link");
	/* never in a sosreport */
	assert_src(s, NP_SRC_ETHTOOL_RSS, NP_SRC_ABSENT, "ethtool -x");
	close_fx(f);
}

/* issue #32: sos copies sys/class/net/IF/statistics/ (and flags) beside ip -s -d link, whose
 * columns lack crc/frame/length errors: those come from the copied files, the report says sysfs
 * was partly copied (not "not copied"), and eth0, absent from the copied devices/virtual/net,
 * is a bus device, not "unknown". */
static void test_sos4_sysfs_beside_text(void **state)
{
	struct fx *f = open_fx(SOS4);
	const struct np_snapshot *s = &f->s;

	(void)state;
	assert_src(s, NP_SRC_NETDEV, NP_SRC_PARTIAL, "sysfs partly copied by sos");
	assert_int_equal(s->dev.stats.rx_crc_errors, 0);
	assert_int_equal(s->dev.stats.rx_frame_errors, 0);
	assert_int_equal(s->dev.stats.rx_length_errors, 0);
	assert_int_equal(s->dev.stats.rx_packets, 11850);	/* ip -s -d link still first */
	assert_int_equal(s->dev.is_virtual, 0);
	assert_int_equal(np_dev_kind_of(s), NP_KIND_PHYSICAL);
	close_fx(f);
}

static void test_sos4_sysctl_and_cpus(void **state)
{
	struct fx *f = open_fx(SOS4);
	const struct np_snapshot *s = &f->s;
	bool ok;

	(void)state;
	assert_src(s, NP_SRC_SYSCTL, NP_SRC_OK, "sysctl_-a");
	assert_string_equal(np_sysctl_str(s, NP_SYSCTL_TCP_CONGESTION_CONTROL), "bbr");
	assert_int_equal(np_sysctl_int(s, NP_SYSCTL_RMEM_MAX, 0, &ok), 212992);
	assert_true(ok);
	assert_int_equal(np_sysctl_int(s, NP_SYSCTL_WMEM_MAX, 0, &ok), 212992);
	assert_int_equal(np_sysctl_int(s, NP_SYSCTL_TCP_RMEM, 2, &ok), 33554432);
	assert_int_equal(np_sysctl_int(s, NP_SYSCTL_TCP_WMEM, 2, &ok), 4194304);
	assert_int_equal(np_sysctl_int(s, NP_SYSCTL_TCP_MEM, 0, &ok), 287898);
	assert_int_equal(np_sysctl_int(s, NP_SYSCTL_NETDEV_MAX_BACKLOG, 0, &ok), 1000);
	assert_int_equal(np_sysctl_dev_int(s, NP_SYSCTL_DEV_RP_FILTER_FMT, &ok), 0);
	assert_true(ok);
	assert_int_equal(s->hs->host.ncpu_online, 2);
	assert_string_equal(s->hs->host.kernel, "6.18.44-fc-v782");
	close_fx(f);
}

static void test_sos3_composite(void **state)
{
	struct fx *f = open_fx(SOS3);
	const struct np_snapshot *s = &f->s;

	(void)state;
	assert_string_equal(f->ctx.origin->tool_version, "sos 3.4");
	assert_string_equal(f->ctx.origin->hostname, "");
	assert_non_null(strstr(f->ctx.origin->lacks, "no ethtool_-l_eth0"));
	assert_non_null(strstr(f->ctx.origin->lacks, "no tc -s qdisc show"));
	assert_non_null(strstr(f->ctx.origin->lacks, "no sysctl -a"));
	/* ethtool_-i_eth0 (node_exporter's e1000e) */
	assert_string_equal(s->eth.driver, "e1000e");
	assert_string_equal(s->eth.fw_version, "0.5-4");
	assert_string_equal(s->eth.bus_info, "0000:00:1f.6");
	/* ethtool_-g_eth0, the ioctl-era layout: zeros, not n/a, for mini/jumbo */
	assert_int_equal(s->eth.rings.rx, 200);
	assert_int_equal(s->eth.rings.rx_max, 2047);
	assert_int_equal(s->eth.rings.tx, 511);
	assert_int_equal(s->eth.rings.tx_max, 511);
	assert_true(s->eth.rings.rx_jumbo == NP_NA && s->eth.rings.rx_jumbo_max == NP_NA);
	/* sos 3.4 did not run ethtool -l: channels unknown, not 0 */
	assert_src(s, NP_SRC_ETHTOOL_CHANNELS, NP_SRC_ABSENT, "the sosreport has no ethtool_-l_eth0");
	assert_true(s->eth.channels.combined == NP_NA && s->eth.channels.rx == NP_NA);
	/* ethtool_-c_eth0 */
	assert_int_equal(s->eth.coalesce.rx_usecs, 20);
	assert_int_equal(s->eth.coalesce.rx_max_frames, 5);
	assert_int_equal(s->eth.coalesce.tx_usecs, 72);
	assert_int_equal(s->eth.coalesce.tx_max_frames, 53);
	assert_int_equal(s->eth.coalesce.adaptive_rx, 0);
	assert_int_equal(s->eth.coalesce.adaptive_tx, 0);
	/* ethtool_-k_eth0 */
	assert_int_equal(s->eth.features.gro, 1);
	assert_int_equal(s->eth.features.lro, 1);
	assert_int_equal(s->eth.features.rx_checksum, 0);
	/* ethtool_eth0 */
	assert_int_equal(s->eth.link.speed_mbps, 1000);
	assert_int_equal(s->eth.link.duplex, 1);
	assert_true(s->eth.link.has_supported);
	/* ethtool_-S_eth0, with the fixture's dotted and blank-holding names */
	assert_int_equal(np_counters_get(&s->eth.drv_stats, "port.rx_dropped"), 12028);
	assert_int_equal(np_counters_get(&s->eth.drv_stats, "rx_missed"), 401);
	assert_int_equal(np_counters_get(&s->eth.drv_stats, "duplicate metric"), 1);
	/* ip_-s_link (the 3.3-3.4 name) */
	assert_src(s, NP_SRC_RTNL_LINK, NP_SRC_OK, "ip_-s_link");
	assert_int_equal(s->dev.mtu, 1500);
	assert_int_equal(s->rtnl.stats64.rx_bytes, 1113685);
	assert_int_equal(s->rtnl.stats64.rx_over_errors, 0);
	assert_true(s->rtnl.stats64.rx_missed_errors == NP_NA);	/* old "overrun" layout */
	/* no tc output: qdiscs unknown */
	assert_src(s, NP_SRC_RTNL_QDISC, NP_SRC_ABSENT, "tc_-s_qdisc_show");
	assert_int_equal(s->rtnl.nqdisc, 0);
	/* no sysctl -a, no /proc/sys/net: sysctls unknown, not zero */
	assert_src(s, NP_SRC_SYSCTL, NP_SRC_ABSENT, "no sos_commands/kernel/sysctl_-a");
	assert_null(np_sysctl_str(s, NP_SYSCTL_TCP_CONGESTION_CONTROL));
	/* lscpu: 2 CPUs, only CPU 0 online */
	assert_int_equal(s->hs->host.ncpu_online, 1);
	assert_string_equal(s->hs->host.ncpu_from, "sosreport lscpu");
	close_fx(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sos4_origin),
		cmocka_unit_test(test_plain_tree_stays_tree),
		cmocka_unit_test(test_sos4_nic),
		cmocka_unit_test(test_sos4_sysfs_beside_text),
		cmocka_unit_test(test_sos4_sysctl_and_cpus),
		cmocka_unit_test(test_sos3_composite),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
