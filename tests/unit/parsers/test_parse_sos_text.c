// SPDX-License-Identifier: GPL-2.0-only
/*
 * The command-output parsers behind doctor --root SOSREPORT (sos_text.h): real ethtool, ip,
 * tc, lscpu, lspci and sysctl -a outputs (tests/fixtures/parsers, tests/fixtures/sos; origins
 * in tests/fixtures/sos/README.md) and damaged copies of them.
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

#include "snapshot.h"
#include "sos_text.h"

#define PX NP_FIXTURES "/parsers/"
#define SOS4 NP_FIXTURES "/sos/sos4.0-debian12-virtio/sos_commands/"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	buf[n] = '\0';
	*len = (size_t)n;
	return buf;
}

static struct np_rings rings_na(void)
{
	struct np_rings r;

	memset(&r, 0xff, sizeof(r));	/* NP_NA everywhere */
	return r;
}

static void test_rings_6x_lines(void **state)
{
	size_t len;
	char *b = slurp(PX "ethtool_g_6.1_pri.txt", &len);
	struct np_rings r = rings_na();

	(void)state;
	/* "RX Buf Len: n/a", "CQE Size", "TX Push", "TCP data split" do not disturb the rest. */
	assert_int_equal(np_parse_ethtool_g(b, len, &r), 0);
	assert_int_equal(r.rx_max, 4096);
	assert_int_equal(r.rx, 1024);
	assert_int_equal(r.rx_mini_max, 2048);
	assert_int_equal(r.rx_mini, 128);
	assert_int_equal(r.rx_jumbo, 512);
	assert_int_equal(r.tx, 512);
	assert_int_equal(r.tx_max, 4096);
	assert_true(r.rx_buf_len == NP_NA);
	free(b);
}

static void test_rings_na_and_damage(void **state)
{
	size_t len;
	char *b = slurp(PX "ethtool_g_netlink_na.txt", &len);
	struct np_rings r = rings_na();
	/* insights-core's TEST_ETHTOOL_G_4: a value that is no number. */
	const char *bad = "Ring parameters for ens3:\nPre-set maximums:\nRX:\t\t256\n"
			  "RX Mini:\tsome-unexpected-value\nTX:\t\t256\n"
			  "Current hardware settings:\nRX:\t\t256\nTX:\t\t128\n";

	(void)state;
	assert_int_equal(np_parse_ethtool_g(b, len, &r), 0);
	assert_int_equal(r.rx, 256);
	assert_true(r.rx_mini == NP_NA && r.rx_mini_max == NP_NA && r.rx_jumbo == NP_NA);
	/* Cut in the middle of "Current hardware settings": the maximums alone keep NA currents. */
	r = rings_na();
	assert_int_equal(np_parse_ethtool_g(b, 90, &r), 0);
	assert_int_equal(r.rx_max, 256);
	assert_true(r.rx == NP_NA);
	r = rings_na();
	assert_int_equal(np_parse_ethtool_g(bad, strlen(bad), &r), -EBADMSG);
	assert_int_equal(r.tx, 128);
	assert_true(r.rx_mini == NP_NA);
	r = rings_na();
	assert_int_equal(np_parse_ethtool_g("", 0, &r), -ENODATA);
	assert_int_equal(np_parse_ethtool_g("netlink error: Operation not supported\n", 39, &r),
			 -EOPNOTSUPP);
	assert_int_equal(np_parse_ethtool_g("Cannot get device ring settings: No such device\n",
					    48, &r), -ENODEV);
	assert_int_equal(np_parse_ethtool_g("garbage\n", 8, &r), -EINVAL);
	free(b);
}

