// SPDX-License-Identifier: GPL-2.0-only
/* Stage "congestion": the send side (CC algorithm, pacing, idle restart, MTU probing). */
#include "check.h"
#include "nic_view.h"
#include "sizing.h"

#include <stdio.h>
#include <string.h>

/* RTTs (ms) from which the choice of congestion control and pacing visibly matters. */
#define LONG_RTT_MS NP_CC_LONG_RTT_MS
#define SSAI_RTT_MS NP_SSAI_RTT_MS
#define FAST_LINK_BPS 10e9
/* Fewer segments than this over the interval make a retransmission rate meaningless. */
#define MIN_SEGS_FOR_RATE 1000

/* Retransmitted share of sent segments over the interval, in %; NAN when not meaningful. */
static double retrans_pct(const struct np_analysis *a, struct np_counter_view *re,
			  struct np_counter_view *out)
{
	*re = np_view_mib(a, "TcpRetransSegs");
	*out = np_view_mib(a, "TcpOutSegs");
	if (!re->sampled || !out->sampled || out->delta < MIN_SEGS_FOR_RATE)
		return NAN;
	return 100.0 * (double)re->delta / (double)out->delta;
}

static void remedy_bbr(struct np_finding *f, const struct np_analysis *a, bool bbr_avail)
{
	const char *ifn = a->cur->dev.name;

	if (!bbr_avail)
		np_remedy(f, "modprobe tcp_bbr && echo tcp_bbr > /etc/modules-load.d/bbr.conf");
	np_remedy(f, "sysctl -w net.ipv4.tcp_congestion_control=bbr   # new sockets only");
	np_remedy(f, "sysctl -w net.core.default_qdisc=fq   # for qdiscs created from now on");
	np_remedy(f, "tc qdisc replace dev %s root fq   # pacing now; one fq for all TX queues "
		     "(per-queue fq comes with the next link re-creation or boot)", ifn);
}

static void run_cc(const struct np_analysis *a, struct np_report *r)
{
	const char *cc = np_sysctl_str(a->cur, NP_SYSCTL_TCP_CONGESTION_CONTROL);
	const char *avail = np_sysctl_str(a->cur, NP_SYSCTL_TCP_AVAILABLE_CONGESTION_CONTROL);
	bool bbr_avail = avail && np_word_in(avail, "bbr");
	bool loss_based;
	struct np_counter_view re, out;
	double pct;
	struct np_finding *f;
	enum np_severity sev;

	if (!cc) {
		np_skip_sysctl(a, r, NP_SYSCTL_TCP_CONGESTION_CONTROL);
		return;
	}
	loss_based = !strcmp(cc, "cubic") || !strcmp(cc, "reno");
	if (!loss_based)
		return;
	pct = retrans_pct(a, &re, &out);
	if (!strcmp(cc, "reno")) {
		sev = NP_SEV_WARNING;
		f = np_emit(r, sev, "default congestion control is reno (bbr %s)",
			    bbr_avail ? "available" : "not loaded");
	} else if (!isnan(a->rtt_ms) && a->rtt_ms >= LONG_RTT_MS) {
		if (!isnan(pct) && pct > np_thr_warn(r)) {
			sev = NP_SEV_WARNING;
			f = np_emit(r, sev, "cubic on a lossy long path: %.1f%% of segments "
				    "retransmitted at %g ms RTT", pct, a->rtt_ms);
		} else {
			sev = NP_SEV_INFO;
			f = np_emit(r, sev, "cubic at %g ms RTT: bbr (%s) keeps long paths with "
				    "some loss fuller", a->rtt_ms,
				    bbr_avail ? "available" : "not loaded");
		}
	} else {
		/* A LAN, or an unknown RTT: loss-based CC is fine there. */
		return;
	}
	if (!f)
		return;
	np_ev_text(f, "tcp_congestion_control", "%s", cc);
	if (avail)
		np_ev_text(f, "tcp_available_congestion_control", "%s", avail);
	np_ev_text(f, "bbr", "%s", bbr_avail ? "available" : avail ? "not loaded" : "unknown");
	if (!isnan(a->rtt_ms))
		np_ev_text(f, "rtt", "%g ms (%s)", a->rtt_ms, a->rtt_source);
	if (!isnan(pct))
		np_ev_value(f, "retransmitted", "% of segments", pct);
	if (re.present)
		np_ev_counter(f, "TcpRetransSegs", "segments", &re);
	if (out.present)
		np_ev_counter(f, "TcpOutSegs", "segments", &out);
	if (!strcmp(cc, "reno"))
		np_detail(f, "Reno halves its window on every loss and grows it by one segment per "
			     "RTT: at tens of ms it takes minutes to refill a fast path. Nothing "
			     "chooses reno on purpose today; cubic is the kernel default.");
	else
		np_detail(f, "Cubic treats every loss as congestion and cuts its window by 30%%; "
			     "on a long path refilling takes many RTTs, so random loss of 1%% or "
			     "so keeps it far below capacity. BBR models bandwidth and RTT instead "
			     "and ignores isolated loss. On a clean, short path the two barely "
			     "differ.");
	if (isnan(pct) && strcmp(cc, "reno"))
		np_detail(f, "The retransmission rate was not measured (no interval or too little "
			     "traffic); per-connection loss comes from live sockets (a later "
			     "collector).");
	remedy_bbr(f, a, bbr_avail);
	np_remedy(f, "Cost: BBRv1 takes more than its share from cubic flows at a shared "
		     "bottleneck and retransmits more on shallow-buffered paths; pacing costs some "
		     "CPU. Switch one host and measure before switching a fleet.");
}

