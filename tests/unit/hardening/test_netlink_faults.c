// SPDX-License-Identifier: GPL-2.0-only
/*
 * Netlink faults through the parsers' seams: error codes no kernel sends (INT_MIN, past
 * MAX_ERRNO), receive errors (ENOBUFS) behind the replay transport, a queue id past INT_MAX,
 * requests that carry no stale heap bytes, and the bounded wait on every socket we can open.
 * Regression tests for what the fuzzers (tests/fuzz) and valgrind found.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <sys/socket.h>
#include <sys/time.h>

#include "../collect/genl_fixture.h"
#include "ethtool_nl.h"
#include "netdev_qstats.h"
#include "rtnl.h"
#include "snapshot.h"
#include "sock_diag.h"

/* A message of type type carrying one int (NLMSG_ERROR's error, NLMSG_DONE's status). */
static size_t int_msg(char *buf, uint16_t type, uint32_t seq, int v)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct nlmsgerr *e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));

	nlh->nlmsg_type = type;
	nlh->nlmsg_seq = seq;
	e->error = v;
	return nlh->nlmsg_len;
}

/* The fuzzers' find: NLMSG_ERROR with error INT_MIN made the reply walker (np_nl_run, then
 * np_genl_run) return INT_MIN, which the callers negate for strerror() (undefined behaviour).
 * Anything past MAX_ERRNO is -EPROTO. */
static void test_genl_error_out_of_range(void **state)
{
	static const struct { int in, out; } cases[] = {
		{ INT_MIN, -EPROTO }, { -4096, -EPROTO }, { 4096, -EPROTO }, { INT_MAX, -EPROTO },
		{ -ENODEV, -ENODEV }, { ENODEV, -ENODEV }, { -4095, -4095 },
	};
	char buf[64], msg[32];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t n = int_msg(buf, NLMSG_ERROR, 7, cases[i].in);

		assert_int_equal(np_nl_run(buf, n, 7, NULL, NULL, msg, sizeof(msg)),
				 cases[i].out);
		n = int_msg(buf, NLMSG_DONE, 7, cases[i].in);
		assert_int_equal(np_nl_run(buf, n, 7, NULL, NULL, msg, sizeof(msg)),
				 cases[i].out);
	}
}

static void test_rtnl_error_out_of_range(void **state)
{
	char buf[64];
	struct np_rtnl_stream st;
	struct np_rtnl r;
	size_t n;

	(void)state;
	np_rtnl_init(&r);
	n = int_msg(buf, NLMSG_ERROR, 3, INT_MIN);
	st = (struct np_rtnl_stream){ .seq = 3 };
	assert_int_equal(np_rtnl_parse_stream(buf, n, &st, &r), -EPROTO);
	assert_int_equal(st.err, -EPROTO);
	n = int_msg(buf, NLMSG_DONE, 3, INT_MIN);
	((struct nlmsghdr *)(void *)buf)->nlmsg_flags = NLM_F_MULTI;
	st = (struct np_rtnl_stream){ .seq = 3 };
	assert_int_equal(np_rtnl_parse_stream(buf, n, &st, &r), -EPROTO);
	/* A real errno passes through unchanged. */
	n = int_msg(buf, NLMSG_ERROR, 3, -ENODEV);
	st = (struct np_rtnl_stream){ .seq = 3 };
	assert_int_equal(np_rtnl_parse_stream(buf, n, &st, &r), -ENODEV);
	np_rtnl_free(&r);
}

/* A QSTATS_GET reply for rx queue id; returns np_qstats_parse's verdict. */
static int qstats_for(uint32_t id, struct np_ethtool *e)
{
	struct builder b = { .len = 0 };
	struct nlmsghdr *nlh = b_msg(&b, 0x20, 1, NP_NETDEV_CMD_QSTATS_GET);

	mnl_attr_put_u32(nlh, NP_NETDEV_A_QSTATS_IFINDEX, 9);
	mnl_attr_put_u32(nlh, NP_NETDEV_A_QSTATS_QUEUE_TYPE, NP_NETDEV_QUEUE_TYPE_RX);
	mnl_attr_put_u32(nlh, NP_NETDEV_A_QSTATS_QUEUE_ID, id);
	mnl_attr_put_u64(nlh, NP_NETDEV_A_QSTATS_RX_PACKETS, 100);
	return np_qstats_parse(nlh, e);
}

/* The fuzzers' find: queue id 0xffffffff became queue -1, the "no queue" of the checks. */
static void test_qstats_queue_id_range(void **state)
{
	struct np_ethtool e;

	(void)state;
	np_ethtool_init(&e);
	assert_int_equal(qstats_for(0x80000000u, &e), -EBADMSG);
	assert_int_equal(qstats_for(0xffffffffu, &e), -EBADMSG);
	assert_int_equal(e.nqstats, 0);
	assert_int_equal(qstats_for(INT_MAX, &e), 0);
	assert_int_equal(qstats_for(3, &e), 0);
	assert_int_equal(e.nqstats, 2);
	assert_int_equal(e.qstats[0].queue, INT_MAX);
	assert_int_equal(e.qstats[1].queue, 3);
	assert_int_equal(e.qstats[1].rx_packets, 100);
	np_ethtool_free(&e);
}

