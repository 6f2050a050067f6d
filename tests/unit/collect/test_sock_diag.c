// SPDX-License-Identifier: GPL-2.0-only
/* inet_diag parser and stream fed recorded dumps (TCP/UDP, IPv4/IPv6) and hand-built replies.
 * (The fold into bounded lists and the renderers: test_sock_diag_fold.c.) */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "fixture_load.h"

#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>

#include "json_writer.h"
#include "render_sockets.h"
#include "snapshot.h"
#include "sock_diag.h"
#include "socket_fold.h"
#include "sock_diag_fixture.h"

static void test_tcp4_recorded(void **state)
{
	struct np_sockets *k = feed_file("sockdiag_tcp4.bin", IPPROTO_TCP, new_socks());
	const struct np_sock_listener *l;

	(void)state;
	/* ss -tan in the namespace: 2 LISTEN, 12 ESTAB, 15 SYN-SENT, all IPv4. */
	assert_int_equal(k->tcp_total, 29);
	assert_int_equal(k->tcp_v4, 29);
	assert_int_equal(k->tcp_state[10], 2);
	assert_int_equal(k->tcp_state[1], 12);
	assert_int_equal(k->tcp_state[2], 15);
	assert_int_equal(k->no_info, 0);
	/* 127.0.0.1:8080, backlog 4 never accepted: 5 queued (the kernel lets one more in), and
	 * its SK_MEMINFO_DROPS = the listen drops of the 15 SYNs and their retransmissions. */
	assert_int_equal(k->listeners, 2);
	assert_int_equal(k->listen_full, 1);
	assert_int_equal(k->listen.n, 1);
	l = &k->listen.e[0];
	assert_int_equal(l->id.sport, 8080);
	assert_int_equal(l->queued, 5);
	assert_int_equal(l->limit, 4);
	assert_int_equal(l->drops, 30);
	assert_int_equal(k->listen_drops, 30);
	assert_true(l->id.inode != 0);
	assert_ptr_equal(np_sockets_find_listener(k, l->id.inode, 8080), l);
	/* Loopback only: no RTT sample counts. */
	assert_int_equal(k->rtt_n, 0);
	assert_int_equal(k->min_rtt_n, 0);
	assert_true(isnan(k->min_rtt_p90_ms));
	/* The namespace default is bbr (INET_DIAG_CONG on every established socket). */
	assert_int_equal(k->ncc, 1);
	assert_string_equal(k->cc[0].name, "bbr");
	assert_int_equal(k->cc[0].sockets, 12);
	/* 8090 reads with SO_RCVBUF 32768 (rcvbuf 65536 < tcp_rmem[1]) and a full window per
	 * RTT: pinned. Its sender 47454 spent 77% of its busy time on the peer's window. */
	assert_int_equal(k->pinned.n, 1);
	assert_int_equal(k->pinned.e[0].id.sport, 8090);
	assert_int_equal(k->pinned.e[0].rcvbuf, 65536);
	assert_true(k->pinned.e[0].flags & NP_SOCKF_RCV_LIMITED);
	assert_true(k->pinned.e[0].flags & NP_SOCKF_RCVBUF_PINNED);
	assert_int_equal(k->rcvbuf_pinned, 1);
	assert_int_equal(k->rwnd_limited, 1);
	assert_true(k->rwnd_limited_us > 0 && k->rwnd_limited_us <= k->busy_us);
	assert_int_equal(k->ceiling.n, 0);
	assert_int_equal(k->lossy.n, 0);
	free(k);
}

