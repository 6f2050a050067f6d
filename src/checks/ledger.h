/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The loss ledger: between two stages of the receive path, what went in, less what the next
 * stage counted and the drops named on the way, is what vanished without a counter moving.
 * Each boundary is compared only where its counters count the same things (packets vs merged
 * packets, one interface vs the namespace vs the host); elsewhere it says why not.
 */
#ifndef NP_LEDGER_H
#define NP_LEDGER_H

#include "check.h"
#include "funnel.h"

enum np_ledger_kind {
	NP_LEDGER_NOT_COMPARABLE,	/* reason says why; no number */
	NP_LEDGER_EXACT,		/* the counters cover the same packets: the remainder is it */
	NP_LEDGER_AT_LEAST,		/* the later counter also counts others: a lower bound */
	NP_LEDGER_AT_MOST,		/* the remainder also holds traffic no counter counts */
};

struct np_ledger_line {
	const char *boundary;		/* "nic-softnet", "nic-ip", ... (stable, JSON) */
	const char *counters;		/* the counters compared */
	enum np_ledger_kind kind;
	bool window;			/* over the interval; false: since boot */
	double packets;			/* the remainder: over the interval, or since boot */
	double rate;			/* per second over the interval (0 since boot) */
	double in;			/* what entered the boundary, same span */
	/* Exact (or a lower bound), at least NP_LEDGER_MIN_PPS and NP_LEDGER_MIN_SHARE % of in:
	 * worth a look. Never set for a bound from above (non-counted traffic lands there). */
	bool material;
	char reason[320];		/* not comparable: why; else what the remainder can be */
};

#define NP_LEDGER_MAX 6
#define NP_LEDGER_MIN_PPS 10.0
#define NP_LEDGER_MIN_SHARE 1.0

struct np_ledger {
	char dev[16];
	size_t n;
	struct np_ledger_line b[NP_LEDGER_MAX];
};

/* Over the analysis and its funnel (np_funnel_build). */
void np_ledger_build(const struct np_analysis *a, const struct np_funnel *fn, struct np_ledger *l);
const char *np_ledger_kind_name(enum np_ledger_kind k);
/* The udp-errors line alone (transport.udp-unnamed-errors judges it). */
void np_ledger_udp_errors(const struct np_analysis *a, struct np_ledger_line *b);	/* "exact", "at_least", ... */

/* `netpath explain ledger`: the rules and caveats, one paragraph per boundary (NULL-ended
 * pairs: heading, text). */
extern const char *const np_ledger_explain[];

#endif
