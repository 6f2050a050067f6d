// SPDX-License-Identifier: GPL-2.0-only
/*
 * watch's two kinds of socket walk (sockets.h): the exact requests sock_diag gets for each, and
 * the frames between full walks, whose sockets section (listeners and UDP read now, established
 * flows carried from the last full walk) must equal a full walk's when nothing changed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "fixture_load.h"
#include "tree_put.h"
#include "collect.h"
#include "ctx.h"

#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>

#include "collect.h"
#include "sock_diag.h"
#include "socket_fold.h"

/* ---- the requests, byte for byte ---- */

#define REQ_BUF 256

static struct nlmsghdr *request(char *buf, uint8_t family, uint8_t protocol,
				enum np_sock_walk walk)
{
	struct nlmsghdr *nlh;

	memset(buf, 0xa5, REQ_BUF);	/* every byte the request sets is written */
	nlh = mnl_nlmsg_put_header(buf);
	np_sock_diag_put_request(nlh, family, protocol, walk);
	return nlh;
}

#define EXT(x) (1u << (INET_DIAG_##x - 1))

/* TCP of both families in one walk of the hash tables (TCPDIAG_GETSOCK): a full walk asks for
 * every state and tcp_info, congestion control, its private info and socket memory; a
 * listeners walk for the LISTEN state (inet_diag then skips the established hash) and socket
 * memory only. The rest of the legacy request is zero: no port, address or cookie filter. */
static void test_request_tcp_legacy(void **state)
{
	static char buf[REQ_BUF];
	struct inet_diag_req want = { .idiag_family = AF_UNSPEC };
	struct nlmsghdr *nlh;

	(void)state;
	nlh = request(buf, AF_UNSPEC, IPPROTO_TCP, NP_SOCK_WALK_FULL);
	assert_int_equal(nlh->nlmsg_type, TCPDIAG_GETSOCK);
	assert_int_equal(nlh->nlmsg_len, NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(want)));
	want.idiag_states = ~0u;
	want.idiag_ext = EXT(INFO) | EXT(CONG) | EXT(SKMEMINFO) | EXT(VEGASINFO);
	assert_int_equal(want.idiag_ext, 0x4e);	/* bits 1, 2, 3, 6 */
	assert_memory_equal(mnl_nlmsg_get_payload(nlh), &want, sizeof(want));

	nlh = request(buf, AF_UNSPEC, IPPROTO_TCP, NP_SOCK_WALK_LISTEN);
	assert_int_equal(nlh->nlmsg_type, TCPDIAG_GETSOCK);
	assert_int_equal(nlh->nlmsg_len, NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(want)));
	want.idiag_states = 1u << TCP_LISTEN;
	want.idiag_ext = EXT(SKMEMINFO);
	assert_int_equal(want.idiag_states, 0x400);
	assert_int_equal(want.idiag_ext, 0x40);
	assert_memory_equal(mnl_nlmsg_get_payload(nlh), &want, sizeof(want));
}

/* Per family (kernels without the legacy request): the same states and extensions. UDP has no
 * listeners walk: every socket, socket memory only, whichever walk. */
static void test_request_by_family(void **state)
{
	static char buf[REQ_BUF];
	struct inet_diag_req_v2 want;
	struct nlmsghdr *nlh;

	(void)state;
	memset(&want, 0, sizeof(want));
	want.sdiag_family = AF_INET6;
	want.sdiag_protocol = IPPROTO_TCP;
	want.idiag_states = 1u << TCP_LISTEN;
	want.idiag_ext = EXT(SKMEMINFO);
	nlh = request(buf, AF_INET6, IPPROTO_TCP, NP_SOCK_WALK_LISTEN);
	assert_int_equal(nlh->nlmsg_type, SOCK_DIAG_BY_FAMILY);
	assert_int_equal(nlh->nlmsg_len, NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(want)));
	assert_memory_equal(mnl_nlmsg_get_payload(nlh), &want, sizeof(want));

	want.idiag_states = ~0u;
	want.idiag_ext = EXT(INFO) | EXT(CONG) | EXT(SKMEMINFO) | EXT(VEGASINFO);
	nlh = request(buf, AF_INET6, IPPROTO_TCP, NP_SOCK_WALK_FULL);
	assert_memory_equal(mnl_nlmsg_get_payload(nlh), &want, sizeof(want));

	for (int walk = NP_SOCK_WALK_FULL; walk <= NP_SOCK_WALK_LISTEN; walk++) {
		want.sdiag_family = AF_INET;
		want.sdiag_protocol = IPPROTO_UDP;
		want.idiag_states = ~0u;
		want.idiag_ext = EXT(SKMEMINFO);
		nlh = request(buf, AF_INET, IPPROTO_UDP, (enum np_sock_walk)walk);
		assert_int_equal(nlh->nlmsg_type, SOCK_DIAG_BY_FAMILY);
		assert_memory_equal(mnl_nlmsg_get_payload(nlh), &want, sizeof(want));
	}
}