/* The kind of qdisc that dequeues to the driver: the root, or mq's leaves when they agree. */
static const char *attached_kind(const struct np_snapshot *s)
{
	const struct np_qdisc *root = np_nv_qdisc_root(s);
	const char *kind = NULL;

	if (!root || !np_nv_qdisc_multiq(root))
		return root ? root->kind : NULL;
	for (size_t i = 0; i < s->rtnl.nqdisc; i++) {
		const struct np_qdisc *q = &s->rtnl.qdiscs[i];

		if (!np_nv_qdisc_below(root, q))
			continue;
		if (kind && strcmp(kind, q->kind))
			return NULL;
		kind = q->kind;
	}
	return kind;
}

static void run_pacing(const struct np_analysis *a, struct np_report *r)
{
	const char *dq = np_sysctl_str(a->cur, NP_SYSCTL_DEFAULT_QDISC);
	const char *cc = np_sysctl_str(a->cur, NP_SYSCTL_TCP_CONGESTION_CONTROL);
	/* With the attached qdisc known, congestion.bbr-without-fq judges bbr on the qdisc that
	 * really paces; default_qdisc alone would report the same thing twice, or wrongly. */
	bool attached = np_src_ok(a->cur, NP_SRC_RTNL_QDISC);
	bool bbr = cc && !strcmp(cc, "bbr");
	/* default_qdisc is host-global: a network namespace does not show it. The qdisc attached
	 * to the interface then stands in for it (it is what paces, after all). */
	const char *root = !dq && attached ? attached_kind(a->cur) : NULL;
	struct np_finding *f;

	if (!dq && !root) {
		np_skip(r, "net.core.default_qdisc %s%s",
			np_sysctl_absence_short(a->cur, NP_SYSCTL_DEFAULT_QDISC),
			attached ? " and no qdisc attached to the interface" : "");
		return;
	}
	if (dq && bbr && strcmp(dq, "fq") && !attached) {
		f = np_emit(r, NP_SEV_INFO, "bbr with default_qdisc %s: TCP paces itself, at some "
			    "CPU cost; fq is the better pairing", dq);
	} else if (!bbr && !isnan(a->rtt_ms) && a->rtt_ms >= LONG_RTT_MS &&
		   !strcmp(dq ? dq : root, "pfifo_fast")) {
		if (dq)
			f = np_emit(r, NP_SEV_INFO, "default_qdisc pfifo_fast on a %g ms path: fq "
				    "would pace flows and smooth bursts", a->rtt_ms);
		else
			f = np_emit(r, NP_SEV_INFO, "%s sends through pfifo_fast on a %g ms path: "
				    "fq would pace flows and smooth bursts", a->cur->dev.name,
				    a->rtt_ms);
	} else {
		return;
	}
	if (!f)
		return;
	if (dq)
		np_ev_text(f, "default_qdisc", "%s", dq);
	else
		np_ev_text(f, "root_qdisc", "%s", root);
	if (cc)
		np_ev_text(f, "tcp_congestion_control", "%s", cc);
	if (!isnan(a->rtt_ms))
		np_ev_text(f, "rtt", "%g ms (%s)", a->rtt_ms, a->rtt_source);
	if (bbr)
		np_detail(f, "Since 4.13 TCP paces internally when the qdisc cannot (a "
			     "high-resolution timer per socket), so bbr works without fq; fq does "
			     "the same job more cheaply (EDT timestamps, 4.20+). This is CPU "
			     "advice, not an alarm. The qdisc actually attached to %s was not read "
			     "in this run (it needs rtnetlink), so this goes by default_qdisc.",
			  a->cur->dev.name);
	else
		np_detail(f, "pfifo_fast sends each flow's bursts back to back; on a long path "
			     "with shallow-buffered hops those bursts cause loss. fq spreads each "
			     "flow's packets out and isolates flows from each other.");
	if (!dq)
		np_detail(f, "net.core.default_qdisc was not read (%s): this goes by the qdisc "
			     "attached to %s.", np_sysctl_absence_short(a->cur, NP_SYSCTL_DEFAULT_QDISC),
			  a->cur->dev.name);
	np_detail(f, "default_qdisc only applies to qdiscs created after it is set (device "
		     "activation, mq leaves).");
	np_remedy(f, "sysctl -w net.core.default_qdisc=fq");
	np_remedy(f, "tc qdisc replace dev %s root fq   # apply now (one fq for all TX queues)",
		  a->cur->dev.name);
	np_remedy(f, "Cost: a little CPU per packet for flow classification; replacing the root "
		     "qdisc drops the packets queued in it.");
}