static void test_tcp6_recorded(void **state)
{
	struct np_sockets *k = feed_file("sockdiag_tcp6.bin", IPPROTO_TCP, new_socks());

	(void)state;
	assert_int_equal(k->tcp_total, 10);
	assert_int_equal(k->tcp_v6, 10);
	assert_int_equal(k->tcp_state[10], 2);
	assert_int_equal(k->tcp_state[1], 8);
	/* [::1]:8081: 3 of 4 queued is "near full", no drops. */
	assert_int_equal(k->listen_full, 0);
	assert_int_equal(k->listen_near, 1);
	assert_int_equal(k->listen.n, 1);
	assert_int_equal(k->listen.e[0].id.family, AF_INET6);
	assert_int_equal(k->listen.e[0].queued, 3);
	assert_int_equal(k->listen.e[0].drops, 0);
	/* The autotuned receiver (21 MB of a 32 MiB tcp_rmem[2]) is neither pinned nor capped. */
	assert_int_equal(k->pinned.n, 0);
	assert_int_equal(k->ceiling.n, 0);
	free(k);
}

static void test_udp_recorded(void **state)
{
	struct np_sockets *k = new_socks();
	char b[64];

	(void)state;
	feed_file("sockdiag_udp4.bin", IPPROTO_UDP, k);
	feed_file("sockdiag_udp6.bin", IPPROTO_UDP, k);
	/* A never-reading receiver (SO_RCVBUF 4096 -> 8192) and its connected sender, twice. */
	assert_int_equal(k->udp_total, 4);
	assert_int_equal(k->udp_v4, 2);
	assert_int_equal(k->udp_v6, 2);
	assert_int_equal(k->udp_with_drops, 2);
	assert_int_equal(k->udp_drops, 1994 + 494);
	assert_int_equal(k->tcp_total, 0);
	assert_int_equal(k->udp.n, 2);
	assert_int_equal(k->udp.e[0].id.sport, 9000);	/* most drops first */
	assert_int_equal(k->udp.e[0].drops, 1994);
	assert_int_equal(k->udp.e[0].rcvbuf, 8192);
	assert_int_equal(k->udp.e[0].rmem_alloc, 7680);
	assert_string_equal(np_sock_addr_str(k->udp.e[0].id.family, k->udp.e[0].id.saddr,
					     k->udp.e[0].id.sport, b, sizeof(b)), "127.0.0.1:9000");
	assert_int_equal(k->udp.e[1].id.sport, 9001);
	assert_string_equal(np_sock_addr_str(k->udp.e[1].id.family, k->udp.e[1].id.saddr,
					     k->udp.e[1].id.sport, b, sizeof(b)), "[::1]:9001");
	free(k);
}

/* One recorded message on its own: the fields of a busy bbr sender. */
static void test_parse_one_recorded(void **state)
{
	size_t len;
	unsigned char *b = load("sockdiag_tcp6.bin", &len);
	bool found = false;

	(void)state;
	for (const struct nlmsghdr *h = (const void *)b; mnl_nlmsg_ok(h, (int)(b + len -
	     (unsigned char *)h)) && h->nlmsg_type == SOCK_DIAG_BY_FAMILY;
	     h = (const void *)((const char *)h + NLMSG_ALIGN(h->nlmsg_len))) {
		struct np_sock_rec r;

		assert_int_equal(np_sock_diag_parse(h, IPPROTO_TCP, &r), 0);
		if (r.dport != 8091)
			continue;
		found = true;
		assert_int_equal(r.family, AF_INET6);
		assert_true(r.has_info && r.has_mem && r.has_bbr);
		assert_true(r.info_len >= 232);	/* a 6.18 kernel sends at least 5.4's size */
		assert_string_equal(r.cc, "bbr");
		assert_int_equal(r.mem[NP_SKMEM_SNDBUF], 4194304);
		assert_true(r.bytes_sent >= r.bytes_acked && r.bytes_acked > 1000000);
		assert_true(r.busy_time > 0 && r.rwnd_limited <= r.busy_time);
		assert_true(r.bbr_bw > 0);
		assert_true(r.min_rtt > 0 && r.min_rtt != UINT32_MAX);
	}
	assert_true(found);
	free(b);
}

/* ---- hand-built replies ---- */

#define SEQ 4242

