// SPDX-License-Identifier: GPL-2.0-only
/* rtnetlink parsers fed recorded (eth0/lo/veth) and hand-built RTM_NEWLINK / RTM_NEWQDISC. */
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

/* tests/fixtures/netlink/NAME (fixture_load.h). */
static unsigned char *load(const char *name, size_t *len)
{
	return fixture_load("netlink", name, len);
}

/* A stream state that accepts the recorded messages: their seq and port are the recorder's. */
static struct np_rtnl_stream stream_for(const void *buf, size_t len, int ifindex)
{
	const struct nlmsghdr *h = buf;
	struct np_rtnl_stream st = { .ifindex = ifindex };

	if (len >= sizeof(*h)) {
		st.seq = h->nlmsg_seq;
		st.portid = h->nlmsg_pid;
	}
	return st;
}

static int parse_file(const char *name, int ifindex, struct np_rtnl *r,
		      struct np_rtnl_stream *st)
{
	size_t len;
	unsigned char *b = load(name, &len);
	int err;

	*st = stream_for(b, len, ifindex);
	np_rtnl_init(r);
	err = np_rtnl_parse_stream(b, len, st, r);
	free(b);
	return err;
}

/* ---- links ---- */

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

/* ---- qdiscs ---- */

/* The kernel dumps every interface's qdiscs (lo's noqueue is in eth0's dump): the filter. */
static void test_qdisc_eth0_pfifo_fast(void **state)
{
	struct np_rtnl_stream st;
	struct np_rtnl r;

	(void)state;
	assert_int_equal(parse_file("rtnl_qdisc_eth0.bin", 4, &r, &st), 0);
	assert_true(st.done);
	assert_int_equal(r.nqdisc, 1);
	assert_string_equal(r.qdiscs[0].kind, "pfifo_fast");
	assert_true(r.qdiscs[0].root);
	assert_false(r.qdiscs[0].ingress);
	assert_int_equal(r.qdiscs[0].parent, TC_H_ROOT);
	assert_int_equal(r.qdiscs[0].bytes, 43087);
	assert_int_equal(r.qdiscs[0].packets, 526);
	assert_int_equal(r.qdiscs[0].drops, 0);
	assert_int_equal(r.qdiscs[0].requeues, 0);	/* from TCA_STATS2: a real 0 */
	np_rtnl_free(&r);

	assert_int_equal(parse_file("rtnl_qdisc_eth0.bin", 0, &r, &st), 0);
	assert_int_equal(r.nqdisc, 2);
	np_rtnl_free(&r);
	assert_int_equal(parse_file("rtnl_qdisc_lo.bin", 1, &r, &st), 0);
	assert_int_equal(r.nqdisc, 1);
	assert_string_equal(r.qdiscs[0].kind, "noqueue");
	assert_true(r.qdiscs[0].root);
	np_rtnl_free(&r);
}

/* Recorded after a UDP flood through tbf 1mbit: the drops tc printed at that moment. */
static void test_qdisc_veth_tbf_clsact(void **state)
{
	struct np_rtnl_stream st;
	struct np_rtnl r;

	(void)state;
	assert_int_equal(parse_file("rtnl_qdisc_veth_tbf.bin", 2, &r, &st), 0);
	assert_int_equal(r.nqdisc, 2);
	assert_string_equal(r.qdiscs[0].kind, "tbf");
	assert_int_equal(r.qdiscs[0].handle, 0x80020000);
	assert_true(r.qdiscs[0].root);
	assert_int_equal(r.qdiscs[0].drops, 379857);
	assert_int_equal(r.qdiscs[0].overlimits, 381486);
	assert_int_equal(r.qdiscs[0].packets, 563);
	assert_int_equal(r.qdiscs[0].bytes, 135742);
	assert_string_equal(r.qdiscs[1].kind, "clsact");
	assert_int_equal(r.qdiscs[1].handle, 0xffff0000);
	assert_int_equal(r.qdiscs[1].parent, TC_H_INGRESS);
	assert_true(r.qdiscs[1].ingress);
	assert_false(r.qdiscs[1].root);
	np_rtnl_free(&r);
}

