// SPDX-License-Identifier: GPL-2.0-only
/* Stage "link": frames refused at the device because they are larger than its MTU (veth), on
 * the receiving end and on the sending end. */
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

/*
 * The sending end of the same loss. veth_xmit() hands each frame to the peer; whatever the
 * peer refuses (too long for its MTU, its per-CPU backlog full, the peer gone) is counted in
 * the sender's tx_dropped, once per frame, and in the peer's rx_dropped: reproduced with a
 * 1500-byte end flooding a 1000-byte one, both moved by exactly the frames sent. Nothing else
 * counts in a veth's tx_dropped but an XDP_TX/redirect that failed. The peer's MTU is read in
 * the peer's own namespace (rtnl.peer_mtu): when it is smaller, that is named as the cause.
 */
static void run_peer_refuses(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	const char *ifn = s->dev.name, *peer = s->rtnl.peer_name[0] ? s->rtnl.peer_name : NULL;
	struct np_counter_view txd, txp;
	struct np_finding *f;
	enum np_severity sev;
	bool smaller = np_has(s->rtnl.peer_mtu) && np_has(s->dev.mtu) &&
		       s->rtnl.peer_mtu < s->dev.mtu;
	char rate[32], cause[96] = "";

	if (strcmp(np_nv_drv_name(s), "veth")) {
		np_not_applicable(r, "%s is not a veth: only a veth's tx_dropped counts what its peer "
			   "refused", ifn);
		return;
	}
	txd = NP_NV_LINK(a, tx_dropped, NULL);
	txp = NP_NV_LINK(a, tx_packets, NULL);
	if (!txd.present) {
		np_skip(r, "tx_dropped of %s not reported", ifn);
		return;
	}
	sev = np_verdict(&txd, np_thr_warn(r), np_thr_crit(r));
	if (sev == NP_SEV_OK)
		return;
	if (smaller)
		snprintf(cause, sizeof(cause), ": its MTU %llu is smaller than %s's %llu",
			 (unsigned long long)s->rtnl.peer_mtu, ifn, (unsigned long long)s->dev.mtu);
	if (txd.sampled && txd.delta)
		f = np_emit(r, sev, "%s's veth peer %s refuses %s frames/s that %s sends%s", ifn,
			    peer ? peer : "(unnamed)", np_fmt_num(txd.rate, rate, sizeof(rate)),
			    ifn, cause);
	else
		f = np_emit(r, sev, "%s's veth peer %s refused %llu frames that %s sent since "
			    "boot%s%s", ifn, peer ? peer : "(unnamed)",
			    (unsigned long long)txd.total, ifn,
			    txd.sampled ? ", none during the sample" : "", cause);
	if (!f)
		return;
	f->rank = txd.rate;
	np_ev_counter(f, "tx_dropped", "packets", &txd);
	if (txp.present)
		np_ev_counter(f, "tx_packets", "packets", &txp);
	if (np_has(s->dev.mtu))
		np_ev_value(f, "mtu", "bytes", (double)s->dev.mtu);
	if (np_has(s->rtnl.peer_mtu))
		np_ev_value(f, "peer_mtu", "bytes", (double)s->rtnl.peer_mtu);
	if (np_has(s->rtnl.peer_rx_dropped))
		np_ev_value(f, "peer_rx_dropped", "packets", (double)s->rtnl.peer_rx_dropped);
	np_detail(f, "A veth hands each frame straight to its peer; a frame the peer refuses is "
		     "counted in %s's tx_dropped and in the peer's rx_dropped, and never reaches "
		     "tcpdump on the peer. The sender's protocol is not told: small packets pass, "
		     "large ones vanish.", ifn);
	if (smaller)
		np_detail(f, "Every frame longer than %llu bytes is refused: the peer's MTU is "
			     "smaller than this end's (link.mtu-mismatch judges it on the peer).",
			  (unsigned long long)s->rtnl.peer_mtu);
	else if (np_has(s->rtnl.peer_mtu))
		np_detail(f, "The peer's MTU (%llu) is not smaller than this end's: its per-CPU "
			     "backlog was full (softnet.backlog-drops on the peer's side), it was down, "
			     "or an XDP program there failed to transmit.",
			  (unsigned long long)s->rtnl.peer_mtu);
	else
		np_detail(f, "The peer's MTU could not be read: compare it with ip -d link show.");
	np_remedy(f, "ip -d link show %s   # 'link-netns NS' and '@ifN' name the peer", ifn);
	if (smaller)
		np_remedy(f, "ip link set dev %s mtu %llu   # or raise the peer's MTU to %llu", ifn,
			  (unsigned long long)s->rtnl.peer_mtu, (unsigned long long)s->dev.mtu);
	else
		np_remedy(f, "netpath doctor PEER   # in the peer's namespace (--netns NS): its "
			     "backlog and rx_dropped");
	np_remedy(f, "Cost: none on a veth (no link reset); a smaller MTU means more packets for "
		     "the same data.");
}

const struct np_check np_check_link_veth_peer_refuses = {
	.id = "link.veth-peer-refuses",
	.stage = NP_STAGE_LINK,
	.scope = NP_SCOPE_INTERFACE,
	.title = "A veth's peer refuses what it sends (tx_dropped)",
	.looks_at = "a veth's tx_dropped and tx_packets, the peer's MTU and rx_dropped read in the "
		    "peer's own namespace",
	.why = "The receiving end of a veth pair counts the frames it refuses, but the diagnosis "
	       "usually starts on the sender (the container's side): there the loss shows only as "
	       "tx_dropped, which nothing else on a veth counts.",
	.fix = "When the peer's MTU is smaller, give both ends the same MTU; otherwise diagnose "
	       "the peer (its backlog, its state). Costs nothing on a veth.",
	.related = "link.mtu-mismatch (the receiving end), softnet.backlog-drops, ip -d link show",
	.kernel_notes = "veth_xmit() counts refused frames in the sender's tx_dropped (priv->dropped) "
			"and __dev_forward_skb() in the peer's rx_dropped. The peer is asked by "
			"IFLA_TARGET_NETNSID (4.20 and later).",
	.warn = 1, .crit = 100, .thr_unit = "refused frames/s",
	.run = run_peer_refuses,
};