static struct nlmsghdr *put_sock(char *buf, uint8_t family, uint8_t state, uint16_t sport,
				 const char *src, const char *dst)
{
	struct nlmsghdr *h = mnl_nlmsg_put_header(buf);
	struct inet_diag_msg *m;

	h->nlmsg_type = SOCK_DIAG_BY_FAMILY;
	h->nlmsg_flags = NLM_F_MULTI;
	h->nlmsg_seq = SEQ;
	m = mnl_nlmsg_put_extra_header(h, sizeof(*m));
	m->idiag_family = family;
	m->idiag_state = state;
	m->id.idiag_sport = htons(sport);
	m->id.idiag_dport = htons(443);
	inet_pton(family, src, m->id.idiag_src);
	inet_pton(family, dst, m->id.idiag_dst);
	m->idiag_inode = 1000 + sport;
	return h;
}

/* A tcp_info payload of len bytes: the known fields set, anything past 248 bytes garbage. */
static void put_info(struct nlmsghdr *h, size_t len, uint32_t rtt_us, uint32_t min_rtt_us)
{
	unsigned char raw[512];
	struct np_tcp_info t;

	memset(&t, 0, sizeof(t));
	t.state = 1;
	t.rtt = rtt_us;
	t.total_retrans = 300;
	t.segs_out = 10000;	/* lost on a 104-byte struct: added in 4.2 */
	t.min_rtt = min_rtt_us;
	t.busy_time = 5000000;
	t.rwnd_limited = 1000000;
	t.rcv_wnd = 65536;
	memset(raw, 0xa5, sizeof(raw));
	memcpy(raw, &t, sizeof(t) < len ? sizeof(t) : len);
	mnl_attr_put(h, INET_DIAG_INFO, len, raw);
}

static int feed_buf(struct np_sockets *k, const void *buf, size_t len,
		    struct np_sock_diag_stream *st)
{
	*st = (struct np_sock_diag_stream){ .socks = k, .lim = &lim, .fold = np_socket_fold, .protocol = IPPROTO_TCP,
					    .seq = SEQ };
	return np_sock_diag_feed(st, buf, len);
}

static void test_tcp_info_sizes(void **state)
{
	char buf[2048];
	struct np_sock_rec r;
	struct nlmsghdr *h;

	(void)state;
	/* 2.6-4.1: 104 bytes, up to total_retrans. Later fields must read 0, not garbage. */
	h = put_sock(buf, AF_INET, 1, 5001, "192.0.2.1", "198.51.100.7");
	put_info(h, 104, 48000, 40000);
	assert_int_equal(np_sock_diag_parse(h, IPPROTO_TCP, &r), 0);
	assert_int_equal(r.info_len, 104);
	assert_int_equal(r.rtt, 48000);
	assert_int_equal(r.total_retrans, 300);
	assert_int_equal(r.segs_out, 0);
	assert_int_equal(r.min_rtt, 0);		/* absent: no sample, not "0 µs" */
	assert_int_equal(r.busy_time, 0);
	assert_int_equal(r.rcv_wnd, 0);

	/* 5.4-6.1: 232 bytes, through snd_wnd: no rcv_wnd yet. */
	h = put_sock(buf, AF_INET, 1, 5002, "192.0.2.1", "198.51.100.7");
	put_info(h, 232, 48000, 40000);
	assert_int_equal(np_sock_diag_parse(h, IPPROTO_TCP, &r), 0);
	assert_int_equal(r.min_rtt, 40000);
	assert_int_equal(r.segs_out, 10000);
	assert_int_equal(r.rwnd_limited, 1000000);
	assert_int_equal(r.rcv_wnd, 0);

	/* A future kernel: 320 bytes, the tail is fields we do not know and must ignore. */
	h = put_sock(buf, AF_INET6, 1, 5003, "2001:db8::1", "2001:db8::2");
	put_info(h, 320, 48000, 40000);
	assert_int_equal(np_sock_diag_parse(h, IPPROTO_TCP, &r), 0);
	assert_int_equal(r.info_len, 320);
	assert_int_equal(r.rcv_wnd, 65536);
	assert_int_equal(r.min_rtt, 40000);
	assert_int_equal(r.family, AF_INET6);
	assert_int_equal(r.sport, 5003);
	assert_int_equal(r.dport, 443);
	assert_int_equal(r.inode, 6003);
}

