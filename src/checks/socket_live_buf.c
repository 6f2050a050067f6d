// SPDX-License-Identifier: GPL-2.0-only
/* Stage "socket" from live TCP flows: buffers that cap a flow, either autotuned up to the
 * tcp_rmem[2]/tcp_wmem[2] ceiling (the measured BDP is larger) or fixed by SO_RCVBUF/SO_SNDBUF. */
#include "socket_live.h"
#include "socket_priv.h"

#include <string.h>

/* Below this RTT a path is a LAN (or loopback): buffer sizing is insurance, not the cause. */
#define LAN_RTT_MS 1.0

/* One listed flow seen from the side its buffer limits. */
struct flow_view {
	bool recv;		/* the receive buffer (else the send buffer) */
	double buf, rtt_ms, cap_bps;
	bool local;
	char addr[64], peer[64], own[48];
};

static void view_of(const struct np_sock_flow *f, unsigned max_flag, unsigned pin_flag,
		    struct flow_view *v)
{
	uint32_t us = f->min_rtt_us && f->min_rtt_us != UINT32_MAX ? f->min_rtt_us : f->rtt_us;

	memset(v, 0, sizeof(*v));
	/* The receive side when it is the limited one, else the send side. */
	v->recv = (f->flags & NP_SOCKF_RCV_LIMITED) &&
		  (f->flags & (NP_SOCKF_RCVBUF_MAX | NP_SOCKF_RCVBUF_PINNED) &
		   (max_flag | pin_flag));
	v->buf = v->recv ? f->rcvbuf : f->sndbuf;
	v->rtt_ms = us / 1000.0;
	/* About half of a buffer is window (tcp_adv_win_scale=1; 6.6+ measures a ratio). */
	v->cap_bps = us ? v->buf / 2.0 * 8.0 / (us / 1e6) : NAN;
	v->local = np_sock_is_local(f->id.family, f->id.saddr, f->id.daddr);
	np_sock_addr_str(f->id.family, f->id.saddr, f->id.sport, v->addr, sizeof(v->addr));
	np_sock_addr_str(f->id.family, f->id.daddr, f->id.dport, v->peer, sizeof(v->peer));
	np_live_owner(&f->id, v->own, sizeof(v->own));
}

static void flow_evidence(struct np_finding *f, const struct np_analysis *a,
			  const struct np_sock_flow *fl, const struct flow_view *v)
{
	char b[32];

	np_ev_text(f, "flow", "%s %s %s%s", v->addr, v->recv ? "<-" : "->", v->peer, v->own);
	np_live_from(f, a);
	np_ev_value(f, "rtt (min)", "ms", v->rtt_ms);
	np_ev_value(f, v->recv ? "rcvbuf" : "sndbuf", "bytes", v->buf);
	if (v->recv)
		np_ev_value(f, "rcv_space (most read in one RTT)", "bytes", fl->rcv_space);
	else
		np_ev_value(f, "sndbuf-limited", "% of busy time",
			    fl->busy_us ? 100.0 * fl->sndbuf_limited_us / fl->busy_us : 0);
	np_ev_text(f, "ceiling at this RTT", "%s (half the buffer per RTT)",
		   np_fmt_bps(v->cap_bps, b, sizeof(b)));
	if (fl->cc[0])
		np_ev_text(f, "congestion control", "%s", fl->cc);
	if (!isnan(a->bw_bps))
		np_ev_text(f, "bandwidth", "%s (%s)", np_fmt_bps(a->bw_bps, b, sizeof(b)),
			   a->bw_source);
}

/* Severity: warning on a real path whose buffer caps it below the known (or an unknown)
 * bandwidth, info on a LAN/loopback or when the buffer already covers the link. */
static enum np_severity flow_sev(const struct np_analysis *a, const struct flow_view *v,
				 double long_rtt_ms)
{
	if (v->local || v->rtt_ms < long_rtt_ms)
		return NP_SEV_INFO;
	if (!isnan(a->bw_bps) && v->cap_bps >= a->bw_bps)
		return NP_SEV_INFO;
	return NP_SEV_WARNING;
}

