// SPDX-License-Identifier: GPL-2.0-only
/* rtnetlink link parser fed recorded (eth0/lo/veth) and hand-built RTM_NEWLINK: statistics by
 * position and old sizes, XDP modes, truncated and bad attributes, errors, operstate names.
 * (Qdiscs: test_rtnl_qdisc.c; the stream over pieces and damaged dumps: test_rtnl_stream.c.) */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "fixture_load.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/gen_stats.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include "rtnl.h"
#include "snapshot.h"
#include "rtnl_fixture.h"

static void test_link_eth0_virtio(void **state)
{
	struct np_rtnl_stream st;
	struct np_rtnl r;

	(void)state;
	assert_int_equal(parse_file("rtnl_link_eth0.bin", 0, &r, &st), 0);
	assert_true(st.done);
	assert_true(st.got_link);
	assert_int_equal(st.ifindex, 4);
	assert_int_equal(st.bad, 0);
	assert_int_equal(r.mtu, 1400);
	assert_int_equal(r.txqlen, 1000);
	assert_string_equal(r.operstate, "up");
	assert_true(r.has_stats64);
	assert_int_equal(r.stats64_len, 200);
	assert_int_equal(r.stats64.rx_packets, 877);
	assert_int_equal(r.stats64.tx_packets, 525);
	assert_int_equal(r.stats64.rx_bytes, 42344518);
	assert_int_equal(r.stats64.tx_bytes, 43021);
	/* A 6.18 kernel has both optional fields: they are real zeros, not "not reported". */
	assert_int_equal(r.stats64.rx_nohandler, 0);
	assert_int_equal(r.stats64.rx_otherhost_dropped, 0);
	assert_int_equal(r.xdp_attached, 0);
	assert_int_equal(r.xdp_prog_id, 0);
	/* A physical NIC: no IFLA_INFO_KIND, no master, IFLA_LINK naming itself. */
	assert_string_equal(r.kind, "");
	assert_int_equal(r.master, 0);
	assert_int_equal(r.link, 0);
	np_rtnl_free(&r);
}

static void test_link_lo_and_veth(void **state)
{
	struct np_rtnl_stream st;
	struct np_rtnl r;

	(void)state;
	assert_int_equal(parse_file("rtnl_link_lo.bin", 0, &r, &st), 0);
	assert_int_equal(st.ifindex, 1);
	assert_int_equal(r.mtu, 65536);
	assert_string_equal(r.operstate, "unknown");	/* lo has no carrier notion */
	assert_int_equal(r.stats64.rx_packets, 1515029);
	assert_int_equal(r.stats64.tx_packets, 1515029);
	np_rtnl_free(&r);

	assert_int_equal(parse_file("rtnl_link_veth.bin", 0, &r, &st), 0);
	assert_int_equal(st.ifindex, 2);
	assert_int_equal(r.mtu, 1500);
	assert_string_equal(r.operstate, "up");
	assert_int_equal(r.stats64.rx_packets, 9);
	assert_int_equal(r.stats64.tx_packets, 552);
	assert_int_equal(r.stats64.tx_bytes, 133080);
	/* The recorded veth: its kind, and its peer (IFLA_LINK) in another namespace. */
	assert_string_equal(r.kind, "veth");
	assert_int_equal(r.master, 0);
	assert_true(r.link > 0);
	assert_true(r.link_other_netns);
	np_rtnl_free(&r);
}

/* A 184-byte IFLA_STATS64: every field up to tx_compressed at its own offset, the two newer
 * ones not reported (NP_NA), never 0. */
