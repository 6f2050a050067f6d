/* SPDX-License-Identifier: GPL-2.0-only */
/* What IPv4 input received and no IP counter accounts for: netfilter's drops, measured by
 * balance (ingress.netfilter-drops judges it, the funnel's ingress row counts it). */
#ifndef NP_INGRESS_GAP_H
#define NP_INGRESS_GAP_H

#include "check.h"

struct np_ingress_gap {
	struct np_counter_view in;	/* IpInReceives */
	struct np_counter_view deliv;	/* IpInDelivers */
	struct np_counter_view ct;	/* conntrack's own drops (table full), set aside */
	/* The packets that vanished: present and sampled when the balance could be taken; delta
	 * 0 when nothing vanished (or the balance came out negative: counters read apart). */
	struct np_counter_view gone;
};

/* 0 with g filled; -ENOENT: the IP counters are not readable; -EAGAIN: no interval (the
 * counters only balance over one window). g->in, g->deliv and g->ct are filled in any case. */
int np_ingress_gap(const struct np_analysis *a, struct np_ingress_gap *g);

/* The counters the balance reads, as views over the interval: np_ingress_gap reads them by
 * name; the funnel's fast path (funnel.h) through places resolved once. */
#define NP_INGRESS_NEXPLAINED 12
extern const char *const np_ingress_explained[NP_INGRESS_NEXPLAINED + 1];	/* NULL-ended */
struct np_ingress_views {
	struct np_counter_view in, deliv, oks;	/* IpInReceives, IpInDelivers, IpReasmOKs */
	struct np_counter_view ct;		/* np_ingress_ct_view */
	struct np_counter_view explained[NP_INGRESS_NEXPLAINED];
};
/* Conntrack's "drop" from its values in each snapshot (NULL: absent). */
struct np_counter_view np_ingress_ct_view(const struct np_analysis *a, const uint64_t *prev_drop,
					  const uint64_t *cur_drop);
/* np_ingress_gap over views already read. */
int np_ingress_gap_of(const struct np_analysis *a, const struct np_ingress_views *v,
		      struct np_ingress_gap *g);

#endif
