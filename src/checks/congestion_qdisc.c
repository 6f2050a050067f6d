// SPDX-License-Identifier: GPL-2.0-only
/* Stage "congestion", the qdisc actually attached: its drops, bbr without fq, txqueuelen. */
#include "nic_view.h"


#include <stdio.h>
#include <string.h>

/* How many qdiscs a finding lists in its evidence. */
#define QD_EV_MAX 4
/* txqueuelen suggested for a FIFO that overflows. */
#define QD_TXQLEN_SUGGEST 1000

static bool is_kind(const struct np_qdisc *q, const char *const *kinds)
{
	for (size_t i = 0; kinds[i]; i++)
		if (!strcmp(q->kind, kinds[i]))
			return true;
	return false;
}

static const char *const fifo_kinds[] = { "pfifo_fast", "pfifo", "bfifo", "pfifo_head_drop",
					  NULL };
static const char *const shaper_kinds[] = { "tbf", "htb", "hfsc", "cbq", "cake", NULL };
static const char *const aqm_kinds[] = { "fq_codel", "codel", "pie", "fq_pie", "red", "sfq",
					 NULL };

/* Drops order qdiscs: over the interval when sampled, then since boot. */
static bool drops_more(const struct np_counter_view *x, const struct np_counter_view *y)
{
	return x->delta > y->delta || (x->delta == y->delta && x->total > y->total);
}

/*
 * The qdiscs whose counters tell the story: the leaves under mq, else the root (which already
 * counts the drops of its inner qdiscs: tbf, htb, prio). Sums their drops and overlimits and
 * keeps the 'max' that dropped most in out[], worst first; returns how many are in out[].
 */
static size_t egress_set(const struct np_analysis *a, const struct np_qdisc *root,
			 const struct np_qdisc **out, size_t max, size_t *ntotal,
			 struct np_counter_view *drops, struct np_counter_view *over)
{
	const struct np_snapshot *s = a->cur;
	struct np_counter_view top[QD_EV_MAX];
	bool leaves = np_nv_qdisc_multiq(root);
	size_t n = 0, total = 0;

	memset(drops, 0, sizeof(*drops));
	memset(over, 0, sizeof(*over));
	for (size_t i = 0; i <= s->rtnl.nqdisc; i++) {
		/* The extra round takes the root itself when it has no leaves to stand for it. */
		const struct np_qdisc *q = i < s->rtnl.nqdisc ? &s->rtnl.qdiscs[i] : root;
		struct np_counter_view d;
		size_t k;

		if (i < s->rtnl.nqdisc ? !leaves || !np_nv_qdisc_below(root, q) : total > 0)
			continue;
		d = np_nv_qdisc_drops(a, q);
		*drops = np_view_sum(*drops, d);
		*over = np_view_sum(*over, np_nv_qdisc_overlimits(a, q));
		total++;
		for (k = n; k > 0 && drops_more(&d, &top[k - 1]); k--)
			if (k < max) {
				top[k] = top[k - 1];
				out[k] = out[k - 1];
			}
		if (k < max) {
			top[k] = d;
			out[k] = q;
			if (n < max)
				n++;
		}
	}
	*ntotal = total;
	return n;
}