static void test_skmeminfo_and_cong(void **state)
{
	char buf[1024];
	uint32_t mem6[6] = { 100, 200, 300, 400, 500, 600 };
	uint32_t mem12[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 77, 10, 11, 12 };
	struct np_sock_rec r;
	struct nlmsghdr *h;

	(void)state;
	/* An old kernel's shorter SK_MEMINFO array: no DROPS. */
	h = put_sock(buf, AF_INET, 7, 53, "192.0.2.1", "0.0.0.0");
	mnl_attr_put(h, INET_DIAG_SKMEMINFO, sizeof(mem6), mem6);
	assert_int_equal(np_sock_diag_parse(h, IPPROTO_UDP, &r), 0);
	assert_true(r.has_mem);
	assert_int_equal(r.nmem, 6);
	assert_int_equal(r.mem[NP_SKMEM_RCVBUF], 200);
	assert_int_equal(r.mem[NP_SKMEM_DROPS], 0);
	/* A longer future one: the first nine are ours. */
	h = put_sock(buf, AF_INET, 7, 53, "192.0.2.1", "0.0.0.0");
	mnl_attr_put(h, INET_DIAG_SKMEMINFO, sizeof(mem12), mem12);
	mnl_attr_put_strz(h, INET_DIAG_CONG, "cubic");
	assert_int_equal(np_sock_diag_parse(h, IPPROTO_TCP, &r), 0);
	assert_int_equal(r.nmem, NP_SKMEM__COUNT);
	assert_int_equal(r.mem[NP_SKMEM_DROPS], 77);
	assert_string_equal(r.cc, "cubic");
	assert_false(r.has_info);
}

static void test_stream_edges(void **state)
{
	char buf[4096];
	struct np_sockets *k = new_socks();
	struct np_sock_diag_stream st;
	struct nlmsghdr *h, *e;
	struct nlmsgerr *err;
	size_t off;

	(void)state;
	/* A stale reply of an earlier request (other seq) is skipped, then DONE ends the dump. */
	h = put_sock(buf, AF_INET, 1, 7001, "192.0.2.1", "198.51.100.7");
	h->nlmsg_seq = SEQ - 1;
	off = NLMSG_ALIGN(h->nlmsg_len);
	h = put_sock(buf + off, AF_INET, 10, 7002, "192.0.2.1", "0.0.0.0");
	off += NLMSG_ALIGN(h->nlmsg_len);
	h = mnl_nlmsg_put_header(buf + off);
	h->nlmsg_type = NLMSG_DONE;
	h->nlmsg_seq = SEQ;
	*(int *)mnl_nlmsg_put_extra_header(h, sizeof(int)) = 0;
	off += NLMSG_ALIGN(h->nlmsg_len);
	assert_int_equal(feed_buf(k, buf, off, &st), 0);
	assert_int_equal(st.n, 1);
	assert_int_equal(k->tcp_total, 1);
	assert_int_equal(k->listeners, 1);

	/* Without DONE the dump is not over. */
	assert_int_equal(feed_buf(k, buf, off - NLMSG_ALIGN(h->nlmsg_len), &st), 1);

	/* Cut mid-message: -EBADMSG, not a read past the end. */
	assert_int_equal(feed_buf(k, buf, NLMSG_ALIGN(((struct nlmsghdr *)buf)->nlmsg_len) + 20,
				  &st), -EBADMSG);

	/* An attribute claiming more than the message holds: counted as bad, socket kept. */
	h = put_sock(buf, AF_INET, 1, 7003, "192.0.2.1", "198.51.100.7");
	mnl_attr_put_strz(h, INET_DIAG_CONG, "cubic");
	((struct nlattr *)((char *)h + NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(struct inet_diag_msg))))
		->nla_len = 200;
	np_sockets_init(k);
	assert_int_equal(feed_buf(k, buf, NLMSG_ALIGN(h->nlmsg_len), &st), 1);
	assert_int_equal(st.bad, 1);
	assert_int_equal(k->tcp_total, 1);

	/* A header too short for inet_diag_msg: bad, and no socket. */
	h = mnl_nlmsg_put_header(buf);
	h->nlmsg_type = SOCK_DIAG_BY_FAMILY;
	h->nlmsg_seq = SEQ;
	mnl_nlmsg_put_extra_header(h, 8);
	np_sockets_init(k);
	assert_int_equal(feed_buf(k, buf, h->nlmsg_len, &st), 1);
	assert_int_equal(st.bad, 1);
	assert_int_equal(k->tcp_total, 0);

	/* NLMSG_ERROR with an extended ACK: the error and the kernel's words. */
	e = mnl_nlmsg_put_header(buf);
	e->nlmsg_type = NLMSG_ERROR;
	e->nlmsg_flags = NLM_F_CAPPED | NLM_F_ACK_TLVS;
	e->nlmsg_seq = SEQ;
	err = mnl_nlmsg_put_extra_header(e, sizeof(*err));
	err->error = -EINVAL;
	err->msg.nlmsg_len = NLMSG_HDRLEN;
	mnl_attr_put_strz(e, NLMSGERR_ATTR_MSG, "Unknown family");
	assert_int_equal(feed_buf(k, buf, e->nlmsg_len, &st), -EINVAL);
	assert_string_equal(st.errmsg, "Unknown family");
	free(k);
}

