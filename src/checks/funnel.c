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

void np_funnel_build(const struct np_analysis *a, struct np_funnel *f)
{
	static const char *const ip_drops[] = {
		"IpInDiscards", "IpInHdrErrors", "IpInAddrErrors", "IpInUnknownProtos",
		"IpExtInNoRoutes", "IpExtInCsumErrors", "IpExtInTruncatedPkts", "IpReasmFails",
		"TcpExtIPReversePathFilter", NULL };
	static const char *const l4_in[] = { "TcpInSegs", "UdpInDatagrams", "UdpInErrors",
					     "UdpNoPorts", NULL };
	static const char *const l4_drops[] = { "TcpInCsumErrors", "UdpInCsumErrors", "UdpNoPorts",
						"TcpExtTCPBacklogDrop", "TcpExtTCPMinTTLDrop", NULL };
	static const char *const sock_in[] = { "TcpInSegs", "UdpInDatagrams", NULL };
	static const char *const sock_drops[] = { "UdpRcvbufErrors", "UdpMemErrors",
						  "TcpExtListenDrops", "TcpExtTCPRcvQDrop",
						  "TcpExtTCPOFODrop", "TcpExtTCPZeroWindowDrop", NULL };
	static const char *const ip_in[] = { "IpInReceives", NULL };
	struct np_funnel_row *r;

	memset(f, 0, sizeof(*f));
	snprintf(f->dev, sizeof(f->dev), "%s", a->cur->ifname);
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
		struct np_ingress_gap g;

		np_ingress_gap(a, &g);
		r->drop = np_view_sum(g.ct, g.gone);
	}

	r = row(f, NP_STAGE_IP, NP_SCOPE_NETNS, "IpInReceives",
		"IpInDiscards + InHdrErrors + InAddrErrors + InUnknownProtos + InNoRoutes + "
		"InCsumErrors + InTruncatedPkts + ReasmFails + IPReversePathFilter");
	r->in = np_mib_sum(a, ip_in);
	r->drop = np_mib_sum(a, ip_drops);

	r = row(f, NP_STAGE_TRANSPORT, NP_SCOPE_NETNS, "TcpInSegs + UdpInDatagrams + UdpInErrors + "
		"UdpNoPorts", "checksum errors + UdpNoPorts + TCPBacklogDrop + TCPMinTTLDrop");
	r->in = np_mib_sum(a, l4_in);
	r->drop = np_mib_sum(a, l4_drops);

	r = row(f, NP_STAGE_SOCKET, NP_SCOPE_NETNS, "TcpInSegs + UdpInDatagrams",
		"UdpRcvbufErrors + UdpMemErrors + ListenDrops + TCPRcvQDrop + TCPOFODrop + "
		"TCPZeroWindowDrop");
	r->in = np_mib_sum(a, sock_in);
	r->drop = np_mib_sum(a, sock_drops);
}