static void advise(struct np_finding *f, const struct np_snapshot *s, const struct np_qdisc *q)
{
	const char *ifn = s->dev.name;
	char where[24];

	if (q->root)
		snprintf(where, sizeof(where), "root");
	else if (q->parent >> 16)
		snprintf(where, sizeof(where), "parent %x:%x", q->parent >> 16, q->parent & 0xffff);
	else		/* an mq leaf: tc writes the unnamed mq as ":N" */
		snprintf(where, sizeof(where), "parent :%x", q->parent & 0xffff);
	if (!strcmp(q->kind, "tbf")) {
		np_detail(f, "tbf is a shaper: it sends at its configured rate and queues at most "
			     "'latency' worth of data; the rest is dropped. The offered traffic "
			     "exceeds the shaped rate: intended if the shaper is a policy, a "
			     "bottleneck if it is a leftover.");
		np_remedy(f, "tc -s qdisc show dev %s   # the configured rate, burst and limit",
			  ifn);
		np_remedy(f, "tc qdisc change dev %s %s tbf rate RATE burst BURST latency 50ms   # "
			     "a higher rate, or a deeper queue", ifn, where);
		np_remedy(f, "tc qdisc del dev %s root   # if the shaper is not wanted at all",
			  ifn);
		np_remedy(f, "Cost: a higher rate breaks the limit it enforces (e.g. an uplink's "
			     "real capacity); a deeper queue adds up to 'latency' to every "
			     "packet.");
	} else if (is_kind(q, shaper_kinds)) {
		np_detail(f, "%s is a shaper: traffic above a class's rate/ceil waits, and what "
			     "does not fit the queue is dropped.", q->kind);
		np_remedy(f, "tc -s class show dev %s   # the class whose rate or ceil is "
			     "exhausted", ifn);
		np_remedy(f, "tc class change dev %s parent P classid C %s rate RATE ceil CEIL   # "
			     "raise it", ifn, q->kind);
		np_remedy(f, "Cost: a higher rate or ceil breaks the limit the class enforces.");
	} else if (is_kind(q, fifo_kinds)) {
		np_detail(f, "%s is a plain FIFO of txqueuelen packets: it overflows when the "
			     "device cannot transmit as fast as the host sends (link saturated, "
			     "pause frames from the peer, a stalled TX ring). Bursts of one flow "
			     "also fill it for everyone else.", q->kind);
		np_remedy(f, "tc qdisc replace dev %s %s fq   # per-flow queues and pacing "
			     "(modprobe sch_fq if missing)", ifn, where);
		np_remedy(f, "ip link set dev %s txqueuelen %d   # a longer FIFO (pfifo_fast "
			     "resizes live; pfifo/bfifo only when re-created)", ifn,
			  QD_TXQLEN_SUGGEST);
		np_remedy(f, "Cost: a longer FIFO adds queueing delay for every flow "
			     "(bufferbloat); fq costs a little CPU per packet.");
	} else if (!strcmp(q->kind, "fq")) {
		np_detail(f, "fq drops when one flow exceeds flow_limit (100 packets) or all "
			     "flows together exceed limit (10000): usually an unpaced sender such "
			     "as a UDP flood; paced TCP flows rarely hit it.");
		np_remedy(f, "tc -s qdisc show dev %s   # flows_plimit = per-flow limit hits", ifn);
		np_remedy(f, "tc qdisc change dev %s %s fq flow_limit 1000   # if one flow must "
			     "burst", ifn, where);
		np_remedy(f, "Cost: a bigger per-flow limit lets one flow queue more (latency for "
			     "itself, memory).");
	} else if (is_kind(q, aqm_kinds)) {
		np_detail(f, "%s drops on purpose (active queue management) to tell senders to "
			     "slow down before the queue grows: at a bottleneck this is the "
			     "congestion signal working, not a fault. Only drops at the hard limit "
			     "(drop_overlimit in tc -s) mean the queue is too short.", q->kind);
		np_remedy(f, "tc -s qdisc show dev %s   # drop_overlimit vs AQM drops", ifn);
		np_remedy(f, "tc qdisc change dev %s %s %s limit 20480   # only if drop_overlimit "
			     "grows", ifn, where, q->kind);
		np_remedy(f, "Cost: a higher limit allows a longer standing queue under overload.");
	} else {
		np_detail(f, "%s drops what it cannot queue; whether that is intended depends on "
			     "its configuration (netem, for instance, drops on purpose).", q->kind);
		np_remedy(f, "tc -s qdisc show dev %s", ifn);
		np_remedy(f, "Cost: depends on the change; a longer queue adds latency.");
	}
}