/* The one-walk TCP dump (TCPDIAG_GETSOCK) answers with messages of its own type: a stream
 * that asked for it folds them like SOCK_DIAG_BY_FAMILY replies, and a stream that did not
 * refuses them. The recorded IPv4 dump stands in, its replies retyped. */
static void test_tcpdiag_getsock_replies(void **state)
{
	size_t len, off;
	unsigned char *b = load("sockdiag_tcp4.bin", &len);
	uint32_t seq = ((const struct nlmsghdr *)b)->nlmsg_seq;
	struct np_sockets *k = new_socks(), *other = new_socks();
	struct np_sock_diag_stream st = { .socks = k, .lim = &lim, .fold = np_socket_fold, .protocol = IPPROTO_TCP,
					  .msg_type = TCPDIAG_GETSOCK, .seq = seq };
	struct np_sock_diag_stream plain = { .socks = other, .lim = &lim, .fold = np_socket_fold,
					     .protocol = IPPROTO_TCP, .seq = seq };
	unsigned retyped = 0;

	(void)state;
	for (off = 0; off + NLMSG_HDRLEN <= len;) {
		struct nlmsghdr *nlh = (struct nlmsghdr *)(b + off);

		if (nlh->nlmsg_type == SOCK_DIAG_BY_FAMILY) {
			nlh->nlmsg_type = TCPDIAG_GETSOCK;
			retyped++;
		}
		off += NLMSG_ALIGN(nlh->nlmsg_len);
	}
	assert_int_equal(retyped, 29);
	assert_int_equal(np_sock_diag_feed(&st, b, len), 0);
	assert_int_equal(st.bad, 0);
	np_sockets_finish(k);
	assert_int_equal(k->tcp_total, 29);
	assert_int_equal(k->tcp_state[1], 12);
	assert_int_equal(k->listen_full, 1);

	assert_int_equal(np_sock_diag_feed(&plain, b, len), 0);
	assert_int_equal(plain.bad, 29);
	np_sockets_finish(other);
	assert_int_equal(other->tcp_total, 0);
	free(k);
	free(other);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tcp4_recorded),
		cmocka_unit_test(test_tcpdiag_getsock_replies),
		cmocka_unit_test(test_tcp6_recorded),
		cmocka_unit_test(test_udp_recorded),
		cmocka_unit_test(test_parse_one_recorded),
		cmocka_unit_test(test_tcp_info_sizes),
		cmocka_unit_test(test_skmeminfo_and_cong),
		cmocka_unit_test(test_stream_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
