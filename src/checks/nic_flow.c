// SPDX-License-Identifier: GPL-2.0-only
/* Stage "nic", continued: drops per RX queue, pause frames, and drops by an XDP program. */
#include "check_util.h"
#include "nic_view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How one RX queue's drops rank: the change over the interval, else the since-boot total. */
static double qkey(const struct np_counter_view *v, bool by_delta)
{
	return by_delta ? (double)v->delta : (double)v->total;
}

/* Per-queue drops from the driver's QUEUE_DROP counters; NULL (n 0) when it has none. */
static struct np_counter_view *drv_queues(const struct np_analysis *a, int *n)
{
	const struct np_counters *c = &a->cur->eth.drv_stats;
	struct np_counter_view *q;
	struct np_drv_class cl;
	int max = -1;

	*n = 0;
	if (!np_src_ok(a->cur, NP_SRC_DRIVER_STATS))
		return NULL;
	for (size_t i = 0; i < c->n; i++)
		if (np_nv_drv_class(a, i, &cl) && cl.meaning == NP_DRV_QUEUE_DROP &&
		    !cl.is_tx && cl.queue > max)
			max = cl.queue;
	if (max < 0 || !(q = calloc((size_t)max + 1, sizeof(*q))))
		return NULL;
	for (size_t i = 0; i < c->n; i++)
		if (np_nv_drv_class(a, i, &cl) && cl.meaning == NP_DRV_QUEUE_DROP &&
		    !cl.is_tx && cl.queue >= 0)
			q[cl.queue] = np_view_sum(q[cl.queue],
						  np_nv_drv_view(a, c->e[i].name, c->e[i].value));
	*n = max + 1;
	return q;
}

/* Per-queue qstats rx-hw-drops; NULL (n 0) when not reported. */
static struct np_counter_view *qstat_queues(const struct np_analysis *a, int *n)
{
	const struct np_ethtool *e = &a->cur->eth;
	struct np_counter_view *q;
	int max = -1;

	*n = 0;
	if (!np_src_ok(a->cur, NP_SRC_QSTATS))
		return NULL;
	for (size_t i = 0; i < e->nqstats; i++)
		if (np_has(e->qstats[i].rx_hw_drops) && e->qstats[i].queue > max)
			max = e->qstats[i].queue;
	if (max < 0 || !(q = calloc((size_t)max + 1, sizeof(*q))))
		return NULL;
	for (size_t i = 0; i < e->nqstats; i++)
		if (np_has(e->qstats[i].rx_hw_drops) && e->qstats[i].queue >= 0)
			q[e->qstats[i].queue] = np_nv_qstat_q(a, &e->qstats[i],
							offsetof(struct np_qstat, rx_hw_drops));
	*n = max + 1;
	return q;
}

struct qspread {
	int nq;			/* queues with a counter */
	int top;		/* the queue with most drops, -1 if none */
	double sum, share;	/* share of the top queue, 0..1 */
	char text[120];		/* "q3 140.0/s, q0 2.0/s" */
};

static double qspread_sum(const struct np_counter_view *q, int n, bool by_delta)
{
	double sum = 0;

	for (int i = 0; i < n; i++)
		if (q[i].present)
			sum += qkey(&q[i], by_delta);
	return sum;
}

static void qspread_fill(const struct np_counter_view *q, int n, bool by_delta,
			 struct qspread *sp)
{
	size_t len = 0;

	memset(sp, 0, sizeof(*sp));
	sp->top = -1;
	for (int i = 0; i < n; i++) {
		if (!q[i].present)
			continue;
		sp->nq++;
		sp->sum += qkey(&q[i], by_delta);
		if (sp->top < 0 || qkey(&q[i], by_delta) > qkey(&q[sp->top], by_delta))
			sp->top = i;
	}
	if (sp->top >= 0 && sp->sum > 0)
		sp->share = qkey(&q[sp->top], by_delta) / sp->sum;
	/* The busiest queues, in queue order: enough to see the pattern. */
	for (int i = 0; i < n && len + 24 < sizeof(sp->text); i++) {
		char *t = sp->text + len;
		size_t room = sizeof(sp->text) - len;

		if (!q[i].present || qkey(&q[i], by_delta) <= 0)
			continue;
		if (by_delta)
			len += (size_t)snprintf(t, room, "%sq%d %s/s", len ? ", " : "", i,
						np_fmt_rate(q[i].rate));
		else
			len += (size_t)snprintf(t, room, "%sq%d %llu", len ? ", " : "", i,
						(unsigned long long)q[i].total);
	}
}

