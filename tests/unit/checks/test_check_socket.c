// SPDX-License-Identifier: GPL-2.0-only
/* Checks of stage "socket" on synthetic snapshots. */
#include "mib_cases.h"

/* Default-ish buffer sysctls of a 16 GiB x86_64 host (synth_init: 16 GiB, 4 KiB pages). */
static void buffers(struct np_snapshot *s)
{
	synth_sysctl(s, "net.core.rmem_default", "212992");
	synth_sysctl(s, "net.core.rmem_max", "212992");
	synth_sysctl(s, "net.core.wmem_default", "212992");
	synth_sysctl(s, "net.core.wmem_max", "212992");
	synth_sysctl(s, "net.ipv4.tcp_rmem", "4096 131072 6291456");
	synth_sysctl(s, "net.ipv4.tcp_wmem", "4096 16384 4194304");
	synth_sysctl(s, "net.ipv4.tcp_mem", "188319 251092 376638");
	synth_sysctl(s, "net.ipv4.udp_mem", "376638 502185 753276");
	synth_sysctl(s, "net.ipv4.udp_rmem_min", "4096");
	synth_sysctl(s, "net.ipv4.tcp_moderate_rcvbuf", "1");
	synth_sysctl(s, "net.core.somaxconn", "4096");
	synth_sysctl(s, "net.ipv4.tcp_max_syn_backlog", "1024");
	synth_sysctl(s, "net.ipv4.tcp_syncookies", "1");
}

/* prev/cur pair with the default buffers; cur at t = 1. */
static void pair(struct np_snapshot *p, struct np_snapshot *c)
{
	synth_init(p, 0);
	synth_init(c, 1);
	buffers(p);
	buffers(c);
}

static void free_pair(struct np_snapshot *p, struct np_snapshot *c)
{
	np_snapshot_free(p);
	np_snapshot_free(c);
}

