// SPDX-License-Identifier: GPL-2.0-only
/*
 * netpath path's verdict (src/checks/path_verdict.c) over results built by hand: each limit,
 * the boundaries of its threshold, old kernels (no chrono stats, no min_rtt), empty sample sets
 * and a zero duration; the fixes name the right sysctl with a value above the one in force.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "path_verdict.h"

static struct np_path_result R;
static struct np_path_verdict V;

static void end_init(struct np_path_end *e, const char *host)
{
	memset(e, 0, sizeof(*e));
	e->present = true;
	snprintf(e->host, sizeof(e->host), "%s", host);
	snprintf(e->ifname, sizeof(e->ifname), "veth0");
	snprintf(e->cc, sizeof(e->cc), "cubic");
	snprintf(e->qdisc, sizeof(e->qdisc), "noqueue");
	e->tcp_rmem[0] = 4096, e->tcp_rmem[1] = 131072, e->tcp_rmem[2] = 6291456;
	e->tcp_wmem[0] = 4096, e->tcp_wmem[1] = 16384, e->tcp_wmem[2] = 4194304;
	e->rmem_max = e->wmem_max = 212992;
	e->cpu_busiest_share = 0.2;
	e->softirq_busiest_share = 0.05;
	e->rx_drops = 0;
}

/*
 * A 10 s test at rate_bps with an RTT of rtt_ms (min_rtt 60), 100 samples; chrono shares of
 * busy time sndbuf/rwnd (NAN: no chrono stats), loss: retransmitted share of segments.
 */
static void make(double rate_bps, double rtt_ms, double sndbuf, double rwnd, double loss)
{
	memset(&R, 0, sizeof(R));
	snprintf(R.peer, sizeof(R.peer), "10.0.0.2");
	R.duration_s = 10;
	R.streams = 1;
	R.throughput_bps = rate_bps;
	R.sender_bytes = (uint64_t)(rate_bps / 8 * 10);
	end_init(&R.sender, "alpha");
	end_init(&R.receiver, "beta");
	R.receiver.bytes_counted = R.sender_bytes;
	R.nsamples = 100;
	for (size_t i = 0; i < R.nsamples; i++) {
		struct np_path_sample *s = &R.samples[i];
		double t = 0.1 * (double)(i + 1);

		s->t_s = t;
		s->rtt_ms = rtt_ms;
		s->min_rtt_ms = 60;
		s->delivery_rate_bps = rate_bps;
		s->cwnd_bytes = rate_bps / 8 * rtt_ms / 1000;
		s->snd_wnd_bytes = 3 << 20;
		s->sndbuf_bytes = 4 << 20;
		s->segs_out = (uint64_t)(1000 * t);
		s->total_retrans = (uint64_t)(1000 * t * loss);
		s->bytes_acked = (uint64_t)(rate_bps / 8 * t);
		s->have_chrono = !isnan(sndbuf);
		s->busy_us = (uint64_t)(t * 1e6);
		s->rwnd_limited_us = s->have_chrono ? (uint64_t)(t * 1e6 * rwnd) : 0;
		s->sndbuf_limited_us = s->have_chrono ? (uint64_t)(t * 1e6 * sndbuf) : 0;
	}
}

static void judge(void)
{
	np_path_judge(&R, &V);
	if (getenv("NP_SHOW"))
		fprintf(stderr, "%s (%s)\n  why: %s\n  fix: %s\n  cost: %s\n",
			np_path_limit_name(V.limited_by), np_path_side_name(V.side), V.why, V.fix,
			V.cost);
}

static long long fix_value(const char *sysctl)
{
	const char *p = strstr(V.fix, sysctl);
	long long a, b, c;

	assert_non_null(p);
	assert_int_equal(sscanf(p + strlen(sysctl), "=\"%lld %lld %lld\"", &a, &b, &c), 3);
	return c;
}

