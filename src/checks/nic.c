// SPDX-License-Identifier: GPL-2.0-only
/* Stage "nic": NIC buffers and RX rings as the interface's sysfs statistics report them. */
#include "check_util.h"
#include "nic_view.h"
#include "raise.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* "missed 12, fifo 0, over 0 since boot" from the interface counters, or the driver's
 * counters when those are the witness that counted (never both: the same drops). */
static void missed_counts(const struct np_nv_ring *rg, const struct np_counter_view *all,
			  char *buf, size_t size)
{
	bool drv = rg->drv.ntop && all->total == rg->drv.v.total &&
		   all->delta == rg->drv.v.delta &&
		   (!rg->missed.present || rg->drv.v.total != rg->missed.total);

	if (drv && rg->drv.n > 1)
		snprintf(buf, size, "%s and %zu more driver counters: %llu since boot",
			 rg->drv.top[0].name, rg->drv.n - 1, (unsigned long long)rg->drv.v.total);
	else if (drv)
		snprintf(buf, size, "%s %llu since boot", rg->drv.top[0].name,
			 (unsigned long long)rg->drv.v.total);
	else
		snprintf(buf, size, "missed %llu, fifo %llu, over %llu since boot",
			 (unsigned long long)rg->missed.total, (unsigned long long)rg->fifo.total,
			 (unsigned long long)rg->over.total);
}

/* Ring sizes unknown: the proposal says it cannot know whether the ring is already larger. */
static void ring_unknown_remedy(struct np_finding *f, const struct np_snapshot *s,
				const char *ifn)
{
	char prefix[48], name[48];

	snprintf(prefix, sizeof(prefix), "ethtool -G %s rx ", ifn);
	snprintf(name, sizeof(name), "%s's rx ring size", ifn);
	np_remedy_raise(f, s, name, prefix, false, 0, 4096, "or the maximum ethtool -g shows");
}

/* Why the ring size cannot be part of this finding's remedy, and what to do instead. */
static void missed_ring_text(struct np_finding *f, const struct np_snapshot *s,
			     enum np_nv_ring_state st)
{
	const struct np_rings *rg = &s->eth.rings;
	const char *ifn = s->dev.name;

	if (st == NP_NV_RING_AT_MAX) {
		np_detail(f, "The RX ring is already at its hardware maximum (%llu descriptors): "
			     "the host refills it too slowly, and only faster draining helps.",
			  (unsigned long long)rg->rx);
	} else if (st == NP_NV_RING_BELOW_MAX) {
		np_detail(f, "The ring-empty drops themselves are reported by nic.ring-size "
			     "(ring %llu of %llu); these are the FIFO/overrun errors beyond them.",
			  (unsigned long long)rg->rx, (unsigned long long)rg->rx_max);
	} else if (np_srcp(s, NP_SRC_ETHTOOL_RINGS)->status == NP_SRC_UNSUPPORTED ||
		   np_src_ok(s, NP_SRC_ETHTOOL_RINGS)) {
		np_detail(f, "The driver reports no ring sizes to ethtool.");
		np_remedy(f, "ethtool -g %s   # current vs maximum ring size, if it shows them", ifn);
		ring_unknown_remedy(f, s, ifn);
	} else {
		np_detail(f, "Ring sizes come from ethtool, which this run did not read.");
		np_remedy(f, "ethtool -g %s   # current vs maximum ring size", ifn);
		ring_unknown_remedy(f, s, ifn);
	}
}