static void run_queue_drops(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	const char *ifn = s->dev.name;
	struct np_nv_drv d;
	struct np_counter_view qs, all, *dq, *hq, *q;
	int ndq, nhq, nq;
	struct qspread sp;
	bool by_delta, concentrated;
	enum np_severity sev;
	struct np_finding *f;
	char lbl[48], share[64] = "";

	if (!np_src_ok(s, NP_SRC_DRIVER_STATS) && !np_src_ok(s, NP_SRC_QSTATS)) {
		np_nv_skip_src(r, s, NP_SRC_DRIVER_STATS, "driver statistics");
		return;
	}
	np_nv_drv_collect(a, NP_DRV_QUEUE_DROP, false, &d);
	qs = np_nv_qstat(a, offsetof(struct np_qstat, rx_hw_drops));
	if (!d.n && !qs.present) {
		np_not_applicable(r, "%s has no per-queue drop counter and qstats rx-hw-drops is not "
			   "available", np_nv_drv_label(s, lbl, sizeof(lbl)));
		return;
	}
	all = np_nv_max(d.v, qs);
	sev = np_verdict(&all, np_thr_warn(r), np_thr_crit(r));
	if (sev == NP_SEV_OK)
		return;
	by_delta = all.sampled && all.delta > 0;
	dq = drv_queues(a, &ndq);
	hq = qstat_queues(a, &nhq);
	/* Both usually count the same drops: spread them by whichever saw more. */
	if (qspread_sum(dq, ndq, by_delta) >= qspread_sum(hq, nhq, by_delta)) {
		q = dq;
		nq = ndq;
	} else {
		q = hq;
		nq = nhq;
	}
	qspread_fill(q, nq, by_delta, &sp);
	concentrated = sp.nq >= 2 && sp.share > 0.5;
	if (concentrated)
		snprintf(share, sizeof(share), ", %.0f%% on queue %d of %d", 100 * sp.share, sp.top,
			 sp.nq);
	if (by_delta)
		f = np_emit(r, sev, "%s RX queues drop %s packets/s%s", ifn, np_fmt_rate(all.rate), share);
	else
		f = np_emit(r, sev, "%s RX queues dropped %llu packets since boot%s%s", ifn,
			    (unsigned long long)all.total,
			    all.sampled ? ", none during the sample" : "", share);
	if (!f)
		goto out;
	f->rank = all.rate;
	np_ev_counter(f, "queue_drops", "packets", &all);
	if (sp.top >= 0) {
		np_ev_value(f, "queues_with_counters", "queues", sp.nq);
		np_ev_value(f, "top_queue", "queue", sp.top);
		np_ev_value(f, "top_queue_share", "% of queue drops", 100 * sp.share);
		if (sp.text[0])
			np_ev_text(f, "per_queue", "%s", sp.text);
	}
	np_nv_drv_ev(f, &d, "packets");
	if (qs.present)
		np_ev_counter(f, "qstats_rx_hw_drops", "packets", &qs);
	if (concentrated) {
		np_detail(f, "Queue %d takes %.0f%% of the drops while %d queues exist: "
			     "receive-side scaling puts one heavy flow (or every flow between two "
			     "addresses) on one queue, so one ring and one CPU overflow while the "
			     "others idle. Typical causes: a single elephant flow, UDP hashed on "
			     "addresses only, tunnels whose outer headers are all alike, or the "
			     "queue's IRQ on a CPU busy with other work.", sp.top, 100 * sp.share,
			  sp.nq);
		np_remedy(f, "ethtool -x %s   # RSS indirection table: is queue %d over-weighted?",
			  ifn, sp.top);
		np_remedy(f, "ethtool -n %s rx-flow-hash udp4   # ports not hashed? ethtool -N %s "
			     "rx-flow-hash udp4 sdfn", ifn, ifn);
		np_remedy(f, "grep %s /proc/interrupts   # which CPU serves queue %d (see the irq "
			     "and softnet findings)", ifn, sp.top);
		/* Where the NIC cannot hash the traffic apart (one outer flow: PPPoE, GRE), RPS
		 * moves the protocol work off the queue's CPU, which then drains its ring
		 * sooner; irq.cpu-rate proposes the same. */
		np_rps_remedy(f, s, -1);
		np_remedy(f, "PPPoE, GRE or other tunnels: the NIC sees one outer flow; RPS hashes "
			     "in the kernel, whose flow dissector looks inside PPPoE and GRE.");
		np_remedy(f, "Cost: hashing UDP ports puts fragments of one datagram on other "
			     "queues (fragments carry no ports); RPS spends CPU time on the CPUs in "
			     "rps_cpus and an inter-CPU interrupt per batch, and leaves the driver "
			     "work on the queue's CPU; neither splits a single flow - the "
			     "application has to use several.");
	} else {
		np_detail(f, "The drops are spread over the queues: the NIC as a whole receives "
			     "faster than the host refills the rings (see nic.ring-size and the "
			     "irq and softnet findings).");
		np_remedy(f, "ethtool -g %s; ethtool -l %s   # rings and queues vs their maximum",
			  ifn, ifn);
		np_remedy(f, "Cost: bigger rings and more queues use memory and interrupts; "
			     "ethtool -G/-L reset the queues on many drivers.");
	}
out:
	free(dq);
	free(hq);
}

