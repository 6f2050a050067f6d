// SPDX-License-Identifier: GPL-2.0-only
/* The IPv4 input balance (ingress_gap.h): one computation for the check and the funnel. */
#include "ingress_gap.h"
#include "check_util.h"

#include <errno.h>

/*
 * Every IPv4 packet ip_rcv() counts in InReceives ends in exactly one place the IP MIB counts:
 * delivered to a protocol (InDelivers), forwarded (ForwDatagrams), an IP-layer error (header,
 * address, unknown protocol, discards, no route, truncated, rp_filter), or consumed as a fragment
 * of a datagram reassembled later (ReasmReqds - ReasmOKs). What the MIB does not count is a drop
 * by a netfilter hook between them (PREROUTING, INPUT, FORWARD: iptables/nft DROP or REJECT,
 * conntrack), or a martian source the route lookup refuses. Multicast and broadcast a host did
 * not join can vanish the same way and are set aside.
 */
const char *const np_ingress_explained[NP_INGRESS_NEXPLAINED + 1] = {
	"IpInDelivers", "IpForwDatagrams", "IpInHdrErrors", "IpInAddrErrors",
	"IpInUnknownProtos", "IpInDiscards", "IpExtInNoRoutes", "IpExtInTruncatedPkts",
	"TcpExtIPReversePathFilter", "IpReasmReqds", "IpExtInMcastPkts", "IpExtInBcastPkts",
	NULL,
};

/* Conntrack's own drops (table full) are netfilter drops that ingress.conntrack-full reports. */
struct np_counter_view np_ingress_ct_view(const struct np_analysis *a, const uint64_t *prev_drop,
					  const uint64_t *cur_drop)
{
	uint64_t prev = NP_NA;

	if (a->prev && np_src_ok(a->prev, NP_SRC_CONNTRACK) && prev_drop)
		prev = *prev_drop;
	if (!np_src_ok(a->cur, NP_SRC_CONNTRACK))
		return np_view_u64(a, NP_NA, NP_NA);
	return np_view_u64(a, prev, cur_drop ? *cur_drop : NP_NA);
}

int np_ingress_gap(const struct np_analysis *a, struct np_ingress_gap *g)
{
	struct np_ingress_views v;

	v.in = np_view_mib(a, "IpInReceives");
	v.deliv = np_view_mib(a, "IpInDelivers");
	v.oks = np_view_mib(a, "IpReasmOKs");
	v.ct = np_ingress_ct_view(a, a->prev ? np_counters_ref(&a->prev->hs->conntrack, "drop") :
				  NULL, np_counters_ref(&a->cur->hs->conntrack, "drop"));
	for (size_t i = 0; i < NP_INGRESS_NEXPLAINED; i++)
		v.explained[i] = np_view_mib(a, np_ingress_explained[i]);
	return np_ingress_gap_of(a, &v, g);
}

int np_ingress_gap_of(const struct np_analysis *a, const struct np_ingress_views *v,
		      struct np_ingress_gap *g)
{
	double n, tot;

	g->in = v->in;
	g->deliv = v->deliv;
	g->ct = v->ct;
	g->gone = (struct np_counter_view){ 0 };
	if (!g->in.present || !g->deliv.present)
		return -ENOENT;
	if (!g->in.sampled || a->dt <= 0)
		return -EAGAIN;
	n = (double)g->in.delta + (double)v->oks.delta - (g->ct.sampled ? (double)g->ct.delta : 0.0);
	tot = (double)g->in.total + (double)v->oks.total - (g->ct.present ? (double)g->ct.total : 0.0);
	for (size_t i = 0; i < NP_INGRESS_NEXPLAINED; i++) {
		n -= (double)v->explained[i].delta;
		tot -= (double)v->explained[i].total;
	}
	/* Since boot the same balance is an estimate (the counters of a namespace created later,
	 * a reset): at least what vanished in the window, never below 0. */
	g->gone.present = g->gone.sampled = true;
	g->gone.total = tot > 0 ? (uint64_t)tot : 0;
	if (n < 1 || !g->in.delta)
		return 0;
	if (g->gone.total < (uint64_t)n)
		g->gone.total = (uint64_t)n;
	g->gone.delta = (uint64_t)n;
	g->gone.rate = n / a->dt;
	return 0;
}
