// SPDX-License-Identifier: GPL-2.0-only
/* The per-stage funnel: a pure summary of the counters each stage's drops show up in. */
#include "funnel.h"
#include "check_util.h"
#include "ingress_gap.h"
#include "nic_view.h"

#include <stdio.h>
#include <string.h>

#define DEV(a, field) \
	np_view_u64(a, (a)->prev ? (a)->prev->dev.stats.field : NP_NA, (a)->cur->dev.stats.field)

static struct np_funnel_row *row(struct np_funnel *f, enum np_stage st, enum np_scope sc,
				 const char *in_what, const char *drop_what)
{
	struct np_funnel_row *r = &f->rows[f->n++];

	memset(r, 0, sizeof(*r));
	r->stage = st;
	r->scope = sc;
	r->in_what = in_what;
	r->drop_what = drop_what;
	return r;
}

static void softnet_sums(const struct np_analysis *a, struct np_funnel_row *r)
{
	const struct np_softnet *c = &a->cur->hs->softnet;
	const struct np_softnet *p = a->prev ? &a->prev->hs->softnet : NULL;

	if (!np_src_ok(a->cur, NP_SRC_SOFTNET))
		return;
	for (size_t i = 0; i < c->n; i++) {
		const struct np_softnet_row *pr = NULL;

		/* Match rows by CPU: a CPU may go offline between the snapshots. */
		for (size_t k = 0; p && k < p->n; k++)
			if (p->rows[k].cpu == c->rows[i].cpu)
				pr = &p->rows[k];
		r->in = np_view_sum(r->in, np_view_u32(a, pr ? pr->processed : NP_NA,
						       c->rows[i].processed));
		r->drop = np_view_sum(r->drop, np_view_u32(a, pr ? pr->dropped : NP_NA,
							 c->rows[i].dropped));
	}
}

/* The MIB counters the funnel reads, each once: the rows' sums index them in their own
 * order (floating-point rates add up in that order), the ingress balance takes its own. */
enum {
	M_IN_RECEIVES, M_IN_DISCARDS, M_IN_HDR_ERRORS, M_IN_ADDR_ERRORS, M_IN_UNKNOWN_PROTOS,
	M_IN_NO_ROUTES, M_IN_CSUM_ERRORS, M_IN_TRUNCATED, M_REASM_FAILS, M_RP_FILTER,
	M_TCP_IN_SEGS, M_UDP_IN_DATAGRAMS, M_UDP_IN_ERRORS, M_UDP_NO_PORTS, M_TCP_IN_CSUM,
	M_UDP_IN_CSUM, M_TCP_BACKLOG_DROP, M_TCP_MIN_TTL_DROP, M_UDP_RCVBUF, M_UDP_MEM,
	M_LISTEN_DROPS, M_TCP_RCVQ_DROP, M_TCP_OFO_DROP, M_TCP_ZERO_WINDOW_DROP, M_REASM_OKS,
	M_EXPLAINED,	/* np_ingress_explained[], in its order */
	M_COUNT = M_EXPLAINED + NP_INGRESS_NEXPLAINED
};

_Static_assert(M_COUNT == NP_FUNNEL_NMIB, "funnel.h's NP_FUNNEL_NMIB");

static const char *const mib_name[M_EXPLAINED] = {
	"IpInReceives", "IpInDiscards", "IpInHdrErrors", "IpInAddrErrors", "IpInUnknownProtos",
	"IpExtInNoRoutes", "IpExtInCsumErrors", "IpExtInTruncatedPkts", "IpReasmFails",
	"TcpExtIPReversePathFilter", "TcpInSegs", "UdpInDatagrams", "UdpInErrors", "UdpNoPorts",
	"TcpInCsumErrors", "UdpInCsumErrors", "TcpExtTCPBacklogDrop", "TcpExtTCPMinTTLDrop",
	"UdpRcvbufErrors", "UdpMemErrors", "TcpExtListenDrops", "TcpExtTCPRcvQDrop",
	"TcpExtTCPOFODrop", "TcpExtTCPZeroWindowDrop", "IpReasmOKs",
};