/* Pause frames from ethtool's pause statistics (5.10+), else the driver's counters. */
static struct np_counter_view pause_view(const struct np_analysis *a, bool tx,
					 struct np_nv_drv *d, const char **src)
{
	const struct np_pause *c = &a->cur->eth.pause, *p;
	uint64_t cv = tx ? c->tx_frames : c->rx_frames, pv = NP_NA;

	np_nv_drv_collect(a, tx ? NP_DRV_PAUSE_TX : NP_DRV_PAUSE_RX, true, d);
	if (np_src_ok(a->cur, NP_SRC_ETHTOOL_PAUSE) && np_has(cv)) {
		if (a->prev && np_src_ok(a->prev, NP_SRC_ETHTOOL_PAUSE)) {
			p = &a->prev->eth.pause;
			pv = tx ? p->tx_frames : p->rx_frames;
		}
		*src = tx ? "pause_tx_frames" : "pause_rx_frames";
		return np_view_u64(a, pv, cv);
	}
	*src = d->n ? d->top[0].name : NULL;
	return d->v;
}

static void pause_tx_finding(const struct np_analysis *a, struct np_report *r,
			     const struct np_counter_view *v, const struct np_nv_drv *d,
			     const char *src)
{
	const char *ifn = a->cur->dev.name;
	enum np_severity sev = np_verdict(v, np_thr_warn(r), np_thr_crit(r));
	struct np_finding *f;

	if (sev == NP_SEV_OK)
		return;
	if (v->sampled && v->delta)
		f = np_emit(r, sev, "%s sends pause frames: %s/s (the host cannot keep up; the "
			    "switch holds or drops the traffic instead)", ifn, np_fmt_rate(v->rate));
	else
		f = np_emit(r, sev, "%s sent %llu pause frames since boot%s", ifn,
			    (unsigned long long)v->total,
			    v->sampled ? ", none during the sample" : "");
	if (!f)
		return;
	f->rank = v->rate;
	np_ev_counter(f, "pause_tx_frames", "frames", v);
	if (strcmp(src, "pause_tx_frames") != 0)
		np_nv_drv_ev(f, d, "frames");	/* which driver counters say so */
	np_detail(f, "We sent XOFF/pause frames: the NIC's receive buffer was filling, so it asked "
		     "the link partner to stop. Nothing is dropped here, but the loss moved "
		     "upstream: the switch port queues (and eventually drops) for every flow on "
		     "this link, including ones the host would have kept up with. The cause is the "
		     "host draining too slowly: see the ring, irq and softnet findings.");
	np_remedy(f, "ethtool -a %s; ethtool -g %s; ethtool -l %s   # flow control, rings, queues",
		  ifn, ifn, ifn);
	np_remedy(f, "Fix the drain rate first (bigger rings, more queues/CPUs). ethtool -A %s tx "
		     "off stops the pausing; the overflow then shows as port discards here.", ifn);
	np_remedy(f, "Cost: turning pause off converts stalls into drops; keep it on where the "
		     "fabric must be lossless (RoCE, storage).");
}