struct np_counter_view np_qdisc_egress_drops(const struct np_analysis *a)
{
	const struct np_qdisc *root, *set[QD_EV_MAX];
	struct np_counter_view drops, over;
	size_t total;

	memset(&drops, 0, sizeof(drops));
	if (!np_src_ok(a->cur, NP_SRC_RTNL_QDISC))
		return drops;
	root = np_nv_qdisc_root(a->cur);
	if (!root || !strcmp(root->kind, "noqueue"))
		return drops;
	egress_set(a, root, set, QD_EV_MAX, &total, &drops, &over);
	return drops;
}

static void run_qdisc_drops(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	const struct np_qdisc *root, *set[QD_EV_MAX], *worst;
	struct np_counter_view drops, over;
	size_t n, total;
	struct np_finding *f;
	enum np_severity sev;
	bool shaping;
	char name[48], key[64], num[32];

	if (!np_nv_src_usable(s, NP_SRC_RTNL_QDISC, "qdisc list", r))
		return;
	root = np_nv_qdisc_root(s);
	if (!root || !strcmp(root->kind, "noqueue"))
		return;		/* virtual devices: nothing queues, nothing drops */
	n = egress_set(a, root, set, QD_EV_MAX, &total, &drops, &over);
	worst = set[0];
	sev = np_verdict(&drops, np_thr_warn(r), np_thr_crit(r));
	/* Overlimits without drops: a shaper delaying packets at its rate, not losing them. */
	shaping = over.sampled && over.delta && !(drops.sampled && drops.delta);
	if (sev == NP_SEV_OK && !shaping)
		return;
	if (sev == NP_SEV_OK)
		sev = NP_SEV_INFO;
	np_nv_qdisc_name(worst, name, sizeof(name));
	if (drops.sampled && drops.delta)
		f = np_emit(r, sev, "Egress qdisc %s of %s drops %s packets/s (%s overlimits/s)",
			    name, s->dev.name, np_fmt_num(drops.rate, num, sizeof(num)),
			    np_fmt_num(over.rate, key, sizeof(key)));
	else if (shaping)
		f = np_emit(r, sev, "Egress shaper %s of %s is throttling: %s overlimits/s, no "
			    "drops during the sample", name, s->dev.name,
			    np_fmt_num(over.rate, num, sizeof(num)));
	else
		f = np_emit(r, sev, "Egress qdisc %s of %s dropped %llu packets since boot%s",
			    name, s->dev.name, (unsigned long long)drops.total,
			    drops.sampled ? ", none during the sample" : "");
	if (!f)
		return;
	f->rank = drops.rate;
	np_ev_text(f, "root_qdisc", "%s", np_nv_qdisc_name(root, key, sizeof(key)));
	if (total > 1) {
		np_ev_counter(f, "drops", "packets", &drops);
		np_ev_counter(f, "overlimits", "events", &over);
		np_ev_value(f, "leaf_qdiscs", "qdiscs", (double)total);
	}
	for (size_t i = 0; i < n; i++) {
		struct np_counter_view d = np_nv_qdisc_drops(a, set[i]);
		struct np_counter_view o = np_nv_qdisc_overlimits(a, set[i]);

		if (total > 1 && !d.total && !o.total)
			continue;
		np_nv_qdisc_name(set[i], name, sizeof(name));
		snprintf(key, sizeof(key), "%s.drops", name);
		np_ev_counter(f, key, "packets", &d);
		snprintf(key, sizeof(key), "%s.overlimits", name);
		np_ev_counter(f, key, "events", &o);
		if (np_has(set[i]->backlog)) {
			snprintf(key, sizeof(key), "%s.backlog", name);
			np_ev_value(f, key, "bytes", (double)set[i]->backlog);
		}
	}
	np_detail(f, "This is the send side: packets %s leaves are queued here before the "
		     "driver.", s->dev.name);
	advise(f, s, worst);
}

