// SPDX-License-Identifier: GPL-2.0-only
/* Stage "link", for a tunnel: does a full-size inner frame still fit the underlay's MTU? */
#include "check.h"
#include "check_util.h"
#include "stack.h"

#include <stdio.h>

/* Outer Ethernet is not counted in an MTU: IPv4 20 + UDP 8 + VXLAN/Geneve 8 + inner
 * Ethernet 14. An IPv6 outer header adds 20 more; Geneve options add their length. */
#define TUNNEL_OVERHEAD_V4 50

static void run_tunnel_mtu(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	enum np_dev_kind k = np_dev_kind_of(s);
	const struct np_snapshot *u;
	struct np_finding *f;
	uint64_t need;

	if (k != NP_KIND_VXLAN && k != NP_KIND_GENEVE) {
		np_not_applicable(r, "%s is no vxlan or geneve tunnel", s->dev.name);
		return;
	}
	if (!a->nlower || !np_has(s->dev.mtu) || !np_has(a->lower[0]->cur->dev.mtu)) {
		np_skip(r, "the MTU of %s or of its underlay is not known", s->dev.name);
		return;
	}
	u = a->lower[0]->cur;
	need = s->dev.mtu + TUNNEL_OVERHEAD_V4;
	if (need <= u->dev.mtu)
		return;
	f = np_emit(r, NP_SEV_WARNING, "%s (MTU %llu) over %s (MTU %llu): a full-size frame "
		    "needs %llu bytes on the underlay", s->dev.name,
		    (unsigned long long)s->dev.mtu, u->dev.name, (unsigned long long)u->dev.mtu,
		    (unsigned long long)need);
	if (!f)
		return;
	np_ev_value(f, "tunnel_mtu", "bytes", (double)s->dev.mtu);
	np_ev_value(f, "underlay_mtu", "bytes", (double)u->dev.mtu);
	np_ev_value(f, "encapsulation_overhead", "bytes", TUNNEL_OVERHEAD_V4);
	np_detail(f, "Encapsulation adds %d bytes (IPv4 outer header; 20 more over IPv6, plus "
		     "Geneve options). Frames that no longer fit are fragmented by the sender or, "
		     "with DF set, dropped: large transfers stall while small packets (ping, SSH "
		     "prompts) work.", TUNNEL_OVERHEAD_V4);
	np_remedy(f, "ip link set dev %s mtu %llu   # or raise %s's MTU to %llu (every hop of the "
		     "underlay must carry it)", s->dev.name,
		  (unsigned long long)(u->dev.mtu - TUNNEL_OVERHEAD_V4), u->dev.name,
		  (unsigned long long)need);
	np_remedy(f, "Cost: a smaller tunnel MTU means more packets for the same data; a larger "
		     "underlay MTU needs every switch and router on the path to carry it.");
}

const struct np_check np_check_link_tunnel_mtu = {
	.id = "link.tunnel-mtu",
	.stage = NP_STAGE_LINK,
	.scope = NP_SCOPE_INTERFACE,
	.title = "Tunnel MTU plus encapsulation above the underlay's MTU",
	.looks_at = "the MTU of a vxlan or geneve device and of its underlay (the device it was "
		    "created on, else the default route's)",
	.why = "A tunnel's frames are carried inside UDP on the underlay: 50 bytes more (IPv4). "
	       "When the tunnel's MTU plus that exceeds the underlay's, full-size frames are "
	       "fragmented or dropped. It does not matter when the underlay carries jumbo frames "
	       "end to end.",
	.fix = "Lower the tunnel MTU by the overhead, or raise the underlay's MTU on every hop.",
	.related = "ip link set mtu, vxlan, geneve",
	.warn = NAN, .crit = NAN, .thr_unit = NULL,
	.run = run_tunnel_mtu,
};