static void pause_rx_finding(const struct np_analysis *a, struct np_report *r,
			     const struct np_counter_view *v, const struct np_nv_drv *d,
			     const char *src)
{
	const char *ifn = a->cur->dev.name;
	enum np_severity sev = np_verdict(v, np_thr_warn(r), NAN);	/* never critical */
	struct np_finding *f;

	if (sev == NP_SEV_OK)
		return;
	if (v->sampled && v->delta)
		f = np_emit(r, sev, "%s receives pause frames: %s/s (the link partner throttles "
			    "our transmit)", ifn, np_fmt_rate(v->rate));
	else
		f = np_emit(r, sev, "%s received %llu pause frames since boot%s", ifn,
			    (unsigned long long)v->total,
			    v->sampled ? ", none during the sample" : "");
	if (!f)
		return;
	f->rank = v->rate;
	np_ev_counter(f, "pause_rx_frames", "frames", v);
	if (strcmp(src, "pause_rx_frames") != 0)
		np_nv_drv_ev(f, d, "frames");
	np_detail(f, "The switch or peer asked us to stop sending: its buffer is congested. Our "
		     "transmit queues stall, which on the receive path delays ACKs and replies. "
		     "The cause is on the other side of the link.");
	np_remedy(f, "Check the switch port's congestion and pause counters; ethtool -a %s shows "
		     "whether we honour pause (rx).", ifn);
	np_remedy(f, "Cost: ethtool -A %s rx off ignores the pauses, so the peer drops instead.",
		  ifn);
}

static void run_pause_frames(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	struct np_nv_drv dtx, drx;
	struct np_counter_view tx, rx;
	const char *stx, *srx;

	if (!np_src_ok(s, NP_SRC_ETHTOOL_PAUSE) && !np_src_ok(s, NP_SRC_DRIVER_STATS)) {
		np_nv_skip_src(r, s, NP_SRC_ETHTOOL_PAUSE, "pause statistics");
		return;
	}
	tx = pause_view(a, true, &dtx, &stx);
	rx = pause_view(a, false, &drx, &srx);
	if (!tx.present && !rx.present) {
		np_not_applicable(r, "no pause frame counters (ethtool pause statistics need kernel 5.10+ "
			   "and driver support; the driver has no pause counter)");
		return;
	}
	if (tx.present)
		pause_tx_finding(a, r, &tx, &dtx, stx);
	if (rx.present)
		pause_rx_finding(a, r, &rx, &drx, srx);
}

static const char *xdp_mode(int attached)
{
	static const char *const names[] = { "none", "native (driver)", "generic (skb)",
					     "offloaded (hardware)", "several modes" };

	return attached >= 0 && attached <= 4 ? names[attached] : "unknown";
}

static void run_xdp_drops(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	const char *ifn = s->dev.name;
	bool rtnl = np_src_ok(s, NP_SRC_RTNL_LINK) && s->rtnl.xdp_attached >= 0;
	struct np_nv_drv d;
	enum np_severity sev;
	struct np_finding *f;
	char lbl[48];

	if (!np_src_ok(s, NP_SRC_DRIVER_STATS)) {
		np_nv_skip_src(r, s, NP_SRC_DRIVER_STATS, "driver statistics");
		return;
	}
	np_nv_drv_collect(a, NP_DRV_XDP_DROP, false, &d);
	if (!d.n) {
		np_not_applicable(r, "%s has no XDP drop counter", np_nv_drv_label(s, lbl, sizeof(lbl)));
		return;
	}
	/* Dropping is what XDP firewalls are for: a loss worth knowing, never an emergency. */
	sev = np_verdict(&d.v, np_thr_warn(r), NAN);
	if (sev == NP_SEV_OK)
		return;
	if (d.v.sampled && d.v.delta)
		f = np_emit(r, sev, "%s XDP program drops %s packets/s", ifn, np_fmt_rate(d.v.rate));
	else
		f = np_emit(r, sev, "%s XDP dropped %llu packets since boot%s", ifn,
			    (unsigned long long)d.v.total,
			    d.v.sampled ? ", none during the sample" : "");
	if (!f)
		return;
	f->rank = d.v.rate;
	np_ev_counter(f, "xdp_drops", "packets", &d.v);
	np_nv_drv_ev(f, &d, "packets");
	if (rtnl) {
		np_ev_text(f, "xdp_mode", "%s", xdp_mode(s->rtnl.xdp_attached));
		if (s->rtnl.xdp_attached > 0)
			np_ev_value(f, "xdp_prog_id", "id", s->rtnl.xdp_prog_id);
	}
	np_detail(f, "An XDP program in the driver returned XDP_DROP (or aborted) for these "
		     "packets before any skb existed: no kernel drop counter, tracepoint or "
		     "tcpdump sees them. If the program is a firewall or DDoS filter this is "
		     "intended; otherwise it is silent loss.");
	if (rtnl && s->rtnl.xdp_attached == 0)
		np_detail(f, "No program is attached now: the drops came from an earlier one.");
	else
		np_detail(f, "XDP programs are typically owned by Cilium, Katran, an XDP "
			     "firewall or a DDoS filter; bpftool shows its name, load time and the "
			     "processes holding it.");
	if (rtnl && s->rtnl.xdp_attached > 0 && s->rtnl.xdp_prog_id)
		np_remedy(f, "bpftool prog show id %u   # name, tag, load time, owning pids",
			  s->rtnl.xdp_prog_id);
	np_remedy(f, "bpftool net show dev %s; ip -d link show dev %s   # what is attached, in "
		     "which mode", ifn, ifn);
	np_remedy(f, "Cost: diagnosis only; change the program's rules through its owner, never "
		     "by detaching someone else's program.");
}

