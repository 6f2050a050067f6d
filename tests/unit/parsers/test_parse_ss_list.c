// SPDX-License-Identifier: GPL-2.0-only
/*
 * np_parse_ss_list: iproute2 `ss` socket lists, on real outputs published elsewhere (sources in
 * tests/fixtures/parsers/README.ss.md):
 *   ss_temoi_netdev_rmnet_wrapped.txt  netdev list, 2024-05-16, "Re: Potential impact of commit
 *                                      dfa2f0483360": ss -temoi, wrapped at 72 columns by the
 *                                      mailer, info lines not indented
 *   ss_tmi_tcpmon_unindented.txt       zperf/tcpmon's parser test: ss -tmi with its info lines
 *                                      unindented, bps rates without unit prefixes
 *   ss_tmp_tcpmon_envoy_old.txt        zperf/tcpmon test/parsing/ss.txt (first 90 sockets):
 *                                      an older ss on a real host, skmem without d, "*:*"
 * and every other layout of misc/ss.c's history in one hand-made file (labelled synthetic):
 * Netid column with unix/netlink sockets, "%lo" scopes, old IPv6 without brackets, mem:(),
 * service names, %g exponents, bbr:(), rwnd/sndbuf_limited, UDP drops.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <time.h>

#include "fixture.h"
#include "parse_ss.h"
#include "socket_fold.h"

#define MAXR 32

struct got {
	unsigned n;
	uint64_t calls;
	struct np_sock_rec r[MAXR];
};

static void keep(const struct np_sock_rec *r, void *arg)
{
	struct got *g = arg;

	if (g->n < MAXR)
		g->r[g->n++] = *r;
	g->calls++;
}

static int parse_file(const char *name, uint8_t proto, struct got *g,
		      struct np_ss_list_stats *st)
{
	size_t len;
	char *buf = load_fixture(name, &len), *p;
	int err;

	assert_non_null(buf);
	p = exact_copy(buf, len);
	free(buf);
	memset(g, 0, sizeof(*g));
	err = np_parse_ss_list(p, len, proto, 0, keep, g, st);
	free(p);
	return err;
}

/* The mail-wrapped ss -temoi: four snapshots of two flows, every field found across breaks. */
static void test_netdev_wrapped(void **state)
{
	struct np_ss_list_stats st;
	struct got g;

	(void)state;
	assert_int_equal(parse_file("ss_temoi_netdev_rmnet_wrapped.txt", 0, &g, &st), 0);
	assert_int_equal(g.n, 4);
	assert_int_equal(st.tcp, 4);
	assert_int_equal(st.udp, 0);
	assert_int_equal(st.no_mem, 0);
	assert_int_equal(st.bad, 0);
	assert_int_equal(g.r[0].protocol, IPPROTO_TCP);
	assert_int_equal(g.r[0].state, TCP_ESTABLISHED);
	assert_int_equal(g.r[0].family, AF_INET);
	assert_int_equal(g.r[0].sport, 42278);
	assert_int_equal(g.r[0].dport, 5215);
	assert_int_equal(g.r[0].inode, 129232);
	assert_true(g.r[0].has_mem && g.r[0].has_info);
	assert_int_equal(g.r[0].nmem, 9);
	assert_int_equal(g.r[0].mem[NP_SKMEM_RCVBUF], 8388608);
	assert_int_equal(g.r[0].mem[NP_SKMEM_DROPS], 1);
	assert_string_equal(g.r[0].cc, "cubic");
	assert_int_equal(g.r[0].rtt, 34249);
	assert_int_equal(g.r[0].rttvar, 16545);
	assert_int_equal(g.r[0].min_rtt, 23340);
	assert_int_equal(g.r[0].rcv_rtt, 26542);
	assert_int_equal(g.r[0].snd_mss, 1320);
	assert_int_equal(g.r[0].snd_cwnd, 10);
	assert_int_equal(g.r[0].bytes_received, 211495680);
	assert_int_equal(g.r[0].bytes_acked, 38);
	assert_int_equal(g.r[0].segs_out, 46198);
	assert_int_equal(g.r[0].rcv_space, 3058440);
	assert_int_equal(g.r[0].busy_time, 24000);
	assert_int_equal(g.r[0].delivery_rate, 452400 / 8);
	assert_int_equal(g.r[0].pacing_rate, 6200000 / 8);
	assert_int_equal(g.r[0].last_data_recv, 0);	/* not printed: ss leaves out 0 */
	assert_int_equal(g.r[1].last_data_recv, 3948);
	/* The snapshot near the end: the receive queue holds 4.3 MB of the 8 MiB buffer. */
	assert_int_equal(g.r[2].rqueue, 4324072);
	assert_int_equal(g.r[2].mem[NP_SKMEM_RMEM_ALLOC], 4511016);
	assert_int_equal(g.r[2].rcv_space, 3871560);
	assert_int_equal(g.r[3].wqueue, 294);
	assert_int_equal(g.r[3].busy_time, 228000);
}