static void test_channels_and_coalesce(void **state)
{
	size_t len;
	char *b = slurp(SOS4 "networking/ethtool_-l_eth0", &len);
	struct np_channels c;
	struct np_coalesce co = { NP_NA, NP_NA, NP_NA, NP_NA, -1, -1 };
	const char *ioctl_c = "Coalesce parameters for eth0:\nAdaptive RX: on  TX: off\n"
			      "rx-usecs: 20\nrx-frames: 5\ntx-usecs: 72\ntx-frames: 53\n";

	(void)state;
	memset(&c, 0xff, sizeof(c));
	assert_int_equal(np_parse_ethtool_l(b, len, &c), 0);
	assert_int_equal(c.combined, 1);
	assert_int_equal(c.combined_max, 1);
	assert_true(c.rx == NP_NA && c.tx_max == NP_NA && c.other == NP_NA);
	free(b);
	b = slurp(SOS4 "networking/ethtool_-c_eth0", &len);
	assert_int_equal(np_parse_ethtool_c(b, len, &co), 0);
	assert_int_equal(co.rx_usecs, 0);
	assert_int_equal(co.rx_max_frames, 1);
	assert_int_equal(co.adaptive_rx, 0);
	assert_int_equal(co.adaptive_tx, -1);
	free(b);
	assert_int_equal(np_parse_ethtool_c(ioctl_c, strlen(ioctl_c), &co), 0);
	assert_int_equal(co.adaptive_rx, 1);
	assert_int_equal(co.adaptive_tx, 0);
	assert_int_equal(co.tx_max_frames, 53);
	assert_int_equal(np_parse_ethtool_c("Adaptive RX: on  TX: off\nrx-usecs: x\n", 37, &co),
			 -EBADMSG);
	assert_true(co.rx_usecs == NP_NA);
}

static void test_features(void **state)
{
	size_t len;
	char *b = slurp(SOS4 "networking/ethtool_-k_eth0", &len);
	struct np_features f = { -1, -1, -1, -1, -1, -1 };

	(void)state;
	assert_int_equal(np_parse_ethtool_k(b, len, &f), 0);
	assert_int_equal(f.gro, 1);
	assert_int_equal(f.lro, 0);		/* "off [fixed]" */
	assert_int_equal(f.gro_hw, 1);		/* "on [fixed]" */
	assert_int_equal(f.rx_checksum, 1);
	assert_int_equal(f.rxhash, 0);
	assert_int_equal(f.ntuple, 0);
	free(b);
	f.gro = -1;
	assert_int_equal(np_parse_ethtool_k("generic-receive-offload: maybe\n", 31, &f), -EINVAL);
	assert_int_equal(f.gro, -1);
}

static void test_driver_stats(void **state)
{
	size_t len;
	char *b = slurp(PX "ethtool_S_igb_4q.txt", &len);
	struct np_counters c = { 0 };
	const char *dup = "NIC statistics:\n     rx_queue_0_packets: 12\n     rx_queue_0_packets: 5\n"
			  "     port.rx_dropped: 7\n     duplicate metric: 1\n     broken: x\n";

	(void)state;
	assert_int_equal(np_parse_ethtool_S(b, len, &c), 0);
	assert_int_equal(c.n, 82);
	assert_int_equal(np_counters_get(&c, "rx_queue_0_packets"), 912398);
	assert_int_equal(np_counters_get(&c, "tx_queue_1_bytes"), 181899495);
	assert_int_equal(np_counters_get(&c, "rx_no_buffer_count"), 0);
	free(b);
	assert_int_equal(np_parse_ethtool_S(dup, strlen(dup), &c), -EBADMSG);
	assert_int_equal(np_counters_get(&c, "rx_queue_0_packets"), 12);
	assert_int_equal(np_counters_get(&c, "rx_queue_0_packets#2"), 5);
	assert_int_equal(np_counters_get(&c, "port.rx_dropped"), 7);
	assert_int_equal(np_counters_get(&c, "duplicate metric"), 1);
	assert_true(np_counters_get(&c, "broken") == NP_NA);
	/* A driver without counters; an output that is not -S: the old table is kept. */
	assert_int_equal(np_parse_ethtool_S("NIC statistics:\n", 16, &c), -EOPNOTSUPP);
	assert_int_equal(np_parse_ethtool_S("no stats available\n", 19, &c), -EOPNOTSUPP);
	assert_int_equal(np_counters_get(&c, "port.rx_dropped"), 7);
	np_counters_free(&c);
}