const struct np_check np_check_nic_queue_drops = {
	.id = "nic.queue-drops",
	.stage = NP_STAGE_NIC,
	.scope = NP_SCOPE_INTERFACE,
	.title = "Drops per RX queue (concentrated on a few queues)",
	.looks_at = "per-queue drop counters of the driver (virtio_net rxN_drops and "
		    "rxN_hw_drops, veth rx_queue_N_drops, ...), qstats rx-hw-drops per queue",
	.why = "Drops that land on one queue while several exist mean receive-side scaling sends "
	       "the heavy traffic to one ring and one CPU: a single elephant flow, UDP hashed on "
	       "addresses only, tunnels, or one busy CPU. Bigger rings do not fix that; the "
	       "spread does. Drops spread evenly mean the host is short of capacity overall.",
	.fix = "Inspect the RSS indirection table and hash fields (ethtool -x, -n), hash UDP "
	       "ports, move the queue's IRQ to an idle CPU; where the NIC cannot hash the "
	       "traffic apart (PPPoE, GRE), RPS (rps_cpus) moves the protocol work to other "
	       "CPUs at the cost of their CPU time and inter-CPU interrupts. A single flow "
	       "cannot be spread.",
	.related = "ethtool -x/-X, ethtool -n/-N rx-flow-hash, "
		   "/sys/class/net/IF/queues/rx-N/rps_cpus, irq.affinity",
	.kernel_notes = "qstats rx-hw-drops per queue since 6.10; virtio_net renamed "
			"rx_queue_N_drops to rxN_drops in 6.10.",
	.warn = 1, .crit = 100, .thr_unit = "packets/s",
	.run = run_queue_drops,
};

const struct np_check np_check_nic_pause_frames = {
	.id = "nic.pause-frames",
	.stage = NP_STAGE_NIC,
	.scope = NP_SCOPE_INTERFACE,
	.title = "Ethernet pause frames sent or received",
	.looks_at = "ethtool pause statistics (tx_frames, rx_frames), driver pause/XOFF counters",
	.why = "Pause frames we send mean our NIC's buffer is filling: nothing is lost here, but "
	       "the switch holds traffic for the whole port, so the loss and delay move upstream. "
	       "Pause frames we receive mean the peer is congested and throttles our transmit. "
	       "Occasional pauses during bursts are normal on links with flow control on.",
	.fix = "For pauses sent: make the host drain faster (rings, queues, CPUs); turning tx "
	       "pause off converts stalls into local drops. For pauses received: look at the "
	       "switch.",
	.related = "ethtool -a/-A, ethtool --include-statistics -a",
	.kernel_notes = "Pause frame statistics over netlink (ETHTOOL_FLAG_STATS) since 5.10, "
			"if the driver implements them; otherwise driver counters such as mlx5 "
			"tx_pause_ctrl_phy, i40e link_xoff_tx, ixgbe tx_flow_control_xoff.",
	.warn = 10, .crit = 1000, .thr_unit = "pause frames/s (received: warning at most)",
	.run = run_pause_frames,
};

const struct np_check np_check_nic_xdp_drops = {
	.id = "nic.xdp-drops",
	.stage = NP_STAGE_NIC,
	.scope = NP_SCOPE_INTERFACE,
	.title = "Packets dropped by an XDP program",
	.looks_at = "driver XDP drop counters (rxN_xdp_drop, rx_queue_N_xdp_drops, ...), the "
		    "attached XDP program (rtnetlink IFLA_XDP)",
	.why = "A native XDP program runs in the driver before any skb exists; what it drops is "
	       "invisible to every other counter, tracepoint and capture. That is the point of "
	       "XDP firewalls and DDoS filters, so this is at most a warning: confirm the owner "
	       "meant it.",
	.fix = "Identify the program (bpftool prog show id N) and its owner, and change its rules "
	       "there; never detach another tool's program.",
	.related = "bpftool net, ip -d link show (IFLA_XDP), ingress.xdp-attached",
	.warn = 1, .crit = NAN, .thr_unit = "packets/s",
	.run = run_xdp_drops,
};
