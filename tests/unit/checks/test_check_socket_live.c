// SPDX-License-Identifier: GPL-2.0-only
/* Checks of stage "socket" over live sockets (hand-built sock_diag sections), and the measured
 * RTT the analysis derives from them. */
#include "selection.h"
#include "synth.h"
#include "socket_fold.h"

#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

static const struct np_sock_limits lim = {
	{ 4096, 131072, 6291456 }, { 4096, 16384, 4194304 }, 212992, 212992, 1,
};

static void base(struct np_snapshot *s, double t)
{
	synth_init(s, t);
	synth_sysctl(s, "net.core.somaxconn", "4096");
	synth_sysctl(s, "net.core.rmem_default", "212992");
	synth_sysctl(s, "net.core.rmem_max", "212992");
	synth_sysctl(s, "net.ipv4.tcp_rmem", "4096 131072 6291456");
	synth_sysctl(s, "net.ipv4.tcp_wmem", "4096 16384 4194304");
}

static void rec(struct np_sock_rec *r, uint8_t proto, uint8_t state, uint16_t port, uint32_t inode)
{
	memset(r, 0, sizeof(*r));
	r->family = AF_INET;
	r->protocol = proto;
	r->state = state;
	r->sport = port;
	r->saddr[0] = 192, r->saddr[3] = 1;
	r->inode = inode;
	r->cookie = inode;
	r->has_mem = true;
	r->nmem = NP_SKMEM__COUNT;
}

static void listener(struct np_snapshot *s, uint16_t port, uint32_t queued, uint32_t limit,
		     uint32_t drops)
{
	struct np_sock_rec r;

	rec(&r, IPPROTO_TCP, 10, port, 100u + port);
	r.rqueue = queued;
	r.wqueue = limit;
	r.mem[NP_SKMEM_DROPS] = drops;
	np_socket_fold(&s->socks, &r, &lim);
}

static void udp(struct np_snapshot *s, uint16_t port, uint32_t drops, uint32_t rcvbuf)
{
	struct np_sock_rec r;

	rec(&r, IPPROTO_UDP, 7, port, 100u + port);
	r.mem[NP_SKMEM_DROPS] = drops;
	r.mem[NP_SKMEM_RCVBUF] = rcvbuf;
	r.mem[NP_SKMEM_RMEM_ALLOC] = drops ? rcvbuf : 0;
	np_socket_fold(&s->socks, &r, &lim);
}

/* An established receiver that takes a full window every RTT with rcvbuf bytes of buffer. */
static void receiver(struct np_snapshot *s, uint16_t port, uint32_t rcvbuf, uint32_t min_rtt_us,
		     bool loopback)
{
	struct np_sock_rec r;

	rec(&r, IPPROTO_TCP, 1, port, 100u + port);
	r.dport = 40000;
	if (loopback)
		r.saddr[0] = r.daddr[0] = 127;
	else
		r.daddr[0] = 198, r.daddr[1] = 51, r.daddr[2] = 100, r.daddr[3] = 7;
	r.has_info = true;
	r.min_rtt = min_rtt_us;
	r.rtt = min_rtt_us + 500;
	snprintf(r.cc, sizeof(r.cc), "cubic");
	r.mem[NP_SKMEM_RCVBUF] = rcvbuf;
	r.mem[NP_SKMEM_SNDBUF] = 87040;
	r.rcv_space = rcvbuf / 2;
	r.bytes_received = 100ull * rcvbuf;
	np_socket_fold(&s->socks, &r, &lim);
}

static bool has_text(const char *hay, const char *needle)
{
	return strstr(hay, needle) != NULL;
}

