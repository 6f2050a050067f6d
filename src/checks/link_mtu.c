// SPDX-License-Identifier: GPL-2.0-only
/* Stage "link": frames refused at the device because they are larger than its MTU (veth). */
#include "nic_view.h"

#include <stdio.h>
#include <string.h>

/*
 * A veth hands each frame straight to its peer, and the receiving end refuses a frame longer
 * than its own MTU (__dev_forward_skb). That frame is counted in the receiver's rx_dropped and
 * NOT in its rx_packets, unlike the other ways a veth's rx_dropped grows: a full per-CPU
 * backlog also counts in softnet_stat's dropped, and a frame no protocol handles was first
 * counted in rx_packets. So over an interval
 *	refused >= rx_dropped - rx_packets - softnet dropped (all CPUs)
 * and anything above zero is frames too big for this end: an MTU mismatch with the peer (or
 * frames sent while this end was down). XDP on the device (its drops are counted in
 * rx_dropped too) makes the bound useless. A physical MAC counts oversize frames in
 * rx_length_errors instead (link.rx-errors).
 */
static void run_mtu_mismatch(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	const char *ifn = s->dev.name;
	struct np_counter_view drop, pkts, sn, refused = { 0 };
	struct np_finding *f;
	enum np_severity sev;
	double n;
	char rate[32], got[32];

	if (strcmp(np_nv_drv_name(s), "veth")) {
		np_not_applicable(r, "%s is not a veth: a physical link counts oversize frames as length "
			   "errors (link.rx-errors)", ifn);
		return;
	}
	drop = NP_NV_LINK(a, rx_dropped, NULL);
	pkts = NP_NV_LINK(a, rx_packets, NULL);
	if (!drop.present || !pkts.present) {
		np_skip(r, "rx_dropped or rx_packets of %s not reported", ifn);
		return;
	}
	if (!drop.sampled || !pkts.sampled || a->dt <= 0) {
		np_not_applicable(r, "needs an interval: only rates tell refused frames from other drops");
		return;
	}
	if (s->rtnl.xdp_attached > 0) {
		np_skip(r, "an XDP program on %s counts its drops in rx_dropped too", ifn);
		return;
	}
	sn = np_nv_softnet(a, false);
	n = (double)drop.delta - (double)pkts.delta - (sn.sampled ? (double)sn.delta : 0.0);
	if (n < 1)
		return;
	refused.present = refused.sampled = true;
	refused.total = drop.total;
	refused.delta = (uint64_t)n;
	refused.rate = n / a->dt;
	sev = np_verdict(&refused, np_thr_warn(r), np_thr_crit(r));
	f = np_emit(r, sev, "%s refuses %s frames/s from its veth peer as larger than its MTU "
		    "%llu (while it received %s/s)", ifn,
		    np_fmt_num(refused.rate, rate, sizeof(rate)), (unsigned long long)s->dev.mtu,
		    np_fmt_num(pkts.rate, got, sizeof(got)));
	if (!f)
		return;
	f->rank = refused.rate;
	np_ev_value(f, "refused_at_least", "frames/s", refused.rate);
	if (np_has(s->dev.mtu))
		np_ev_value(f, "mtu", "bytes", (double)s->dev.mtu);
	np_ev_counter(f, "rx_dropped", "packets", &drop);
	np_ev_counter(f, "rx_packets", "packets", &pkts);
	if (sn.present)
		np_ev_counter(f, "softnet_dropped_all_cpus", "packets", &sn);
	np_detail(f, "A veth's peer hands frames straight to %s, which refuses any frame longer "
		     "than its MTU and counts it in rx_dropped but not in rx_packets. Backlog "
		     "overflow (softnet dropped) and unhandled protocols (already in rx_packets) "
		     "cannot explain rx_dropped growing faster than that: the peer has a larger "
		     "MTU (or its traffic arrived while %s was down). These frames never reach "
		     "tcpdump on %s; the sender sees them as tx_dropped.", ifn, ifn, ifn);
	np_remedy(f, "ip -d link show %s   # 'link-netns NS' and '@ifN' name the peer", ifn);
	np_remedy(f, "ip -n NS link show   # the peer's MTU; then give both ends the same one: "
		     "ip link set dev %s mtu N (or lower the peer's)", ifn);
	np_remedy(f, "Cost: none on a veth (no link reset); a larger MTU only helps if every hop "
		     "beyond the peer carries it too.");
}

const struct np_check np_check_link_mtu_mismatch = {
	.id = "link.mtu-mismatch",
	.stage = NP_STAGE_LINK,
	.scope = NP_SCOPE_INTERFACE,
	.title = "Frames larger than the MTU refused (MTU mismatch with the peer)",
	.looks_at = "a veth's rx_dropped vs rx_packets over the interval, softnet_stat dropped "
		    "(all CPUs), the MTU",
	.why = "When the two ends of a link disagree on the MTU, every frame larger than the "
	       "receiver's MTU is lost before any queue, silently for the sender's protocol: "
	       "small packets pass, large ones vanish (TCP stalls after the handshake, large UDP "
	       "datagrams never arrive). On a veth the loss shows only as rx_dropped.",
	.fix = "Give both ends the same MTU. Costs nothing on a veth; on a physical link the MTU "
	       "change may reset it.",
	.related = "ip link set dev IF mtu N, link.rx-errors (rx_length_errors on physical NICs)",
	.kernel_notes = "Judged on veth only, where the counters identify refused frames: "
			"rx_dropped growing beyond rx_packets plus the host's backlog drops. "
			"Physical NICs count oversize frames in rx_length_errors (link.rx-errors) "
			"or oversize counters (link.phy-errors).",
	.warn = 1, .crit = 100, .thr_unit = "refused frames/s",
	.run = run_mtu_mismatch,
};
