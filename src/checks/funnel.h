/* SPDX-License-Identifier: GPL-2.0-only */
/* The per-stage packet funnel: packets seen and dropped at each stage, since boot and per second. */
#ifndef NP_FUNNEL_H
#define NP_FUNNEL_H

#include "check.h"

struct np_funnel_row {
	enum np_stage stage;
	enum np_scope scope;		/* whose counters: the interface, this netns, the whole host */
	const char *in_what;		/* what "packets" counts here, e.g. "IpInReceives" */
	const char *drop_what;		/* the counters summed into "drops" */
	struct np_counter_view in, drop;	/* .present false: no such counter at this stage */
};

struct np_funnel {
	char dev[16];			/* the interface whose counters the rows are */
	size_t n;
	struct np_funnel_row rows[NP_STAGE__COUNT];
};

void np_funnel_build(const struct np_analysis *a, struct np_funnel *f);

/*
 * The same rows with the funnel's MIB and conntrack counters found once instead of by name each
 * time (history builds a funnel a second over a week of frames: the lookups were most of its
 * cost). np_funnel_resolve records where each lives in one snapshot's tables (NULL: absent);
 * the places stay valid while the tables keep their entries (history: frames patched in
 * through one plan, snapshot_counters.h), whatever the values. np_funnel_build_refs over refs
 * of a->prev (NULL without one) and a->cur gives what np_funnel_build gives.
 */
#define NP_FUNNEL_NMIB 37
struct np_funnel_refs {
	const uint64_t *mib[NP_FUNNEL_NMIB];
	const uint64_t *ct_drop;
};
void np_funnel_resolve(const struct np_snapshot *s, struct np_funnel_refs *r);
void np_funnel_build_refs(const struct np_analysis *a, const struct np_funnel_refs *prev,
			  const struct np_funnel_refs *cur, struct np_funnel *f);
/* The egress qdiscs' drops as congestion.qdisc-drops counts them (the leaves under mq, else
 * the root): not a funnel row, which follows received packets, but a stage of history's.
 * .present false when the device has no queueing qdisc or its list was not read. */
struct np_counter_view np_qdisc_egress_drops(const struct np_analysis *a);

#endif