static void run_ssai(const struct np_analysis *a, struct np_report *r)
{
	bool ok;
	int64_t v = np_sysctl_int(a->cur, NP_SYSCTL_TCP_SLOW_START_AFTER_IDLE, 0, &ok);
	char b[32];
	struct np_finding *f;
	enum np_severity sev;

	if (!ok) {
		np_skip_sysctl(a, r, NP_SYSCTL_TCP_SLOW_START_AFTER_IDLE);
		return;
	}
	if (v == 0)
		return;
	if (!isnan(a->rtt_ms)) {
		if (a->rtt_ms < SSAI_RTT_MS)
			return;
		sev = a->rtt_ms >= np_thr_warn(r) ? NP_SEV_WARNING : NP_SEV_INFO;
		f = np_emit(r, sev, "tcp_slow_start_after_idle=1 at %g ms RTT: idle connections "
			    "restart from a small window", a->rtt_ms);
	} else if (!isnan(a->bw_bps) && a->bw_bps >= FAST_LINK_BPS) {
		f = np_emit(r, NP_SEV_INFO, "tcp_slow_start_after_idle=1 on a %s link: idle "
			    "connections restart from a small window",
			    np_fmt_bps(a->bw_bps, b, sizeof(b)));
	} else {
		return;
	}
	if (!f)
		return;
	np_ev_value(f, "tcp_slow_start_after_idle", "", (double)v);
	if (!isnan(a->rtt_ms))
		np_ev_text(f, "rtt", "%g ms (%s)", a->rtt_ms, a->rtt_source);
	if (!isnan(a->bw_bps))
		np_ev_text(f, "bandwidth", "%s (%s)", np_fmt_bps(a->bw_bps, b, sizeof(b)),
			   a->bw_source);
	np_detail(f, "A connection idle for more than one RTO (at least 200 ms) shrinks its "
		     "congestion window toward the initial 10 segments and must slow-start again: "
		     "each burst of a long-lived but bursty connection (HTTP/2, RPC, replication) "
		     "then takes several RTTs to get up to speed. Continuous bulk transfers are "
		     "not affected, and on a LAN the restart costs microseconds.");
	np_remedy(f, "sysctl -w net.ipv4.tcp_slow_start_after_idle=0");
	np_remedy(f, "Cost: after an idle period a connection may send a full old window at once "
		     "into a path whose conditions changed; fq pacing softens the burst.");
}

