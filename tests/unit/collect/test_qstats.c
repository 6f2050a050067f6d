// SPDX-License-Identifier: GPL-2.0-only
/* netdev qstats: the dump parser on recorded (virtio eth0, lo, veth) and hand-built replies, and
 * the collector's statuses over a replay transport (family missing, op missing, empty dump). */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "genl_fixture.h"
#include "netdev_qstats.h"

#define NETDEV_FAM 0x14

static int parse_cb(const struct nlmsghdr *nlh, void *data)
{
	int err = np_qstats_parse(nlh, data);

	return err == -ENOMEM ? err : MNL_CB_OK;
}

static void test_eth0_recorded(void **state)
{
	struct stream st = load_stream("genl_eth0_qstats.bin");
	struct np_ethtool e;
	char msg[64];

	(void)state;
	assert_non_null(st.buf);
	np_ethtool_init(&e);
	/* One rx and one tx queue message, then DONE: only the rx queue is kept. */
	assert_int_equal(np_nl_run(st.buf, st.len, first_msg(&st)->nlmsg_seq, parse_cb, &e, msg,
				     sizeof(msg)), 0);
	assert_int_equal(e.nqstats, 1);
	assert_int_equal(e.qstats[0].queue, 0);
	assert_true(e.qstats[0].rx_packets > 0 && e.qstats[0].rx_packets != NP_NA);
	assert_true(e.qstats[0].rx_bytes > e.qstats[0].rx_packets);
	/* virtio_net does not count these: not reported, never 0. */
	assert_true(e.qstats[0].rx_alloc_fail == NP_NA);
	assert_true(e.qstats[0].rx_hw_drops == NP_NA);
	assert_true(e.qstats[0].rx_csum_bad == NP_NA);
	np_ethtool_free(&e);
	free_stream(&st);
}

/* Drivers without queue stats ops: the dump ends at once, EOPNOTSUPP in its NLMSG_DONE. */
static void test_unsupported_recorded(void **state)
{
	const char *names[] = { "genl_lo_qstats.bin", "genl_veth_qstats.bin" };
	struct np_ethtool e;
	char msg[64];

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		struct stream st = load_stream(names[i]);

		assert_non_null(st.buf);
		np_ethtool_init(&e);
		assert_int_equal(first_msg(&st)->nlmsg_type, NLMSG_DONE);
		assert_int_equal(np_nl_run(st.buf, st.len, first_msg(&st)->nlmsg_seq, parse_cb,
					     &e, msg, sizeof(msg)), -EOPNOTSUPP);
		assert_int_equal(e.nqstats, 0);
		np_ethtool_free(&e);
		free_stream(&st);
	}
}

static struct nlmsghdr *queue_msg(struct builder *b, uint32_t type, uint32_t id)
{
	struct nlmsghdr *nlh = b_msg(b, NETDEV_FAM, 1, NP_NETDEV_CMD_QSTATS_GET);

	mnl_attr_put_u32(nlh, NP_NETDEV_A_QSTATS_IFINDEX, 7);
	mnl_attr_put_u32(nlh, NP_NETDEV_A_QSTATS_QUEUE_TYPE, type);
	mnl_attr_put_u32(nlh, NP_NETDEV_A_QSTATS_QUEUE_ID, id);
	return nlh;
}