static void test_tcpmon_unindented(void **state)
{
	struct np_ss_list_stats st;
	struct got g;

	(void)state;
	assert_int_equal(parse_file("ss_tmi_tcpmon_unindented.txt", IPPROTO_TCP, &g, &st), 0);
	assert_int_equal(g.n, 4);
	assert_int_equal(g.r[0].state, TCP_LISTEN);
	assert_int_equal(g.r[0].rqueue, 0);
	assert_int_equal(g.r[0].wqueue, 4096);
	assert_int_equal(g.r[0].sport, 53000);
	assert_int_equal(g.r[2].mem[NP_SKMEM_DROPS], 276);
	assert_int_equal(g.r[2].rtt, 4413);
	assert_int_equal(g.r[2].min_rtt, 10);
	assert_int_equal(g.r[2].snd_wnd, 65536);
	assert_int_equal(g.r[2].delivery_rate, 23831272720ull / 8);
	assert_int_equal(g.r[2].last_data_recv, 12721397);
	assert_int_equal(g.r[3].bytes_sent, 312);
	assert_int_equal(st.bad, 0);
}

/* An older ss on a real host (zperf/tcpmon test/parsing/ss.txt, its first 90 sockets): "*:*"
 * wildcards, users:(()) on the socket line, skmem without d. The drops are unknown (nmem 8,
 * counted), never a 0 the kernel sent. */
static void test_envoy_old(void **state)
{
	struct np_ss_list_stats st;
	struct got g;

	(void)state;
	assert_int_equal(parse_file("ss_tmp_tcpmon_envoy_old.txt", IPPROTO_TCP, &g, &st), 0);
	assert_int_equal(st.tcp, 90);
	assert_int_equal(st.no_drops, 90);
	assert_int_equal(st.no_mem, 0);
	assert_int_equal(st.bad, 0);
	assert_int_equal(g.r[0].state, TCP_LISTEN);
	assert_int_equal(g.r[0].sport, 20803);
	assert_int_equal(g.r[0].wqueue, 128);
	assert_int_equal(g.r[0].nmem, 8);
	assert_int_equal(g.r[0].mem[NP_SKMEM_RCVBUF], 87380);
	assert_int_equal(g.r[0].mem[NP_SKMEM_SNDBUF], 65536);
	assert_string_equal(g.r[0].cc, "cubic");
	assert_int_equal(g.r[0].snd_cwnd, 10);
	assert_int_equal(g.r[0].family, AF_INET);
}

