/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The numbers doctor's fixes propose, in one place: the checks' remedies and `netpath plan`
 * both size buffers, queues and rings through these, so a plan applied makes the checks pass.
 * Pure functions of a snapshot and the path.
 */
#ifndef NP_SIZING_H
#define NP_SIZING_H

#include <stdbool.h>
#include <stdint.h>

#include "snapshot.h"

/* RTTs (ms) from which the congestion stage's advice applies: the choice of congestion control
 * and pacing (and PMTU black holes on multi-hop paths) from 20 ms, slow start after idle
 * from 10 ms. */
#define NP_CC_LONG_RTT_MS 20.0
#define NP_SSAI_RTT_MS 10.0
/* Keepalive probes later than this (s) outlive most NAT and firewall idle timers. */
#define NP_KEEPALIVE_LATE_S 7200
/* What congestion.keepalive and plan propose instead (s). */
#define NP_KEEPALIVE_PLAN_S 600

/* Round bytes up to a whole MiB (at least 1 MiB). */
int64_t np_size_round_mib(double bytes);
/*
 * tcp_rmem[2] / tcp_wmem[2] for a path: 2 × BDP rounded up to a MiB. Only about half of a
 * buffer is window (receive: tcp_adv_win_scale / scaling_ratio; send: skb overhead).
 */
int64_t np_size_tcp_buf_max(double bdp_bytes);
/* rmem_max / wmem_max: the BDP, or tcp_rmem[2] when larger (SO_RCVBUF users should get what
 * autotuning gives), rounded up to a MiB; bdp may be NAN (then tcp_max alone). */
int64_t np_size_core_max(double bdp_bytes, int64_t tcp_max);
/* netdev_max_backlog: double the current value, at least 4096 (16384 on a 10G+ link). */
uint64_t np_size_backlog(const struct np_snapshot *s, int64_t cur);
/* The cost side of a backlog: an skb's truesize for this MTU (bytes). */
double np_size_backlog_truesize(const struct np_snapshot *s);
/* tcp_mem (div 16) / udp_mem (div 8): the kernel's boot-time default for ram bytes of
 * page-byte pages, as "min pressure max" in pages (tcp_init_mem / udp_init). */
void np_size_mem_pages(double ram, double page, int div, int64_t out[3]);
/* What is wrong with a tcp_mem/udp_mem triple (pages) on a host of ram bytes (NAN: unknown):
 * larger than RAM (someone typed bytes), far below the kernel's choice (the limit index eff:
 * 2 for TCP, 0 for UDP, under 1% of RAM), or not increasing. */
struct np_mem_judgement {
	bool too_big, too_small, disorder;
};
void np_size_mem_judge(const int64_t v[3], double page, double ram, int eff,
		       struct np_mem_judgement *j);
/* netdev_budget / netdev_budget_usecs when the softirq runs out of either: double. */
int64_t np_size_budget(int64_t cur);
/* RX ring: 4 × the current size within the hardware maximum; the maximum when the current
 * size is unknown (0) or the drops are critical. */
uint64_t np_size_rx_ring(uint64_t rx, uint64_t rx_max, bool critical);
/* Online CPUs of the NIC's NUMA node (all online CPUs when unknown); ncpu: the online count. */
unsigned np_size_local_cpus(const struct np_snapshot *s, unsigned ncpu);
/* RSS queues worth having: min(hardware maximum, NUMA-local online CPUs). */
uint64_t np_size_rx_channels(const struct np_snapshot *s, uint64_t hwmax, unsigned ncpu);

#endif