static void test_names(void **st)
{
	(void)st;
	assert_string_equal(np_path_limit_name(NP_LIMIT_SENDER_BUFFER), "sender-buffer");
	assert_string_equal(np_path_limit_name(NP_LIMIT_RECEIVER_WINDOW), "receiver-window");
	assert_string_equal(np_path_limit_name(NP_LIMIT_CONGESTION), "congestion");
	assert_string_equal(np_path_limit_name(NP_LIMIT_BOTTLENECK), "bottleneck");
	assert_string_equal(np_path_limit_name(NP_LIMIT_POLICER), "policer");
	assert_string_equal(np_path_limit_name(NP_LIMIT_SENDER_CPU), "sender-cpu");
	assert_string_equal(np_path_limit_name(NP_LIMIT_RECEIVER_CPU), "receiver-cpu");
	assert_string_equal(np_path_limit_name(NP_LIMIT_NIC), "nic");
	assert_string_equal(np_path_limit_name(NP_LIMIT_APPLICATION), "application");
	assert_string_equal(np_path_limit_name(NP_LIMIT_UNKNOWN), "unknown");
	assert_string_equal(np_path_limit_name((enum np_path_limit)99), "unknown");
	assert_string_equal(np_path_side_name(NP_SIDE_SENDER), "sender");
	assert_string_equal(np_path_side_name(NP_SIDE_RECEIVER), "receiver");
	assert_string_equal(np_path_side_name(NP_SIDE_PATH), "path");
	assert_string_equal(np_path_side_name(NP_SIDE_UNKNOWN), "unknown");
}

/* 128 KiB tcp_wmem max at 60 ms: ~10 Mbit/s, sndbuf-limited 80% of the time. */
static void test_sender_buffer(void **st)
{
	(void)st;
	make(10e6, 61, 0.8, 0.0, 0);
	R.sender.tcp_wmem[2] = 131072;
	for (size_t i = 0; i < R.nsamples; i++)
		R.samples[i].sndbuf_bytes = 131072;
	judge();
	assert_int_equal(V.limited_by, NP_LIMIT_SENDER_BUFFER);
	assert_int_equal(V.side, NP_SIDE_SENDER);
	assert_int_equal(np_path_exit_code(&V), 1);
	assert_true(fabs(V.share_sndbuf - 0.8) < 0.01);
	assert_true(fix_value("net.ipv4.tcp_wmem") > 131072);
	assert_non_null(strstr(V.fix, "on alpha:"));
	assert_non_null(strstr(V.fix, "\"4096 16384 "));
	assert_non_null(strstr(V.fix, "net.core.wmem_max="));
	assert_non_null(strstr(V.cost, "per stream"));
	assert_true(fabs(V.bdp_bytes - 10e6 / 8 * 0.060) < 1);
}

/* The proposal is above the value in force even where the measured BDP would ask for less. */
static void test_sender_buffer_above_in_force(void **st)
{
	(void)st;
	make(10e6, 61, 0.5, 0.0, 0);
	R.sender.tcp_wmem[2] = 8 << 20;	/* but SO_SNDBUF held at 128 KiB */
	R.sender.wmem_max = 64 << 20;
	for (size_t i = 0; i < R.nsamples; i++)
		R.samples[i].sndbuf_bytes = 131072;
	judge();
	assert_int_equal(V.limited_by, NP_LIMIT_SENDER_BUFFER);
	assert_true(fix_value("net.ipv4.tcp_wmem") > (8 << 20));
	/* wmem_max already above the proposal: not proposed. */
	assert_null(strstr(V.fix, "wmem_max"));
}

/* Boundary: 0.3 is limited, just under is not (then the path). */
static void test_share_boundary(void **st)
{
	(void)st;
	make(10e6, 61, 0.3, 0.0, 0);
	for (size_t i = 0; i < R.nsamples; i++)
		R.samples[i].sndbuf_bytes = 131072;
	judge();
	assert_int_equal(V.limited_by, NP_LIMIT_SENDER_BUFFER);
	make(10e6, 61, 0.29, 0.0, 0);
	for (size_t i = 0; i < R.nsamples; i++)
		R.samples[i].sndbuf_bytes = 131072;
	judge();
	assert_int_equal(V.limited_by, NP_LIMIT_BOTTLENECK);
	assert_int_equal(np_path_exit_code(&V), 0);
}

/* A send buffer far above the BDP is not what limited (4x rule). */
static void test_sender_buffer_large(void **st)
{
	(void)st;
	make(10e6, 61, 0.8, 0.0, 0);	/* BDP 75 KB; the buffer 4 MiB */
	judge();
	assert_int_equal(V.limited_by, NP_LIMIT_BOTTLENECK);
}

