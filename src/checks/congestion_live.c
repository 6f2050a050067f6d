// SPDX-License-Identifier: GPL-2.0-only
/* Stage "congestion" from live TCP flows: loss-based CC on lossy long paths, and the CC that
 * sockets actually use versus the configured default. */
#include "socket_live.h"

#include <string.h>

/* Fewer segments over the interval make a flow's interval loss rate meaningless. */
#define MIN_INTERVAL_SEGS 200

static bool loss_based(const char *cc)
{
	return !strcmp(cc, "cubic") || !strcmp(cc, "reno");
}

static const struct np_sock_flow *find_cookie(const struct np_sockets *k, uint64_t cookie)
{
	for (uint32_t i = 0; k && i < k->lossy.n; i++)
		if (k->lossy.e[i].id.cookie == cookie)
			return &k->lossy.e[i];
	return NULL;
}

static const struct np_sock_cc *cc_of(const struct np_sockets *k, const char *name)
{
	for (uint32_t i = 0; i < k->ncc; i++)
		if (!strcmp(k->cc[i].name, name))
			return &k->cc[i];
	return NULL;
}

static void run_lossy(const struct np_analysis *a, struct np_report *r)
{
	const struct np_sockets *k = np_live_socks(a, r), *p = np_live_prev(a);
	const char *avail = np_sysctl_str(a->cur, NP_SYSCTL_TCP_AVAILABLE_CONGESTION_CONTROL);
	const char *def = np_sysctl_str(a->cur, NP_SYSCTL_TCP_CONGESTION_CONTROL);
	const struct np_sock_flow *fl = NULL, *pf;
	const struct np_sock_cc *agg;
	double life, ival = NAN;
	char addr[64], peer[64], own[48];
	unsigned n = 0;
	enum np_severity sev;
	struct np_finding *f;

	if (!k)
		return;
	for (uint32_t i = 0; i < k->lossy.n; i++) {
		if (!loss_based(k->lossy.e[i].cc))
			continue;	/* bbr retransmits more by design: another story */
		if (!fl)
			fl = &k->lossy.e[i];
		n++;
	}
	if (!fl)
		return;
	life = 100.0 * fl->total_retrans / fl->segs_out;
	pf = find_cookie(p, fl->id.cookie);
	if (pf && fl->segs_out >= pf->segs_out + MIN_INTERVAL_SEGS)
		ival = 100.0 * (fl->total_retrans - pf->total_retrans) /
		       (fl->segs_out - pf->segs_out);
	/* A flow's lifetime rate alone (no interval) is history: info. */
	if (!p)
		sev = NP_SEV_INFO;
	else if (!isnan(ival))
		sev = ival >= np_thr_warn(r) ? NP_SEV_WARNING : NP_SEV_INFO;
	else
		sev = life >= np_thr_warn(r) ? NP_SEV_WARNING : NP_SEV_INFO;
	np_sock_addr_str(fl->id.family, fl->id.saddr, fl->id.sport, addr, sizeof(addr));
	np_sock_addr_str(fl->id.family, fl->id.daddr, fl->id.dport, peer, sizeof(peer));
	np_live_owner(&fl->id, own, sizeof(own));
	f = np_emit(r, sev, "%u long-RTT %s flow%s retransmit%s heavily: %s -> %s%s at %.0f ms "
		    "retransmitted %.1f%% of its segments%s", n, fl->cc, n == 1 ? "" : "s",
		    n == 1 ? "s" : "", addr, peer, own, fl->min_rtt_us / 1000.0,
		    isnan(ival) ? life : ival, isnan(ival) ? " (over its lifetime)" :
		    " during the sample");
	if (!f)
		return;
	f->rank = isnan(ival) ? life : ival;
	np_ev_text(f, "flow", "%s -> %s%s", addr, peer, own);
	np_ev_text(f, "congestion control", "%s", fl->cc);
	np_ev_value(f, "min rtt", "ms", fl->min_rtt_us / 1000.0);
	np_ev_value(f, "retransmitted (lifetime)", "% of segments", life);
	if (!isnan(ival))
		np_ev_value(f, "retransmitted (sample)", "% of segments", ival);
	np_ev_value(f, "segments sent", "segments", fl->segs_out);
	agg = cc_of(k, fl->cc);
	if (agg) {
		np_ev_value(f, "established sockets on this CC", "sockets", (double)agg->sockets);
		np_ev_value(f, "of them min RTT >= 20 ms", "sockets", (double)agg->long_rtt);
	}
	if (def)
		np_ev_text(f, "tcp_congestion_control", "%s", def);
	np_ev_text(f, "bbr", "%s", avail ? (np_word_in(avail, "bbr") ? "available" : "not loaded") :
		   "unknown");
	np_detail(f, "%s treats every loss as congestion and cuts its window (by 30%% for "
		     "cubic); at %.0f ms each refill takes many RTTs, so a path that loses %.1f%% "
		     "runs far below its capacity. BBR models bandwidth and RTT and ignores random "
		     "loss. It matters for bulk transfers over this path; short request/response "
		     "flows and clean LAN paths gain next to nothing.", fl->cc,
		  fl->min_rtt_us / 1000.0, isnan(ival) ? life : ival);
	if (def && !loss_based(def))
		np_detail(f, "The default is already %s: this socket predates the change or its "
			     "application sets TCP_CONGESTION.", def);
	if (avail && !np_word_in(avail, "bbr"))
		np_remedy(f, "modprobe tcp_bbr && echo tcp_bbr > /etc/modules-load.d/bbr.conf");
	if (!def || loss_based(def))
		np_remedy(f, "sysctl -w net.ipv4.tcp_congestion_control=bbr   # new sockets only");
	np_remedy(f, "Or per application: setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, \"bbr\") on "
		     "the sender (%s side).", addr);
	np_remedy(f, "sysctl -w net.core.default_qdisc=fq; tc qdisc replace dev %s root fq   # "
		     "pacing for bbr", a->cur->dev.name[0] ? a->cur->dev.name : a->cur->ifname);
	np_remedy(f, "Cost: BBRv1 takes more than its share from cubic flows at a shared "
		     "bottleneck and retransmits more into shallow buffers; fq costs a little CPU. "
		     "Only the sending side's choice matters.");
}