static void test_drvinfo_settings(void **state)
{
	size_t len;
	char *b = slurp(SOS4 "networking/ethtool_-i_eth0", &len);
	struct np_ethtool e;
	struct np_linkmodes lm = { .speed_mbps = NP_NA, .duplex = -1, .autoneg = -1 };
	int link;

	(void)state;
	memset(&e, 0, sizeof(e));
	assert_int_equal(np_parse_ethtool_i(b, len, &e), 0);
	assert_string_equal(e.driver, "virtio_net");
	assert_string_equal(e.version, "1.0.0");
	assert_string_equal(e.fw_version, "");
	assert_string_equal(e.bus_info, "0000:00:03.0");
	free(b);
	assert_int_equal(np_parse_ethtool_i("Cannot get driver information: Operation not "
					    "supported\n", 56, &e), -EOPNOTSUPP);
	/* "Cannot get wake-on-lan settings: Operation not permitted" above real data. */
	b = slurp(PX "ethtool_settings_eperm.txt", &len);
	assert_int_equal(np_parse_ethtool_settings(b, len, &lm, &link), 0);
	assert_int_equal(lm.speed_mbps, 1000);
	assert_int_equal(lm.duplex, 1);
	assert_int_equal(lm.autoneg, 1);
	assert_int_equal(link, 1);
	assert_true(lm.has_supported && lm.has_advertised);
	free(b);
	b = slurp(SOS4 "networking/ethtool_eth0", &len);
	memset(&lm, 0, sizeof(lm));
	lm.speed_mbps = NP_NA;
	assert_int_equal(np_parse_ethtool_settings(b, len, &lm, &link), 0);
	assert_true(lm.speed_mbps == NP_NA);	/* "Speed: Unknown!" */
	assert_int_equal(lm.duplex, -1);
	assert_false(lm.has_supported);		/* "Not reported" */
	free(b);
	assert_true(np_ethtool_mode_bit("1000baseT/Full", 14) >= 0);
	assert_int_equal(np_ethtool_mode_bit("1000baseT/Fast", 14), -1);
	assert_int_equal(np_ethtool_mode_bit("Not", 3), -1);
}