static void test_layouts(void **state)
{
	struct np_ss_list_stats st;
	struct got g;

	(void)state;
	assert_int_equal(parse_file("ss_layouts_synthetic.txt", 0, &g, &st), 0);
	assert_int_equal(st.other, 0);
	assert_int_equal(st.udp, 2);
	assert_int_equal(st.tcp, 6);
	assert_int_equal(g.n, 8);
	/* rsyslog's socket: the queue at its buffer, 1.95 M drops. */
	assert_int_equal(g.r[0].protocol, IPPROTO_UDP);
	assert_int_equal(g.r[0].state, 7);
	assert_int_equal(g.r[0].sport, 514);
	assert_int_equal(g.r[0].mem[NP_SKMEM_DROPS], 1953207);
	assert_int_equal(g.r[1].sport, 53);		/* "127.0.0.53%lo:53" */
	assert_int_equal(g.r[1].saddr[0], 127);
	assert_int_equal(g.r[2].state, TCP_LISTEN);	/* accept queue 129 over 128 */
	assert_int_equal(g.r[2].rqueue, 129);
	assert_int_equal(g.r[2].mem[NP_SKMEM_DROPS], 5231);
	assert_int_equal(g.r[3].family, AF_INET6);
	assert_int_equal(g.r[3].sport, 443);
	assert_int_equal(g.r[3].uid, 33);
	assert_string_equal(g.r[3].cc, "bbr");
	assert_true(g.r[3].has_bbr);
	assert_int_equal(g.r[3].bbr_min_rtt, 40100);
	assert_int_equal(g.r[3].rwnd_limited, 406000000ull);
	assert_int_equal(g.r[3].sndbuf_limited, 90000000ull);
	assert_int_equal(g.r[3].busy_time, 812000000ull);
	assert_int_equal(g.r[3].total_retrans, 9211);
	assert_int_equal(g.r[3].lost, 3);
	assert_int_equal(g.r[3].bytes_retrans, 41231);
	/* Old IPv6 text, the pre-2.6.34 mem:(): no buffer sizes, so no skmem. */
	assert_int_equal(g.r[4].family, AF_INET6);
	assert_int_equal(g.r[4].sport, 22);
	assert_false(g.r[4].has_mem);
	assert_true(g.r[4].has_info);
	/* Service name: port unknown (0); a %g exponent: 1.5e+06 ms. */
	assert_int_equal(g.r[5].sport, 0);
	assert_int_equal(g.r[5].nmem, 7);
	assert_int_equal(g.r[5].rtt, 1500000000u);
	assert_int_equal(g.r[6].state, TCP_TIME_WAIT);
	/* The last: no -m, no -i: both unknown. */
	assert_false(g.r[7].has_mem);
	assert_false(g.r[7].has_info);
	assert_int_equal(st.no_mem, 3);
	assert_int_equal(st.old_mem, 1);
	assert_int_equal(st.tcp_no_info, 1);
	assert_int_equal(st.no_drops, 1);
}

/* Through the socket checks' fold: the problems the live dump would list are listed. */
static void fold_one(const struct np_sock_rec *r, void *arg)
{
	static const struct np_sock_limits lim = { { 4096, 131072, 6291456 },
						   { 4096, 16384, 4194304 }, 212992, 212992, 1 };

	np_socket_fold(arg, r, &lim);
}

static void test_fold(void **state)
{
	struct np_ss_list_stats st;
	struct np_sockets *k = calloc(1, sizeof(*k));
	size_t len;
	char *buf = load_fixture("ss_layouts_synthetic.txt", &len);

	(void)state;
	assert_non_null(k);
	assert_non_null(buf);
	np_sockets_init(k);
	assert_int_equal(np_parse_ss_list(buf, len, 0, 0, fold_one, k, &st), 0);
	np_sockets_finish(k);
	assert_int_equal(k->udp_total, 2);
	assert_int_equal(k->udp_drops, 1953207);
	assert_int_equal(k->udp.n, 1);
	assert_int_equal(k->udp.e[0].id.sport, 514);
	assert_int_equal(k->listen_full, 1);
	assert_int_equal(k->listen_drops, 5231);
	assert_int_equal(k->rwnd_limited, 1);
	assert_int_equal(k->snd_limited, 1);
	assert_int_equal(k->sndbuf_max, 1);	/* tb4194304 = tcp_wmem[2] */
	assert_int_equal(k->lossy.n, 1);	/* 9211 of 640012 segments (1.4%) at 40 ms */
	assert_int_equal(k->no_info, 1);
	free(buf);
	free(k);
}

