// SPDX-License-Identifier: GPL-2.0-only
/* rtnetlink qdisc parser fed recorded (eth0, veth) and hand-built RTM_NEWQDISC: the interface
 * filter, mq children, drops, legacy and 64-bit packet counts, the list's bound. */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_qdisc_eth0_pfifo_fast),
		cmocka_unit_test(test_qdisc_veth_tbf_clsact),
		cmocka_unit_test(test_qdisc_veth_mq_children),
		cmocka_unit_test(test_qdisc_mq_4fq_drops),
		cmocka_unit_test(test_qdisc_legacy_stats),
		cmocka_unit_test(test_qdisc_pkt64_and_no_stats),
		cmocka_unit_test(test_qdisc_cap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