/* 128 KiB tcp_rmem max on the receiver: rwnd-limited 70%. */
static void test_receiver_window(void **st)
{
	(void)st;
	make(8e6, 61, 0.0, 0.7, 0);
	R.receiver.tcp_rmem[2] = 131072;
	for (size_t i = 0; i < R.nsamples; i++)
		R.samples[i].snd_wnd_bytes = 65536;
	judge();
	assert_int_equal(V.limited_by, NP_LIMIT_RECEIVER_WINDOW);
	assert_int_equal(V.side, NP_SIDE_RECEIVER);
	assert_true(fix_value("net.ipv4.tcp_rmem") > 131072);
	assert_non_null(strstr(V.fix, "on beta:"));
	assert_non_null(strstr(V.fix, "\"4096 131072 "));
	assert_null(strstr(V.fix, "tcp_wmem"));
}

/* A full window (no larger than what was in flight) with a rwnd-limited share under 0.3 but at
 * least 0.1: still the receiver's window (seen live: 0.25 through a 128 KiB tcp_rmem). A window
 * far above the BDP with the same share is not; nor a full one at a share under 0.1. */
static void test_full_window_low_share(void **st)
{
	(void)st;
	make(8e6, 61, 0.0, 0.2, 0);
	for (size_t i = 0; i < R.nsamples; i++)
		R.samples[i].snd_wnd_bytes = 65536;
	judge();
	assert_int_equal(V.limited_by, NP_LIMIT_RECEIVER_WINDOW);
	make(8e6, 61, 0.0, 0.2, 0);	/* snd_wnd 3 MiB: the window had room */
	judge();
	assert_int_equal(V.limited_by, NP_LIMIT_BOTTLENECK);
	make(8e6, 61, 0.0, 0.05, 0);
	for (size_t i = 0; i < R.nsamples; i++)
		R.samples[i].snd_wnd_bytes = 65536;
	judge();
	assert_int_equal(V.limited_by, NP_LIMIT_BOTTLENECK);
}

/* Both buffers limited: the larger share wins. */
static void test_both_buffers(void **st)
{
	(void)st;
	make(8e6, 61, 0.35, 0.6, 0);
	for (size_t i = 0; i < R.nsamples; i++) {
		R.samples[i].snd_wnd_bytes = 65536;
		R.samples[i].sndbuf_bytes = 131072;
	}
	judge();
	assert_int_equal(V.limited_by, NP_LIMIT_RECEIVER_WINDOW);
}

/* Slow start is left out: a sender-buffer limit only in the first 2 s does not count. */
static void test_slow_start_ignored(void **st)
{
	(void)st;
	make(10e6, 61, 0.0, 0.0, 0);
	for (size_t i = 0; i < R.nsamples; i++) {
		struct np_path_sample *s = &R.samples[i];

		s->sndbuf_bytes = 131072;
		s->sndbuf_limited_us = (uint64_t)(fmin(s->t_s, 2.0) * 1e6);
	}
	judge();
	assert_int_equal(V.limited_by, NP_LIMIT_BOTTLENECK);
	assert_true(V.share_sndbuf < 0.01);
}

/* Old kernel: no chrono stats, no min_rtt, no snd_wnd: no buffer verdict, no crash. */
static void test_old_kernel(void **st)
{
	(void)st;
	make(10e6, 61, NAN, NAN, 0);
	for (size_t i = 0; i < R.nsamples; i++) {
		R.samples[i].min_rtt_ms = NAN;
		R.samples[i].snd_wnd_bytes = NAN;
		R.samples[i].rtt_ms = 61 + (double)(i % 3);
	}
	judge();
	assert_true(isnan(V.share_sndbuf));
	assert_true(isnan(V.share_rwnd));
	assert_true(fabs(V.min_rtt_ms - 61) < 1e-9);	/* the smallest sRTT stands in */
	assert_true(fabs(V.rtt_ms - 62) < 1e-9);	/* the median */
	assert_int_equal(V.limited_by, NP_LIMIT_BOTTLENECK);
}