/* The fuzzers' find: the STATS parser walked the reply with mnl_attr_for_each(), which ends a
 * message at NLMSG_ALIGN(nlmsg_len): a last message with an unaligned length let a group nest
 * reach 3 bytes past the buffer. Here the group runs past nlmsg_len: it must not be read. */
static void test_stats_unaligned_end(void **state)
{
	struct builder b = { .len = 0 };
	struct nlmsghdr *nlh = b_msg(&b, ETHTOOL_FAM, 1, ETHTOOL_MSG_STATS_GET_REPLY), *cut;
	struct nlattr *grp, *stat;
	struct np_counters c = { 0 };
	size_t n = 99;

	(void)state;
	grp = mnl_attr_nest_start(nlh, ETHTOOL_A_STATS_GRP);
	mnl_attr_put_u32(nlh, ETHTOOL_A_STATS_GRP_ID, ETHTOOL_STATS_ETH_MAC);
	stat = mnl_attr_nest_start(nlh, ETHTOOL_A_STATS_GRP_STAT);
	mnl_attr_put_u64(nlh, 0, 5);
	mnl_attr_nest_end(nlh, stat);
	mnl_attr_nest_end(nlh, grp);
	nlh->nlmsg_len -= 3;			/* the last 3 bytes never arrived */
	cut = malloc(nlh->nlmsg_len);		/* exact size: ASan sees a byte past it */
	assert_non_null(cut);
	memcpy(cut, nlh, nlh->nlmsg_len);
	assert_int_equal(np_ethtool_parse_stats(cut, &c, &n), -EBADMSG);
	assert_int_equal(n, 0);
	assert_int_equal(c.n, 0);
	np_counters_free(&c);
	free(cut);
}

/* Valgrind's find: libmnl leaves attribute padding untouched, so requests carried stale heap
 * bytes to the kernel. A request built over a dirty buffer equals one built over zeros. */
static ssize_t silent(void *arg, const struct nlmsghdr *req, void *buf, size_t size)
{
	(void)arg;
	(void)req;
	(void)buf;
	(void)size;
	return 0;
}

static void test_genl_request_padding(void **state)
{
	char clean[256] = { 0 };
	struct nlmsghdr *nlh, *want;
	struct genlmsghdr *gh;
	struct np_nl g;

	(void)state;
	assert_int_equal(np_genl_open_replay(&g, silent, NULL), 0);
	memset(g.buf + NP_GENL_BUFSIZE, 0xa5, 256);
	nlh = np_genl_msg(&g, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1, 0);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, "netdev");	/* 7 bytes: 1 of padding */
	mnl_attr_put_u8(nlh, 200, 1);	/* 3 bytes of padding */

	want = mnl_nlmsg_put_header(clean);
	want->nlmsg_type = GENL_ID_CTRL;
	want->nlmsg_flags = NLM_F_REQUEST;
	want->nlmsg_seq = nlh->nlmsg_seq;
	gh = mnl_nlmsg_put_extra_header(want, sizeof(*gh));
	gh->cmd = CTRL_CMD_GETFAMILY;
	gh->version = 1;
	mnl_attr_put_strz(want, CTRL_ATTR_FAMILY_NAME, "netdev");
	mnl_attr_put_u8(want, 200, 1);
	/* libmnl may or may not zero the padding of the clean copy: it was zero already. */
	assert_int_equal(nlh->nlmsg_len, want->nlmsg_len);
	assert_memory_equal(nlh, want, want->nlmsg_len);
	np_nl_close(&g);
}

/* ENOBUFS on receive (the socket's queue overflowed) for every ethtool request: each source
 * says which request failed and why, none claims data, nothing waits. */
struct enobufs {
	struct stream ctrl;
	unsigned requests;
};

static ssize_t ctrl_then_enobufs(void *arg, const struct nlmsghdr *req, void *buf, size_t size)
{
	struct enobufs *e = arg;
	struct nlmsghdr *nlh = buf;
	size_t off = 0;

	e->requests++;
	if (req->nlmsg_type != GENL_ID_CTRL || e->ctrl.len > size)
		return -ENOBUFS;
	memcpy(buf, e->ctrl.buf, e->ctrl.len);
	while (off + sizeof(*nlh) <= e->ctrl.len) {
		nlh = (struct nlmsghdr *)((char *)buf + off);
		nlh->nlmsg_seq = req->nlmsg_seq;
		off += NLMSG_ALIGN(nlh->nlmsg_len);
	}
	return (ssize_t)e->ctrl.len;
}