static void run_bbr_without_fq(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	const char *cc = np_sysctl_str(s, NP_SYSCTL_TCP_CONGESTION_CONTROL);
	const char *dq = np_sysctl_str(s, NP_SYSCTL_DEFAULT_QDISC);
	const struct np_qdisc *root, *other = NULL;
	size_t total = 0, nfq = 0;
	bool multiq, leaves = false;
	struct np_finding *f;
	char name[48];

	if (!cc) {
		np_skip_sysctl(a, r, NP_SYSCTL_TCP_CONGESTION_CONTROL);
		return;
	}
	if (!np_nv_src_usable(s, NP_SRC_RTNL_QDISC, "qdisc list", r))
		return;
	if (strncmp(cc, "bbr", 3))
		return;
	root = np_nv_qdisc_root(s);
	/* noqueue (lo, veth, tunnels): no qdisc to pace in; the traffic's real egress decides. */
	if (!root || !strcmp(root->kind, "noqueue"))
		return;
	multiq = np_nv_qdisc_multiq(root);
	/* Pacing happens in the qdisc that dequeues to the driver: mq's leaves, else the root. */
	for (size_t i = 0; multiq && i < s->rtnl.nqdisc; i++) {
		const struct np_qdisc *q = &s->rtnl.qdiscs[i];

		if (!np_nv_qdisc_below(root, q))
			continue;
		leaves = true;
		total++;
		if (!strcmp(q->kind, "fq"))
			nfq++;
		else if (!other)
			other = q;
	}
	if (!leaves) {
		total = 1;
		nfq = !strcmp(root->kind, "fq");
	}
	if (nfq >= total)
		return;
	np_nv_qdisc_name(root, name, sizeof(name));
	if (other)
		f = np_emit(r, NP_SEV_INFO, "Default congestion control %s without fq: %zu of %zu "
			    "TX queues of %s use another qdisc (%s)", cc, total - nfq, total,
			    s->dev.name, other->kind);
	else
		f = np_emit(r, NP_SEV_INFO, "Default congestion control %s without fq: the root "
			    "qdisc of %s is %s", cc, s->dev.name, name);
	if (!f)
		return;
	np_ev_text(f, "tcp_congestion_control", "%s", cc);
	np_ev_text(f, "root_qdisc", "%s", name);
	if (other) {
		np_ev_text(f, "leaf_qdisc", "%s", other->kind);
		np_ev_value(f, "fq_leaves", "qdiscs", (double)nfq);
		np_ev_value(f, "tx_queue_leaves", "qdiscs", (double)total);
	}
	if (dq)
		np_ev_text(f, "default_qdisc", "%s", dq);
	np_detail(f, "Since 4.13 TCP paces BBR flows itself when no fq qdisc does (a timer per "
		     "socket), so this works; fq does the same pacing more cheaply (EDT, 4.20+). "
		     "This is CPU-cost advice, not an alarm.");
	if (dq && !strcmp(dq, "fq"))
		np_detail(f, "default_qdisc is already fq, but it only applies to qdiscs created "
			     "after it was set: this one predates it or was set explicitly.");
	if (dq && strcmp(dq, "fq"))
		np_remedy(f, "sysctl -w net.core.default_qdisc=fq   # and persist it in "
			     "/etc/sysctl.d");
	if (multiq)
		np_remedy(f, "tc qdisc replace dev %s root handle 1: %s   # re-creates its leaves "
			     "with default_qdisc (fq)", s->dev.name, root->kind);
	else
		np_remedy(f, "tc qdisc replace dev %s root fq", s->dev.name);
	np_remedy(f, "modprobe sch_fq   # if the kernel reports 'Unknown qdisc fq'");
	np_remedy(f, "Cost: replacing drops the packets queued at that moment; fq keeps per-flow "
		     "state (a little memory and CPU per packet). Shapers (tbf, htb) must stay: "
		     "put fq below them instead.");
}