/* Old kernel, judged by sizes: the window all in flight; a send buffer at tcp_wmem[2]. */
static void test_old_kernel_sizes(void **st)
{
	(void)st;
	make(8e6, 61, NAN, NAN, 0);	/* BDP 60 KB */
	for (size_t i = 0; i < R.nsamples; i++)
		R.samples[i].snd_wnd_bytes = 65536;
	judge();
	assert_int_equal(V.limited_by, NP_LIMIT_RECEIVER_WINDOW);
	assert_non_null(strstr(V.why, "judged by its size"));
	make(8e6, 61, NAN, NAN, 0);
	for (size_t i = 0; i < R.nsamples; i++) {
		R.samples[i].snd_wnd_bytes = 75000;	/* 1.25x: not full */
		R.samples[i].sndbuf_bytes = 118000;	/* 90% of 128 KiB, under 2x BDP */
	}
	R.sender.tcp_wmem[2] = 131072;
	judge();
	assert_int_equal(V.limited_by, NP_LIMIT_SENDER_BUFFER);
	assert_true(fix_value("net.ipv4.tcp_wmem") > 131072);
	R.sender.tcp_wmem[2] = 4 << 20;	/* autotuning was not at its cap */
	judge();
	assert_int_equal(V.limited_by, NP_LIMIT_BOTTLENECK);
}

static void test_zero_duration(void **st)
{
	(void)st;
	make(10e6, 61, 0.8, 0, 0);
	R.duration_s = 0;
	judge();
	assert_int_equal(V.limited_by, NP_LIMIT_UNKNOWN);
	assert_int_equal(V.side, NP_SIDE_UNKNOWN);
	assert_int_equal(np_path_exit_code(&V), 0);
	assert_true(strlen(V.why) > 0);
}

static void test_no_samples(void **st)
{
	(void)st;
	make(10e6, 61, 0.8, 0, 0);
	R.nsamples = 0;
	judge();
	assert_int_equal(V.limited_by, NP_LIMIT_UNKNOWN);
	make(0, 61, 0.8, 0, 0);
	R.sender_bytes = 0;
	judge();
	assert_int_equal(V.limited_by, NP_LIMIT_UNKNOWN);
	assert_true(isnan(V.rtt_ms));
}

/* One sample, and a 1 s test: the window is the second half; counters since the start. */
static void test_short(void **st)
{
	(void)st;
	make(10e6, 61, 0.8, 0, 0);
	R.nsamples = 1;
	for (size_t i = 0; i < R.nsamples; i++)
		R.samples[i].sndbuf_bytes = 131072;
	judge();
	assert_int_equal(V.limited_by, NP_LIMIT_SENDER_BUFFER);
	make(10e6, 61, 0.8, 0, 0);
	R.duration_s = 1;
	R.nsamples = 10;
	for (size_t i = 0; i < R.nsamples; i++)
		R.samples[i].sndbuf_bytes = 131072;
	judge();
	assert_int_equal(V.limited_by, NP_LIMIT_SENDER_BUFFER);
}

/* Throughput missing: the sender's acked bytes stand in. */
static void test_rate_from_sender(void **st)
{
	(void)st;
	make(50e6, 80, 0, 0, 0);
	R.throughput_bps = NAN;
	judge();
	assert_int_equal(V.limited_by, NP_LIMIT_BOTTLENECK);
	assert_true(fabs(V.bdp_bytes - 50e6 / 8 * 0.06) < 1);
	assert_non_null(strstr(V.fix, "50 Mbit/s"));
}

/* 50 Mbit/s serialising queue, roomy buffers: a queue, some tail drop: bottleneck. */
static void test_bottleneck(void **st)
{
	(void)st;
	make(48e6, 90, 0.01, 0.02, 0.004);
	judge();
	assert_int_equal(V.limited_by, NP_LIMIT_BOTTLENECK);
	assert_int_equal(V.side, NP_SIDE_PATH);
	assert_non_null(strstr(V.why, "48 Mbit/s"));
}

/* Random loss with no queue, CUBIC on 60 ms: congestion, bbr+fq proposed. */
static void test_congestion(void **st)
{
	(void)st;
	make(120e6, 62, 0.0, 0.0, 0.005);
	judge();
	assert_int_equal(V.limited_by, NP_LIMIT_CONGESTION);
	assert_int_equal(np_path_exit_code(&V), 1);
	assert_non_null(strstr(V.fix, "tcp_congestion_control=bbr"));
	assert_non_null(strstr(V.fix, "modprobe sch_fq"));
	assert_non_null(strstr(V.fix, "root fq"));
	assert_non_null(strstr(V.why, "cubic"));
	/* Boundary: 0.1% is not above the threshold; the RTT rule: 1.25x min is a queue. */
	make(120e6, 62, 0.0, 0.0, 0.001);
	judge();
	assert_int_equal(V.limited_by, NP_LIMIT_BOTTLENECK);
	make(120e6, 75, 0.0, 0.0, 0.005);
	judge();
	assert_int_equal(V.limited_by, NP_LIMIT_BOTTLENECK);
	/* Short RTT, or bbr with fq already: no cc change proposed. */
	make(120e6, 62, 0.0, 0.0, 0.005);
	snprintf(R.sender.cc, sizeof(R.sender.cc), "bbr");
	snprintf(R.sender.qdisc, sizeof(R.sender.qdisc), "fq");
	judge();
	assert_int_equal(V.limited_by, NP_LIMIT_CONGESTION);
	assert_null(strstr(V.fix, "tcp_congestion_control"));
}

