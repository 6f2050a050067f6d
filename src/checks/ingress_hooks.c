// SPDX-License-Identifier: GPL-2.0-only
/* Stage "ingress", hooks before the stack: an attached XDP program, tc ingress/clsact drops. */
#include "check_util.h"
#include "nic_view.h"

#include <stdio.h>
#include <string.h>

/* How many ingress qdiscs a finding lists in its evidence. */
#define TC_EV_MAX 4

static const char *xdp_mode(int attached)
{
	switch (attached) {
	case 1: return "native";
	case 2: return "generic";
	case 3: return "offload";
	case 4: return "multiple";
	}
	return "unknown";
}

static void run_xdp_attached(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	const struct np_rtnl *rt = &s->rtnl;
	const char *ifn = s->dev.name;
	uint64_t speed = np_nv_speed_mbps(s);
	double pps = np_nv_rx_pps(a);
	bool fast = (np_has(speed) && speed >= NP_NV_FAST_MBPS) ||
		    (!isnan(pps) && pps >= NP_NV_BUSY_PPS);
	struct np_nv_drv xdrop;
	struct np_finding *f;
	char id[32];

	if (!np_nv_src_usable(s, NP_SRC_RTNL_LINK, "rtnetlink link attributes", r))
		return;
	if (rt->xdp_attached < 0) {
		np_skip(r, "the kernel did not report IFLA_XDP for %s", ifn);
		return;
	}
	if (rt->xdp_attached == 0)
		return;
	if (rt->xdp_prog_id)
		snprintf(id, sizeof(id), "id %u", rt->xdp_prog_id);
	else
		snprintf(id, sizeof(id), "id not reported");
	if (rt->xdp_attached == 2 && fast)
		f = np_emit(r, NP_SEV_WARNING, "A generic (skb-mode) XDP program (%s) runs on %s, "
			    "a fast link", id, ifn);
	else
		f = np_emit(r, NP_SEV_INFO, "An XDP program (%s, %s mode) is attached to %s", id,
			    xdp_mode(rt->xdp_attached), ifn);
	if (!f)
		return;
	np_ev_text(f, "xdp_mode", "%s", xdp_mode(rt->xdp_attached));
	if (rt->xdp_prog_id)
		np_ev_value(f, "xdp_prog_id", "", (double)rt->xdp_prog_id);
	if (np_has(speed))
		np_ev_value(f, "speed", "Mbit/s", (double)speed);
	if (!isnan(pps))
		np_ev_value(f, "rx_packets", "packets/s", pps);
	np_nv_drv_collect(a, NP_DRV_XDP_DROP, false, &xdrop);
	if (xdrop.v.present)
		np_ev_counter(f, "driver_xdp_drops", "packets", &xdrop.v);
	np_detail(f, "The program sees packets before the stack and may drop, redirect or "
		     "rewrite them. Its XDP_DROP verdicts appear in no interface, softnet or MIB "
		     "counter: in native/offload mode only in driver counters (ethtool -S, e.g. "
		     "rx_xdp_drop), in generic mode nowhere.");
	if (rt->xdp_attached == 2)
		np_detail(f, "Generic mode runs after the skb is built and after GRO, and "
			     "linearizes every packet: far costlier than native mode at high "
			     "rates, and it turns off LRO/HW-GRO.");
	np_detail(f, "Owners are usually Cilium, Katran, xdp-tools' dispatcher (libxdp), a DDoS "
		     "filter or an AF_XDP application.");
	np_remedy(f, "bpftool net show dev %s   # program name, mode, bpf_link or legacy", ifn);
	if (rt->xdp_prog_id)
		np_remedy(f, "bpftool prog show id %u   # who loaded it (pids), when",
			  rt->xdp_prog_id);
	if (rt->xdp_attached == 2)
		np_remedy(f, "Have its owner attach it in native mode (xdpdrv) if the driver "
			     "supports it.");
	np_remedy(f, "Cost: inspecting is free; re-attaching resets rings or the link on many "
		     "drivers, and removing someone else's program breaks what it does.");
}

