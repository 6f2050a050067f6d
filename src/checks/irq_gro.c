// SPDX-License-Identifier: GPL-2.0-only
/* Stage "irq", NIC side: GRO off on a busy receiver, LRO on while forwarding (ethtool -k). */
#include "nic_view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void gro_off(const struct np_analysis *a, struct np_report *r)
{
	const char *ifn = a->cur->dev.name;
	uint64_t speed = np_nv_speed_mbps(a->cur);
	double pps = np_nv_rx_pps(a);
	bool fast = np_has(speed) && speed >= NP_NV_FAST_MBPS;
	bool busy = !isnan(pps) && pps >= NP_NV_BUSY_PPS;
	bool virt = np_src_ok(a->cur, NP_SRC_NETDEV) && np_dev_is_virtual(a->cur);
	struct np_finding *f;
	char num[32];

	/* veth ships with GRO off, and local TCP crosses it as GSO super-packets anyway. */
	if (virt && !busy)
		return;
	if (busy)
		f = np_emit(r, virt ? NP_SEV_INFO : NP_SEV_WARNING, "GRO is off on %s while it "
			    "receives %s packets/s", ifn, np_fmt_num(pps, num, sizeof(num)));
	else
		f = np_emit(r, fast ? NP_SEV_WARNING : NP_SEV_INFO, "GRO is off on %s%s", ifn,
			    fast ? " (a 10G+ link)" : "");
	np_ev_text(f, "gro", "off");
	if (np_has(speed))
		np_ev_value(f, "speed", "Mbit/s", (double)speed);
	if (!isnan(pps))
		np_ev_value(f, "rx_packets", "packets/s", pps);
	np_detail(f, "Without GRO every wire packet travels the whole stack (netfilter, IP, TCP, "
		     "socket wakeups) alone; GRO merges the packets of a flow within one NAPI "
		     "poll, typically cutting per-packet CPU several-fold for TCP. It is safe for "
		     "forwarding and bridging (segments are rebuilt on output). At low packet "
		     "rates it makes no visible difference.");
	if (virt)
		np_detail(f, "On a veth, traffic from local sockets already crosses as GSO "
			     "super-packets; GRO (which switches veth to NAPI mode) helps UDP and "
			     "forwarded traffic.");
	np_remedy(f, "ethtool -K %s gro on", ifn);
	np_remedy(f, "Cost: no reset on most drivers; packet captures on the host see merged "
		     "frames; latency is unchanged (merging ends with each poll).");
}

static void lro_forwarding(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	bool ok4, ok6, fwd;
	int64_t fwd4 = np_sysctl_int(s, NP_SYSCTL_IP_FORWARD, 0, &ok4);
	int64_t fwd6 = np_sysctl_int(s, NP_SYSCTL_IPV6_CONF_ALL_FORWARDING, 0, &ok6);
	struct np_finding *f;

	fwd = (ok4 && fwd4 == 1) || (ok6 && fwd6 == 1);
	if (!fwd && (ok4 || ok6))
		return;		/* an end host: LRO is harmless there */
	f = np_emit(r, fwd ? NP_SEV_WARNING : NP_SEV_INFO, "LRO is on for %s%s", s->dev.name,
		    fwd ? " and this host forwards IP" : " (forwarding state unknown)");
	np_ev_text(f, "lro", "on");
	if (ok4)
		np_ev_value(f, "net.ipv4.ip_forward", "", (double)fwd4);
	if (ok6)
		np_ev_value(f, "net.ipv6.conf.all.forwarding", "", (double)fwd6);
	np_detail(f, "LRO merges packets in the NIC and loses the original segment boundaries: "
		     "forwarded or bridged LRO frames exceed the outgoing MTU and are dropped or "
		     "mangled. The kernel turns LRO off when forwarding is enabled or the device "
		     "joins a bridge, so seeing it on means it was re-enabled later or the driver "
		     "ignored the request. On an end host LRO is harmless.");
	np_remedy(f, "ethtool -K %s lro off gro on   # GRO keeps the merging, safely",
		  s->dev.name);
	np_remedy(f, "Cost: some drivers reset the rings when LRO changes; GRO does in software "
		     "what LRO did in the NIC (a little more CPU; rx-gro-hw, where offered, is the "
		     "forwarding-safe hardware variant).");
}

static void run_gro(const struct np_analysis *a, struct np_report *r)
{
	const struct np_features *ft = &a->cur->eth.features;

	if (!np_nv_src_usable(a->cur, NP_SRC_ETHTOOL_FEATURES, "offload features", r))
		return;
	if (ft->gro < 0 && ft->lro < 0) {
		np_skip(r, "driver did not report the GRO/LRO state");
		return;
	}
	if (ft->gro == 0)
		gro_off(a, r);
	if (ft->lro == 1)
		lro_forwarding(a, r);
}

const struct np_check np_check_irq_gro = {
	.id = "irq.gro",
	.stage = NP_STAGE_IRQ,
	.scope = NP_SCOPE_INTERFACE,
	.title = "GRO off, or LRO on while forwarding",
	.looks_at = "ethtool features (generic-receive-offload, large-receive-offload), link "
		    "speed, receive packet rate, net.ipv4.ip_forward, net.ipv6.conf.all.forwarding",
	.why = "GRO merges the packets of a flow before the stack, cutting per-packet CPU; off, "
	       "a busy 10G+ receiver spends its CPUs on headers. LRO does the same in the NIC but "
	       "destroys segment boundaries, which breaks forwarding and bridging. On a lightly "
	       "loaded slow link GRO off is harmless, and LRO is harmless on an end host.",
	.fix = "ethtool -K IF gro on; with forwarding or bridging also lro off.",
	.related = "ethtool -k/-K gro lro rx-gro-hw, net.ipv4.ip_forward, "
		   "net.core.gro_normal_batch",
	.warn = NAN, .crit = NAN,
	.run = run_gro,
};