static void test_qdisc_veth_mq_children(void **state)
{
	struct np_rtnl_stream st;
	struct np_rtnl r;

	(void)state;
	assert_int_equal(parse_file("rtnl_qdisc_veth_mq.bin", 4, &r, &st), 0);
	assert_int_equal(r.nqdisc, 5);
	assert_string_equal(r.qdiscs[0].kind, "mq");
	assert_int_equal(r.qdiscs[0].handle, 0x10000);
	assert_true(r.qdiscs[0].root);
	for (size_t i = 1; i < 5; i++) {
		assert_string_equal(r.qdiscs[i].kind, "pfifo_fast");
		assert_int_equal(r.qdiscs[i].parent, 0x10000 | (5 - i));	/* 1:4 .. 1:1 */
		assert_false(r.qdiscs[i].root);
		assert_false(r.qdiscs[i].ingress);
	}
	np_rtnl_free(&r);
}

/* Hand-built: mq + 4 fq with drops, clsact, another interface's qdisc, a stale reply. */
static void test_qdisc_mq_4fq_drops(void **state)
{
	struct np_rtnl_stream st;
	struct np_rtnl r;
	uint64_t sum = 0;

	(void)state;
	assert_int_equal(parse_file("rtnl_qdisc_mq4fq.bin", 7, &r, &st), 0);
	assert_true(st.done);
	assert_int_equal(st.foreign, 1);
	assert_int_equal(r.nqdisc, 6);
	assert_string_equal(r.qdiscs[0].kind, "mq");
	for (uint32_t i = 1; i <= 4; i++) {
		const struct np_qdisc *q = &r.qdiscs[i];

		assert_string_equal(q->kind, "fq");
		assert_int_equal(q->handle, (0x8001 + i) << 16);
		assert_int_equal(q->parent, 0x80010000 | i);
		assert_int_equal(q->drops, 10 * i);
		assert_int_equal(q->overlimits, 5 * i);
		assert_int_equal(q->requeues, 1);
		assert_int_equal(q->qlen, i);
		assert_int_equal(q->backlog, 1514 * i);
		sum += q->drops;
	}
	assert_int_equal(r.qdiscs[0].drops, sum);
	assert_string_equal(r.qdiscs[5].kind, "clsact");
	assert_true(r.qdiscs[5].ingress);
	assert_int_equal(r.qdiscs[5].drops, 3);
	for (size_t i = 0; i < r.nqdisc; i++)
		assert_true(r.qdiscs[i].drops != 99 && r.qdiscs[i].drops != 77);
	np_rtnl_free(&r);
}

/* Only the legacy struct tc_stats: what it has is filled, requeues is not reported. */
static void test_qdisc_legacy_stats(void **state)
{
	struct np_rtnl_stream st;
	struct np_rtnl r;

	(void)state;
	assert_int_equal(parse_file("rtnl_qdisc_legacy.bin", 7, &r, &st), 0);
	assert_int_equal(r.nqdisc, 1);
	assert_string_equal(r.qdiscs[0].kind, "pfifo");
	assert_int_equal(r.qdiscs[0].bytes, 123456);
	assert_int_equal(r.qdiscs[0].packets, 789);
	assert_int_equal(r.qdiscs[0].drops, 12);
	assert_int_equal(r.qdiscs[0].overlimits, 3);
	assert_int_equal(r.qdiscs[0].qlen, 2);
	assert_int_equal(r.qdiscs[0].backlog, 3028);
	assert_true(r.qdiscs[0].requeues == NP_NA);
	np_rtnl_free(&r);
}

/* One dump split over several recv() buffers gives the same list as one buffer. */
static void test_stream_in_pieces(void **state)
{
	struct np_rtnl_stream st;
	struct np_rtnl r;
	size_t len, off = 0;
	unsigned char *b = load("rtnl_qdisc_mq4fq.bin", &len);

	(void)state;
	st = stream_for(b, len, 7);
	np_rtnl_init(&r);
	while (off < len) {
		const struct nlmsghdr *h = (const void *)(b + off);
		size_t n = NLMSG_ALIGN(h->nlmsg_len);
		unsigned char *piece = malloc(n);

		memcpy(piece, h, n);
		assert_int_equal(np_rtnl_parse_stream(piece, n, &st, &r), 0);
		free(piece);
		off += n;
	}
	assert_true(st.done);
	assert_int_equal(r.nqdisc, 6);
	np_rtnl_free(&r);
	free(b);
}

