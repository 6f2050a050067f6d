/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Views over the NIC side of the snapshot (interface counters, ethtool, driver counters, qstats,
 * rtnetlink qdiscs) shared by the NIC-side checks. Pure: no I/O.
 *
 * One rule for every counter read through here: the same events are never added. A driver's
 * device-wide total and its per-queue copies of the same meaning are one witness (the larger of
 * the total and the per-queue sum counts); a driver counter, rtnetlink and qstats seeing the same
 * drops are different witnesses (the one that saw most counts). Only different events add up.
 */
#ifndef NP_NIC_VIEW_H
#define NP_NIC_VIEW_H

#include "check.h"
#include "check_util.h"
#include "driver_counters.h"

#include <stddef.h>

/* Packet rates from which per-packet costs (no GRO, generic XDP) show up as CPU load. */
#define NP_NV_BUSY_PPS 50000.0
/* A link this fast (Mb/s) makes per-packet costs matter even before load is measured. */
#define NP_NV_FAST_MBPS 10000
/* How many contributing driver counters a finding names in its evidence. */
#define NP_NV_DRV_TOP 4

/* ---- sources ---- */

/* Skip the running check because a source is unavailable, with the collector's reason. */
void np_nv_skip_src(struct np_report *r, const struct np_snapshot *s, enum np_source id,
		    const char *what);
/* True when the source can be used; otherwise np_nv_skip_src() and false. */
bool np_nv_src_usable(const struct np_snapshot *s, enum np_source id, const char *what,
		      struct np_report *r);

/* Physical link speed in Mb/s: sysfs, else ethtool link modes; NP_NA when unknown or virtual. */
uint64_t np_nv_speed_mbps(const struct np_snapshot *s);

/* ---- interface counters ---- */

/*
 * One field (offsetof struct np_link_stats) of the interface counters: rtnetlink stats64 when
 * read, else sysfs statistics/, from the same source in both snapshots. A field a short stats64
 * lacks (rx_nohandler, rx_otherhost_dropped) falls back to sysfs. *rtnl (may be NULL) says which.
 */
struct np_counter_view np_nv_link_stat(const struct np_analysis *a, size_t off, bool *rtnl);
#define NP_NV_LINK(a, field, rtnl) np_nv_link_stat(a, offsetof(struct np_link_stats, field), rtnl)
/* Received packets per second over the interval; NAN unsampled. */
double np_nv_rx_pps(const struct np_analysis *a);
/* Host-wide softnet_stat dropped (or time_squeeze), 32-bit wrapping per CPU. */
struct np_counter_view np_nv_softnet(const struct np_analysis *a, bool squeeze);

/* ---- witnesses ---- */

/* Of two witnesses of the same events: the one that moved more, else the bigger total. */
struct np_counter_view np_nv_max(struct np_counter_view x, struct np_counter_view y);
/* What x counted beyond the witness w (both of the same events): x - w, never below 0. */
struct np_counter_view np_nv_beyond(const struct np_analysis *a, struct np_counter_view x,
				    struct np_counter_view w);

/* ---- driver-private counters (ethtool -S) ---- */

struct np_nv_drv_hit {
	const char *name;	/* the driver's spelling (points into the snapshot) */
	int queue;		/* -1 for device-wide counters */
	struct np_counter_view v;
};

/* The driver counters of one meaning, counted once (see the rule at the top). */
struct np_nv_drv {
	struct np_counter_view v;	/* device-wide counters, or the per-queue sum if larger */
	size_t n;			/* counters of this meaning */
	bool per_queue;			/* v sums per-queue counters */
	int nqueues;			/* highest queue index seen + 1 */
	size_t ntop;
	struct np_nv_drv_hit top[NP_NV_DRV_TOP];	/* the biggest contributors to v */
};

/* The driver's name: ETHTOOL_GDRVINFO, else sysfs device/driver ("" when neither). */
const char *np_nv_drv_name(const struct np_snapshot *s);
/* The class of cur's driver counter i (np_drv_classify), from np_analyze()'s table when it has
 * one; true when it witnesses something. */
bool np_nv_drv_class(const struct np_analysis *a, size_t i, struct np_drv_class *out);
/* "the mlx5_core driver", or "the driver" when it has no name, for sentences. */
const char *np_nv_drv_label(const struct np_snapshot *s, char *buf, size_t size);
/* Driver-private counters of meaning m (transmit-side ones only with want_tx). */
void np_nv_drv_collect(const struct np_analysis *a, enum np_drv_meaning m, bool want_tx,
		       struct np_nv_drv *out);
/* One driver counter by name as a view. */
struct np_counter_view np_nv_drv_view(const struct np_analysis *a, const char *name, uint64_t cur);
/* Evidence for the contributors that ever counted anything. */
void np_nv_drv_ev(struct np_finding *f, const struct np_nv_drv *d, const char *unit);

/* ---- netdev qstats ---- */

/* A qstats field (offsetof struct np_qstat) summed over queues; absent without qstats. */
struct np_counter_view np_nv_qstat(const struct np_analysis *a, size_t off);
/* One queue's qstats field. */
struct np_counter_view np_nv_qstat_q(const struct np_analysis *a, const struct np_qstat *q,
				     size_t off);

/* ---- the RX ring ---- */

enum np_nv_ring_state {
	NP_NV_RING_UNKNOWN,	/* rings not read, or the driver does not report them */
	NP_NV_RING_BELOW_MAX,	/* rx < rx max: nic.ring-size owns ring-empty loss */
	NP_NV_RING_AT_MAX,	/* nothing to grow: nic.missed owns it */
};

enum np_nv_ring_state np_nv_ring_state(const struct np_snapshot *s);

/* Every witness of receive-buffer exhaustion, and what they add up to without double counting. */
struct np_nv_ring {
	bool rtnl;				/* the link counters come from rtnetlink */
	struct np_counter_view missed, fifo, over;	/* rx_missed/fifo/over_errors */
	struct np_nv_drv drv;			/* driver ring-empty counters */
	struct np_counter_view overruns;	/* qstats rx-hw-drop-overruns */
	/* Ring-empty drops: the largest of rx_missed_errors, driver and qstats. */
	struct np_counter_view ring;
	/* Everything the NIC could not buffer: rx_missed + fifo + over errors (different
	 * events), or the driver/qstats witness when that saw more. */
	struct np_counter_view all;
};

void np_nv_ring_empty(const struct np_analysis *a, struct np_nv_ring *out);

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