static void test_link_old_kernel_184(void **state)
{
	struct np_rtnl_stream st;
	struct np_rtnl r;

	(void)state;
	assert_int_equal(parse_file("rtnl_link_old184.bin", 0, &r, &st), 0);
	assert_int_equal(st.bad, 0);
	assert_int_equal(r.stats64_len, NP_RTNL_STATS64_BASE);
	assert_int_equal(r.stats64.rx_packets, 1000);
	assert_int_equal(r.stats64.tx_packets, 1001);
	assert_int_equal(r.stats64.rx_dropped, 1006);
	assert_int_equal(r.stats64.tx_dropped, 1007);
	assert_int_equal(r.stats64.rx_over_errors, 1011);
	assert_int_equal(r.stats64.rx_crc_errors, 1012);
	assert_int_equal(r.stats64.rx_fifo_errors, 1014);
	assert_int_equal(r.stats64.rx_missed_errors, 1015);
	assert_int_equal(r.stats64.tx_window_errors, 1020);
	assert_int_equal(r.stats64.tx_compressed, 1022);
	assert_true(r.stats64.rx_nohandler == NP_NA);
	assert_true(r.stats64.rx_otherhost_dropped == NP_NA);
	assert_int_equal(r.mtu, 9000);
	assert_int_equal(r.txqlen, 10000);
	np_rtnl_free(&r);
}

static void test_link_xdp_drv(void **state)
{
	struct np_rtnl_stream st;
	struct np_rtnl r;

	(void)state;
	assert_int_equal(parse_file("rtnl_link_xdp_drv.bin", 0, &r, &st), 0);
	assert_int_equal(r.xdp_attached, 1);	/* XDP_ATTACHED_DRV */
	assert_int_equal(r.xdp_prog_id, 42);
	assert_int_equal(r.stats64_len, NP_RTNL_STATS64_OTHERHOST);
	assert_int_equal(r.stats64.rx_nohandler, 2023);
	assert_int_equal(r.stats64.rx_otherhost_dropped, 2024);
	np_rtnl_free(&r);
}

/* Multi mode carries only per-mode ids; the native one wins. 192 bytes: no otherhost. */
static void test_link_xdp_multi(void **state)
{
	struct np_rtnl_stream st;
	struct np_rtnl r;

	(void)state;
	assert_int_equal(parse_file("rtnl_link_xdp_multi.bin", 0, &r, &st), 0);
	assert_int_equal(r.xdp_attached, 4);	/* XDP_ATTACHED_MULTI */
	assert_int_equal(r.xdp_prog_id, 42);
	assert_int_equal(r.stats64_len, NP_RTNL_STATS64_NOHANDLER);
	assert_int_equal(r.stats64.rx_nohandler, 3023);
	assert_true(r.stats64.rx_otherhost_dropped == NP_NA);
	np_rtnl_free(&r);
}

/* An RTM_NEWLINK whose IFLA_STATS64 holds nu64 counters, the i-th worth 1000 + i. */
static struct nl_msg *link_with_stats(size_t nu64)
{
	struct nl_msg *m = nlmsg_alloc_simple(RTM_NEWLINK, 0);
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC, .ifi_index = 7 };
	uint64_t v[32];

	assert_true(nu64 <= 32);
	for (size_t i = 0; i < nu64; i++)
		v[i] = 1000 + i;
	nlmsg_append(m, &ifi, sizeof(ifi), NLMSG_ALIGNTO);
	nla_put(m, IFLA_STATS64, (int)(nu64 * 8), v);
	return m;
}

/* Each u64 of the payload lands in the member of that name (the kernel's order: uapi
 * if_link.h), whatever the payload's length: 4.6-5.18 send 24 (no rx_otherhost_dropped), a
 * future kernel more than netpath knows. */
static void test_link_stats64_by_position(void **state)
{
	static const size_t lens[] = { 24, 25, 27 };
	(void)state;

	for (size_t k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
		struct nl_msg *m = link_with_stats(lens[k]);
		struct nlmsghdr *h = nlmsg_hdr(m);
		struct np_rtnl r;

		np_rtnl_init(&r);
		assert_int_equal(np_rtnl_parse_link(h, h->nlmsg_len, &r, NULL), 0);
		assert_true(r.has_stats64);
		assert_int_equal(r.stats64.rx_packets, 1000);
		assert_int_equal(r.stats64.tx_bytes, 1003);
		assert_int_equal(r.stats64.rx_dropped, 1006);
		assert_int_equal(r.stats64.collisions, 1009);
		assert_int_equal(r.stats64.rx_over_errors, 1011);
		assert_int_equal(r.stats64.rx_fifo_errors, 1014);
		assert_int_equal(r.stats64.rx_missed_errors, 1015);
		assert_int_equal(r.stats64.tx_window_errors, 1020);
		assert_int_equal(r.stats64.tx_compressed, 1022);
		assert_int_equal(r.stats64.rx_nohandler, 1023);
		if (lens[k] > 24)
			assert_int_equal(r.stats64.rx_otherhost_dropped, 1024);
		else
			assert_true(r.stats64.rx_otherhost_dropped == NP_NA);
		np_rtnl_free(&r);
		nlmsg_free(m);
	}
}