/* Values are "uint": 4 or 8 bytes, whichever the kernel needed for this value. */
static void test_built(void **state)
{
	struct builder b = { .len = 0 };
	struct np_ethtool e;
	struct nlmsghdr *nlh;

	(void)state;
	np_ethtool_init(&e);
	nlh = queue_msg(&b, NP_NETDEV_QUEUE_TYPE_RX, 3);
	mnl_attr_put_u64(nlh, NP_NETDEV_A_QSTATS_RX_PACKETS, 5000000000ULL);
	mnl_attr_put_u64(nlh, NP_NETDEV_A_QSTATS_RX_BYTES, 7000000000000ULL);
	mnl_attr_put_u32(nlh, NP_NETDEV_A_QSTATS_RX_ALLOC_FAIL, 12);
	mnl_attr_put_u32(nlh, NP_NETDEV_A_QSTATS_RX_HW_DROPS, 34);
	mnl_attr_put_u32(nlh, NP_NETDEV_A_QSTATS_RX_HW_DROP_OVERRUNS, 30);
	mnl_attr_put_u32(nlh, NP_NETDEV_A_QSTATS_RX_HW_DROP_RATELIMITS, 4);
	mnl_attr_put_u32(nlh, NP_NETDEV_A_QSTATS_RX_CSUM_NONE, 0);
	mnl_attr_put_u32(nlh, NP_NETDEV_A_QSTATS_RX_CSUM_BAD, 1);
	mnl_attr_put_u32(nlh, 33, 99);	/* tx-stop: a tx counter, not ours */
	assert_int_equal(np_qstats_parse(nlh, &e), 0);
	assert_int_equal(e.nqstats, 1);
	assert_int_equal(e.qstats[0].queue, 3);
	assert_true(e.qstats[0].rx_packets == 5000000000ULL);
	assert_true(e.qstats[0].rx_bytes == 7000000000000ULL);
	assert_int_equal(e.qstats[0].rx_alloc_fail, 12);
	assert_int_equal(e.qstats[0].rx_hw_drops, 34);
	assert_int_equal(e.qstats[0].rx_hw_drop_overruns, 30);
	assert_int_equal(e.qstats[0].rx_hw_drop_ratelimits, 4);
	assert_int_equal(e.qstats[0].rx_csum_none, 0);
	assert_int_equal(e.qstats[0].rx_csum_bad, 1);

	/* A tx queue is skipped; a second rx queue appends. */
	b.len = 0;
	nlh = queue_msg(&b, NP_NETDEV_QUEUE_TYPE_TX, 0);
	mnl_attr_put_u32(nlh, 10, 5);
	assert_int_equal(np_qstats_parse(nlh, &e), 0);
	assert_int_equal(e.nqstats, 1);
	b.len = 0;
	nlh = queue_msg(&b, NP_NETDEV_QUEUE_TYPE_RX, 4);
	mnl_attr_put_u32(nlh, NP_NETDEV_A_QSTATS_RX_PACKETS, 1);
	assert_int_equal(np_qstats_parse(nlh, &e), 0);
	assert_int_equal(e.nqstats, 2);
	assert_int_equal(e.qstats[1].queue, 4);
	assert_true(e.qstats[1].rx_hw_drops == NP_NA);
	np_ethtool_free(&e);
}

static void test_malformed(void **state)
{
	static const char three[3] = { 1, 2, 3 };
	struct builder b = { .len = 0 };
	struct np_ethtool e;
	struct nlmsghdr *nlh;

	(void)state;
	np_ethtool_init(&e);
	/* A counter of 3 bytes: that one is NP_NA, the queue keeps the rest. */
	nlh = queue_msg(&b, NP_NETDEV_QUEUE_TYPE_RX, 0);
	mnl_attr_put(nlh, NP_NETDEV_A_QSTATS_RX_HW_DROPS, sizeof(three), three);
	mnl_attr_put_u32(nlh, NP_NETDEV_A_QSTATS_RX_PACKETS, 8);
	assert_int_equal(np_qstats_parse(nlh, &e), -EBADMSG);
	assert_int_equal(e.nqstats, 1);
	assert_true(e.qstats[0].rx_hw_drops == NP_NA);
	assert_int_equal(e.qstats[0].rx_packets, 8);
	/* No queue type (device scope): not a queue. */
	b.len = 0;
	nlh = b_msg(&b, NETDEV_FAM, 1, NP_NETDEV_CMD_QSTATS_GET);
	mnl_attr_put_u32(nlh, NP_NETDEV_A_QSTATS_RX_PACKETS, 8);
	assert_int_equal(np_qstats_parse(nlh, &e), -EBADMSG);
	/* Another command's message. */
	b.len = 0;
	nlh = b_msg(&b, NETDEV_FAM, 1, 10);
	assert_int_equal(np_qstats_parse(nlh, &e), -EINVAL);
	assert_int_equal(e.nqstats, 1);
	np_ethtool_free(&e);
}

/* --- the collector over a replay transport --- */

struct qdev {
	struct stream ctrl, dump;
	struct stream intr;	/* answers the first n_intr dumps */
	unsigned n_intr, dumps;
};

static const struct stream *pick(struct replay *r, const struct nlmsghdr *req)
{
	struct qdev *d = r->arg;

	if (req->nlmsg_type == GENL_ID_CTRL)
		return &d->ctrl;
	/* The request must be a dump of one interface at queue scope. */
	assert_true(req->nlmsg_flags & NLM_F_DUMP);
	assert_int_equal(req_cmd(req), NP_NETDEV_CMD_QSTATS_GET);
	return ++d->dumps <= d->n_intr ? &d->intr : &d->dump;
}

static void collect(struct qdev *d, struct np_snapshot *s)
{
	struct replay r = { .pick = pick, .arg = d };
	struct np_nl g;

	np_snapshot_init(s);
	snprintf(s->ifname, sizeof(s->ifname), "eth9");
	assert_int_equal(np_genl_open_replay(&g, replay_fn, &r), 0);
	np_qstats_collect(&g, s, 7);
	np_nl_close(&g);
}