static void test_ip_link_layouts(void **state)
{
	size_t len;
	char *b = slurp(PX "ip_s_d_link_old_ovs.txt", &len);
	struct np_ip_link l;

	(void)state;
	/* Old iproute2: "overrun" column, bond slave detail line, mtu 9000, 32 queues. */
	assert_int_equal(np_parse_ip_link(b, len, "eth0_1", &l), 0);
	assert_int_equal(l.ifindex, 4);
	assert_int_equal(l.mtu, 9000);
	assert_string_equal(l.qdisc, "mq");
	assert_string_equal(l.master, "bond0");
	assert_string_equal(l.operstate, "up");
	assert_string_equal(l.kind, "");
	assert_int_equal(l.admin_up, 1);
	assert_int_equal(l.carrier, 1);
	assert_true(l.has_stats);
	assert_int_equal(l.stats.rx_bytes, 16809815066893ULL);
	assert_int_equal(l.stats.rx_dropped, 117902);
	assert_int_equal(l.stats.rx_over_errors, 0);
	assert_int_equal(l.stats.multicast, 863246747);
	assert_true(l.stats.rx_missed_errors == NP_NA);
	assert_int_equal(np_parse_ip_link(b, len, "vxlan_sys_4789", &l), 0);
	assert_string_equal(l.kind, "vxlan");
	assert_string_equal(l.master, "ovs-system");
	assert_int_equal(np_parse_ip_link(b, len, "gre0", &l), 0);
	assert_string_equal(l.parent, "");	/* "gre0@NONE" */
	assert_string_equal(l.kind, "gre");
	assert_int_equal(np_parse_ip_link(b, len, "eth9", &l), -ENOENT);
	/* Cut inside eth0_1's RX values: the columns before the cut stay, the row is counted
	 * as damaged, nothing after it is invented. */
	{
		const char *p = strstr(b, "4: eth0_1");
		size_t cut = (size_t)(strstr(p, "16809815066893") - b) + 20;

		assert_int_equal(np_parse_ip_link(b, cut, "eth0_1", &l), -EBADMSG);
		assert_int_equal(l.stats.rx_bytes, 16809815066893ULL);
		assert_true(l.stats.rx_dropped == NP_NA && l.stats.tx_packets == NP_NA);
	}
	free(b);
	/* New iproute2: "missed", "parentbus virtio", altname, bond with its kind line. */
	b = slurp(PX "ip_s_d_link_new_bond.txt", &len);
	assert_int_equal(np_parse_ip_link(b, len, "enp2s0", &l), 0);
	assert_int_equal(l.stats.rx_dropped, 2498170);
	assert_int_equal(l.stats.rx_missed_errors, 0);
	assert_true(l.stats.rx_over_errors == NP_NA);
	assert_string_equal(l.master, "bond0");
	assert_int_equal(np_parse_ip_link(b, len, "bond0", &l), 0);
	assert_string_equal(l.kind, "bond");
	assert_int_equal(l.stats.tx_dropped, 8);
	free(b);
	/* `ip -s -s link` of a thunderbolt-net tb0 with CRC errors, pasted on the netdev list
	 * (thread "thunderbolt-net" CRC errors, Ricard Bejarano and Andrew Lunn, 2024; the mail's
	 * quoted-printable soft breaks undone): "transns" is carrier_changes (issue #32: a
	 * sosreport's ip_-s_-s_-d_link gives link.carrier-flaps what sysfs copies lack). */
	b = slurp(PX "ip_s_s_link_tb0_crc.txt", &len);
	assert_int_equal(np_parse_ip_link(b, len, "tb0", &l), 0);
	assert_int_equal(l.carrier_changes, 2);
	assert_int_equal(l.stats.rx_crc_errors, 16763);
	assert_int_equal(l.stats.rx_errors, 16763);
	assert_string_equal(l.master, "br0");
	free(b);
	b = slurp(PX "ip_s_d_link_new_bond.txt", &len);
	assert_int_equal(np_parse_ip_link(b, len, "enp2s0", &l), 0);
	assert_true(l.carrier_changes == NP_NA);	/* one -s: not printed */
	free(b);
	assert_int_equal(np_parse_ip_link("", 0, "eth0", &l), -ENODATA);
	assert_int_equal(np_parse_ip_link("hello\nworld\n", 12, "eth0", &l), -EINVAL);
}

static void test_ip_link_vf_and_ss(void **state)
{
	/* iproute2's -s -s rows and SR-IOV "vf" lines (format of iproute2 ipaddress.c). */
	const char *t =
		"7: ens1f0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc mq state UP mode "
		"DEFAULT group default qlen 1000\n"
		"    link/ether 3c:fd:fe:00:00:01 brd ff:ff:ff:ff:ff:ff\n"
		"    RX:  bytes packets errors dropped  missed   mcast\n"
		"         1000      10      3       2       1       0\n"
		"    RX errors:  length    crc   frame    fifo overrun\n"
		"                     0      3       0       0       0\n"
		"    TX:  bytes packets errors dropped carrier collsns\n"
		"          500       5      0       0       0       0\n"
		"    TX errors: aborted   fifo  window heartbt transns\n"
		"                     0      0       0       0       2\n"
		"    vf 0     link/ether 00:00:00:00:00:00 brd ff:ff:ff:ff:ff:ff, spoof checking on,"
		" link-state auto, trust off\n"
		"    vf 1     link/ether 00:00:00:00:00:00 brd ff:ff:ff:ff:ff:ff, spoof checking on,"
		" link-state auto, trust off\n";
	struct np_ip_link l;

	(void)state;
	assert_int_equal(np_parse_ip_link(t, strlen(t), "ens1f0", &l), 0);
	assert_int_equal(l.nvf, 2);
	assert_int_equal(l.stats.rx_crc_errors, 3);
	assert_int_equal(l.stats.rx_missed_errors, 1);
	assert_int_equal(l.stats.tx_bytes, 500);
	assert_int_equal(l.stats.tx_aborted_errors, 0);
	assert_string_equal(l.kind, "");
}