/* ---- the frames between full walks ---- */

static const struct np_sock_limits lim = {
	{ 4096, 131072, 33554432 }, { 4096, 16384, 4194304 }, 4194304, 4194304, 1,
};

/* What the kernel answers to a listeners walk: the dump's LISTEN sockets only. */
static void fold_listeners(struct np_sockets *k, const struct np_sock_rec *r,
			   const struct np_sock_limits *l)
{
	if (r->state == TCP_LISTEN)
		np_socket_fold(k, r, l);
}

static void feed(struct np_sockets *k, const char *name, uint8_t proto, np_sock_fold_fn *fold)
{
	size_t len;
	unsigned char *b = fixture_load("netlink", name, &len);
	struct np_sock_diag_stream st = { .socks = k, .lim = &lim, .fold = fold, .protocol = proto,
					  .seq = ((const struct nlmsghdr *)b)->nlmsg_seq };

	assert_int_equal(np_sock_diag_feed(&st, b, len), 0);
	free(b);
}

static void walk(struct np_sockets *k, enum np_sock_walk w, double t)
{
	np_sock_fold_fn *tcp = w == NP_SOCK_WALK_FULL ? np_socket_fold : fold_listeners;

	np_sockets_init(k);
	k->walk = w;
	if (w == NP_SOCK_WALK_FULL)
		k->flows_t = t;
	feed(k, "sockdiag_tcp4.bin", IPPROTO_TCP, tcp);
	feed(k, "sockdiag_tcp6.bin", IPPROTO_TCP, tcp);
	feed(k, "sockdiag_udp4.bin", IPPROTO_UDP, np_socket_fold);
	np_sockets_finish(k);
}

/* The recorded namespace (2 IPv4 listeners, 12 established, 15 SYN-SENT; IPv6 sockets; UDP)
 * walked fully, then by listeners with the flows carried: the same section, field for field,
 * but for where it says the flows come from. */
static void test_carry_equals_full_walk(void **state)
{
	struct np_sockets *full = malloc(sizeof(*full)), *lis = malloc(sizeof(*lis));

	(void)state;
	assert_non_null(full);
	assert_non_null(lis);
	walk(full, NP_SOCK_WALK_FULL, 100);
	walk(lis, NP_SOCK_WALK_LISTEN, 0);
	/* Before the carry the listeners walk knows listeners and UDP only. */
	assert_int_equal(lis->tcp_total, lis->listeners);
	assert_int_equal(lis->tcp_state[TCP_ESTABLISHED], 0);
	assert_int_equal(lis->listeners, full->listeners);
	assert_int_equal(lis->udp_total, full->udp_total);
	assert_true(full->tcp_state[TCP_ESTABLISHED] > 0);
	assert_true(full->tcp_v6 > 0 && full->tcp_v4 > 0);

	np_sockets_carry_flows(lis, full);
	assert_true(lis->flows_carried);
	assert_true(lis->flows_t == 100);
	assert_int_equal(lis->walk, NP_SOCK_WALK_LISTEN);
	lis->walk = NP_SOCK_WALK_FULL;
	lis->flows_carried = false;
	assert_memory_equal(lis, full, sizeof(*full));

	/* A full walk carries nothing, nor does a listeners walk from another listeners walk. */
	walk(lis, NP_SOCK_WALK_LISTEN, 0);
	full->walk = NP_SOCK_WALK_LISTEN;
	np_sockets_carry_flows(lis, full);
	assert_false(lis->flows_carried);
	assert_int_equal(lis->tcp_state[TCP_ESTABLISHED], 0);
	assert_true(isnan(lis->flows_t));
	free(full);
	free(lis);
}