static void run_ceiling(const struct np_analysis *a, struct np_report *r)
{
	const struct np_sockets *k = np_live_socks(a, r);
	const struct np_sock_flow *fl;
	struct flow_view v;
	struct np_finding *f;
	enum np_sysctl_id kid;
	const char *key;
	char b1[32], b2[32];
	double need;
	int64_t vec[3];

	if (!k || !k->ceiling.n)
		return;
	fl = &k->ceiling.e[0];
	view_of(fl, NP_SOCKF_RCVBUF_MAX | NP_SOCKF_SNDBUF_MAX, 0, &v);
	kid = v.recv ? NP_SYSCTL_TCP_RMEM : NP_SYSCTL_TCP_WMEM;
	key = np_sysctl_def(kid)->key;
	f = np_emit(r, flow_sev(a, &v, np_thr_warn(r)), "%llu TCP flow%s %s at the %s ceiling "
		    "(%s): %s %s %s at %.3g ms RTT tops out near %s",
		    (unsigned long long)k->ceiling.total, k->ceiling.total == 1 ? "" : "s",
		    v.recv ? "receive a full window per RTT" : "wait for send buffer",
		    v.recv ? "tcp_rmem[2]" : "tcp_wmem[2]", np_fmt_bytes(v.buf, b1, sizeof(b1)),
		    v.addr, v.recv ? "<-" : "->", v.peer, v.rtt_ms,
		    np_fmt_bps(v.cap_bps, b2, sizeof(b2)));
	if (!f)
		return;
	f->rank = v.rtt_ms;
	flow_evidence(f, a, fl, &v);
	np_ev_value(f, "flows at the ceiling", "flows", (double)k->ceiling.total);
	need = !isnan(a->bw_bps) ? 2.0 * np_bdp_bytes(a->bw_bps, v.rtt_ms) : 2.0 * v.buf;
	if (!isnan(a->bw_bps))
		np_ev_value(f, "needed (2 × BDP at this RTT)", "bytes", need);
	np_detail(f, "Autotuning grew this flow's %s buffer to the sysctl maximum and the flow "
		     "still %s: one window per RTT is all it can carry, about half the buffer.",
		  v.recv ? "receive" : "send", v.recv ? "receives a full window every RTT" :
		  "spends its time waiting for send-buffer space");
	if (v.local || v.rtt_ms < LAN_RTT_MS)
		np_detail(f, "At a LAN RTT the ceiling is already %s: the application or the CPU "
			     "is the likelier limit, and a bigger maximum is only insurance.",
			  np_fmt_bps(v.cap_bps, b2, sizeof(b2)));
	if (np_sysctl_vec(a->cur, kid, 3, vec))
		np_remedy(f, "sysctl -w %s=\"%lld %lld %lld\"%s", key, (long long)vec[0],
			  (long long)vec[1], (long long)np_size_round_mib(need),
			  isnan(a->bw_bps) ? "   # doubled: no bandwidth known (--bandwidth)" :
			  "   # 2 × bandwidth × this RTT");
	np_remedy(f, "Cost: up to that much memory per busy connection, only for flows that need "
		     "it (autotuning), bounded by tcp_mem.");
}

/* Which rule made the buffer look set by the application (mirrors looks_pinned()). */
static const char *pin_reason(const struct np_analysis *a, const struct flow_view *v,
			      char *buf, size_t size)
{
	enum np_sysctl_id kid = v->recv ? NP_SYSCTL_TCP_RMEM : NP_SYSCTL_TCP_WMEM;
	const char *key = np_sysctl_def(kid)->key;
	bool ok;
	int64_t smax = np_sysctl_int(a->cur, v->recv ? NP_SYSCTL_RMEM_MAX : NP_SYSCTL_WMEM_MAX, 0,
				     &ok);
	int64_t vec[3];
	char b[32];

	if (!np_sysctl_vec(a->cur, kid, 3, vec))
		snprintf(buf, size, "a size autotuning does not pick");
	else if (v->buf < (double)vec[1])
		snprintf(buf, size, "below %s[1] = %s, where autotuning starts", key + 9,
			 np_fmt_bytes((double)vec[1], b, sizeof(b)));
	else if (v->buf > (double)vec[2])
		snprintf(buf, size, "above %s[2] = %s, where autotuning stops", key + 9,
			 np_fmt_bytes((double)vec[2], b, sizeof(b)));
	else if (ok && v->buf == 2.0 * (double)smax)
		snprintf(buf, size, "exactly 2 × %s: a request the cap cut", v->recv ?
			 "rmem_max" : "wmem_max");
	else
		snprintf(buf, size, "a size autotuning does not pick");
	return buf;
}