static void test_udp_rcvbuf(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	assert_drop_counter("socket.udp-rcvbuf", "UdpRcvbufErrors");

	/* A receiver that never reads, flooded: must be critical, with the buffer evidence. */
	pair(&p, &c);
	synth_mib(&p, "UdpRcvbufErrors", 12);
	synth_mib(&c, "UdpRcvbufErrors", 50012);
	synth_mib(&p, "UdpInErrors", 12);
	synth_mib(&c, "UdpInErrors", 50012);
	synth_run(&run, "socket.udp-rcvbuf", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
	f = synth_first(&run);
	assert_true(synth_has_ev(f, "UdpRcvbufErrors"));
	assert_true(synth_has_ev(f, "UdpInErrors"));
	assert_true(synth_has_ev(f, "rmem_default"));
	assert_true(synth_has_ev(f, "rmem_max"));
	assert_true(synth_has_ev(f, "udp_mem"));
	assert_non_null(strstr(f->remedy, "net.core.rmem_max=8388608"));
	assert_non_null(strstr(f->remedy, "SO_RCVBUF"));
	assert_non_null(strstr(f->remedy, "Cost:"));
	synth_run_free(&run);

	/* 5/s: warning (a slow drip still fires). */
	synth_mib(&c, "UdpRcvbufErrors", 17);
	synth_run(&run, "socket.udp-rcvbuf", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	synth_run_free(&run);
	free_pair(&p, &c);
}

static void test_udp_mem(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	pair(&p, &c);
	/* Sane configuration, no errors, low usage: quiet. */
	synth_mib(&p, "UdpMemErrors", 0);
	synth_mib(&c, "UdpMemErrors", 0);
	c.hs->sockstat.udp_mem = 1000;
	synth_run(&run, "socket.udp-mem", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	assert_int_equal(synth_state(&run), NP_CHECK_PASSED);
	synth_run_free(&run);

	/* Errors during the sample: the rate verdict. */
	synth_mib(&c, "UdpMemErrors", 500);
	synth_run(&run, "socket.udp-mem", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
	f = synth_first(&run);
	assert_true(synth_has_ev(f, "UdpMemErrors"));
	assert_true(synth_has_ev(f, "udp_rmem_min"));
	synth_run_free(&run);
	/* Since boot only: info. */
	synth_run(&run, "socket.udp-mem", NULL, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);
	synth_mib(&c, "UdpMemErrors", 0);

	/* Usage above udp_mem[0] (the effective limit): warning; above [2]: critical. */
	c.hs->sockstat.udp_mem = 400000;
	synth_run(&run, "socket.udp-mem", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	assert_true(synth_has_ev(synth_first(&run), "of udp_mem[0]"));
	synth_run_free(&run);
	c.hs->sockstat.udp_mem = 800000;
	synth_run(&run, "socket.udp-mem", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
	synth_run_free(&run);
	c.hs->sockstat.udp_mem = 1000;

	/* Typed in bytes: 1 GiB "pages" = 4 TiB on a 16 GiB host. */
	synth_sysctl(&c, "net.ipv4.udp_mem", "1073741824 1073741824 1073741824");
	synth_run(&run, "socket.udp-mem", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	assert_non_null(strstr(synth_first(&run)->summary, "looks like bytes"));
	synth_run_free(&run);

	/* Tiny. */
	c.hs->sockstat.udp_mem = 50;
	synth_sysctl(&c, "net.ipv4.udp_mem", "100 200 300");
	synth_run(&run, "socket.udp-mem", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	assert_non_null(strstr(synth_first(&run)->summary, "small"));
	assert_non_null(strstr(synth_first(&run)->remedy, "net.ipv4.udp_mem=\""));
	synth_run_free(&run);

	/* Not readable: skipped. */
	free_pair(&p, &c);
	synth_init(&c, 1);
	synth_run(&run, "socket.udp-mem", NULL, &c, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&c);
}

static void test_listen_overflow(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	assert_drop_counter("socket.listen-overflow", "TcpExtListenDrops");
	/* Older view without ListenDrops: overflows alone still count. */
	assert_drop_counter("socket.listen-overflow", "TcpExtListenOverflows");

	pair(&p, &c);
	synth_sysctl(&c, "net.core.somaxconn", "128");
	synth_mib(&p, "TcpExtListenOverflows", 0);
	synth_mib(&c, "TcpExtListenOverflows", 40);
	synth_mib(&p, "TcpExtListenDrops", 0);
	synth_mib(&c, "TcpExtListenDrops", 40);
	synth_run(&run, "socket.listen-overflow", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	f = synth_first(&run);
	assert_true(synth_has_ev(f, "somaxconn"));
	assert_true(synth_has_ev(f, "tcp_syncookies"));
	assert_non_null(strstr(f->remedy, "net.core.somaxconn=4096"));
	assert_non_null(strstr(f->remedy, "listen()"));
	synth_run_free(&run);

	/* SYN cookies only (no drops): info. */
	synth_mib(&c, "TcpExtListenOverflows", 0);
	synth_mib(&c, "TcpExtListenDrops", 0);
	synth_mib(&p, "TcpExtTCPReqQFullDoCookies", 0);
	synth_mib(&c, "TcpExtTCPReqQFullDoCookies", 300);
	synth_run(&run, "socket.listen-overflow", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	assert_non_null(strstr(synth_first(&run)->summary, "SYN cookies"));
	synth_run_free(&run);
	free_pair(&p, &c);
}

/*
 * "Out of socket memory" with tcp_mem far from its limit: sockstat and tcp_mem as published in
 * "Troubleshooting the 'Out of socket memory' error" (linux-admins.net, 2013-01: TCP inuse
 * 174950 orphan 126800 tw 153787 alloc 174954 mem 102910; tcp_mem 3480768 4641024 6961536).
 * tcp_mem is cleared and the orphans are the cause; the post does not print the host's
 * tcp_max_orphans, so three plausible limits are judged.
 */
static void test_orphans_published_host(void **state)
{
	static const struct {
		const char *max;
		enum np_severity sev;
	} limits[] = {
		{ "65536", NP_SEV_CRITICAL }, { "262144", NP_SEV_WARNING }, { "1048576", NP_SEV_OK },
	};
	struct np_snapshot p, c;
	struct synth_run run;

	(void)state;
	pair(&p, &c);
	c.hs->sockstat.tcp_inuse = 174950;
	c.hs->sockstat.tcp_orphan = 126800;
	c.hs->sockstat.tcp_tw = 153787;
	c.hs->sockstat.tcp_mem = 102910;
	/* Its tcp_mem is the kernel default (tcp_mem[1] = free buffer pages / 16) of a host
	 * with ~280 GiB: RAM is not printed either, so it is taken from that ratio. */
	c.hs->mem.mem_total = 288ull << 30;
	synth_sysctl(&c, "net.ipv4.tcp_mem", "3480768 4641024 6961536");
	synth_mib(&p, "TcpExtTCPMemoryPressures", 0);
	synth_mib(&c, "TcpExtTCPMemoryPressures", 0);
	synth_run(&run, "socket.tcp-mem", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);	/* 102910 pages in use of 4641024: not the cause */
	synth_run_free(&run);
	for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
		synth_sysctl(&c, "net.ipv4.tcp_max_orphans", limits[i].max);
		synth_run(&run, "socket.tcp-orphans", &p, &c, NAN, NAN);
		assert_int_equal(synth_worst(&run), limits[i].sev);
		if (limits[i].sev != NP_SEV_OK) {
			const struct np_finding *f = synth_first(&run);

			assert_non_null(strstr(f->summary, "126800 orphaned TCP sockets"));
			assert_true(synth_has_ev(f, "net.ipv4.tcp_max_orphans"));
			assert_non_null(strstr(f->remedy, "net.ipv4.tcp_max_orphans="));
		}
		synth_run_free(&run);
	}
	/* No limit in the evidence: skipped, never OK. */
	free_pair(&p, &c);
	pair(&p, &c);
	c.hs->sockstat.tcp_orphan = 126800;
	synth_run(&run, "socket.tcp-orphans", &p, &c, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	free_pair(&p, &c);
}

static void test_tcp_mem(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	pair(&p, &c);
	c.hs->sockstat.tcp_mem = 5000;
	synth_mib(&p, "TcpExtTCPMemoryPressures", 0);
	synth_mib(&c, "TcpExtTCPMemoryPressures", 0);
	synth_run(&run, "socket.tcp-mem", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	assert_int_equal(synth_state(&run), NP_CHECK_PASSED);
	synth_run_free(&run);

	/* Someone typed bytes: 16777216 pages = 64 GiB on a 16 GiB host. */
	synth_sysctl(&c, "net.ipv4.tcp_mem", "16777216 16777216 16777216");
	synth_run(&run, "socket.tcp-mem", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	f = synth_first(&run);
	assert_non_null(strstr(f->summary, "16777216 pages = 64 GiB"));
	assert_non_null(strstr(f->summary, "16 GiB host"));
	assert_true(synth_has_ev(f, "tcp_mem"));
	assert_true(synth_has_ev(f, "page_size"));
	assert_non_null(strstr(f->remedy, "net.ipv4.tcp_mem=\"196608 262144 393216\""));
	synth_run_free(&run);

	/* Absurdly small. */
	c.hs->sockstat.tcp_mem = 100;
	synth_sysctl(&c, "net.ipv4.tcp_mem", "1024 2048 3072");
	synth_run(&run, "socket.tcp-mem", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	assert_non_null(strstr(synth_first(&run)->summary, "small"));
	synth_run_free(&run);

	/* An assumed page size is said out loud. */
	c.hs->mem.page_size_assumed = true;
	synth_run(&run, "socket.tcp-mem", &p, &c, NAN, NAN);
	assert_non_null(strstr(synth_first(&run)->detail, "assumed"));
	synth_run_free(&run);
	c.hs->mem.page_size_assumed = false;
	synth_sysctl(&c, "net.ipv4.tcp_mem", "188319 251092 376638");

	/* Usage above the pressure threshold: warning; near the max: critical. */
	c.hs->sockstat.tcp_mem = 260000;
	synth_run(&run, "socket.tcp-mem", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	assert_true(synth_has_ev(synth_first(&run), "of tcp_mem[1] (pressure)"));
	synth_run_free(&run);
	c.hs->sockstat.tcp_mem = 370000;
	synth_run(&run, "socket.tcp-mem", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
	synth_run_free(&run);

	/* A max of 0 gives no percentage of it: the summary quotes the pressure one. */
	synth_sysctl(&c, "net.ipv4.tcp_mem", "188319 251092 0");
	synth_run(&run, "socket.tcp-mem", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	f = synth_first(&run);
	assert_null(strstr(f->summary, "nan"));
	assert_non_null(strstr(f->summary, "147% of tcp_mem pressure"));
	synth_run_free(&run);
	synth_sysctl(&c, "net.ipv4.tcp_mem", "188319 251092 376638");
	c.hs->sockstat.tcp_mem = 5000;

	/* Pressure entered during the sample: warning; aborts on memory: critical. */
	synth_mib(&c, "TcpExtTCPMemoryPressures", 2);
	synth_run(&run, "socket.tcp-mem", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	assert_true(synth_has_ev(synth_first(&run), "TcpExtTCPMemoryPressures"));
	synth_run_free(&run);
	/* Since boot only: info. */
	synth_run(&run, "socket.tcp-mem", NULL, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);
	synth_mib(&p, "TcpExtTCPAbortOnMemory", 0);
	synth_mib(&c, "TcpExtTCPAbortOnMemory", 3);
	synth_run(&run, "socket.tcp-mem", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
	synth_run_free(&run);
	synth_run(&run, "socket.tcp-mem", NULL, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);
	free_pair(&p, &c);

	synth_init(&c, 1);
	synth_run(&run, "socket.tcp-mem", NULL, &c, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&c);
}

static void test_tcp_rmem_bdp(void **state)
{
	struct np_snapshot s;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	synth_init(&s, 1);
	buffers(&s);
	/* 500 Mbit/s x 30 ms = 1.87 MB; 6 MiB >= 2 x BDP: quiet. */
	synth_run(&run, "socket.tcp-rmem-bdp", NULL, &s, 30, 500e6);
	assert_int_equal(run.r.n, 0);
	assert_int_equal(synth_state(&run), NP_CHECK_PASSED);
	synth_run_free(&run);

	/* 1 Gbit/s x 100 ms = 12.5 MB: 6 MiB is short, long RTT: warning. */
	synth_run(&run, "socket.tcp-rmem-bdp", NULL, &s, 100, 1e9);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	f = synth_first(&run);
	assert_true(synth_has_ev(f, "bdp"));
	assert_non_null(strstr(f->summary, "1 Gbit/s × 100 ms"));
	/* 2 x 12.5 MB = 23.8 MiB, rounded up to 24 MiB. */
	assert_non_null(strstr(f->remedy, "net.ipv4.tcp_rmem=\"4096 131072 25165824\""));
	assert_non_null(strstr(f->remedy, "Cost:"));
	synth_run_free(&run);

	/* 100 Gbit/s x 2 ms = 25 MB on a short path: info. */
	synth_run(&run, "socket.tcp-rmem-bdp", NULL, &s, 2, 100e9);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);

	/* No RTT, 25 Gbit/s link: coverage statement as info (6 MiB / 2 covers ~1 ms). */
	s.dev.speed_mbps = 25000;
	synth_run(&run, "socket.tcp-rmem-bdp", NULL, &s, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	f = synth_first(&run);
	assert_non_null(strstr(f->summary, "fills 25 Gbit/s only up to 1.0 ms RTT"));
	assert_true(synth_has_ev(f, "rtt covered at this bandwidth"));
	synth_run_free(&run);
	/* No RTT, 1 Gbit/s: the buffer covers 25 ms, quiet. */
	s.dev.speed_mbps = 1000;
	synth_run(&run, "socket.tcp-rmem-bdp", NULL, &s, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);

	/* No bandwidth known: skipped. */
	s.dev.speed_mbps = NP_NA;
	synth_run(&run, "socket.tcp-rmem-bdp", NULL, &s, 30, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&s);

	synth_init(&s, 1);
	synth_run(&run, "socket.tcp-rmem-bdp", NULL, &s, 30, 1e9);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&s);
}

static void test_tcp_wmem_bdp(void **state)
{
	struct np_snapshot s;
	struct synth_run run;

	(void)state;
	synth_init(&s, 1);
	buffers(&s);
	/* 4 MiB vs 2 x (1 Gbit/s x 50 ms = 6.25 MB): warning. */
	synth_run(&run, "socket.tcp-wmem-bdp", NULL, &s, 50, 1e9);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	assert_true(synth_has_ev(synth_first(&run), "tcp_wmem[2]"));
	assert_non_null(strstr(synth_first(&run)->remedy, "net.ipv4.tcp_wmem=\"4096 16384 "));
	synth_run_free(&run);
	/* LAN: 10 Gbit/s x 0.2 ms = 250 KB: quiet. */
	synth_run(&run, "socket.tcp-wmem-bdp", NULL, &s, 0.2, 10e9);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	synth_run(&run, "socket.tcp-wmem-bdp", NULL, &s, 50, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&s);
}

static void test_rcvbuf_autotuning(void **state)
{
	struct np_snapshot s;
	struct synth_run run;

	(void)state;
	synth_init(&s, 1);
	buffers(&s);
	synth_run(&run, "socket.rcvbuf-autotuning", NULL, &s, 30, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	synth_sysctl(&s, "net.ipv4.tcp_moderate_rcvbuf", "0");
	synth_run(&run, "socket.rcvbuf-autotuning", NULL, &s, 30, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	assert_non_null(strstr(synth_first(&run)->summary, "128 KiB"));
	assert_non_null(strstr(synth_first(&run)->remedy, "tcp_moderate_rcvbuf=1"));
	synth_run_free(&run);
	np_snapshot_free(&s);

	synth_init(&s, 1);
	synth_run(&run, "socket.rcvbuf-autotuning", NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&s);
}

static void test_rmem_max(void **state)
{
	struct np_snapshot s;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	synth_init(&s, 1);
	buffers(&s);
	/* 208 KiB vs 1 Gbit/s x 50 ms = 6.25 MB: warning for SO_RCVBUF users and UDP. */
	synth_run(&run, "socket.rmem-max", NULL, &s, 50, 1e9);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	f = synth_first(&run);
	assert_true(synth_has_ev(f, "rmem_max"));
	assert_true(synth_has_ev(f, "wmem_max"));
	assert_true(synth_has_ev(f, "bdp"));
	assert_non_null(strstr(f->detail, "does NOT limit TCP autotuning"));
	assert_non_null(strstr(f->remedy, "net.core.rmem_max=6291456"));
	synth_run_free(&run);

	/* No RTT: rmem_max below tcp_rmem[2] is worth knowing, nothing more. */
	synth_run(&run, "socket.rmem-max", NULL, &s, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);

	/* rmem_max above tcp_rmem[2] and the BDP: quiet. */
	synth_sysctl(&s, "net.core.rmem_max", "16777216");
	synth_run(&run, "socket.rmem-max", NULL, &s, 50, 1e9);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	np_snapshot_free(&s);

	synth_init(&s, 1);
	synth_run(&run, "socket.rmem-max", NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&s);
}

static void test_buffer_limits(void **state)
{
	struct np_snapshot s;
	struct synth_run run;

	(void)state;
	synth_init(&s, 1);
	buffers(&s);
	synth_run(&run, "socket.buffer-limits", NULL, &s, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	assert_int_equal(synth_state(&run), NP_CHECK_PASSED);
	synth_run_free(&run);

	synth_sysctl(&s, "net.ipv4.tcp_rmem", "4096 131072 4294967296");
	synth_run(&run, "socket.buffer-limits", NULL, &s, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	assert_true(synth_has_ev(synth_first(&run), "net.ipv4.tcp_rmem[2]"));
	synth_run_free(&run);

	/* A value that wrapped negative is just as broken. */
	synth_sysctl(&s, "net.ipv4.tcp_rmem", "4096 131072 6291456");
	synth_sysctl(&s, "net.core.rmem_max", "-2147483648");
	synth_run(&run, "socket.buffer-limits", NULL, &s, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	assert_true(synth_has_ev(synth_first(&run), "net.core.rmem_max"));
	synth_run_free(&run);
	np_snapshot_free(&s);

	synth_init(&s, 1);
	synth_run(&run, "socket.buffer-limits", NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_udp_rcvbuf),
		cmocka_unit_test(test_udp_mem),
		cmocka_unit_test(test_listen_overflow),
		cmocka_unit_test(test_tcp_mem),
		cmocka_unit_test(test_tcp_rmem_bdp),
		cmocka_unit_test(test_tcp_wmem_bdp),
		cmocka_unit_test(test_rcvbuf_autotuning),
		cmocka_unit_test(test_orphans_published_host),
		cmocka_unit_test(test_rmem_max),
		cmocka_unit_test(test_buffer_limits),
	};

	return cmocka_run_group_tests(tests, NULL, mib_cases_teardown);
}
