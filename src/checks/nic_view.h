/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Views over the NIC side of the snapshot (ethtool, driver counters, rtnetlink qdiscs) shared by
 * the checks in irq_rss.c, ingress_hooks.c and congestion_qdisc.c. Pure: no I/O.
 */
#ifndef NP_NIC_VIEW_H
#define NP_NIC_VIEW_H

#include "check.h"
#include "check_util.h"
#include "driver_counters.h"

#include <stddef.h>

/* The checks these files export into the stage lists of irq.c, ingress.c and congestion.c. */
extern const struct np_check np_chk_rss_channels, np_chk_rss_indir, np_chk_coalescing, np_chk_gro;
extern const struct np_check np_chk_xdp_attached, np_chk_tc_drops;
extern const struct np_check np_chk_qdisc_drops, np_chk_bbr_without_fq, np_chk_txqueuelen;

/* Packet rates from which per-packet costs (no GRO, generic XDP) show up as CPU load. */
#define NP_NV_BUSY_PPS 50000.0
/* A link this fast (Mb/s) makes per-packet costs matter even before load is measured. */
#define NP_NV_FAST_MBPS 10000

/* True when the source can be used; otherwise skips the running check with the collector's
 * reason ("driver does not report channels") and returns false. */
bool np_nv_src_usable(const struct np_snapshot *s, enum np_source id, const char *what,
		      struct np_report *r);

/* Online CPUs (host.ncpu_online, else the online set or softnet rows). */
unsigned np_nv_ncpu(const struct np_snapshot *s);
/* Physical link speed in Mb/s: sysfs, else ethtool link modes; NP_NA when unknown or virtual. */
uint64_t np_nv_speed_mbps(const struct np_snapshot *s);
/* Received packets per second over the interval (rtnl stats64, else sysfs); NAN unsampled. */
double np_nv_rx_pps(const struct np_analysis *a);

/* Sum of the driver-private counters (ethtool -S) of one meaning; not present when none. */
struct np_counter_view np_nv_drv_sum(const struct np_analysis *a, enum np_drv_meaning m);
/*
 * Receive-buffer exhaustion: rx_missed_errors + rx_fifo_errors, or the driver's own ring
 * counters when they moved more (several drivers fold them into rx_missed_errors, so the two
 * are not added).
 */
struct np_counter_view np_nv_ring_drops(const struct np_analysis *a);
/* Host-wide softnet_stat dropped (or time_squeeze), 32-bit wrapping per CPU. */
struct np_counter_view np_nv_softnet(const struct np_analysis *a, bool squeeze);

/* ---- qdiscs (rtnetlink) ---- */

/* Multi-queue roots whose children are the real per-TX-queue qdiscs. */
bool np_nv_qdisc_multiq(const struct np_qdisc *q);
/* The egress root qdisc, or NULL. */
const struct np_qdisc *np_nv_qdisc_root(const struct np_snapshot *s);
/* q sits below root (mq leaves, htb leaves): same major number, not the root itself. */
bool np_nv_qdisc_below(const struct np_qdisc *root, const struct np_qdisc *q);
/* Drops / overlimits of q over the interval (matched in prev by kind, handle and parent). */
struct np_counter_view np_nv_qdisc_drops(const struct np_analysis *a, const struct np_qdisc *q);
struct np_counter_view np_nv_qdisc_overlimits(const struct np_analysis *a,
					      const struct np_qdisc *q);
struct np_counter_view np_nv_qdisc_packets(const struct np_analysis *a, const struct np_qdisc *q);
/* "tbf[8001:]" for a root or handle, "pfifo_fast[:3]" for an mq leaf. */
const char *np_nv_qdisc_name(const struct np_qdisc *q, char *buf, size_t size);

#endif
