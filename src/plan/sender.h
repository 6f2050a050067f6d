/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The sender-side table: what decides how this host sends over a long path, in one place, to
 * compare between hosts (the lossy-backbone report's POP-A vs POP-B). Pure: from doctor's
 * analysis and what the kernel ships.
 */
#ifndef NP_SENDER_H
#define NP_SENDER_H

#include <stdbool.h>
#include <stdint.h>

#include "check.h"
#include "kmods.h"

struct np_sender {
	const char *cc;			/* default congestion control; NULL not read */
	bool cc_live_known;		/* live sockets were read (sock_diag) */
	size_t ncc_live;
	struct { const char *name; uint64_t sockets; } cc_live[8];	/* in use, most first */
	const char *default_qdisc;	/* NULL not read (a namespace has none) */
	const char *qdisc;		/* the root qdisc attached; NULL not read (a tree) */
	int64_t rmem_max, wmem_max, tcp_rmem_max, tcp_wmem_max, mtu_probing;	/* -1 not read */
	/* "built-in", "loaded", "module" (of the kernel, not loaded), "absent", "not-loaded"
	 * (whether the kernel ships it could not be read), "unknown" */
	const char *bbr;
	double bdp, bw_bps, rtt_ms;	/* the path (NAN unknown) */
	const char *bw_source, *rtt_source;
};

/* a: doctor's analysis of the interface; km: what the kernel ships (NULL unknown). */
void np_sender_build(const struct np_analysis *a, const struct np_kmods *km, struct np_sender *out);

#endif