static const char *mib_at(size_t i)
{
	return i < M_EXPLAINED ? mib_name[i] : np_ingress_explained[i - M_EXPLAINED];
}

/* Groups of mv[], -1 ended. */
static const int ip_in[] = { M_IN_RECEIVES, -1 };
static const int ip_drops[] = { M_IN_DISCARDS, M_IN_HDR_ERRORS, M_IN_ADDR_ERRORS,
				M_IN_UNKNOWN_PROTOS, M_IN_NO_ROUTES, M_IN_CSUM_ERRORS,
				M_IN_TRUNCATED, M_REASM_FAILS, M_RP_FILTER, -1 };
static const int l4_in[] = { M_TCP_IN_SEGS, M_UDP_IN_DATAGRAMS, M_UDP_IN_ERRORS, M_UDP_NO_PORTS,
			     -1 };
static const int l4_drops[] = { M_TCP_IN_CSUM, M_UDP_IN_CSUM, M_UDP_NO_PORTS, M_TCP_BACKLOG_DROP,
				M_TCP_MIN_TTL_DROP, -1 };
static const int sock_in[] = { M_TCP_IN_SEGS, M_UDP_IN_DATAGRAMS, -1 };
static const int sock_drops[] = { M_UDP_RCVBUF, M_UDP_MEM, M_LISTEN_DROPS, M_TCP_RCVQ_DROP,
				  M_TCP_OFO_DROP, M_TCP_ZERO_WINDOW_DROP, -1 };

static struct np_counter_view sum(const struct np_counter_view *mv, const int *ids)
{
	struct np_counter_view v = { 0 };

	for (size_t i = 0; ids[i] >= 0; i++)
		v = np_view_sum(v, mv[ids[i]]);
	return v;
}

/* The rows from the MIB views mv[] and conntrack's drops, however they were read. */
static void build(const struct np_analysis *a, const struct np_counter_view *mv,
		  struct np_counter_view ct, struct np_funnel *f)
{
	struct np_funnel_row *r;

	memset(f, 0, sizeof(*f));
	/* As snprintf "%s" would, for a second of history's a tenth of the funnel's cost. */
	memcpy(f->dev, a->cur->ifname, strnlen(a->cur->ifname, sizeof(f->dev) - 1));
	r = row(f, NP_STAGE_LINK, NP_SCOPE_INTERFACE, "rx_packets",
		"rx_crc_errors + rx_frame_errors + rx_length_errors");
	r->in = DEV(a, rx_packets);
	r->drop = np_view_sum(np_view_sum(DEV(a, rx_crc_errors), DEV(a, rx_frame_errors)),
			      DEV(a, rx_length_errors));

	/* rx_dropped is the stack's count of what the device received and could not hand on
	 * (nic.rx-dropped: a veth refusing frames above its MTU, an unknown protocol, filters),
	 * and some drivers put ring overflows there too: it may overlap the hardware's counters,
	 * so the row takes the larger, never the sum. The kernel adds softnet's backlog drops to
	 * it as well; the softnet row counts those. */
	r = row(f, NP_STAGE_NIC, NP_SCOPE_INTERFACE, "rx_packets",
		"rx_missed_errors + rx_fifo_errors + rx_over_errors, or rx_dropped less softnet "
		"drops if larger");
	r->in = DEV(a, rx_packets);
	r->drop = np_nv_max(np_view_sum(np_view_sum(DEV(a, rx_missed_errors),
						    DEV(a, rx_fifo_errors)),
					DEV(a, rx_over_errors)),
			    np_nv_beyond(a, DEV(a, rx_dropped), np_nv_softnet(a, false)));