static void run_cc_in_use(const struct np_analysis *a, struct np_report *r)
{
	const struct np_sockets *k = np_live_socks(a, r);
	const char *def;
	const struct np_sock_cc *d;
	uint64_t total = 0, other, other_long = 0;
	struct np_finding *f;
	char c1[32], c2[32];

	if (!k)
		return;
	def = np_sysctl_str(a->cur, NP_SYSCTL_TCP_CONGESTION_CONTROL);
	if (!def) {
		np_skip_sysctl(a, r, NP_SYSCTL_TCP_CONGESTION_CONTROL);
		return;
	}
	for (uint32_t i = 0; i <= NP_SOCK_MAX_CC; i++) {
		total += k->cc[i].sockets;
		if (strcmp(k->cc[i].name, def))
			other_long += k->cc[i].long_rtt;
	}
	d = cc_of(k, def);
	other = total - (d ? d->sockets : 0);
	/* A few sockets on another algorithm are a choice, not a surprise. */
	if (!other || 100.0 * (double)other / (double)total < np_thr_warn(r))
		return;
	f = np_emit(r, NP_SEV_INFO, "default congestion control is %s, but %s of %s established "
		    "TCP sockets use another", def, np_fmt_num((double)other, c1, sizeof(c1)),
		    np_fmt_num((double)total, c2, sizeof(c2)));
	if (!f)
		return;
	np_ev_text(f, "tcp_congestion_control", "%s", def);
	for (uint32_t i = 0; i <= NP_SOCK_MAX_CC && f->nev < NP_MAX_EVIDENCE - 1; i++)
		if (k->cc[i].sockets)
			np_ev_value(f, i == NP_SOCK_MAX_CC ? "other" : k->cc[i].name, "sockets",
				    (double)k->cc[i].sockets);
	np_ev_value(f, "non-default with min RTT >= 20 ms", "sockets", (double)other_long);
	np_detail(f, "tcp_congestion_control applies to sockets created after it was set (per "
		     "network namespace since 4.15); existing connections keep their algorithm and "
		     "applications may pick their own with TCP_CONGESTION.");
	if (!other_long)
		np_detail(f, "None of them runs over a path of 20 ms or more: there the choice "
			     "barely matters.");
	np_remedy(f, "ss -tni | grep -c %s   # which connections run what; restart long-lived "
		     "services after changing the default, or check their TCP_CONGESTION option",
		  def);
	np_remedy(f, "Cost: a service restart.");
}

const struct np_check np_check_congestion_lossy_long_flows = {
	.id = "congestion.lossy-long-flows",
	.stage = NP_STAGE_CONGESTION,
	.scope = NP_SCOPE_NETNS,
	.title = "Loss-based CC on long-RTT flows that retransmit heavily (measured)",
	.looks_at = "sock_diag established TCP flows: INET_DIAG_CONG, tcpi_min_rtt ≥ 20 ms, "
		    "tcpi_total_retrans / tcpi_segs_out (≥ 1000 segments), over the interval "
		    "when the same socket is in both snapshots; tcp_available_congestion_control",
	.why = "The per-flow evidence behind congestion.cc: cubic and reno cut their window on "
	       "every loss, so long paths with random loss run far below capacity where BBR "
	       "does not. It does not matter on a LAN, at low loss (well under 1%), or for "
	       "short request/response flows; bbr flows are left out (they retransmit more by "
	       "design on shallow buffers).",
	.fix = "Switch the sending side to bbr (default or per application) paired with the fq "
	       "qdisc. BBRv1 is unfair to cubic at a shared bottleneck.",
	.related = "net.ipv4.tcp_congestion_control, TCP_CONGESTION, net.core.default_qdisc, "
		   "congestion.cc",
	.kernel_notes = "tcpi_segs_out since 4.2, tcpi_min_rtt since 4.6; BBR since 4.9.",
	.warn = 1, .crit = NAN, .thr_unit = "% of a flow's segments retransmitted",
	.run = run_lossy,
};

const struct np_check np_check_congestion_cc_in_use = {
	.id = "congestion.cc-in-use",
	.stage = NP_STAGE_CONGESTION,
	.scope = NP_SCOPE_NETNS,
	.title = "Congestion control in use vs the default",
	.looks_at = "sock_diag INET_DIAG_CONG of established TCP sockets vs "
		    "net.ipv4.tcp_congestion_control",
	.why = "Changing the default does not change existing sockets or applications that set "
	       "their own algorithm, so a host 'switched to bbr' may still run cubic where it "
	       "counts. Informational; it matters only for long-RTT bulk flows.",
	.fix = "Restart long-lived services after changing the default, or fix their "
	       "TCP_CONGESTION setting.",
	.related = "net.ipv4.tcp_congestion_control, TCP_CONGESTION",
	.warn = 10, .crit = NAN, .thr_unit = "% of established sockets not on the default",
	.run = run_cc_in_use,
};