/* Every prefix of every fixture: an error or a clean stop at a message boundary, no over-read. */
static void test_every_prefix(void **state)
{
	static const char *const files[] = {
		"rtnl_link_eth0.bin", "rtnl_link_lo.bin", "rtnl_link_veth.bin",
		"rtnl_link_old184.bin", "rtnl_link_xdp_drv.bin", "rtnl_link_extack.bin",
		"rtnl_qdisc_eth0.bin", "rtnl_qdisc_veth_tbf.bin", "rtnl_qdisc_veth_mq.bin",
		"rtnl_qdisc_mq4fq.bin",
	};

	(void)state;
	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		size_t len, next = 0;
		unsigned char *b = load(files[f], &len);

		for (size_t k = 0; k < len; k++) {
			unsigned char *p = malloc(k ? k : 1);
			struct np_rtnl_stream st = stream_for(b, len, 0);
			const struct nlmsghdr *h = (const void *)(b + next);
			struct np_rtnl r;
			int err;

			if (k > next)
				next += NLMSG_ALIGN(h->nlmsg_len);
			memcpy(p, b, k);
			np_rtnl_init(&r);
			err = np_rtnl_parse_stream(p, k, &st, &r);
			if (k == next)
				assert_int_equal(err, 0);
			else
				assert_int_equal(err, -EBADMSG);
			np_rtnl_free(&r);
			free(p);
		}
		free(b);
	}
}

/* Each byte of each fixture set to 0xff in turn: whatever comes out, no crash or over-read. */
static void test_byte_corruption(void **state)
{
	static const char *const files[] = {
		"rtnl_link_xdp_drv.bin", "rtnl_qdisc_mq4fq.bin", "rtnl_link_extack.bin",
	};

	(void)state;
	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		size_t len;
		unsigned char *b = load(files[f], &len);

		for (size_t i = 0; i < len; i++) {
			unsigned char *p = malloc(len);
			struct np_rtnl_stream st = stream_for(b, len, 0);
			struct np_rtnl r;

			memcpy(p, b, len);
			p[i] = 0xff;
			np_rtnl_init(&r);
			np_rtnl_parse_stream(p, len, &st, &r);
			assert_true(r.nqdisc <= NP_RTNL_MAX_QDISCS);
			np_rtnl_free(&r);
			free(p);
		}
		free(b);
	}
}

/* ---- small hand-built messages for the stream's control paths ---- */

static size_t put_msg(unsigned char *buf, size_t off, struct nl_msg *m, uint16_t flags)
{
	struct nlmsghdr *h = nlmsg_hdr(m);

	h->nlmsg_seq = 9;
	h->nlmsg_flags |= flags;
	memcpy(buf + off, h, h->nlmsg_len);
	off += NLMSG_ALIGN(h->nlmsg_len);
	nlmsg_free(m);
	return off;
}

static struct nl_msg *qdisc_msg(int ifindex, const char *kind)
{
	struct tcmsg tcm = { .tcm_ifindex = ifindex, .tcm_parent = TC_H_ROOT };
	struct nl_msg *m = nlmsg_alloc_simple(RTM_NEWQDISC, 0);

	nlmsg_append(m, &tcm, sizeof(tcm), NLMSG_ALIGNTO);
	nla_put_string(m, TCA_KIND, kind);
	return m;
}

static struct nl_msg *int_msg(int type, int v)
{
	struct nl_msg *m = nlmsg_alloc_simple(type, 0);

	nlmsg_append(m, &v, sizeof(v), NLMSG_ALIGNTO);
	return m;
}

static void test_stream_control(void **state)
{
	unsigned char buf[1024];
	struct np_rtnl_stream st;
	struct np_rtnl r;
	size_t n;

	(void)state;
	/* A dump that failed midway: NLMSG_DONE carries -EINTR; NLM_F_DUMP_INTR is remembered. */
	n = put_msg(buf, 0, qdisc_msg(3, "fq"), NLM_F_MULTI | NLM_F_DUMP_INTR);
	n = put_msg(buf, n, int_msg(NLMSG_DONE, -EINTR), NLM_F_MULTI);
	st = (struct np_rtnl_stream){ .seq = 9, .ifindex = 3 };
	np_rtnl_init(&r);
	assert_int_equal(np_rtnl_parse_stream(buf, n, &st, &r), -EINTR);
	assert_true(st.intr);
	assert_true(st.done);
	assert_int_equal(r.nqdisc, 1);
	np_rtnl_free(&r);

	/* An ACK (error 0) ends the reply without an error; nothing after it is read. */
	n = put_msg(buf, 0, int_msg(NLMSG_ERROR, 0), 0);
	n = put_msg(buf, n, qdisc_msg(3, "fq"), NLM_F_MULTI);
	st = (struct np_rtnl_stream){ .seq = 9 };
	np_rtnl_init(&r);
	assert_int_equal(np_rtnl_parse_stream(buf, n, &st, &r), 0);
	assert_true(st.done);
	assert_int_equal(r.nqdisc, 0);

	/* NLMSG_OVERRUN: messages were lost. */
	n = put_msg(buf, 0, int_msg(NLMSG_OVERRUN, 0), 0);
	st = (struct np_rtnl_stream){ .seq = 9 };
	assert_int_equal(np_rtnl_parse_stream(buf, n, &st, &r), -ENOBUFS);

	/* A message from another port on our seq is not ours. */
	n = put_msg(buf, 0, qdisc_msg(3, "fq"), NLM_F_MULTI);
	((struct nlmsghdr *)buf)->nlmsg_pid = 77;
	st = (struct np_rtnl_stream){ .seq = 9, .portid = 78 };
	assert_int_equal(np_rtnl_parse_stream(buf, n, &st, &r), 0);
	assert_int_equal(st.foreign, 1);
	assert_int_equal(r.nqdisc, 0);
	np_rtnl_free(&r);
}