static void test_listen_queue_full(void **state)
{
	struct np_snapshot s;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	base(&s, 1);
	listener(&s, 8080, 5, 4, 30);
	listener(&s, 22, 0, 4096, 0);
	synth_run(&run, "socket.listen-queue", NULL, &s, NAN, NAN);
	/* Full now: a warning even without an interval (a state, not a since-boot count). */
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	assert_int_equal(run.r.n, 1);
	f = synth_first(&run);
	assert_true(has_text(f->summary, "192.0.0.1:8080"));
	assert_true(has_text(f->summary, "5/4"));
	assert_true(synth_has_ev(f, "port"));
	assert_true(synth_has_ev(f, "accept queue limit"));
	/* The limit is below somaxconn: it is the application's backlog to raise. */
	assert_true(has_text(f->remedy, "listen() backlog"));
	assert_true(has_text(f->remedy, "Cost:"));
	synth_run_free(&run);
	np_snapshot_free(&s);
}

static void test_listen_queue_rates(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;

	(void)state;
	/* The same listener (inode, port) in both: 300 drops/s over the sample -> critical. */
	base(&p, 0);
	base(&c, 1);
	listener(&p, 8080, 1, 128, 10);
	listener(&c, 8080, 1, 128, 310);
	synth_run(&run, "socket.listen-queue", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
	assert_true(synth_first(&run)->rank >= 299);
	synth_run_free(&run);

	/* No drop during the sample, drops since it opened: history, info. */
	np_snapshot_free(&c);
	base(&c, 1);
	listener(&c, 8080, 1, 128, 10);
	synth_run(&run, "socket.listen-queue", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);

	/* Since-boot only (no interval): thousands of drops never reach critical. */
	np_snapshot_free(&c);
	base(&c, 1);
	listener(&c, 8080, 0, 128, 100000);
	synth_run(&run, "socket.listen-queue", NULL, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);

	/* Not in prev's complete list: it had no drops then, so all 50 are new -> warning. */
	np_snapshot_free(&p);
	base(&p, 0);
	listener(&p, 9999, 0, 128, 3);
	synth_run(&run, "socket.listen-queue", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);	/* 100000 drops in 1 s */
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

static void test_listen_queue_quiet_and_skipped(void **state)
{
	struct np_snapshot s;
	struct synth_run run;

	(void)state;
	base(&s, 1);
	listener(&s, 443, 2, 4096, 0);
	synth_run(&run, "socket.listen-queue", NULL, &s, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	assert_int_equal(synth_state(&run), NP_CHECK_PASSED);
	synth_run_free(&run);

	/* --root: sock_diag skipped, so is the check. */
	np_srcp(&s, NP_SRC_SOCK_DIAG)->status = NP_SRC_SKIPPED;
	synth_run(&run, "socket.listen-queue", NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&s);
}

static void test_udp_socket_drops(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	base(&p, 0);
	base(&c, 2);
	udp(&p, 9000, 100, 212992);
	udp(&c, 9000, 10100, 212992);
	udp(&c, 53, 0, 212992);
	synth_run(&run, "socket.udp-socket-drops", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);	/* 5000/s */
	f = synth_first(&run);
	assert_true(has_text(f->summary, ":9000"));
	assert_true(has_text(f->summary, "rmem_max"));
	assert_true(synth_has_ev(f, "drops (this socket)"));
	assert_true(synth_has_ev(f, "rcvbuf"));
	assert_true(synth_has_ev(f, "rmem_default"));
	/* rcvbuf == rmem_default: the application never set SO_RCVBUF. */
	assert_true(has_text(f->detail, "never set SO_RCVBUF"));
	assert_true(has_text(f->remedy, "net.core.rmem_max="));
	assert_true(has_text(f->remedy, "net.core.rmem_default="));
	synth_run_free(&run);

	/* Since-boot only: at most info. */
	synth_run(&run, "socket.udp-socket-drops", NULL, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);

	/* A socket that asked for more than rmem_max got 2 x rmem_max. */
	np_snapshot_free(&c);
	base(&c, 2);
	udp(&c, 9000, 100, 2 * 212992);
	synth_run(&run, "socket.udp-socket-drops", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);	/* no drop during the sample */
	assert_true(has_text(synth_first(&run)->detail, "2 × rmem_max"));
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

/* One problem, two checks: a level set for socket.udp-rcvbuf alone judges each socket too
 * (raising it quiets both); a level set for this check itself wins. */
static void test_udp_socket_drops_follow_udp_rcvbuf(void **state)
{
	static struct np_overrides ovr;
	struct np_snapshot p, c;
	struct synth_run run;
	char err[256];

	(void)state;
	base(&p, 0);
	base(&c, 2);
	udp(&p, 9000, 100, 212992);
	udp(&c, 9000, 10100, 212992);	/* 5000/s */
	/* As --threshold parses it: warn alone, the default crit following it up. */
	memset(&ovr, 0, sizeof(ovr));
	assert_int_equal(np_overrides_parse_option(&ovr, "socket.udp-rcvbuf:warn=500000", err,
						   sizeof(err)), 0);
	synth_run_ovr(&run, "socket.udp-socket-drops", &p, &c, NAN, NAN, &ovr);
	assert_true(synth_worst(&run) < NP_SEV_WARNING);	/* at most "its queue is full now" */
	synth_run_free(&run);
	memset(&ovr, 0, sizeof(ovr));
	assert_int_equal(np_overrides_parse_option(&ovr, "socket.udp-rcvbuf:warn=1000,crit=10000",
						   err, sizeof(err)), 0);
	synth_run_ovr(&run, "socket.udp-socket-drops", &p, &c, NAN, NAN, &ovr);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);	/* 5000/s: between the two */
	synth_run_free(&run);
	/* The check's own level wins over the host-wide one's. */
	memset(&ovr, 0, sizeof(ovr));
	assert_int_equal(np_overrides_parse_option(&ovr, "socket.udp-rcvbuf:warn=500000", err,
						   sizeof(err)), 0);
	assert_int_equal(np_overrides_parse_option(&ovr, "socket.udp-socket-drops:crit=4000", err,
						   sizeof(err)), 0);
	synth_run_ovr(&run, "socket.udp-socket-drops", &p, &c, NAN, NAN, &ovr);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

static void test_udp_socket_drops_quiet_and_skipped(void **state)
{
	struct np_snapshot s;
	struct synth_run run;

	(void)state;
	base(&s, 1);
	udp(&s, 53, 0, 212992);
	synth_run(&run, "socket.udp-socket-drops", NULL, &s, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	assert_int_equal(synth_state(&run), NP_CHECK_PASSED);
	synth_run_free(&run);
	np_srcp(&s, NP_SRC_SOCK_DIAG)->status = NP_SRC_ABSENT;
	synth_run(&run, "socket.udp-socket-drops", NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&s);
}

static void test_buffer_ceiling(void **state)
{
	struct np_snapshot s;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	/* 6 MiB at 50 ms: one window per RTT is ~500 Mbit/s on a 10 Gbit/s link. */
	base(&s, 1);
	s.dev.speed_mbps = 10000;
	receiver(&s, 5201, 6291456, 50000, false);
	synth_run(&run, "socket.tcp-buffer-ceiling", NULL, &s, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	f = synth_first(&run);
	assert_true(has_text(f->summary, "tcp_rmem[2]"));
	assert_true(has_text(f->summary, ":5201"));
	assert_true(synth_has_ev(f, "needed (2 × BDP at this RTT)"));
	/* 2 x 10 Gbit/s x 50 ms = 125 MB -> 120 MiB. */
	assert_true(has_text(f->remedy, "net.ipv4.tcp_rmem=\"4096 131072 125829120\""));
	synth_run_free(&run);
	np_snapshot_free(&s);

	/* The same buffer on a LAN: information, the cause is elsewhere. */
	base(&s, 1);
	s.dev.speed_mbps = 10000;
	receiver(&s, 5201, 6291456, 300, false);
	synth_run(&run, "socket.tcp-buffer-ceiling", NULL, &s, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	assert_true(has_text(synth_first(&run)->detail, "insurance"));
	synth_run_free(&run);

	/* Autotuned below the ceiling: nothing. */
	np_snapshot_free(&s);
	base(&s, 1);
	receiver(&s, 5201, 3000000, 50000, false);
	synth_run(&run, "socket.tcp-buffer-ceiling", NULL, &s, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	assert_int_equal(synth_state(&run), NP_CHECK_PASSED);
	synth_run_free(&run);
	np_srcp(&s, NP_SRC_SOCK_DIAG)->status = NP_SRC_SKIPPED;
	synth_run(&run, "socket.tcp-buffer-ceiling", NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&s);
}

static void test_buffer_pinned(void **state)
{
	struct np_snapshot s;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	/* SO_RCVBUF 32 KiB -> 64 KiB, below tcp_rmem[1]: pinned; at 30 ms it caps ~9 Mbit/s. */
	base(&s, 1);
	receiver(&s, 8090, 65536, 30000, false);
	synth_run(&run, "socket.tcp-buffer-pinned", NULL, &s, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	f = synth_first(&run);
	assert_true(has_text(f->summary, "SO_RCVBUF"));
	assert_true(has_text(f->summary, ":8090"));
	assert_true(synth_has_ev(f, "why it looks fixed"));
	assert_true(has_text(f->detail, "below tcp_rmem[1]"));
	assert_true(has_text(f->remedy, "Remove the SO_RCVBUF call"));
	synth_run_free(&run);
	np_snapshot_free(&s);

	/* On loopback the same buffer is information only. */
	base(&s, 1);
	receiver(&s, 8090, 65536, 40, true);
	synth_run(&run, "socket.tcp-buffer-pinned", NULL, &s, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);

	/* An autotuned buffer between tcp_rmem[1] and [2] is not "pinned". */
	np_snapshot_free(&s);
	base(&s, 1);
	receiver(&s, 8090, 1000000, 30000, false);
	synth_run(&run, "socket.tcp-buffer-pinned", NULL, &s, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	np_srcp(&s, NP_SRC_SOCK_DIAG)->status = NP_SRC_SKIPPED;
	synth_run(&run, "socket.tcp-buffer-pinned", NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&s);
}

/* The analysis takes the p90 of measured min RTTs when --rtt is not given. */
static void test_measured_rtt(void **state)
{
	struct np_snapshot s;
	struct synth_run run;

	(void)state;
	base(&s, 1);
	for (uint16_t i = 0; i < 20; i++)
		receiver(&s, (uint16_t)(20000 + i), 1000000, 40000, false);
	for (uint16_t i = 0; i < 50; i++)
		receiver(&s, (uint16_t)(30000 + i), 1000000, 30, true);	/* loopback: ignored */
	np_sockets_finish(&s.socks);
	synth_run(&run, "socket.tcp-rmem-bdp", NULL, &s, NAN, NAN);
	assert_true(fabs(run.a.rtt_ms - 40.0) < 40.0 * 0.2);
	assert_true(has_text(run.a.rtt_source, "measured (p90 of 20 TCP sockets"));
	synth_run_free(&run);
	/* --rtt wins. */
	synth_run(&run, "socket.tcp-rmem-bdp", NULL, &s, 5, NAN);
	assert_true(run.a.rtt_ms == 5);
	synth_run_free(&run);
	np_snapshot_free(&s);

	/* Too few sockets: no measured RTT. */
	base(&s, 1);
	for (uint16_t i = 0; i < NP_SOCK_RTT_MIN_SAMPLES - 1; i++)
		receiver(&s, (uint16_t)(20000 + i), 1000000, 40000, false);
	np_sockets_finish(&s.socks);
	synth_run(&run, "socket.tcp-rmem-bdp", NULL, &s, NAN, NAN);
	assert_true(isnan(run.a.rtt_ms));
	synth_run_free(&run);
	np_snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_listen_queue_full),
		cmocka_unit_test(test_listen_queue_rates),
		cmocka_unit_test(test_listen_queue_quiet_and_skipped),
		cmocka_unit_test(test_udp_socket_drops),
		cmocka_unit_test(test_udp_socket_drops_follow_udp_rcvbuf),
		cmocka_unit_test(test_udp_socket_drops_quiet_and_skipped),
		cmocka_unit_test(test_buffer_ceiling),
		cmocka_unit_test(test_buffer_pinned),
		cmocka_unit_test(test_measured_rtt),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