static void run_missed(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	enum np_nv_ring_state st = np_nv_ring_state(s);
	struct np_counter_view all, pkts;
	struct np_nv_ring rg;
	struct np_finding *f;
	enum np_severity sev;
	const char *ifn = s->dev.name;
	char counts[160];

	np_nv_ring_empty(a, &rg);
	if (!rg.missed.present && !rg.fifo.present && !rg.over.present && !rg.drv.n &&
	    !rg.overruns.present) {
		np_skip(r, "interface statistics (rx_missed/fifo/over_errors) not reported");
		return;
	}
	/* One finding per loss: below the maximum ring size nic.ring-size escalates the
	 * ring-empty drops; only what the FIFO/overrun counters saw beyond them is left here. */
	all = st == NP_NV_RING_BELOW_MAX ? np_nv_beyond(a, rg.all, rg.ring) : rg.all;
	pkts = NP_NV_LINK(a, rx_packets, NULL);
	sev = np_verdict(&all, np_thr_warn(r), np_thr_crit(r));
	if (sev == NP_SEV_OK)
		return;
	missed_counts(&rg, &all, counts, sizeof(counts));
	if (all.sampled && all.delta)
		f = np_emit(r, sev, "%s ran out of receive buffers: %s packets/s %s (%s)", ifn,
			    np_fmt_rate(all.rate), st == NP_NV_RING_BELOW_MAX ? "beyond the ring-empty drops" :
			    "missed", counts);
	else
		f = np_emit(r, sev, "%s ran out of receive buffers in the past (%s)%s", ifn, counts,
			    all.sampled ? ", none during the sample" : "");
	if (!f)
		return;
	f->rank = all.rate;
	np_ev_text(f, "counters", "%s", rg.rtnl ? "rtnetlink stats64" : "sysfs statistics");
	if (rg.missed.present)
		np_ev_counter(f, "rx_missed_errors", "packets", &rg.missed);
	if (rg.fifo.present)
		np_ev_counter(f, "rx_fifo_errors", "events", &rg.fifo);
	if (rg.over.present)
		np_ev_counter(f, "rx_over_errors", "packets", &rg.over);
	np_nv_drv_ev(f, &rg.drv, "packets");
	if (rg.overruns.present)
		np_ev_counter(f, "qstats_rx_hw_drop_overruns", "packets", &rg.overruns);
	if (pkts.present)
		np_ev_counter(f, "rx_packets", "packets", &pkts);
	if (all.sampled && all.delta && pkts.sampled && pkts.delta)
		np_ev_value(f, "missed_share", "% of packets",
			    100.0 * (double)all.delta / (double)(all.delta + pkts.delta));
	np_detail(f, "The NIC had a packet but no free descriptor in the RX ring: the host did not "
		     "refill it in time (ring too small for the bursts, softirq starved or on a "
		     "busy CPU, coalescing too long). Lost before the kernel saw it. rx_fifo_errors "
		     "is a count of overflow events, not packets; driver counters and "
		     "rx_missed_errors often count the same drops, so the larger one is taken.");
	missed_ring_text(f, s, st);
	np_remedy(f, "ethtool -L %s combined N   # more queues on more CPUs; see the irq and "
		     "softnet findings for saturated CPUs", ifn);
	np_remedy(f, "ethtool -C %s adaptive-rx on   # or a smaller rx-usecs", ifn);
	if (st == NP_NV_RING_UNKNOWN)
		np_remedy(f, "Cost: a bigger ring holds more memory (ring x buffer size per queue, "
			     "e.g. 4096 x 2 KiB = 8 MiB) and more cache misses and queueing latency "
			     "under load; ethtool -G/-L reset the link on many drivers (a short "
			     "outage).");
	else
		np_remedy(f, "Cost: more queues use more interrupts and ring memory; ethtool -L/-C "
			     "reset the queues or the link on many drivers (a short outage).");
}

/* The two drop counters the kernel keeps apart from rx_dropped (5.19 for otherhost, 4.6 for
 * nohandler), and what each one means: "" when it did not grow during the sample. */
static void apart_text(const struct np_counter_view *other, const struct np_counter_view *noh,
		       char *buf, size_t size)
{
	char r1[32], r2[32];
	bool o = other->sampled && other->delta, n = noh->sampled && noh->delta;

	buf[0] = '\0';
	if (o && n)
		snprintf(buf, size, "%s/s for another host's MAC (rx_otherhost_dropped) and %s/s "
			 "with no protocol handler (rx_nohandler)", np_fmt_num(other->rate, r1, sizeof(r1)),
			 np_fmt_num(noh->rate, r2, sizeof(r2)));
	else if (o)
		snprintf(buf, size, "%s/s for another host's MAC (rx_otherhost_dropped)",
			 np_fmt_num(other->rate, r1, sizeof(r1)));
	else if (n)
		snprintf(buf, size, "%s/s with no protocol handler (rx_nohandler)",
			 np_fmt_num(noh->rate, r1, sizeof(r1)));
}

/* Frames another host's or nobody's: counted in rx_packets (the driver took them), then
 * refused by the stack. A large share means traffic meant for this host is misaddressed. */