static void test_ethtool_enobufs(void **state)
{
	static const enum np_source srcs[] = {
		NP_SRC_ETHTOOL_LINKMODES, NP_SRC_ETHTOOL_RINGS, NP_SRC_ETHTOOL_CHANNELS,
		NP_SRC_ETHTOOL_COALESCE, NP_SRC_ETHTOOL_FEATURES, NP_SRC_ETHTOOL_PAUSE,
		NP_SRC_ETHTOOL_STATS, NP_SRC_ETHTOOL_RSS,
	};
	struct enobufs e = { .ctrl = load_stream("genl_ctrl_ethtool.bin") };
	struct np_snapshot *s = malloc(sizeof(*s));
	struct np_nl g;

	(void)state;
	assert_non_null(e.ctrl.buf);
	assert_non_null(s);
	np_snapshot_init(s);
	snprintf(s->ifname, sizeof(s->ifname), "eth9");
	assert_int_equal(np_genl_open_replay(&g, ctrl_then_enobufs, &e), 0);
	np_ethtool_nl_collect(&g, s);
	np_nl_close(&g);
	for (size_t i = 0; i < sizeof(srcs) / sizeof(srcs[0]); i++) {
		assert_false(np_src_ok(s, srcs[i]));
		assert_int_equal(np_srcp(s, srcs[i])->err, ENOBUFS);
		assert_non_null(strstr(np_srcp(s, srcs[i])->detail, "ETHTOOL_MSG_"));
		assert_non_null(strstr(np_srcp(s, srcs[i])->detail, strerror(ENOBUFS)));
	}
	/* One family lookup and one request per source: no retry loop. */
	assert_true(e.requests <= 1 + sizeof(srcs) / sizeof(srcs[0]) + 1);
	assert_true(s->eth.rings.rx == NP_NA && s->eth.channels.combined == NP_NA);
	np_snapshot_free(s);
	free(s);
	free_stream(&e.ctrl);
}

/* Short buffers (less than a header) and a header claiming more than arrived, for each walker. */
static void test_short_and_truncated(void **state)
{
	struct np_sock_diag_stream st = { 0 };
	struct np_rtnl_stream rs = { .seq = 1 };
	struct np_sockets *k = malloc(sizeof(*k));
	char buf[64];
	size_t n;
	struct np_rtnl r;

	(void)state;
	assert_non_null(k);
	np_sockets_init(k);
	st.socks = k;
	st.seq = 1;
	n = int_msg(buf, NLMSG_DONE, 1, 0);
	for (size_t cut = 1; cut < sizeof(struct nlmsghdr); cut++) {
		assert_int_equal(np_nl_run(buf, cut, 1, NULL, NULL, NULL, 0), -EBADMSG);
		assert_int_equal(np_sock_diag_feed(&st, buf, cut), -EBADMSG);
	}
	for (size_t cut = sizeof(struct nlmsghdr); cut < n; cut++) {
		assert_int_equal(np_nl_run(buf, cut, 1, NULL, NULL, NULL, 0), -EBADMSG);
		np_rtnl_init(&r);
		rs = (struct np_rtnl_stream){ .seq = 1 };
		assert_int_equal(np_rtnl_parse_stream(buf, cut, &rs, &r), -EBADMSG);
		np_rtnl_free(&r);
	}
	free(k);
}

/* Every netlink socket we open waits at most its timeout for a reply (a hung driver callback
 * or netlink peer cannot hang doctor). rtnetlink's socket has no seam: the strace test
 * tests/integration/fault-bounded-waits.sh checks it in a real run. */
static long rcvtimeo_ms(int fd)
{
	struct timeval tv;
	socklen_t len = sizeof(tv);

	assert_int_equal(getsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, &len), 0);
	return tv.tv_sec * 1000 + tv.tv_usec / 1000;
}

static void test_receive_timeouts(void **state)
{
	struct np_nl d;
	struct np_nl g;

	(void)state;
	if (np_genl_open(&g) < 0)
		skip();	/* no netlink here (a sandbox): nothing to check */
	assert_int_equal(rcvtimeo_ms(mnl_socket_get_fd(g.nl)), NP_GENL_TIMEOUT_MS);
	np_nl_close(&g);
	assert_int_equal(np_sock_diag_open(&d), 0);
	assert_int_equal(rcvtimeo_ms(mnl_socket_get_fd(d.nl)), NP_SOCK_DIAG_TIMEOUT_MS);
	np_nl_close(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_genl_error_out_of_range),
		cmocka_unit_test(test_rtnl_error_out_of_range),
		cmocka_unit_test(test_qstats_queue_id_range),
		cmocka_unit_test(test_stats_unaligned_end),
		cmocka_unit_test(test_genl_request_padding),
		cmocka_unit_test(test_ethtool_enobufs),
		cmocka_unit_test(test_short_and_truncated),
		cmocka_unit_test(test_receive_timeouts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