static void run_mtu_probing(const struct np_analysis *a, struct np_report *r)
{
	bool ok;
	int64_t v = np_sysctl_int(a->cur, NP_SYSCTL_TCP_MTU_PROBING, 0, &ok);
	uint64_t mtu = a->cur->dev.mtu;
	bool jumbo = np_has(mtu) && mtu > 1500;
	bool long_rtt = !isnan(a->rtt_ms) && a->rtt_ms >= LONG_RTT_MS;
	struct np_finding *f;

	if (!ok) {
		np_skip_sysctl(a, r, NP_SYSCTL_TCP_MTU_PROBING);
		return;
	}
	if (v != 0 || (!jumbo && !long_rtt))
		return;
	if (jumbo)
		f = np_emit(r, NP_SEV_INFO, "tcp_mtu_probing=0 with MTU %llu on %s: a PMTU black "
			    "hole stalls connections", (unsigned long long)mtu, a->cur->dev.name);
	else
		f = np_emit(r, NP_SEV_INFO, "tcp_mtu_probing=0 on a %g ms path: a PMTU black hole "
			    "stalls connections", a->rtt_ms);
	if (!f)
		return;
	np_ev_value(f, "tcp_mtu_probing", "", 0);
	if (np_has(mtu))
		np_ev_value(f, "mtu", "bytes", (double)mtu);
	if (!isnan(a->rtt_ms))
		np_ev_text(f, "rtt", "%g ms (%s)", a->rtt_ms, a->rtt_source);
	np_detail(f, "Path MTU discovery relies on ICMP 'fragmentation needed'; a firewall that "
		     "drops it, or a hop with a smaller MTU that does not send it, makes large "
		     "segments vanish: the connection hangs after the handshake. With probing=1 "
		     "TCP detects the black hole and retries with smaller segments. Jumbo frames "
		     "and long multi-hop paths are where this happens.");
	np_remedy(f, "sysctl -w net.ipv4.tcp_mtu_probing=1   # probe only after a black hole is "
		     "detected (2 = always probe)");
	np_remedy(f, "Cost: none on healthy paths; a black-holed connection continues with smaller "
		     "segments (tcp_base_mss) instead of stalling.");
}

static void run_keepalive(const struct np_analysis *a, struct np_report *r)
{
	bool ok;
	int64_t v = np_sysctl_int(a->cur, NP_SYSCTL_TCP_KEEPALIVE_TIME, 0, &ok);
	struct np_finding *f;

	if (!ok) {
		np_skip_sysctl(a, r, NP_SYSCTL_TCP_KEEPALIVE_TIME);
		return;
	}
	if (v < NP_KEEPALIVE_LATE_S)
		return;
	f = np_emit(r, NP_SEV_INFO, "tcp_keepalive_time=%lld s: idle connections are probed only "
		    "after %.1f h", (long long)v, (double)v / 3600.0);
	if (!f)
		return;
	np_ev_value(f, "tcp_keepalive_time", "s", (double)v);
	np_detail(f, "Only sockets that enable SO_KEEPALIVE are probed, and applications can set "
		     "their own TCP_KEEPIDLE. NAT gateways, load balancers and stateful firewalls "
		     "often forget idle flows after 5-60 minutes; a connection idle longer then "
		     "fails on its next use. This is not a receive-path problem.");
	np_remedy(f, "sysctl -w net.ipv4.tcp_keepalive_time=%d   # or TCP_KEEPIDLE in the "
		     "application", NP_KEEPALIVE_PLAN_S);
	np_remedy(f, "Cost: one small probe per idle keepalive connection every 10 minutes.");
}

const struct np_check np_check_congestion_cc = {
	.id = "congestion.cc",
	.stage = NP_STAGE_CONGESTION,
	.scope = NP_SCOPE_NETNS,
	.title = "Congestion control algorithm",
	.looks_at = "net.ipv4.tcp_congestion_control, tcp_available_congestion_control; "
		    "TcpRetransSegs / TcpOutSegs over the interval; the RTT",
	.why = "Loss-based algorithms (cubic, reno) cut their window on every loss; on long paths "
	       "with some random loss they run far below capacity, where BBR does not. On a "
	       "clean LAN (sub-millisecond RTT) BBR and CUBIC barely differ and there is nothing "
	       "to gain. Reno is outdated everywhere.",
	.fix = "Load tcp_bbr, make it the default and pair it with the fq qdisc. BBRv1 is unfair "
	       "to cubic flows at a shared bottleneck and retransmits more on shallow buffers.",
	.related = "net.ipv4.tcp_congestion_control, net.core.default_qdisc, tc qdisc fq",
	.kernel_notes = "BBR since 4.9; tcp_congestion_control is per network namespace since "
			"4.15; applies to new sockets only.",
	.warn = 1, .crit = NAN,
	.thr_unit = "% of segments retransmitted (cubic/reno at RTT ≥ 20 ms)",
	.run = run_cc,
};

