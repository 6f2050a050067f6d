/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One `netpath path` test: what the sending end measured of its own sockets (tcp_info every
 * ~100 ms), what each end said about its host during the test, the optional UDP rate steps,
 * and what limited the transfer.
 *
 * Filled by src/cmd (serve and path: the wire, the transfer, the samples), judged by
 * src/checks/path_verdict.c (pure), printed by src/render/render_path.c. Everything here is
 * plain data so that a test can build a result by hand.
 */
#ifndef NP_PATH_TEST_H
#define NP_PATH_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NP_PATH_MAX_SECONDS 120		/* --duration cap (both ends enforce it) */
#define NP_PATH_MAX_SAMPLES 1300	/* 120 s at 100 ms, and some slack */
#define NP_PATH_MAX_STREAMS 16
#define NP_PATH_MAX_STEPS 16
#define NP_PATH_MAX_NOTES 24

/* tcp_info over all of the test's data streams at one instant: sums unless said otherwise.
 * A field the kernel does not report (older tcp_info) is NAN (doubles) or stays 0 with its
 * have_* flag false. */
struct np_path_sample {
	double t_s;			/* seconds since the transfer started */
	double rtt_ms;			/* tcpi_rtt: the largest over streams */
	double min_rtt_ms;		/* tcpi_min_rtt: the smallest over streams */
	double cwnd_bytes;		/* tcpi_snd_cwnd * tcpi_snd_mss */
	double delivery_rate_bps;	/* tcpi_delivery_rate * 8 */
	double pacing_rate_bps;		/* tcpi_pacing_rate * 8 */
	double snd_wnd_bytes;		/* tcpi_snd_wnd (the peer's window, 5.4+; NAN before) */
	double sndbuf_bytes;		/* SO_SNDBUF of the streams (what autotuning reached) */
	double notsent_bytes;		/* tcpi_notsent_bytes: written but not yet sent */
	uint64_t bytes_acked;		/* cumulative tcpi_bytes_acked */
	uint64_t segs_out;		/* cumulative tcpi_segs_out */
	uint64_t total_retrans;		/* cumulative tcpi_total_retrans (segments) */
	uint64_t busy_us;		/* cumulative tcpi_busy_time (4.10+) */
	uint64_t rwnd_limited_us;	/* cumulative tcpi_rwnd_limited */
	uint64_t sndbuf_limited_us;	/* cumulative tcpi_sndbuf_limited */
	bool have_chrono;		/* the three *_us fields are reported */
	uint32_t app_limited_streams;	/* streams with tcpi_delivery_rate_app_limited */
};

/* One fixed-rate UDP step of --udp-steps. */
struct np_path_step {
	double offered_bps;		/* what the sender paced out */
	double delivered_bps;		/* what the receiver counted */
	double loss;			/* 1 - received/sent datagrams, 0..1 */
};

/* One finding of an end's doctor judgement, flattened for the wire (printable text only). */
struct np_path_note {
	int severity;			/* enum np_severity */
	char stage[16];			/* np_stage_name() */
	char id[48];			/* the check's id, e.g. "softnet.backlog-drops" */
	char summary[320];
	char remedy[512];
};

/* What one end says about its host during the test. */
struct np_path_end {
	bool present;			/* false: nothing came from that end */
	char host[64];			/* its hostname */
	char ifname[16];		/* the interface the test's traffic used there */
	char cc[16];			/* congestion control of the test's sockets */
	char qdisc[32];			/* root qdisc kind of ifname ("" unknown) */
	long long tcp_rmem[3], tcp_wmem[3];	/* -1: unknown */
	long long rmem_max, wmem_max;		/* -1: unknown */
	double cpu_busiest_share;	/* busiest CPU's non-idle share of the window, 0..1 (NAN) */
	double softirq_busiest_share;	/* busiest CPU's irq+softirq share, 0..1 (NAN) */
	double rx_drops;		/* receive drops in the window: NIC + softnet + socket (NAN) */
	uint64_t bytes_counted;		/* receiving end: payload bytes its data sockets read */
	size_t nnotes;
	struct np_path_note notes[NP_PATH_MAX_NOTES];
};

struct np_path_result {
	char peer[128];			/* as given on the command line */
	double duration_s;		/* of the transfer, as measured */
	unsigned streams;
	bool reverse;			/* the peer sent and this end received */
	uint64_t sender_bytes;		/* bytes acked at the sending end */
	double throughput_bps;		/* receiver's bytes_counted * 8 / duration_s */
	size_t nsamples;
	struct np_path_sample samples[NP_PATH_MAX_SAMPLES];
	size_t nsteps;
	struct np_path_step steps[NP_PATH_MAX_STEPS];
	struct np_path_end sender, receiver;
};

/* The documented set of limits (netpath-path(8), doc/netpath-path.schema.json). */
enum np_path_limit {
	NP_LIMIT_UNKNOWN,
	NP_LIMIT_SENDER_BUFFER,		/* "sender-buffer" */
	NP_LIMIT_RECEIVER_WINDOW,	/* "receiver-window" */
	NP_LIMIT_CONGESTION,		/* "congestion" */
	NP_LIMIT_BOTTLENECK,		/* "bottleneck" */
	NP_LIMIT_POLICER,		/* "policer" */
	NP_LIMIT_SENDER_CPU,		/* "sender-cpu" */
	NP_LIMIT_RECEIVER_CPU,		/* "receiver-cpu" */
	NP_LIMIT_NIC,			/* "nic" */
	NP_LIMIT_APPLICATION,		/* "application" */
	NP_LIMIT__COUNT
};

enum np_path_side { NP_SIDE_UNKNOWN, NP_SIDE_SENDER, NP_SIDE_RECEIVER, NP_SIDE_PATH };

struct np_path_verdict {
	enum np_path_limit limited_by;
	enum np_path_side side;
	double rtt_ms, min_rtt_ms;	/* median sRTT over the samples; the smallest min_rtt */
	double bdp_bytes;		/* throughput (or the bottleneck rate) x min RTT */
	double loss_rate;		/* retransmitted / sent segments */
	double share_rwnd, share_sndbuf;	/* of busy time, 0..1 (NAN without chrono stats) */
	double share_app_limited;	/* of samples */
	double policer_bps;		/* POLICER: the plateau (NAN otherwise) */
	char why[400];			/* one or two sentences with the numbers */
	char fix[512];			/* the exact change, from the same sizing code as doctor */
	char cost[240];
};

#endif
