/* SPDX-License-Identifier: GPL-2.0-only */
/* The NIC-side checks of stage "nic" share these views over driver counters, qstats and rtnl. */
#ifndef NP_NIC_DRV_PRIV_H
#define NP_NIC_DRV_PRIV_H

#include "check.h"
#include "driver_counters.h"

#include <stddef.h>

/* How many contributing counters a finding names in its evidence. */
#define NP_NICDRV_TOP 4

struct np_nicdrv_hit {
	const char *name;	/* the driver's spelling (points into the snapshot) */
	int queue;		/* -1 for device-wide counters */
	struct np_counter_view v;
};

/* The driver counters of one meaning, summed without counting an event twice. */
struct np_nicdrv_sum {
	struct np_counter_view v;	/* device-wide counters if any, else the per-queue sum */
	size_t n;			/* counters of this meaning */
	bool per_queue;			/* v sums per-queue counters (no device total) */
	int nqueues;			/* highest queue index seen + 1 */
	size_t ntop;
	struct np_nicdrv_hit top[NP_NICDRV_TOP];	/* the biggest contributors to v */
};

/* The driver's name: ETHTOOL_GDRVINFO, else sysfs device/driver ("" when neither). */
const char *np_nicdrv_name(const struct np_snapshot *s);
/* "the mlx5_core driver", or "the driver" when it has no name, for sentences. */
const char *np_nicdrv_label(const struct np_snapshot *s, char *buf, size_t size);
/* Driver-private counters of meaning m (transmit-side ones only with want_tx). */
void np_nicdrv_collect(const struct np_analysis *a, enum np_drv_meaning m, bool want_tx,
		       struct np_nicdrv_sum *out);
/* One driver counter by name as a view (per queue callers). */
struct np_counter_view np_nicdrv_view(const struct np_analysis *a, const char *name,
				      uint64_t cur);
/* Evidence for the contributors that ever counted anything. */
void np_nicdrv_ev(struct np_finding *f, const struct np_nicdrv_sum *d, const char *unit);
/* A qstats field (offsetof struct np_qstat) summed over queues; absent without qstats. */
struct np_counter_view np_nicdrv_qstat(const struct np_analysis *a, size_t off);
/* One queue's qstats field. */
struct np_counter_view np_nicdrv_qstat_q(const struct np_analysis *a, const struct np_qstat *q,
					 size_t off);
/*
 * Several sources often count the same events (rtnl rx_missed_errors is the driver's
 * rx_out_of_buffer on mlx5; qstats are the driver's own per-queue counters): take the witness
 * that moved most, never their sum.
 */
struct np_counter_view np_nicdrv_max(struct np_counter_view x, struct np_counter_view y);
/* Skip the running check because a source is unavailable, with the collector's reason. */
void np_nicdrv_skip_src(struct np_report *r, const struct np_snapshot *s, enum np_source id,
			const char *what);

#endif