static void test_collect(void **state)
{
	static const uint32_t old_ops[] = { 1, 5, 9, 10, 11 };	/* 6.8: no QSTATS_GET */
	struct builder b = { .len = 0 };
	struct np_snapshot s;
	struct qdev d = { .ctrl = load_stream("genl_ctrl_netdev.bin"),
			  .dump = load_stream("genl_eth0_qstats.bin") };

	(void)state;
	collect(&d, &s);
	assert_int_equal(np_srcp(&s, NP_SRC_QSTATS)->status, NP_SRC_OK);
	assert_int_equal(s.eth.nqstats, 1);
	np_snapshot_free(&s);

	/* lo: EOPNOTSUPP is "driver does not report", and so is an empty dump. */
	free_stream(&d.dump);
	d.dump = load_stream("genl_lo_qstats.bin");
	collect(&d, &s);
	assert_int_equal(np_srcp(&s, NP_SRC_QSTATS)->status, NP_SRC_UNSUPPORTED);
	assert_string_equal(np_srcp(&s, NP_SRC_QSTATS)->detail, "driver does not report per-queue stats");
	np_snapshot_free(&s);
	free_stream(&d.dump);
	b_done(&b, 1, 0);
	d.dump = b_stream(&b);
	b.len = 0;
	collect(&d, &s);
	assert_int_equal(np_srcp(&s, NP_SRC_QSTATS)->status, NP_SRC_UNSUPPORTED);
	assert_int_equal(s.eth.nqstats, 0);
	np_snapshot_free(&s);

	free_stream(&d.ctrl);
	b_family(&b, 1, "netdev", NETDEV_FAM, old_ops, sizeof(old_ops) / sizeof(old_ops[0]));
	d.ctrl = b_stream(&b);
	collect(&d, &s);
	assert_int_equal(np_srcp(&s, NP_SRC_QSTATS)->status, NP_SRC_ABSENT);
	assert_string_equal(np_srcp(&s, NP_SRC_QSTATS)->detail,
			    "kernel lacks NETDEV_CMD_QSTATS_GET (kernel < 6.9)");
	np_snapshot_free(&s);

	free_stream(&d.ctrl);
	b.len = 0;
	b_error(&b, 1, -ENOENT, NULL);
	d.ctrl = b_stream(&b);
	collect(&d, &s);
	assert_int_equal(np_srcp(&s, NP_SRC_QSTATS)->status, NP_SRC_ABSENT);
	assert_string_equal(np_srcp(&s, NP_SRC_QSTATS)->detail, "no netdev netlink family (kernel < 6.9)");
	assert_int_equal(s.eth.nqstats, 0);
	np_snapshot_free(&s);
	free_stream(&d.ctrl);
	free_stream(&d.dump);
}

/* Queues added while the dump ran (a busy host: ethtool -L, a driver reset): the kernel flags
 * the dump NLM_F_DUMP_INTR. Its three queues are not the table: the clean dump asked again is
 * (the recorded eth0's one rx queue); a dump inconsistent every time is no table at all. */
static void test_collect_interrupted(void **state)
{
	struct builder b = { .len = 0 };
	struct np_snapshot s;
	struct qdev d = { .ctrl = load_stream("genl_ctrl_netdev.bin"),
			  .dump = load_stream("genl_eth0_qstats.bin") };
	struct nlmsghdr *nlh;

	(void)state;
	for (uint32_t q = 0; q < 3; q++) {
		nlh = queue_msg(&b, NP_NETDEV_QUEUE_TYPE_RX, q);
		mnl_attr_put_u64(nlh, NP_NETDEV_A_QSTATS_RX_PACKETS, 123456789);
		nlh->nlmsg_flags = NLM_F_MULTI;
		b_end(&b, nlh);
	}
	b_done(&b, 1, 0);
	/* On the DONE, where the kernel's last check put it. */
	((struct nlmsghdr *)(b.buf + b.len - NLMSG_ALIGN(NLMSG_LENGTH(sizeof(int)))))
		->nlmsg_flags |= NLM_F_DUMP_INTR;
	d.intr = b_stream(&b);

	d.n_intr = 1;
	collect(&d, &s);
	assert_int_equal(d.dumps, 2);
	assert_int_equal(np_srcp(&s, NP_SRC_QSTATS)->status, NP_SRC_OK);
	assert_int_equal(s.eth.nqstats, 1);
	assert_int_equal(s.eth.qstats[0].queue, 0);
	assert_true(s.eth.qstats[0].rx_packets != 123456789);	/* the recorded queue's */
	np_snapshot_free(&s);

	d.n_intr = 1000;
	d.dumps = 0;
	collect(&d, &s);
	assert_int_equal(d.dumps, NP_NL_DUMP_TRIES);
	assert_int_not_equal(np_srcp(&s, NP_SRC_QSTATS)->status, NP_SRC_OK);
	assert_non_null(strstr(np_srcp(&s, NP_SRC_QSTATS)->detail, "changed during each"));
	assert_int_equal(s.eth.nqstats, 0);
	np_snapshot_free(&s);
	free_stream(&d.ctrl);
	free_stream(&d.dump);
	free_stream(&d.intr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_eth0_recorded),
		cmocka_unit_test(test_unsupported_recorded),
		cmocka_unit_test(test_built),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_collect),
		cmocka_unit_test(test_collect_interrupted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