static void steps(const double (*s)[3], size_t n)
{
	R.nsteps = n;
	for (size_t i = 0; i < n; i++) {
		R.steps[i].offered_bps = s[i][0];
		R.steps[i].delivered_bps = s[i][1];
		R.steps[i].loss = s[i][2];
	}
}

static void test_policer(void **st)
{
	static const double plateau[][3] = {
		{ 10e6, 10e6, 0 }, { 20e6, 19.9e6, 0.005 }, { 40e6, 30e6, 0.25 },
		{ 80e6, 30.5e6, 0.62 }, { 160e6, 29.8e6, 0.81 },
	};
	static const double rising[][3] = {
		{ 10e6, 10e6, 0 }, { 40e6, 30e6, 0.25 }, { 80e6, 60e6, 0.25 },
	};
	static const double one[][3] = { { 10e6, 10e6, 0 }, { 40e6, 30e6, 0.25 } };

	(void)st;
	make(25e6, 62, 0.0, 0.0, 0.02);
	steps(plateau, 5);
	judge();
	assert_int_equal(V.limited_by, NP_LIMIT_POLICER);
	assert_int_equal(V.side, NP_SIDE_PATH);
	assert_int_equal(np_path_exit_code(&V), 0);
	assert_true(fabs(V.policer_bps - 30e6) < 1);
	assert_non_null(strstr(V.why, "30 Mbit/s"));
	/* Delivered rises with offered: no plateau. One lossy step: no plateau. */
	steps(rising, 3);
	judge();
	assert_int_not_equal(V.limited_by, NP_LIMIT_POLICER);
	assert_true(isnan(V.policer_bps));
	steps(one, 2);
	judge();
	assert_int_not_equal(V.limited_by, NP_LIMIT_POLICER);
	/* The same plateau with the RTT doubled by a queue: a shaper, the path's bottleneck. */
	make(25e6, 120, 0.0, 0.0, 0.02);
	steps(plateau, 5);
	judge();
	assert_int_equal(V.limited_by, NP_LIMIT_BOTTLENECK);
}

static void test_cpu(void **st)
{
	(void)st;
	make(3e9, 1, 0, 0.5, 0);
	R.receiver.softirq_busiest_share = 0.95;
	judge();
	assert_int_equal(V.limited_by, NP_LIMIT_RECEIVER_CPU);
	assert_int_equal(V.side, NP_SIDE_RECEIVER);
	assert_non_null(strstr(V.fix, "beta"));
	make(3e9, 1, 0, 0, 0);
	R.sender.softirq_busiest_share = 0.9;
	judge();
	assert_int_equal(V.limited_by, NP_LIMIT_SENDER_CPU);
	assert_int_equal(V.side, NP_SIDE_SENDER);
	R.sender.softirq_busiest_share = 0.89;
	judge();
	assert_int_equal(V.limited_by, NP_LIMIT_BOTTLENECK);
	R.sender.softirq_busiest_share = NAN;
	judge();
	assert_int_equal(V.limited_by, NP_LIMIT_BOTTLENECK);
}