static void test_tc(void **state)
{
	size_t len;
	char *b = slurp(SOS4 "networking/tc_-s_qdisc_show", &len);
	struct np_rtnl r;
	/* tc's layout for mq children, fq_codel's extra lines and ingress (tc/tc_qdisc.c). */
	const char *mq =
		"qdisc mq 0: dev eth1 root \n"
		" Sent 9000 bytes 60 pkt (dropped 3, overlimits 0 requeues 1) \n"
		" backlog 12Kb 8p requeues 1\n"
		"qdisc fq_codel 0: dev eth1 parent :1 limit 10240p flows 1024 quantum 1514 target "
		"5ms interval 100ms memory_limit 32Mb ecn drop_batch 64 \n"
		" Sent 9000 bytes 60 pkt (dropped 3, overlimits 0 requeues 1) \n"
		" backlog 1.5Kb 1p requeues 1\n"
		"  maxpacket 1514 drop_overlimit 0 new_flow_count 1 ecn_mark 0\n"
		"  new_flows_len 0 old_flows_len 0\n"
		"qdisc ingress ffff: dev eth1 parent ffff:fff1 ---------------- \n"
		" Sent 0 bytes 0 pkt (dropped 0, overlimits 0 requeues 0) \n"
		" backlog 0b 0p requeues 0\n";

	(void)state;
	np_rtnl_init(&r);
	assert_int_equal(np_parse_tc_qdisc(b, len, "eth0", &r), 0);
	assert_int_equal(r.nqdisc, 1);
	assert_string_equal(r.qdiscs[0].kind, "pfifo_fast");
	assert_true(r.qdiscs[0].root);
	assert_int_equal(r.qdiscs[0].drops, 0);
	assert_int_equal(r.qdiscs[0].backlog, 0);
	np_rtnl_free(&r);
	free(b);
	np_rtnl_init(&r);
	assert_int_equal(np_parse_tc_qdisc(mq, strlen(mq), "eth1", &r), 0);
	assert_int_equal(r.nqdisc, 3);
	assert_int_equal(r.qdiscs[0].backlog, 12 * 1024);
	assert_int_equal(r.qdiscs[0].qlen, 8);
	assert_int_equal(r.qdiscs[0].drops, 3);
	assert_int_equal(r.qdiscs[0].requeues, 1);
	assert_int_equal(r.qdiscs[1].parent, 1);
	assert_false(r.qdiscs[1].root);
	assert_int_equal(r.qdiscs[1].backlog, 1536);
	assert_true(r.qdiscs[2].ingress);
	assert_int_equal(r.qdiscs[2].handle, 0xffff0000u);
	np_rtnl_free(&r);
	np_rtnl_init(&r);
	assert_int_equal(np_parse_tc_qdisc(mq, strlen(mq), "eth0", &r), 0);
	assert_int_equal(r.nqdisc, 0);
	assert_int_equal(np_parse_tc_qdisc("qdisc pfifo\n Sent x bytes\n", 26, "eth0", &r), -EBADMSG);
	assert_int_equal(np_parse_tc_qdisc("", 0, "eth0", &r), -ENODATA);
	np_rtnl_free(&r);
}