static void run_txqueuelen(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	const struct np_qdisc *root;
	uint64_t txq = np_src_ok(s, NP_SRC_RTNL_LINK) && np_has(s->rtnl.txqlen) ? s->rtnl.txqlen :
		       s->dev.tx_queue_len;
	uint64_t speed = np_nv_speed_mbps(s);
	struct np_counter_view drops = { 0 };
	size_t nfifo = 0;
	struct np_finding *f;
	enum np_severity sev;
	char name[48], num[32];

	if (!np_has(txq)) {
		np_skip(r, "txqueuelen not reported");
		return;
	}
	if (!np_nv_src_usable(s, NP_SRC_RTNL_QDISC, "qdisc list", r))
		return;
	root = np_nv_qdisc_root(s);
	if (!root || !strcmp(root->kind, "noqueue"))
		return;
	for (size_t i = 0; i < s->rtnl.nqdisc; i++) {
		const struct np_qdisc *q = &s->rtnl.qdiscs[i];

		if ((q == root || np_nv_qdisc_below(root, q)) && is_kind(q, fifo_kinds)) {
			drops = np_view_sum(drops, np_nv_qdisc_drops(a, q));
			nfifo++;
		}
	}
	np_nv_qdisc_name(root, name, sizeof(name));
	if (txq == 0) {
		f = np_emit(r, NP_SEV_INFO, "%s has txqueuelen 0 but a real qdisc (%s)",
			    s->dev.name, name);
		np_ev_value(f, "txqueuelen", "packets", 0);
		np_ev_text(f, "root_qdisc", "%s", name);
		np_detail(f, "FIFO qdiscs created later without an explicit limit (pfifo, bfifo, "
			     "pfifo_fast, mq leaves) take their length from txqueuelen and would "
			     "hold almost nothing. fq, fq_codel, tbf and htb have their own "
			     "limits.");
		np_remedy(f, "ip link set dev %s txqueuelen %d", s->dev.name, QD_TXQLEN_SUGGEST);
		np_remedy(f, "Cost: up to %d packets of queueing delay in a FIFO.",
			  QD_TXQLEN_SUGGEST);
		return;
	}
	if (txq >= (uint64_t)np_thr_warn(r) || !nfifo || !np_has(speed) || speed < 1000)
		return;
	if (!drops.present || !drops.total)
		return;
	sev = drops.sampled && drops.delta ? NP_SEV_WARNING : NP_SEV_INFO;
	if (sev == NP_SEV_WARNING)
		f = np_emit(r, sev, "txqueuelen %llu on %s (%llu Mbit/s) is too short: its FIFO "
			    "qdisc drops %s packets/s", (unsigned long long)txq, s->dev.name,
			    (unsigned long long)speed, np_fmt_num(drops.rate, num, sizeof(num)));
	else
		f = np_emit(r, sev, "txqueuelen %llu on %s (%llu Mbit/s) is short; its FIFO qdisc "
			    "dropped %llu packets since boot%s", (unsigned long long)txq,
			    s->dev.name, (unsigned long long)speed,
			    (unsigned long long)drops.total,
			    drops.sampled ? ", none during the sample" : "");
	if (!f)
		return;
	f->rank = drops.rate;
	np_ev_value(f, "txqueuelen", "packets", (double)txq);
	np_ev_value(f, "speed", "Mbit/s", (double)speed);
	np_ev_text(f, "root_qdisc", "%s", name);
	np_ev_counter(f, "fifo_drops", "packets", &drops);
	np_detail(f, "pfifo_fast and pfifo hold txqueuelen packets; at %llu Mbit/s %llu "
		     "full-size packets drain in %.0f us, too little to absorb a burst from "
		     "the host. The default is 1000.", (unsigned long long)speed,
		  (unsigned long long)txq, (double)txq * 1538.0 * 8.0 / (double)speed);
	np_remedy(f, "ip link set dev %s txqueuelen %d", s->dev.name, QD_TXQLEN_SUGGEST);
	np_remedy(f, "Cost: more queueing delay under overload (%d full-size packets at %llu "
		     "Mbit/s = %.1f ms); fq instead isolates flows from each other.",
		  QD_TXQLEN_SUGGEST, (unsigned long long)speed,
		  QD_TXQLEN_SUGGEST * 1538.0 * 8.0 / (double)speed / 1000.0);
}