static void test_nic(void **st)
{
	(void)st;
	make(3e9, 62, 0, 0, 0.005);	/* 5 retransmitted a second: 40 in the window */
	R.receiver.rx_drops = 40;
	judge();
	assert_int_equal(V.limited_by, NP_LIMIT_NIC);
	assert_int_equal(V.side, NP_SIDE_RECEIVER);
	R.receiver.rx_drops = 9;	/* under the minimum */
	judge();
	assert_int_equal(V.limited_by, NP_LIMIT_CONGESTION);
	/* A receiver finding about drops at the NIC. */
	R.receiver.nnotes = 1;
	R.receiver.notes[0].severity = 2;
	snprintf(R.receiver.notes[0].stage, sizeof(R.receiver.notes[0].stage), "nic");
	snprintf(R.receiver.notes[0].id, sizeof(R.receiver.notes[0].id), "nic.rx-drops");
	judge();
	assert_int_equal(V.limited_by, NP_LIMIT_NIC);
	R.receiver.notes[0].severity = 1;	/* info only */
	judge();
	assert_int_equal(V.limited_by, NP_LIMIT_CONGESTION);
}

static void test_application(void **st)
{
	(void)st;
	make(1e6, 61, 0, 0, 0);
	for (size_t i = 0; i < R.nsamples; i++)
		R.samples[i].app_limited_streams = i % 2 ? 1 : 0;
	judge();
	assert_int_equal(V.limited_by, NP_LIMIT_APPLICATION);
	assert_int_equal(np_path_exit_code(&V), 0);
	/* 4 streams, one app-limited: not the application. */
	R.streams = 4;
	judge();
	assert_int_equal(V.limited_by, NP_LIMIT_BOTTLENECK);
}

/* Whatever a peer or a broken sampler puts in the result: no crash, no undefined behaviour
 * (run under UBSan), a name from the set, printable text. */
static void test_garbage(void **st)
{
	unsigned seed = 34;

	(void)st;
	for (int round = 0; round < 200; round++) {
		unsigned char *p = (unsigned char *)&R;

		for (size_t i = 0; i < sizeof(R); i++)
			p[i] = (unsigned char)rand_r(&seed);
		/* A bool holds 0 or 1 whoever filled it. */
		R.reverse = p[0] & 1;
		R.sender.present = p[1] & 1;
		R.receiver.present = p[2] & 1;
		for (size_t i = 0; i < NP_PATH_MAX_SAMPLES; i++)
			R.samples[i].have_chrono = p[i + 3] & 1;
		R.nsamples %= NP_PATH_MAX_SAMPLES + 50;
		R.nsteps %= NP_PATH_MAX_STEPS + 5;
		R.sender.nnotes %= NP_PATH_MAX_NOTES + 5;
		R.receiver.nnotes %= NP_PATH_MAX_NOTES + 5;
		R.sender.host[sizeof(R.sender.host) - 1] = '\0';
		R.receiver.host[sizeof(R.receiver.host) - 1] = '\0';
		R.sender.ifname[sizeof(R.sender.ifname) - 1] = '\0';
		R.sender.cc[sizeof(R.sender.cc) - 1] = '\0';
		R.sender.qdisc[sizeof(R.sender.qdisc) - 1] = '\0';
		for (size_t i = 0; i < NP_PATH_MAX_NOTES; i++) {
			R.receiver.notes[i].stage[15] = '\0';
			R.receiver.notes[i].id[47] = '\0';
		}
		if (round % 2) {	/* plausible magnitudes, absurd values */
			R.duration_s = 10;
			R.throughput_bps = 1e300;
			R.sender.tcp_wmem[2] = R.receiver.tcp_rmem[2] = 0x7fffffffffffffffLL;
		}
		judge();
		assert_non_null(np_path_limit_name(V.limited_by));
		assert_true(strlen(V.why) < sizeof(V.why));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_sender_buffer),
		cmocka_unit_test(test_sender_buffer_above_in_force),
		cmocka_unit_test(test_share_boundary),
		cmocka_unit_test(test_sender_buffer_large),
		cmocka_unit_test(test_receiver_window),
		cmocka_unit_test(test_full_window_low_share),
		cmocka_unit_test(test_both_buffers),
		cmocka_unit_test(test_slow_start_ignored),
		cmocka_unit_test(test_old_kernel),
		cmocka_unit_test(test_old_kernel_sizes),
		cmocka_unit_test(test_zero_duration),
		cmocka_unit_test(test_no_samples),
		cmocka_unit_test(test_short),
		cmocka_unit_test(test_rate_from_sender),
		cmocka_unit_test(test_bottleneck),
		cmocka_unit_test(test_congestion),
		cmocka_unit_test(test_policer),
		cmocka_unit_test(test_cpu),
		cmocka_unit_test(test_nic),
		cmocka_unit_test(test_application),
		cmocka_unit_test(test_garbage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
