// SPDX-License-Identifier: GPL-2.0-only
/* inet_diag sockets folded: bounded top lists, the RTT distribution, buffer classes, and the
 * renderers (summary always, top lists only with top_n, null when unavailable). */
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

/* ---- aggregation: bounded lists and the RTT distribution ---- */

static void rec_est(struct np_sock_rec *r, uint16_t port, uint32_t min_rtt_us)
{
	memset(r, 0, sizeof(*r));
	r->family = AF_INET;
	r->protocol = IPPROTO_TCP;
	r->state = 1;
	r->sport = port;
	r->dport = 443;
	r->saddr[0] = 192, r->saddr[3] = 1;
	r->daddr[0] = 198, r->daddr[1] = 51, r->daddr[2] = 100, r->daddr[3] = 7;
	r->has_info = true;
	r->rtt = min_rtt_us + 1000;
	r->min_rtt = min_rtt_us;
	snprintf(r->cc, sizeof(r->cc), "cubic");
}

static void test_rtt_distribution(void **state)
{
	struct np_sockets *k = new_socks();
	struct np_sock_rec r;

	(void)state;
	/* 100 paths with min RTT 1..100 ms, plus 50 loopback flows that must not count. */
	for (unsigned i = 1; i <= 100; i++) {
		rec_est(&r, (uint16_t)(10000 + i), i * 1000);
		np_socket_fold(k, &r, &lim);
	}
	for (unsigned i = 0; i < 50; i++) {
		rec_est(&r, (uint16_t)(20000 + i), 20);
		r.saddr[0] = r.daddr[0] = 127;
		np_socket_fold(k, &r, &lim);
	}
	/* A socket without a sample yet (~0U) is not an RTT either. */
	rec_est(&r, 30000, UINT32_MAX);
	r.rtt = 0;
	np_socket_fold(k, &r, &lim);
	np_sockets_finish(k);
	assert_int_equal(k->min_rtt_n, 100);
	assert_int_equal(k->tcp_state[1], 151);
	/* Buckets are 19% wide: the estimates are within that of the truth. */
	assert_true(fabs(k->min_rtt_p50_ms - 50) < 50 * 0.2);
	assert_true(fabs(k->min_rtt_p90_ms - 90) < 90 * 0.2);
	assert_true(fabs(k->min_rtt_p99_ms - 99) < 99 * 0.2);
	assert_true(k->rtt_p90_ms > k->min_rtt_p90_ms);
	assert_non_null(strstr(k->rtt_source, "100 TCP sockets"));
	assert_true(np_sockets_rtt_bucket(0) == 0);
	assert_true(np_sockets_rtt_bucket(UINT32_MAX) == NP_SOCK_RTT_BUCKETS - 1);
	free(k);
}

static void test_top_lists_bounded(void **state)
{
	struct np_sockets *k = new_socks();
	struct np_sock_rec r;

	(void)state;
	/* 1000 UDP sockets with 1..1000 drops: 16 kept, the worst first; totals exact. */
	for (unsigned i = 1; i <= 1000; i++) {
		memset(&r, 0, sizeof(r));
		r.family = AF_INET;
		r.protocol = IPPROTO_UDP;
		r.state = 7;
		r.sport = (uint16_t)i;
		r.inode = i;
		r.has_mem = true;
		r.nmem = NP_SKMEM__COUNT;
		r.mem[NP_SKMEM_RCVBUF] = 212992;
		r.mem[NP_SKMEM_DROPS] = (i * 7919) % 1000 + 1;	/* shuffled */
		np_socket_fold(k, &r, &lim);
	}
	assert_int_equal(k->udp.n, NP_SOCK_TOP);
	assert_int_equal(k->udp.total, 1000);
	assert_int_equal(k->udp_total, 1000);
	assert_int_equal(k->udp.e[0].drops, 1000);
	for (unsigned i = 1; i < NP_SOCK_TOP; i++)
		assert_int_equal(k->udp.e[i].drops, 1000 - i);
	assert_int_equal(k->udp.e[0].id.pid, -1);

	/* Long-RTT lossy flows: 40 ms with 3% retransmitted is kept, a LAN flow is not. */
	rec_est(&r, 443, 40000);
	r.segs_out = 10000;
	r.total_retrans = 300;
	np_socket_fold(k, &r, &lim);
	rec_est(&r, 444, 300);
	r.segs_out = 10000;
	r.total_retrans = 300;
	np_socket_fold(k, &r, &lim);
	assert_int_equal(k->lossy.n, 1);
	assert_int_equal(k->lossy.e[0].id.sport, 443);
	assert_string_equal(k->lossy.e[0].cc, "cubic");
	assert_int_equal(k->cc[0].long_rtt, 1);
	free(k);
}