const struct np_check np_check_congestion_qdisc_drops = {
	.id = "congestion.qdisc-drops",
	.stage = NP_STAGE_CONGESTION,
	.scope = NP_SCOPE_INTERFACE,
	.title = "Egress qdisc dropping or throttling",
	.looks_at = "rtnetlink qdisc statistics of the root qdisc (or its mq leaves): drops, "
		    "overlimits, backlog over the interval",
	.why = "The egress qdisc actually attached (not default_qdisc) is where a sender's packets "
	       "wait for the driver. Drops there are local loss before the wire: a shaper (tbf, "
	       "htb) at its rate, a FIFO full because the link is saturated, or fq limiting one "
	       "flow. AQM qdiscs (fq_codel, cake) drop on purpose to signal congestion. On a "
	       "receiver it matters only for ACKs.",
	.fix = "Depends on the qdisc: raise a shaper's rate or queue, lengthen a FIFO or replace "
	       "it with fq, raise fq's flow_limit; every longer queue costs latency.",
	.related = "tc -s qdisc show, ip link set dev IF txqueuelen, net.core.default_qdisc",
	.kernel_notes = "mq reports the sum of its leaves; a tbf or htb root counts its inner "
			"qdiscs' drops. Overlimits count throttling events, not lost packets.",
	.warn = 1, .crit = 1000, .thr_unit = "drops/s",
	.run = run_qdisc_drops,
};

const struct np_check np_check_congestion_bbr_without_fq = {
	.id = "congestion.bbr-without-fq",
	.stage = NP_STAGE_CONGESTION,
	.scope = NP_SCOPE_INTERFACE,
	.title = "BBR without the fq qdisc attached",
	.looks_at = "net.ipv4.tcp_congestion_control, the root qdisc and mq leaves attached to "
		    "the interface (rtnetlink), net.core.default_qdisc",
	.why = "BBR depends on pacing. Since 4.13 TCP paces internally when fq is absent, at the "
	       "cost of a high-resolution timer per socket; fq paces more cheaply. This is CPU "
	       "advice, not a throughput alarm, and it does not apply to noqueue devices.",
	.fix = "Attach fq (tc qdisc replace dev IF root fq, or mq with fq leaves via "
	       "default_qdisc=fq). Replacing a qdisc drops what is queued in it.",
	.related = "net.ipv4.tcp_congestion_control, net.core.default_qdisc, tc qdisc fq",
	.kernel_notes = "Before 4.13 BBR needed fq for pacing. fq may be a module (sch_fq).",
	.warn = NAN, .crit = NAN,
	.run = run_bbr_without_fq,
};

const struct np_check np_check_congestion_txqueuelen = {
	.id = "congestion.txqueuelen",
	.stage = NP_STAGE_CONGESTION,
	.scope = NP_SCOPE_INTERFACE,
	.title = "txqueuelen too short for the FIFO qdisc",
	.looks_at = "txqueuelen (rtnetlink or sysfs), link speed, drops of pfifo/pfifo_fast "
		    "qdiscs",
	.why = "FIFO qdiscs hold txqueuelen packets. A value far below the default 1000 on a "
	       "fast link cannot absorb the host's bursts and drops locally; 0 makes FIFOs "
	       "created later almost unusable. Qdiscs with their own limits (fq, fq_codel) "
	       "ignore it, and a short queue that never drops is fine (less latency).",
	.fix = "ip link set dev IF txqueuelen 1000, or use fq. A longer queue costs latency "
	       "under overload.",
	.related = "ip link set dev IF txqueuelen, tc qdisc",
	.warn = 100, .crit = NAN,
	.thr_unit = "packets of txqueuelen (warning only when its FIFO drops during the sample)",
	.run = run_txqueuelen,
};