static struct np_finding *emit_apart(const struct np_analysis *a, struct np_report *r,
				     const struct np_counter_view *other,
				     const struct np_counter_view *noh,
				     const struct np_counter_view *pkts, const char *apart)
{
	const char *ifn = a->cur->dev.name;
	uint64_t n = (other->sampled ? other->delta : 0) + (noh->sampled ? noh->delta : 0);
	enum np_severity sev = NP_SEV_INFO;
	double share = -1;
	struct np_finding *f;

	if (pkts->sampled && pkts->delta) {
		share = 100.0 * (double)n / (double)pkts->delta;
		if (share > 100)
			share = 100;
		if (share > np_thr_warn(r))
			sev = NP_SEV_WARNING;
	}
	f = np_emit(r, sev, "%s turns away %s, not NIC loss%s", ifn, apart,
		    share >= 0 ? "" : " (packet rate unknown)");
	if (f && share >= 0) {
		np_summary_append(f, " (%.2f%% of received packets)", share);
		np_ev_value(f, "turned_away_share", "% of packets", share);
	}
	if (f)
		f->rank = (other->sampled ? other->rate : 0) + (noh->sampled ? noh->rate : 0);
	return f;
}

static void run_rx_dropped(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	struct np_counter_view drop, pkts, noh, other, sn;
	struct np_finding *f;
	enum np_severity sev;
	double share = -1;
	const char *ifn = s->dev.name;
	char apart[200];
	bool rtnl;

	drop = NP_NV_LINK(a, rx_dropped, &rtnl);
	if (!drop.present) {
		np_skip(r, "rx_dropped not reported");
		return;
	}
	pkts = NP_NV_LINK(a, rx_packets, NULL);
	noh = NP_NV_LINK(a, rx_nohandler, NULL);
	other = NP_NV_LINK(a, rx_otherhost_dropped, NULL);
	sn = np_nv_softnet(a, false);
	apart_text(&other, &noh, apart, sizeof(apart));
	/* rx_dropped mixes real loss with frames nobody wanted: only a share of the traffic
	 * escalates it, never the count alone. */
	sev = np_verdict(&drop, NAN, NAN);
	if (sev == NP_SEV_OK || (!(drop.sampled && drop.delta) && apart[0])) {
		/* rx_dropped quiet: what the kernel counted apart is the story, said as such. */
		if (!apart[0])
			return;
		f = emit_apart(a, r, &other, &noh, &pkts, apart);
		if (!f)
			return;
		goto evidence;
	}
	if (drop.sampled && drop.delta && pkts.sampled) {
		share = 100.0 * (double)drop.delta / (double)(drop.delta + pkts.delta);
		if (share > np_thr_warn(r))
			sev = NP_SEV_WARNING;
	}
	if (drop.sampled && drop.delta)
		f = np_emit(r, sev, "%s rx_dropped grows %s/s%s", ifn, np_fmt_rate(drop.rate),
			    share >= 0 ? "" : " (packet rate unknown)");
	else
		f = np_emit(r, sev, "%s rx_dropped is %llu since boot%s", ifn,
			    (unsigned long long)drop.total,
			    drop.sampled ? ", none during the sample" : "");
	if (!f)
		return;
	if (share >= 0) {
		np_summary_append(f, " (%.2f%% of received packets)", share);
		np_ev_value(f, "dropped_share", "% of packets", share);
	}
	if (apart[0])
		np_summary_append(f, "; besides, %s", apart);
	f->rank = drop.rate;
evidence:
	np_ev_text(f, "counters", "%s", rtnl ? "rtnetlink stats64" : "sysfs statistics");
	np_ev_counter(f, "rx_dropped", "packets", &drop);
	if (pkts.present)
		np_ev_counter(f, "rx_packets", "packets", &pkts);
	if (noh.present)
		np_ev_counter(f, "rx_nohandler", "packets", &noh);
	if (other.present)
		np_ev_counter(f, "rx_otherhost_dropped", "packets", &other);
	if (sn.present)
		np_ev_counter(f, "softnet_dropped_all_cpus", "packets", &sn);
	np_detail(f, "rx_dropped is not proof of loss: it also counts frames of protocols nothing "
		     "handles (LLDP, STP, IPv6 when disabled), VLANs no device takes, and backlog "
		     "drops.");
	if (drop.sampled && drop.delta && sn.sampled && sn.delta)
		np_detail(f, "Softnet backlog drops also grew (%s/s host-wide): part of this is "
			     "backlog overflow (softnet.backlog-drops).", np_fmt_rate(sn.rate));
	else if (sn.sampled && drop.sampled && drop.delta)
		np_detail(f, "Softnet backlog drops did not grow: this is not backlog overflow.");
	if (other.sampled && other.delta)
		np_detail(f, "rx_otherhost_dropped: frames for a MAC not %s's (PACKET_OTHERHOST), "
			     "dropped by IP input: the sender's neighbour entry for this host is "
			     "wrong, or a promiscuous port sees others' traffic.", ifn);
	if (noh.sampled && noh.delta)
		np_detail(f, "rx_nohandler: frames no protocol took on an exact-delivery port (an "
			     "inactive bond slave): expected there.");
	if (!apart[0] && (noh.present || other.present))
		np_detail(f, "rx_nohandler (no protocol handler, e.g. an inactive bond slave) and "
			     "rx_otherhost_dropped (another host's MAC) are counted apart from "
			     "rx_dropped and did not grow.");
	if (other.sampled && other.delta)
		np_remedy(f, "ip neigh show   # on the sender: the MAC it uses for this host's "
			     "address must be %s's (ip link show %s)", ifn, ifn);
	np_remedy(f, "tcpdump -i %s -nn -e 'not ip and not ip6 and not arp' -c 50   # what arrives "
		     "that nothing handles", ifn);
	np_remedy(f, "netpath trace %s   # count kernel drops by reason", ifn);
	np_remedy(f, "Cost: diagnosis only (a capture costs some CPU while it runs).");
}

