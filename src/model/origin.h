/* SPDX-License-Identifier: GPL-2.0-only */
/* Where a report's data came from: the live system, a copied tree, a capture, a sosreport, a
 * recording. */
#ifndef NP_ORIGIN_H
#define NP_ORIGIN_H

enum np_origin_kind { NP_ORIGIN_LIVE, NP_ORIGIN_TREE, NP_ORIGIN_CAPTURE, NP_ORIGIN_SOSREPORT,
		       NP_ORIGIN_RECORDING /* a window of `netpath record`'s (doctor --at) */ };

struct np_rec_flows;

struct np_origin {
	enum np_origin_kind kind;
	char tool_version[32];	/* the netpath or sos version that made it */
	char hostname[64];
	char kernel[96];	/* uname -r of the captured machine */
	char taken[32];		/* UTC, "2026-11-25T06:00:00Z" */
	char lacks[512];	/* what it does not hold that doctor reads, "; "-separated */
	/* doctor --at over a `record --drops` recording: the window's top dropped flows. */
	const struct np_rec_flows *flows;
};

#endif