static void run_pinned(const struct np_analysis *a, struct np_report *r)
{
	const struct np_sockets *k = np_live_socks(a, r);
	const struct np_sock_flow *fl;
	const char *opt, *smax_key;
	struct flow_view v;
	struct np_finding *f;
	char b1[32], b2[32], why[96];
	bool have_smax;
	int64_t smax;
	double need;

	if (!k || !k->pinned.n)
		return;
	fl = &k->pinned.e[0];
	view_of(fl, 0, NP_SOCKF_RCVBUF_PINNED | NP_SOCKF_SNDBUF_PINNED, &v);
	opt = v.recv ? "SO_RCVBUF" : "SO_SNDBUF";
	smax = np_sysctl_int(a->cur, v.recv ? NP_SYSCTL_RMEM_MAX : NP_SYSCTL_WMEM_MAX, 0,
			     &have_smax);
	smax_key = np_sysctl_def(v.recv ? NP_SYSCTL_RMEM_MAX : NP_SYSCTL_WMEM_MAX)->key;
	f = np_emit(r, flow_sev(a, &v, np_thr_warn(r)), "%s %s %s%s is held back by a %s %s "
		    "buffer fixed with %s: at most %s at %.3g ms RTT (%llu such flow%s)", v.addr,
		    v.recv ? "<-" : "->", v.peer, v.own, np_fmt_bytes(v.buf, b1, sizeof(b1)),
		    v.recv ? "receive" : "send", opt, np_fmt_bps(v.cap_bps, b2, sizeof(b2)),
		    v.rtt_ms, (unsigned long long)k->pinned.total, k->pinned.total == 1 ? "" : "s");
	if (!f)
		return;
	f->rank = v.rtt_ms;
	flow_evidence(f, a, fl, &v);
	np_ev_text(f, "why it looks fixed", "%s", pin_reason(a, &v, why, sizeof(why)));
	if (have_smax)
		np_ev_value(f, smax_key + 9, "bytes", (double)smax);
	np_detail(f, "Setting %s switches buffer autotuning off for that socket (sock_diag does "
		     "not show the lock; the size gives it away: %s). This flow %s, so the "
		     "application's buffer, not the path, sets its speed.", opt, why,
		  v.recv ? "receives a full window every RTT" : "waits for send-buffer space");
	if (v.local || v.rtt_ms < LAN_RTT_MS)
		np_detail(f, "On a LAN or loopback that ceiling is rarely what users notice.");
	np_remedy(f, "Remove the %s call from the application on port %u (or its buffer-size "
		     "option) and let autotuning size the buffer up to %s[2].", opt,
		  v.recv ? fl->id.sport : fl->id.dport, v.recv ? "tcp_rmem" : "tcp_wmem");
	need = !isnan(a->bw_bps) ? 2.0 * np_bdp_bytes(a->bw_bps, v.rtt_ms) : 2.0 * v.buf;
	if (have_smax && (int64_t)need > smax)
		np_remedy(f, "If it must set the size: sysctl -w %s=%lld   # lets %s reach "
			     "2 × BDP at this RTT", smax_key, (long long)np_size_round_mib(need),
			  opt);
	np_remedy(f, "Cost: with autotuning, memory grows only for flows that need it, bounded "
		     "by tcp_mem; a fixed size is paid by every socket of the application.");
}

const struct np_check np_check_socket_tcp_buffer_ceiling = {
	.id = "socket.tcp-buffer-ceiling",
	.stage = NP_STAGE_SOCKET,
	.scope = NP_SCOPE_NETNS,
	.title = "TCP flows capped at tcp_rmem[2]/tcp_wmem[2] (measured)",
	.looks_at = "sock_diag established TCP flows: SK_MEMINFO rcvbuf/sndbuf at tcp_rmem[2]/"
		    "tcp_wmem[2] while receiving a full window per RTT (tcpi_rcv_space ≥ 40% of "
		    "the buffer) or send-buffer-limited (tcpi_sndbuf_limited ≥ 10% of busy time); "
		    "their min RTT; the link bandwidth",
	.why = "The measured counterpart of socket.tcp-rmem-bdp: flows that autotuning already "
	       "grew to the maximum and that are still limited by it carry one window per RTT. "
	       "On long paths that is below the link; on a LAN a 6 MiB buffer fills tens of "
	       "Gbit/s and the cause lies elsewhere (application, CPU).",
	.fix = "Raise tcp_rmem[2] (receivers) or tcp_wmem[2] (senders) to 2 × bandwidth × RTT. "
	       "Costs memory per busy connection, bounded by tcp_mem.",
	.related = "net.ipv4.tcp_rmem, net.ipv4.tcp_wmem, net.ipv4.tcp_mem, socket.tcp-rmem-bdp",
	.kernel_notes = "busy/rwnd_limited/sndbuf_limited times need 4.10+; 6.6+ sizes the window "
			"from a measured scaling_ratio instead of tcp_adv_win_scale.",
	.warn = 10, .crit = NAN, .thr_unit = "ms RTT of the flow (info below, or on loopback)",
	.run = run_ceiling,
};

const struct np_check np_check_socket_tcp_buffer_pinned = {
	.id = "socket.tcp-buffer-pinned",
	.stage = NP_STAGE_SOCKET,
	.scope = NP_SCOPE_NETNS,
	.title = "TCP flows held back by an SO_RCVBUF/SO_SNDBUF size",
	.looks_at = "sock_diag established TCP flows whose buffer is a size autotuning never "
		    "picks (below tcp_rmem[1], above tcp_rmem[2], or exactly 2 × rmem_max; "
		    "likewise for send) while window- or send-buffer-limited; net.core.rmem_max",
	.why = "An application that sets SO_RCVBUF turns autotuning off for that socket and caps "
	       "it at its own size (itself capped at rmem_max, then doubled). Fine on a LAN; on "
	       "long paths it is a common hidden throughput cap. A request that happens to land "
	       "between tcp_rmem[1] and [2] looks like autotuning and is not detected.",
	.fix = "Stop setting the buffer size in the application, or set it to 2 × BDP and raise "
	       "rmem_max/wmem_max so the request is not cut.",
	.related = "SO_RCVBUF, SO_SNDBUF, net.core.rmem_max, net.core.wmem_max, "
		   "net.ipv4.tcp_moderate_rcvbuf, socket.rmem-max",
	.kernel_notes = "SOCK_RCVBUF_LOCK is not exported by sock_diag on any kernel: the check "
			"infers it from the buffer size.",
	.warn = 1, .crit = NAN, .thr_unit = "ms RTT of the flow (info below, or on loopback)",
	.run = run_pinned,
};