	r = row(f, NP_STAGE_SOFTNET, NP_SCOPE_HOST, "softnet processed (post-GRO)",
		"softnet dropped (backlog full, flow limit)");
	softnet_sums(a, r);

	/* early_drop evicts an old entry to make room: the new packet passes, so only "drop"
	 * (no room even after eviction) is a lost packet. */
	/* Netfilter's rule drops have no counter of their own: they are what IPv4 input received
	 * and no IP counter accounts for (ingress.netfilter-drops), beside conntrack's. */
	r = row(f, NP_STAGE_INGRESS, NP_SCOPE_NETNS, "",
		"conntrack drop (table full) + IPv4 input that vanished (netfilter rules)");
	{
		struct np_ingress_views iv = {
			.in = mv[M_IN_RECEIVES], .deliv = mv[M_EXPLAINED], .oks = mv[M_REASM_OKS],
			.ct = ct,
		};
		struct np_ingress_gap g;

		memcpy(iv.explained, &mv[M_EXPLAINED], sizeof(iv.explained));
		np_ingress_gap_of(a, &iv, &g);
		r->drop = np_view_sum(g.ct, g.gone);
	}

	r = row(f, NP_STAGE_IP, NP_SCOPE_NETNS, "IpInReceives",
		"IpInDiscards + InHdrErrors + InAddrErrors + InUnknownProtos + InNoRoutes + "
		"InCsumErrors + InTruncatedPkts + ReasmFails + IPReversePathFilter");
	r->in = sum(mv, ip_in);
	r->drop = sum(mv, ip_drops);

	r = row(f, NP_STAGE_TRANSPORT, NP_SCOPE_NETNS, "TcpInSegs + UdpInDatagrams + UdpInErrors + "
		"UdpNoPorts", "checksum errors + UdpNoPorts + TCPBacklogDrop + TCPMinTTLDrop");
	r->in = sum(mv, l4_in);
	r->drop = sum(mv, l4_drops);

	r = row(f, NP_STAGE_SOCKET, NP_SCOPE_NETNS, "TcpInSegs + UdpInDatagrams",
		"UdpRcvbufErrors + UdpMemErrors + ListenDrops + TCPRcvQDrop + TCPOFODrop + "
		"TCPZeroWindowDrop");
	r->in = sum(mv, sock_in);
	r->drop = sum(mv, sock_drops);
}

void np_funnel_build(const struct np_analysis *a, struct np_funnel *f)
{
	struct np_counter_view mv[M_COUNT];

	for (size_t i = 0; i < M_COUNT; i++)
		mv[i] = np_view_mib(a, mib_at(i));
	build(a, mv, np_ingress_ct_view(a, a->prev ? np_counters_ref(&a->prev->hs->conntrack,
								     "drop") : NULL,
					np_counters_ref(&a->cur->hs->conntrack, "drop")), f);
}

void np_funnel_resolve(const struct np_snapshot *s, struct np_funnel_refs *r)
{
	for (size_t i = 0; i < M_COUNT; i++)
		r->mib[i] = np_counters_ref(&s->hs->mib, mib_at(i));
	r->ct_drop = np_counters_ref(&s->hs->conntrack, "drop");
}

void np_funnel_build_refs(const struct np_analysis *a, const struct np_funnel_refs *prev,
			  const struct np_funnel_refs *cur, struct np_funnel *f)
{
	struct np_counter_view mv[M_COUNT];

	/* As np_view_mib: no prev snapshot, no prev value. */
	if (!a->prev)
		prev = NULL;
	for (size_t i = 0; i < M_COUNT; i++)
		mv[i] = np_view_u64(a, prev && prev->mib[i] ? *prev->mib[i] : NP_NA,
				    cur->mib[i] ? *cur->mib[i] : NP_NA);
	build(a, mv, np_ingress_ct_view(a, prev ? prev->ct_drop : NULL, cur->ct_drop), f);
}
