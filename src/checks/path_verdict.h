/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What limited a `netpath path` test (src/model/path_test.h): pure, from the samples, the
 * UDP steps and what each end said about its host. Thresholds and precedence are below and in
 * netpath-path(8) (LIMITS); integration scenarios (tests/integration/path-*.sh) rely on them.
 */
#ifndef NP_PATH_VERDICT_H
#define NP_PATH_VERDICT_H

#include "path_test.h"

/* The seconds of slow start left out of the statistics: the first 2 s, or the first half of a
 * test shorter than 4 s. */
#define NP_PATH_SLOW_START_S 2.0
/* A buffer limit: the share of busy time tcp_info counts as sndbuf_limited / rwnd_limited. */
#define NP_PATH_SHARE_LIMITED 0.3
/* ... and the buffer (SO_SNDBUF, the peer's window) at most this many times the measured BDP
 * (a buffer much larger than the data in flight is not what held the rate). */
#define NP_PATH_BUF_BDP_FACTOR 4.0
/* Kernels without the chrono counters (before 4.10): the peer's window at most 1.2x the measured
 * BDP (it was all in flight), or a send buffer autotuned to >= 90% of tcp_wmem[2] and at most 2x
 * the measured BDP. */
#define NP_PATH_OLD_RWND_BDP 1.2
#define NP_PATH_OLD_SNDBUF_AT_MAX 0.9
#define NP_PATH_OLD_SNDBUF_BDP 2.0
/* The kernel counts rwnd-limited time only when the window, not cwnd, stopped a send; with the
 * two close (a full window) it undercounts (0.25 seen through a 128 KiB tcp_rmem at 60 ms).
 * A window no larger than 1.2x the measured BDP (all of it in flight) with at least this share
 * of busy time rwnd-limited is the receiver's window too. */
#define NP_PATH_SHARE_SOME 0.1
/* Congestion: retransmitted segments above this share of those sent (0.1%) ... */
#define NP_PATH_LOSS_CONGESTION 0.001
/* ... while the median sRTT stays under this multiple of min RTT (no standing queue: the window
 * backed off on loss while the path had room; with a queue the path itself was full). */
#define NP_PATH_QUEUE_RTT_FACTOR 1.25
/* Policer: UDP steps losing more than 2% ... */
#define NP_PATH_STEP_LOSS 0.02
/* ... at least two of them, offered rising by 20% or more across them while delivered stays
 * within 15% (the plateau). */
#define NP_PATH_STEP_OFFER_RISE 1.2
#define NP_PATH_STEP_PLATEAU 1.15
/* A CPU limit: the busiest CPU's irq+softirq share of the test at one end. */
#define NP_PATH_SOFTIRQ_SHARE 0.9
/* NIC: receive drops at the receiver during the test, at least this many and at least this
 * share of the segments the sender retransmitted. */
#define NP_PATH_NIC_DROPS_MIN 10.0
#define NP_PATH_NIC_DROPS_SHARE 0.1
/* Application: samples where at least half of the streams were app-limited. */
#define NP_PATH_APP_SHARE 0.5

void np_path_judge(const struct np_path_result *r, struct np_path_verdict *v);
/* "sender-buffer", "receiver-window", ...; "unknown" for anything else. */
const char *np_path_limit_name(enum np_path_limit l);
/* "sender", "receiver", "path"; "unknown" otherwise. */
const char *np_path_side_name(enum np_path_side s);
/* The exit status of `netpath path` for a verdict: 1 a host-side cause with a fix
 * (sender-buffer, receiver-window, congestion, *-cpu, nic), 0 otherwise (the path, the
 * application, unknown). */
int np_path_exit_code(const struct np_path_verdict *v);

#endif
