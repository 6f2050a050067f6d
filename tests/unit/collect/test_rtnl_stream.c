// SPDX-License-Identifier: GPL-2.0-only
/* The rtnetlink stream: a dump split over several buffers, every prefix and every corrupted
 * byte of each fixture (no crash, no over-read), and its control paths (done, errors, stale
 * replies) on small hand-built messages. */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stream_in_pieces),
		cmocka_unit_test(test_every_prefix),
		cmocka_unit_test(test_byte_corruption),
		cmocka_unit_test(test_stream_control),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