/* A receiver at tcp_rmem[2] taking a full window per RTT: the ceiling list, not pinned. */
static void test_buffer_classes(void **state)
{
	struct np_sockets *k = new_socks();
	struct np_sock_rec r;

	(void)state;
	rec_est(&r, 5201, 30000);
	r.has_mem = true;
	r.nmem = NP_SKMEM__COUNT;
	r.mem[NP_SKMEM_RCVBUF] = 33554432;
	r.mem[NP_SKMEM_SNDBUF] = 87040;
	r.rcv_space = 16 << 20;
	r.bytes_received = 1ull << 32;
	np_socket_fold(k, &r, &lim);
	assert_int_equal(k->ceiling.n, 1);
	assert_true(k->ceiling.e[0].flags & NP_SOCKF_RCVBUF_MAX);
	assert_int_equal(k->pinned.n, 0);
	/* The same flow with SO_RCVBUF capped at 2 × rmem_max (8 MiB) is pinned. */
	r.mem[NP_SKMEM_RCVBUF] = 8388608;
	r.rcv_space = 4 << 20;
	np_socket_fold(k, &r, &lim);
	assert_int_equal(k->pinned.n, 1);
	/* With autotuning off globally nothing is "pinned" by an application. */
	{
		struct np_sock_limits off = lim;

		off.moderate_rcvbuf = 0;
		np_socket_fold(k, &r, &off);
		assert_int_equal(k->pinned.n, 1);
	}
	/* A slow reader (rcv_space small) is application-limited, not window-limited. */
	r.rcv_space = 64 << 10;
	np_socket_fold(k, &r, &lim);
	assert_int_equal(k->pinned.n, 1);
	assert_int_equal(k->rcv_limited, 3);
	free(k);
}

/* ---- the renderers: summary always, top lists only with top_n, null when unavailable ---- */

static char *render(const struct np_snapshot *s, int top_n, bool json)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	struct np_json j;

	assert_non_null(f);
	if (json) {
		np_json_init(&j, f, false);
		np_render_sockets_json(&j, s, top_n);
		np_json_end(&j);
	} else {
		np_render_sockets_text(f, s, top_n);
	}
	fclose(f);
	return out;
}

static unsigned count_of(const char *hay, const char *needle)
{
	unsigned n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static void test_render(void **state)
{
	struct np_snapshot *s = malloc(sizeof(*s));
	char *o;

	(void)state;
	assert_non_null(s);
	np_snapshot_init(s);
	feed_file("sockdiag_tcp4.bin", IPPROTO_TCP, &s->socks);
	feed_file("sockdiag_udp4.bin", IPPROTO_UDP, &s->socks);
	np_src_set(s, NP_SRC_SOCK_DIAG, 0, NULL);

	o = render(s, 0, true);
	assert_non_null(strstr(o, "\"established\":12"));
	assert_non_null(strstr(o, "\"drops\":1994"));
	assert_null(strstr(o, "\"top\""));		/* the default is a summary */
	free(o);
	/* top 1: one listener, one UDP socket, one pinned flow. */
	o = render(s, 1, true);
	assert_int_equal(count_of(o, "\"inode\""), 3);
	assert_non_null(strstr(o, "\"local\":\"127.0.0.1:8080\",\"remote\":null,\"port\":8080"));
	assert_non_null(strstr(o, "\"limits\":[\"receive-window\",\"rcvbuf-pinned\"]"));
	free(o);
	o = render(s, 1, false);
	assert_non_null(strstr(o, "127.0.0.1:8080  accept queue 5/4  drops 30"));
	assert_non_null(strstr(o, "127.0.0.1:9000  drops 1,994"));
	assert_non_null(strstr(o, "UDP 2 (1 dropping, 1,994 drops)"));
	free(o);

	np_src_set(s, NP_SRC_SOCK_DIAG, -EACCES, NULL);
	o = render(s, 5, true);
	assert_string_equal(o, "null\n");
	free(o);
	o = render(s, 5, false);
	assert_string_equal(o, "");
	free(o);
	np_snapshot_free(s);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rtt_distribution),
		cmocka_unit_test(test_top_lists_bounded),
		cmocka_unit_test(test_buffer_classes),
		cmocka_unit_test(test_render),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