const struct np_check np_check_nic_missed = {
	.id = "nic.missed",
	.stage = NP_STAGE_NIC,
	.scope = NP_SCOPE_INTERFACE,
	.title = "NIC out of receive buffers (missed, FIFO, overrun)",
	.looks_at = "rx_missed_errors, rx_fifo_errors, rx_over_errors of the interface "
		    "(rtnetlink stats64, else sysfs), driver ring-empty counters, qstats "
		    "rx-hw-drop-overruns, the RX ring size",
	.why = "The NIC had nowhere to put a packet: the RX ring was empty because the host did "
	       "not refill it in time. Packets are lost before the kernel sees them, so no drop "
	       "reason or socket counter shows them. Some drivers count ring drops only in "
	       "ethtool -S (ixgbe rx_no_dma_resources, mlx5 rx_out_of_buffer); where several "
	       "counters witness the same drops the largest is taken, never their sum. When the "
	       "ring is below its hardware maximum, nic.ring-size reports the ring-empty drops "
	       "and this check only what the FIFO/overrun counters saw beyond them.",
	.fix = "Bigger RX rings (ethtool -G, see nic.ring-size) while below the maximum; more "
	       "queues/CPUs (ethtool -L) and interrupt coalescing that lets NAPI run sooner; rings "
	       "cost memory and latency, -G/-L reset the link on many drivers.",
	.related = "ethtool -g/-G, ethtool -l/-L, ethtool -c/-C, net.core.netdev_budget",
	.kernel_notes = "mlx5 (2024) and i40e (~6.8) moved buffer exhaustion from rx_dropped to "
			"rx_missed_errors, backported to stable kernels.",
	.warn = 1, .crit = 100, .thr_unit = "packets/s",
	.run = run_missed,
};

const struct np_check np_check_nic_rx_dropped = {
	.id = "nic.rx-dropped",
	.stage = NP_STAGE_NIC,
	.scope = NP_SCOPE_INTERFACE,
	.title = "rx_dropped growing",
	.looks_at = "rx_dropped vs rx_packets, rx_nohandler, rx_otherhost_dropped (rtnetlink "
		    "stats64, else sysfs), softnet drops",
	.why = "rx_dropped mixes real loss (driver drops, per-CPU backlog overflow) with frames "
	       "nothing wanted (unknown protocols, VLANs nobody configured). A rising rx_dropped "
	       "alone is a common false alarm; only a notable share of the traffic is worth a "
	       "warning. Where the kernel counts them apart, frames for another host's MAC "
	       "(rx_otherhost_dropped) and frames no handler takes on an exact-delivery port "
	       "(rx_nohandler) are named as such, never as NIC loss; a large share of frames for "
	       "another MAC means the sender addresses this host wrongly.",
	.fix = "Find out what is dropped (tcpdump for unhandled protocols, netpath trace for "
	       "drop reasons); fix the backlog if softnet drops move too; for frames to another "
	       "MAC, the sender's neighbour entry (ip neigh).",
	.related = "rx_nohandler, rx_otherhost_dropped, net.core.netdev_max_backlog",
	.kernel_notes = "rx_nohandler since 4.6, rx_otherhost_dropped since 5.19 (IFLA_STATS64 "
			"only: no sysfs file); neither is included in rx_dropped.",
	.warn = 1, .crit = NAN, .thr_unit = "% of received packets",
	.run = run_rx_dropped,
};