/* sockstat's and sockstat6's TCP lines (the namespace's hashed TCP sockets). */
static void test_tcp_inuse(void **state)
{
	static const char v4[] = "sockets: used 290\n"
				 "TCP: inuse 7 orphan 0 tw 3 alloc 12 mem 1\n"
				 "UDP: inuse 2 mem 0\n";
	static const char v6[] = "TCP6: inuse 2\nUDP6: inuse 1\nUDPLITE6: inuse 0\n";
	uint64_t v = 99;

	(void)state;
	assert_int_equal(np_parse_tcp_inuse(v4, "TCP:", &v), 0);
	assert_int_equal(v, 7);
	assert_int_equal(np_parse_tcp_inuse(v6, "TCP6:", &v), 0);
	assert_int_equal(v, 2);
	/* TCP6 is not TCP, nor UDP6's line UDP's. */
	assert_int_equal(np_parse_tcp_inuse(v6, "TCP:", &v), -ENOENT);
	assert_int_equal(np_parse_tcp_inuse("UDP: inuse 4\n", "TCP:", &v), -ENOENT);
	assert_int_equal(np_parse_tcp_inuse("TCP: inuse x\n", "TCP:", &v), -EBADMSG);
	assert_int_equal(np_parse_tcp_inuse("TCP: inuse 5x\n", "TCP:", &v), -EBADMSG);
	assert_int_equal(np_parse_tcp_inuse("TCP: inuse 5", "TCP:", &v), 0);
	assert_int_equal(v, 5);
	assert_int_equal(np_parse_tcp_inuse("", "TCP:", &v), -ENOENT);
}

/* A namespace's hashed TCP sockets and TIME_WAIT count from a tree's sockstat files: both
 * families summed, tw from sockstat; no sockstat6 (IPv6 off) counts none; a sockstat without
 * tw is no answer (doctor then dumps). */
static void test_collect_tcp_inuse(void **state)
{
	char root[] = "/tmp/np-test-inuse.XXXXXX", cmd[64];
	uint64_t inuse = 99, tw = 99;
	struct np_ctx ctx;

	(void)state;
	assert_non_null(mkdtemp(root));
	tree_put(root, "proc/net/sockstat", "sockets: used 3\nTCP: inuse 0 orphan 0 tw 2 alloc 9 mem 1\n");
	tree_put(root, "proc/net/sockstat6", "TCP6: inuse 1\nUDP6: inuse 0\n");
	assert_int_equal(np_ctx_open(&ctx, root), 0);
	assert_int_equal(np_collect_tcp_inuse(&ctx, &inuse, &tw), 0);
	assert_int_equal(inuse, 1);
	assert_int_equal(tw, 2);
	np_ctx_close(&ctx);

	tree_put(root, "proc/net/sockstat", "TCP: inuse 4 orphan 0 tw 0 alloc 9 mem 1\n");
	snprintf(cmd, sizeof(cmd), "%s/proc/net/sockstat6", root);
	assert_int_equal(unlink(cmd), 0);
	assert_int_equal(np_ctx_open(&ctx, root), 0);
	assert_int_equal(np_collect_tcp_inuse(&ctx, &inuse, &tw), 0);
	assert_int_equal(inuse, 4);
	assert_int_equal(tw, 0);
	np_ctx_close(&ctx);

	tree_put(root, "proc/net/sockstat", "TCP: inuse 0 orphan 0 alloc 9 mem 1\n");
	assert_int_equal(np_ctx_open(&ctx, root), 0);
	assert_int_equal(np_collect_tcp_inuse(&ctx, &inuse, &tw), -EBADMSG);
	assert_int_equal(np_collect_tcp_inuse(&ctx, &inuse, NULL), 0);
	assert_int_equal(inuse, 0);
	np_ctx_close(&ctx);

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_request_tcp_legacy),
		cmocka_unit_test(test_request_by_family),
		cmocka_unit_test(test_carry_equals_full_walk),
		cmocka_unit_test(test_tcp_inuse),
		cmocka_unit_test(test_collect_tcp_inuse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