static void test_lscpu(void **state)
{
	size_t len;
	char *b = slurp(PX "lscpu_indented.txt", &len);
	struct np_cpuset *set = malloc(sizeof(*set));
	unsigned n;

	(void)state;
	assert_non_null(set);
	assert_int_equal(np_parse_lscpu(b, len, &n, set), 0);
	assert_int_equal(n, 2);
	assert_true(np_cpuset_has(set, 1));
	free(b);
	assert_int_equal(np_parse_lscpu("CPU(s): 4\n", 10, &n, set), 0);
	assert_int_equal(n, 4);
	assert_int_equal(np_parse_lscpu("CPU(s): many\n", 13, &n, set), -EBADMSG);
	assert_int_equal(np_parse_lscpu("", 0, &n, set), -ENODATA);
	free(set);
}

static void test_lspci(void **state)
{
	size_t len;
	char *b = slurp(SOS4 "pci/lspci_-nnvv", &len);
	/* lspci's Express capability lines (pciutils ls-caps.c), an X710 behind a x4 slot. */
	const char *t =
		"3b:00.0 Ethernet controller [0200]: Intel Corporation Ethernet Controller X710 "
		"for 10GbE SFP+ [8086:1572] (rev 02)\n"
		"\tCapabilities: [a0] Express (v2) Endpoint, MSI 00\n"
		"\t\tDevCap:\tMaxPayload 2048 bytes, PhantFunc 0, Latency L0s <512ns, L1 <64us\n"
		"\t\tDevCtl:\tCorrErr+ NonFatalErr+ FatalErr+ UnsupReq+\n"
		"\t\t\tRlxdOrd+ ExtTag+ PhantFunc- AuxPwr- NoSnoop+ FLReset-\n"
		"\t\t\tMaxPayload 256 bytes, MaxReadReq 512 bytes\n"
		"\t\tDevSta:\tCorrErr+ NonFatalErr- FatalErr- UnsupReq+ AuxPwr+ TransPend-\n"
		"\t\tLnkCap:\tPort #0, Speed 8GT/s, Width x8, ASPM L1, Exit Latency L1 <16us\n"
		"\t\tLnkSta:\tSpeed 8GT/s (ok), Width x4 (downgraded)\n"
		"\n3b:00.1 Ethernet controller [0200]: Intel Corporation X710 [8086:1572]\n"
		"\t\tLnkSta:\tSpeed 2.5GT/s (downgraded), Width x1 (downgraded)\n";
	struct np_pcie p;

	(void)state;
	memset(&p, 0xff, sizeof(p));
	/* The VM's virtio NIC: a PCI device without an Express capability. */
	assert_int_equal(np_parse_lspci_link(b, len, "0000:00:03.0", &p), -ENOENT);
	assert_true(p.cur_speed == NP_NA);
	assert_int_equal(np_parse_lspci_link(b, len, "0000:7f:00.0", &p), -ENOENT);
	free(b);
	assert_int_equal(np_parse_lspci_link(t, strlen(t), "0000:3b:00.0", &p), 0);
	assert_int_equal(p.max_speed, 8000);
	assert_int_equal(p.cur_speed, 8000);
	assert_int_equal(p.max_width, 8);
	assert_int_equal(p.cur_width, 4);
	assert_int_equal(p.mps_supported, 2048);
	assert_int_equal(p.mps, 256);
	assert_int_equal(p.mrrs, 512);
	/* Cut in the middle of LnkCap's speed. */
	memset(&p, 0xff, sizeof(p));
	assert_int_equal(np_parse_lspci_link(t, (size_t)(strstr(t, "8GT/s, Width x8") - t) + 2,
					     "3b:00.0", &p), -EBADMSG);
	assert_true(p.max_speed == NP_NA);
}