static void test_hostile(void **state)
{
	struct np_ss_list_stats st;
	struct got g;
	size_t big = 1u << 20;
	char *p = malloc(big + 64);
	static const char *const bad[] = {
		"tcp ESTAB 0 0 1.2.3.4:5 6.7.8.9:10\n\t skmem:(r1,rb99999999999,t0,tb0,f0,w0,o0)"
		" rtt:x/1 busy:-5ms retrans:0/ bytes_acked:18446744073709551616 cwnd:4294967296\n",
		"tcp ESTAB 0 0 1.2.3.4:99999 [zz::1]:1\n",
		"ESTAB 18446744073709551615 1 1.2.3.4:5 6.7.8.9:10\n\x01\x02 rtt:1/1\x7f\n",
		"tcp ESTAB 0 0 1.2.3.4:5 6.7.8.9:10 delivery_rate\n",
		"ESTAB",
		"",
	};

	(void)state;
	assert_non_null(p);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		size_t n = strlen(bad[i]);
		char *c = exact_copy(bad[i], n);

		memset(&g, 0, sizeof(g));
		np_parse_ss_list(c, n, 0, 0, keep, &g, &st);
		free(c);
	}
	/* The first: each bad value counted, none taken. */
	{
		size_t n = strlen(bad[0]);
		char *c = exact_copy(bad[0], n);

		memset(&g, 0, sizeof(g));
		assert_int_equal(np_parse_ss_list(c, n, 0, 0, keep, &g, &st), 0);
		free(c);
		assert_int_equal(g.n, 1);
		assert_false(g.r[0].has_mem);
		assert_int_equal(g.r[0].rtt, 0);
		assert_int_equal(g.r[0].busy_time, 0);
		assert_int_equal(g.r[0].bytes_acked, 0);
		assert_int_equal(st.bad, 6);
	}
	/* A NUL ends the text; a 1 MiB line without a break is read in one pass. */
	memset(p, 'a', big);
	memcpy(p, "tcp ESTAB 0 0 1.2.3.4:5 6.7.8.9:10 ", 35);
	memset(&g, 0, sizeof(g));
	assert_int_equal(np_parse_ss_list(p, big, 0, 0, keep, &g, &st), 0);
	assert_int_equal(g.n, 1);
	assert_int_equal(np_parse_ss_list("no socket here\n", 15, 0, 0, keep, &g, &st), -EINVAL);
	/* ss 5.7+ rates ("%.3gk", T) and a %g exponent in one. */
	{
		static const char r57[] = "tcp ESTAB 0 0 1.2.3.4:5 6.7.8.9:10\n\t cubic rtt:1/1 "
					  "delivery_rate 452kbps pacing_rate 1.2Tbps/1e+03Mbps\n";
		char *c = exact_copy(r57, sizeof(r57) - 1);

		memset(&g, 0, sizeof(g));
		assert_int_equal(np_parse_ss_list(c, sizeof(r57) - 1, 0, 0, keep, &g, &st), 0);
		free(c);
		assert_int_equal(g.r[0].delivery_rate, 452000 / 8);
		assert_int_equal(g.r[0].pacing_rate, 1200000000000ull / 8);
		assert_int_equal(st.bad, 0);
	}
	assert_int_equal(np_parse_ss_list(NULL, 0, 0, 0, keep, &g, &st), -EINVAL);
	free(p);
}

/* 10^6 sockets: linear, and the cap hands over no more than asked. */
static void test_million(void **state)
{
	static const char line[] = "udp UNCONN 0 0 10.0.0.1:5000 0.0.0.0:*\n";
	size_t ll = sizeof(line) - 1, n = 1000000;
	char *p = malloc(ll * n);
	struct np_ss_list_stats st;
	struct got g;
	clock_t t0 = clock();

	(void)state;
	assert_non_null(p);
	for (size_t i = 0; i < n; i++)
		memcpy(p + i * ll, line, ll);
	memset(&g, 0, sizeof(g));
	assert_int_equal(np_parse_ss_list(p, ll * n, 0, 250000, keep, &g, &st), 0);
	assert_int_equal(st.udp, n);
	assert_int_equal(g.calls, 250000);
	assert_true((double)(clock() - t0) / CLOCKS_PER_SEC < 30.0);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_netdev_wrapped),
		cmocka_unit_test(test_tcpmon_unindented),
		cmocka_unit_test(test_envoy_old),
		cmocka_unit_test(test_layouts),
		cmocka_unit_test(test_fold),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_million),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