/* nlmsg_len says 272, 100 bytes arrived: nothing is read from the missing part. */
static void test_link_truncated(void **state)
{
	struct np_rtnl_stream st;
	struct np_rtnl r;
	size_t len;
	unsigned char *b = load("rtnl_link_truncated.bin", &len);

	(void)state;
	np_rtnl_init(&r);
	assert_int_equal(np_rtnl_parse_link((const void *)b, len, &r, NULL), -EINVAL);
	assert_true(r.mtu == NP_NA);
	assert_false(r.has_stats64);
	free(b);
	assert_int_equal(parse_file("rtnl_link_truncated.bin", 0, &r, &st), -EBADMSG);
	assert_false(st.got_link);
	assert_false(st.done);
	np_rtnl_free(&r);
}

/* The last attribute claims 208 bytes of 4: the good attributes before it are kept. */
static void test_link_bad_attribute(void **state)
{
	struct np_rtnl_stream st;
	struct np_rtnl r;
	size_t len;
	unsigned char *b = load("rtnl_link_badattr.bin", &len);

	(void)state;
	np_rtnl_init(&r);
	assert_int_equal(np_rtnl_parse_link((const void *)b, len, &r, NULL), -EBADMSG);
	assert_int_equal(r.mtu, 9000);
	assert_string_equal(r.operstate, "up");
	assert_false(r.has_stats64);
	assert_int_equal(r.xdp_attached, -1);	/* no IFLA_XDP: unknown, not "none" */
	np_rtnl_free(&r);
	free(b);
	assert_int_equal(parse_file("rtnl_link_badattr.bin", 0, &r, &st), 0);
	assert_true(st.got_link);
	assert_int_equal(st.bad, 1);
	np_rtnl_free(&r);
}

static void test_link_errors_from_kernel(void **state)
{
	struct np_rtnl_stream st;
	struct np_rtnl r;

	(void)state;
	/* GETLINK for a name that does not exist: plain ENODEV, no extack text. */
	assert_int_equal(parse_file("rtnl_link_enodev.bin", 0, &r, &st), -ENODEV);
	assert_true(st.done);
	assert_false(st.got_link);
	assert_string_equal(st.msg, "");
	np_rtnl_free(&r);
	/* Strict checking rejects ifi_flags != 0, and says why in NLMSGERR_ATTR_MSG. */
	assert_int_equal(parse_file("rtnl_link_extack.bin", 0, &r, &st), -EINVAL);
	assert_true(st.done);
	assert_string_equal(st.msg, "Invalid values in header for get link request");
	np_rtnl_free(&r);
}

static void test_operstate_names(void **state)
{
	char b[16];

	(void)state;
	np_rtnl_operstate_str(6, b, sizeof(b));
	assert_string_equal(b, "up");
	np_rtnl_operstate_str(2, b, sizeof(b));
	assert_string_equal(b, "down");
	np_rtnl_operstate_str(3, b, sizeof(b));
	assert_string_equal(b, "lowerlayerdown");
	np_rtnl_operstate_str(5, b, sizeof(b));
	assert_string_equal(b, "dormant");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_link_eth0_virtio),
		cmocka_unit_test(test_link_stats64_by_position),
		cmocka_unit_test(test_link_lo_and_veth),
		cmocka_unit_test(test_link_old_kernel_184),
		cmocka_unit_test(test_link_xdp_drv),
		cmocka_unit_test(test_link_xdp_multi),
		cmocka_unit_test(test_link_truncated),
		cmocka_unit_test(test_link_bad_attribute),
		cmocka_unit_test(test_link_errors_from_kernel),
		cmocka_unit_test(test_operstate_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