static void run_tc_drops(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	const char *ifn = s->dev.name;
	struct np_counter_view drops = { 0 }, pkts = { 0 };
	const struct np_qdisc *shown[TC_EV_MAX];
	size_t n = 0;
	bool clsact = false;
	struct np_finding *f;
	enum np_severity sev;
	char name[48], key[64];

	if (!np_nv_src_usable(s, NP_SRC_RTNL_QDISC, "qdisc list", r))
		return;
	for (size_t i = 0; i < s->rtnl.nqdisc; i++) {
		const struct np_qdisc *q = &s->rtnl.qdiscs[i];

		if (!q->ingress)
			continue;
		drops = np_view_sum(drops, np_nv_qdisc_drops(a, q));
		pkts = np_view_sum(pkts, np_nv_qdisc_packets(a, q));
		clsact |= !strcmp(q->kind, "clsact");
		if (n < TC_EV_MAX)
			shown[n++] = q;
	}
	if (!n)
		return;
	sev = np_verdict(&drops, np_thr_warn(r), np_thr_crit(r));
	if (sev == NP_SEV_OK)
		return;
	if (drops.sampled && drops.delta)
		f = np_emit(r, sev, "tc filters on %s's %s hook drop %s packets/s (%llu since "
			    "boot)", ifn, clsact ? "clsact" : "ingress", np_fmt_rate(drops.rate),
			    (unsigned long long)drops.total);
	else
		f = np_emit(r, sev, "tc filters on %s's %s hook dropped %llu packets since boot%s",
			    ifn, clsact ? "clsact" : "ingress", (unsigned long long)drops.total,
			    drops.sampled ? ", none during the sample" : "");
	if (!f)
		return;
	f->rank = drops.rate;
	for (size_t i = 0; i < n; i++) {
		struct np_counter_view d = np_nv_qdisc_drops(a, shown[i]);
		struct np_counter_view p = np_nv_qdisc_packets(a, shown[i]);

		np_nv_qdisc_name(shown[i], name, sizeof(name));
		snprintf(key, sizeof(key), "%s.drops", name);
		np_ev_counter(f, key, "packets", &d);
		snprintf(key, sizeof(key), "%s.packets", name);
		np_ev_counter(f, key, "packets", &p);
	}
	if (drops.sampled && pkts.sampled && pkts.delta)
		np_ev_value(f, "dropped_share", "% of packets",
			    100.0 * (double)drops.delta / (double)(pkts.delta + drops.delta));
	np_detail(f, "A tc filter returned TC_ACT_SHOT (a drop action, a police action over its "
		     "rate, or a BPF classifier): packets die before netfilter and IP (kfree_skb "
		     "reason TC_INGRESS). This may be deliberate (DDoS filtering, policing).");
	if (clsact)
		np_detail(f, "clsact counts the drops of its egress filters in the same counter.");
	np_detail(f, "Programs attached through tcx links (6.6+, e.g. recent Cilium) update no "
		     "qdisc counter: their drops are invisible here.");
	np_remedy(f, "tc -s filter show dev %s ingress   # per-filter action counters name the "
		     "dropping rule", ifn);
	if (clsact)
		np_remedy(f, "tc -s filter show dev %s egress", ifn);
	np_remedy(f, "bpftool net show dev %s   # BPF classifiers and tcx programs", ifn);
	np_remedy(f, "Cost: inspecting is free; removing or loosening a filter removes the policy "
		     "it enforces.");
}

const struct np_check np_check_ingress_xdp_attached = {
	.id = "ingress.xdp-attached",
	.stage = NP_STAGE_INGRESS,
	.scope = NP_SCOPE_INTERFACE,
	.title = "XDP program attached",
	.looks_at = "rtnetlink IFLA_XDP (attach mode, program id), link speed, receive rate, "
		    "driver XDP drop counters",
	.why = "An XDP program decides the fate of every packet before the stack; its drops are "
	       "invisible to every standard counter, so 'packets vanish' with clean counters "
	       "often means XDP. Native mode is cheap; generic (skb) mode runs late, linearizes "
	       "packets and costs CPU on fast links. An attached program is normal on hosts "
	       "running Cilium, Katran or XDP-based filters.",
	.fix = "Identify the program and its owner (bpftool net show, bpftool prog show); have "
	       "the owner use native mode. Re-attaching resets rings on many drivers.",
	.related = "bpftool net, ip link set dev IF xdp off, ethtool -S (xdp counters)",
	.kernel_notes = "IFLA_XDP_ATTACHED modes: 1 native, 2 generic, 3 offload, 4 multiple "
			"(4.13+); bpf_link-based XDP (5.9+) cannot be replaced by ip link.",
	.warn = NAN, .crit = NAN,
	.run = run_xdp_attached,
};

const struct np_check np_check_ingress_tc_drops = {
	.id = "ingress.tc-drops",
	.stage = NP_STAGE_INGRESS,
	.scope = NP_SCOPE_INTERFACE,
	.title = "tc ingress/clsact filters dropping",
	.looks_at = "rtnetlink qdisc statistics of the ingress and clsact qdiscs over the interval",
	.why = "A tc filter with a drop or police action, or a BPF classifier returning "
	       "TC_ACT_SHOT, discards packets before netfilter and IP; only the qdisc's drop "
	       "counter shows it. Deliberate filtering (DDoS protection, policing) drops too: "
	       "check whether the dropped traffic is wanted.",
	.fix = "Find the dropping filter (tc -s filter show dev IF ingress) and fix or remove it.",
	.related = "tc filter, tc qdisc clsact, bpftool net",
	.kernel_notes = "tcx links (6.6+) bypass the clsact qdisc and count nothing there. clsact "
			"counts ingress and egress filter drops together.",
	.warn = 1, .crit = 1000, .thr_unit = "drops/s",
	.run = run_tc_drops,
};