/* TCA_STATS_PKT64 wins over the wrapped 32-bit count; a qdisc with no stats at all is NP_NA. */
static void test_qdisc_pkt64_and_no_stats(void **state)
{
	unsigned char buf[512], basic[16] = { 0 };
	uint64_t bytes = 1ULL << 40, pkts = (1ULL << 32) + 5;
	uint32_t p32 = 5;
	struct nl_msg *m = qdisc_msg(3, "fq");
	struct nlattr *nest = nla_nest_start(m, TCA_STATS2);
	struct np_rtnl_stream st = { .seq = 9, .ifindex = 3 };
	struct np_rtnl r;
	size_t n;

	(void)state;
	memcpy(basic, &bytes, 8);
	memcpy(basic + 8, &p32, 4);
	nla_put(m, TCA_STATS_BASIC, sizeof(basic), basic);
	nla_put_u64(m, TCA_STATS_PKT64, pkts);
	nla_nest_end(m, nest);
	n = put_msg(buf, 0, m, NLM_F_MULTI);
	n = put_msg(buf, n, qdisc_msg(3, "noqueue"), NLM_F_MULTI);
	np_rtnl_init(&r);
	assert_int_equal(np_rtnl_parse_stream(buf, n, &st, &r), 0);
	assert_int_equal(r.nqdisc, 2);
	assert_true(r.qdiscs[0].packets == pkts);
	assert_true(r.qdiscs[0].bytes == bytes);
	assert_true(r.qdiscs[0].drops == NP_NA);	/* no TCA_STATS_QUEUE */
	assert_true(r.qdiscs[1].bytes == NP_NA);
	assert_true(r.qdiscs[1].drops == NP_NA);
	np_rtnl_free(&r);
}

/* The list is bounded: qdisc number 4097 is refused and the stream says so. */
static void test_qdisc_cap(void **state)
{
	struct nl_msg *m = qdisc_msg(3, "pfifo");
	struct nlmsghdr *h = nlmsg_hdr(m);
	size_t one, total, count = NP_RTNL_MAX_QDISCS + 1;
	struct np_rtnl_stream st = { .seq = 9, .ifindex = 3 };
	unsigned char *buf;
	struct np_rtnl r;

	(void)state;
	h->nlmsg_seq = 9;
	h->nlmsg_flags |= NLM_F_MULTI;
	one = NLMSG_ALIGN(h->nlmsg_len);
	total = one * count;
	buf = calloc(1, total);
	assert_non_null(buf);
	for (size_t i = 0; i < count; i++)
		memcpy(buf + i * one, h, h->nlmsg_len);
	nlmsg_free(m);
	np_rtnl_init(&r);
	assert_int_equal(np_rtnl_parse_stream(buf, total, &st, &r), -E2BIG);
	assert_int_equal(r.nqdisc, NP_RTNL_MAX_QDISCS);
	np_rtnl_free(&r);
	free(buf);
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
		cmocka_unit_test(test_qdisc_eth0_pfifo_fast),
		cmocka_unit_test(test_qdisc_veth_tbf_clsact),
		cmocka_unit_test(test_qdisc_veth_mq_children),
		cmocka_unit_test(test_qdisc_mq_4fq_drops),
		cmocka_unit_test(test_qdisc_legacy_stats),
		cmocka_unit_test(test_stream_in_pieces),
		cmocka_unit_test(test_every_prefix),
		cmocka_unit_test(test_byte_corruption),
		cmocka_unit_test(test_stream_control),
		cmocka_unit_test(test_qdisc_pkt64_and_no_stats),
		cmocka_unit_test(test_qdisc_cap),
		cmocka_unit_test(test_operstate_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