const struct np_check np_check_congestion_pacing = {
	.id = "congestion.pacing",
	.stage = NP_STAGE_CONGESTION,
	.scope = NP_SCOPE_HOST,
	.title = "Pacing: default qdisc vs congestion control",
	.looks_at = "net.core.default_qdisc (in a network namespace, which does not show it: the "
		    "qdisc attached to the interface), net.ipv4.tcp_congestion_control; the RTT",
	.why = "BBR needs pacing: without fq, TCP paces in the socket at some CPU cost (fine since "
	       "4.13). On long paths, fq also smooths the bursts of loss-based flows. On a LAN the "
	       "qdisc choice matters little for throughput.",
	.fix = "Set default_qdisc=fq and replace the root qdisc. Costs a little CPU per packet.",
	.related = "net.core.default_qdisc, tc qdisc",
	.kernel_notes = "default_qdisc only applies to qdiscs created after it is set; lo and veth "
			"get noqueue. When rtnetlink reports the attached qdisc, bbr without fq "
			"is congestion.bbr-without-fq's to judge, not this check's.",
	.warn = NAN, .crit = NAN,
	.run = run_pacing,
};

const struct np_check np_check_congestion_slow_start_after_idle = {
	.id = "congestion.slow-start-after-idle",
	.stage = NP_STAGE_CONGESTION,
	.scope = NP_SCOPE_NETNS,
	.title = "Slow start after idle",
	.looks_at = "net.ipv4.tcp_slow_start_after_idle; the RTT and link speed",
	.why = "Long-lived connections that go idle restart from a small congestion window; on "
	       "long or fast paths each burst then needs several RTTs to reach speed. It does "
	       "not matter on a LAN or for continuous bulk transfers.",
	.fix = "Set tcp_slow_start_after_idle=0. Costs bigger bursts after idle periods.",
	.related = "net.ipv4.tcp_slow_start_after_idle",
	.warn = 50, .crit = NAN,
	.thr_unit = "ms RTT (info from 10 ms, or on ≥ 10 Gbit/s links without an RTT)",
	.run = run_ssai,
};

const struct np_check np_check_congestion_mtu_probing = {
	.id = "congestion.mtu-probing",
	.stage = NP_STAGE_CONGESTION,
	.scope = NP_SCOPE_NETNS,
	.title = "TCP MTU probing off with jumbo frames or long paths",
	.looks_at = "net.ipv4.tcp_mtu_probing; interface MTU; the RTT",
	.why = "Without MTU probing a path MTU black hole (ICMP filtered) hangs TCP connections "
	       "after the handshake. Jumbo MTUs and long multi-hop paths are where it happens; "
	       "a 1500-byte LAN is safe.",
	.fix = "Set tcp_mtu_probing=1 (probe after a black hole is detected). No cost on healthy "
	       "paths.",
	.related = "net.ipv4.tcp_mtu_probing, net.ipv4.tcp_base_mss",
	.warn = NAN, .crit = NAN,
	.run = run_mtu_probing,
};

const struct np_check np_check_congestion_keepalive = {
	.id = "congestion.keepalive",
	.stage = NP_STAGE_CONGESTION,
	.scope = NP_SCOPE_NETNS,
	.title = "TCP keepalive interval vs middlebox idle timeouts",
	.looks_at = "net.ipv4.tcp_keepalive_time",
	.why = "The 2-hour default outlives most NAT and firewall idle timeouts, so idle "
	       "keepalive connections through them die silently. Informational only: it affects "
	       "only sockets with SO_KEEPALIVE and never the receive path.",
	.fix = "Lower tcp_keepalive_time (e.g. 600 s) or set TCP_KEEPIDLE in the application. "
	       "Costs one small probe per idle connection per interval.",
	.related = "net.ipv4.tcp_keepalive_time, net.ipv4.tcp_keepalive_intvl, "
		   "net.ipv4.tcp_keepalive_probes",
	.warn = NAN, .crit = NAN,
	.run = run_keepalive,
};