static void test_sysctl_a(void **state)
{
	size_t len;
	char *b = slurp(SOS4 "kernel/sysctl_-a", &len);
	char v[64];

	(void)state;
	assert_int_equal(np_parse_sysctl_a_find(b, len, "net.ipv4.tcp_rmem", v, sizeof(v)), 0);
	assert_string_equal(v, "4096\t131072\t33554432");
	assert_int_equal(np_parse_sysctl_a_find(b, len, "net.core.rmem_max", v, sizeof(v)), 0);
	assert_string_equal(v, "212992");
	/* A key that is only the prefix of another ("net.core.rmem" of "net.core.rmem_max"). */
	assert_int_equal(np_parse_sysctl_a_find(b, len, "net.core.rmem", v, sizeof(v)), -ENOENT);
	assert_int_equal(np_parse_sysctl_a_find(b, len, "net.ipv4.tcp_rmem", v, 4), -ERANGE);
	free(b);
	assert_int_equal(np_parse_sysctl_a_find("net.a = 1\nnet.b=\x1b[2J\n", 22, "net.b", v,
						sizeof(v)), 0);
	assert_string_equal(v, "?[2J");
}

struct seen {
	char lines[8][64];
	int n, stop_at;
};

static int see(const char *k, size_t kl, const char *v, size_t vl, void *arg)
{
	struct seen *sn = arg;

	assert_true(sn->n < 8);
	snprintf(sn->lines[sn->n++], sizeof(sn->lines[0]), "%.*s|%.*s", (int)kl, k, (int)vl, v);
	return sn->n == sn->stop_at ? 7 : 0;
}

/* One walk over sysctl -a gives every "key = value" line in order, key and trimmed value, with
 * the lines _find would not match (a leading blank, no '=', "key=" cut short) left out; the
 * callback's nonzero answer stops it. The collector reads each key from that one walk. */
static void test_sysctl_a_each(void **state)
{
	static const char text[] = "net.a = 1\n"
				   " net.b = 2\n"
				   "no equals sign\n"
				   "net.c=\n"
				   "net.conf.eth0/100.rp_filter\t=  2 \n"
				   "net.d = 4096\t131072\n"
				   "net.a = 9\n";
	struct seen sn = { .stop_at = -1 };
	char v[8];

	(void)state;
	assert_int_equal(np_parse_sysctl_a_each(text, sizeof(text) - 1, see, &sn), 0);
	assert_int_equal(sn.n, 4);
	assert_string_equal(sn.lines[0], "net.a|1");
	assert_string_equal(sn.lines[1], "net.conf.eth0/100.rp_filter|2");
	assert_string_equal(sn.lines[2], "net.d|4096\t131072");
	assert_string_equal(sn.lines[3], "net.a|9");
	sn = (struct seen){ .stop_at = 2 };
	assert_int_equal(np_parse_sysctl_a_each(text, sizeof(text) - 1, see, &sn), 7);
	assert_int_equal(sn.n, 2);
	assert_int_equal(np_parse_sysctl_a_each("", 0, see, &sn), -ENODATA);
	assert_int_equal(np_parse_sysctl_a_value("a\tb\x1b", 4, v, sizeof(v)), 0);
	assert_string_equal(v, "a\tb?");
	assert_int_equal(np_parse_sysctl_a_value("12345678", 8, v, sizeof(v)), -ERANGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rings_6x_lines),
		cmocka_unit_test(test_rings_na_and_damage),
		cmocka_unit_test(test_channels_and_coalesce),
		cmocka_unit_test(test_features),
		cmocka_unit_test(test_driver_stats),
		cmocka_unit_test(test_drvinfo_settings),
		cmocka_unit_test(test_ip_link_layouts),
		cmocka_unit_test(test_ip_link_vf_and_ss),
		cmocka_unit_test(test_tc),
		cmocka_unit_test(test_lscpu),
		cmocka_unit_test(test_lspci),
		cmocka_unit_test(test_sysctl_a),
		cmocka_unit_test(test_sysctl_a_each),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
