// SPDX-License-Identifier: GPL-2.0-only
/* Stage "socket": buffer sizing vs the bandwidth-delay product, and the limits that cap it. */
#include "socket_priv.h"
#include "raise.h"

#include <limits.h>
#include <string.h>

/* Links from which buffers sized for a few ms start to matter without a known RTT. */
#define FAST_LINK_BPS 10e9

static void ev_bw_rtt(struct np_finding *f, const struct np_analysis *a)
{
	char b[32];

	np_ev_text(f, "bandwidth", "%s (%s)", np_fmt_bps(a->bw_bps, b, sizeof(b)), a->bw_source);
	if (!isnan(a->rtt_ms))
		np_ev_text(f, "rtt", "%g ms (%s)", a->rtt_ms, a->rtt_source);
}

/* tcp_rmem (recv) or tcp_wmem (send) max vs 2 x BDP. */
static void run_buf_bdp(const struct np_analysis *a, struct np_report *r, bool recv)
{
	const char *name = recv ? "tcp_rmem" : "tcp_wmem";
	enum np_sysctl_id key = recv ? NP_SYSCTL_TCP_RMEM : NP_SYSCTL_TCP_WMEM;
	char b1[32], b2[32], b3[32], b4[32];
	double bdp = NAN, need, covered, cap_bps;
	enum np_severity sev;
	struct np_finding *f;
	int64_t v[3], target;

	if (!np_sysctl_vec(a->cur, key, 3, v)) {
		np_skip_sysctl(a, r, key);
		return;
	}
	if (isnan(a->bw_bps)) {
		np_skip(r, "no bandwidth known (no --bandwidth, link speed not reported)");
		return;
	}
	/* Only about half of the buffer is window (recv: tcp_adv_win_scale=1 / scaling_ratio;
	 * send: skb overhead), so the max should be about 2 x BDP. */
	covered = np_rtt_covered_ms((double)v[2] / 2.0, a->bw_bps);
	if (!isnan(a->rtt_ms)) {
		bdp = np_bdp_bytes(a->bw_bps, a->rtt_ms);
		need = 2.0 * bdp;
		if ((double)v[2] >= need)
			return;
		sev = a->rtt_ms >= np_thr_warn(r) ? NP_SEV_WARNING : NP_SEV_INFO;
		cap_bps = (double)v[2] / 2.0 * 8.0 / (a->rtt_ms / 1000.0);
		f = np_emit(r, sev, "%s max %s is below 2 × BDP (%s × %g ms = %s): one "
			    "connection tops out near %s", name,
			    np_fmt_bytes((double)v[2], b1, sizeof(b1)),
			    np_fmt_bps(a->bw_bps, b2, sizeof(b2)), a->rtt_ms,
			    np_fmt_bytes(bdp, b3, sizeof(b3)), np_fmt_bps(cap_bps, b4, sizeof(b4)));
	} else {
		if (a->bw_bps < FAST_LINK_BPS || covered >= NP_SOCK_LONG_RTT_MS)
			return;
		/* Size the example for a 10 ms path; --rtt gives the real answer. */
		need = 2.0 * np_bdp_bytes(a->bw_bps, NP_SOCK_LONG_RTT_MS);
		f = np_emit(r, NP_SEV_INFO, "%s max %s fills %s only up to %.1f ms RTT (window ≈ "
			    "buffer/2)", name, np_fmt_bytes((double)v[2], b1, sizeof(b1)),
			    np_fmt_bps(a->bw_bps, b2, sizeof(b2)), covered);
	}
	if (!f)
		return;
	target = np_size_round_mib(need);
	np_ev_value(f, recv ? "tcp_rmem[2]" : "tcp_wmem[2]", "bytes", (double)v[2]);
	ev_bw_rtt(f, a);
	if (!isnan(bdp))
		np_ev_value(f, "bdp", "bytes", bdp);
	np_ev_value(f, "needed (2 × BDP)", "bytes", need);
	np_ev_value(f, "rtt covered at this bandwidth", "ms", covered);
	if (recv)
		np_detail(f, "TCP advertises only part of its receive buffer as window (half with "
			     "tcp_adv_win_scale=1; a measured scaling_ratio on 6.6+), and a sender "
			     "can have at most one window in flight per RTT, so tcp_rmem[2] bounds "
			     "what one connection can receive.");
	else
		np_detail(f, "The send buffer holds every byte in flight until it is acknowledged, "
			     "plus per-skb overhead, so tcp_wmem[2] bounds what one connection of "
			     "this host can send over a long path.");
	if (isnan(bdp))
		np_detail(f, "No RTT was given: this is coverage, not a diagnosis. On a LAN (well "
			     "under 1 ms) the buffer is plenty; pass --rtt for the real path.");
	if (!strncmp(a->bw_source, "link speed", 10))
		np_detail(f, "The bandwidth is the link speed; if the path is slower the BDP is "
			     "smaller (--bandwidth).");
	np_remedy(f, "sysctl -w net.ipv4.%s=\"%lld %lld %lld\"%s", name, (long long)v[0],
		  (long long)v[1], (long long)target,
		  isnan(bdp) ? "   # sized for 10 ms; use 2 × bandwidth × RTT for your path" :
		  "");
	np_remedy(f, "Cost: up to %s per connection in the worst case; autotuning only grows the "
		     "buffers of connections that need it, and tcp_mem caps the total.",
		  np_fmt_bytes((double)target, b1, sizeof(b1)));
}

static void run_rmem_bdp(const struct np_analysis *a, struct np_report *r)
{
	run_buf_bdp(a, r, true);
}

static void run_wmem_bdp(const struct np_analysis *a, struct np_report *r)
{
	run_buf_bdp(a, r, false);
}

static void run_autotuning(const struct np_analysis *a, struct np_report *r)
{
	bool ok;
	int64_t mod = np_sysctl_int(a->cur, NP_SYSCTL_TCP_MODERATE_RCVBUF, 0, &ok);
	int64_t v[3];
	bool have_rmem = np_sysctl_vec(a->cur, NP_SYSCTL_TCP_RMEM, 3, v);
	char b1[32], b2[32];
	struct np_finding *f;

	if (!ok) {
		np_skip_sysctl(a, r, NP_SYSCTL_TCP_MODERATE_RCVBUF);
		return;
	}
	if (mod != 0)
		return;
	if (have_rmem)
		f = np_emit(r, NP_SEV_WARNING, "TCP receive autotuning is off "
			    "(tcp_moderate_rcvbuf=0): every connection stays at tcp_rmem[1] = %s",
			    np_fmt_bytes((double)v[1], b1, sizeof(b1)));
	else
		f = np_emit(r, NP_SEV_WARNING, "TCP receive autotuning is off "
			    "(tcp_moderate_rcvbuf=0)");
	if (!f)
		return;
	np_ev_value(f, "tcp_moderate_rcvbuf", "", 0);
	if (have_rmem) {
		np_ev_value(f, "tcp_rmem[1]", "bytes", (double)v[1]);
		np_ev_value(f, "tcp_rmem[2]", "bytes", (double)v[2]);
	}
	np_detail(f, "Without autotuning, receive buffers keep their initial size; tcp_rmem[2] is "
		     "never reached.");
	if (have_rmem && !isnan(a->rtt_ms))
		np_detail(f, "At %g ms RTT a %s buffer (about half of it window) caps one "
			     "connection near %s.", a->rtt_ms, b1,
			  np_fmt_bps((double)v[1] / 2.0 * 8.0 / (a->rtt_ms / 1000.0), b2,
				     sizeof(b2)));
	np_remedy(f, "sysctl -w net.ipv4.tcp_moderate_rcvbuf=1");
	np_remedy(f, "Cost: busy connections grow their buffers up to tcp_rmem[2] (memory), "
		     "bounded by tcp_mem.");
}

static void run_rmem_max(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	bool have_rmax, have_wmax;
	int64_t rmax = np_sysctl_int(s, NP_SYSCTL_RMEM_MAX, 0, &have_rmax);
	int64_t wmax = np_sysctl_int(s, NP_SYSCTL_WMEM_MAX, 0, &have_wmax);
	int64_t v[3], target;
	bool have_rmem = np_sysctl_vec(s, NP_SYSCTL_TCP_RMEM, 3, v);
	double bdp = np_bdp_bytes(a->bw_bps, a->rtt_ms);
	char b1[32], b2[32], b3[32];
	struct np_finding *f;

	if (!have_rmax) {
		np_skip_sysctl(a, r, NP_SYSCTL_RMEM_MAX);
		return;
	}
	if (!isnan(bdp) && (double)rmax < bdp) {
		f = np_emit(r, a->rtt_ms >= np_thr_warn(r) ? NP_SEV_WARNING : NP_SEV_INFO,
			    "rmem_max %s is below the BDP (%s × %g ms = %s): sockets that set "
			    "SO_RCVBUF, and UDP receivers, cannot get a full window",
			    np_fmt_bytes((double)rmax, b1, sizeof(b1)),
			    np_fmt_bps(a->bw_bps, b2, sizeof(b2)), a->rtt_ms,
			    np_fmt_bytes(bdp, b3, sizeof(b3)));
	} else if (have_rmem && rmax < v[2]) {
		f = np_emit(r, NP_SEV_INFO, "rmem_max %s < tcp_rmem[2] %s: applications that set "
			    "SO_RCVBUF get less than autotuning would give them",
			    np_fmt_bytes((double)rmax, b1, sizeof(b1)),
			    np_fmt_bytes((double)v[2], b2, sizeof(b2)));
	} else {
		return;
	}
	if (!f)
		return;
	np_ev_value(f, "rmem_max", "bytes", (double)rmax);
	if (have_wmax)
		np_ev_value(f, "wmem_max", "bytes", (double)wmax);
	if (have_rmem)
		np_ev_value(f, "tcp_rmem[2]", "bytes", (double)v[2]);
	if (!isnan(bdp)) {
		ev_bw_rtt(f, a);
		np_ev_value(f, "bdp", "bytes", bdp);
	}
	np_detail(f, "rmem_max does NOT limit TCP autotuning (tcp_rmem[2] does). It caps what "
		     "SO_RCVBUF may ask for (the kernel doubles the request, so a socket gets at "
		     "most 2 × rmem_max of buffer, about rmem_max of window), and setting "
		     "SO_RCVBUF switches autotuning off for that socket. It therefore limits UDP "
		     "receivers and TCP applications that size their own buffers (many "
		     "transfer tools, Java/Go services with explicit buffer options). wmem_max "
		     "plays the same role for SO_SNDBUF.");
	target = np_size_core_max(bdp, have_rmem ? v[2] : 0);
	np_remedy_raise(f, s, "net.core.rmem_max", "sysctl -w net.core.rmem_max=", true, rmax,
			target, NULL);
	if (have_wmax && wmax < target)
		np_remedy(f, "sysctl -w net.core.wmem_max=%lld", (long long)target);
	np_remedy(f, "For TCP, better still: do not set SO_RCVBUF in the application and let "
		     "autotuning work.");
	np_remedy(f, "Cost: nothing is allocated until an application asks; afterwards any "
		     "unprivileged socket may queue up to 2 × %s.",
		  np_fmt_bytes((double)target, b1, sizeof(b1)));
}

static void run_buffer_limits(const struct np_analysis *a, struct np_report *r)
{
	static const struct { enum np_sysctl_id id; int n; } keys[] = {
		{ NP_SYSCTL_RMEM_MAX, 1 }, { NP_SYSCTL_WMEM_MAX, 1 },
		{ NP_SYSCTL_RMEM_DEFAULT, 1 }, { NP_SYSCTL_WMEM_DEFAULT, 1 },
		{ NP_SYSCTL_TCP_RMEM, 3 }, { NP_SYSCTL_TCP_WMEM, 3 },
	};
	struct bad_value { const char *key; int idx, n; int64_t v; } bad[16];
	size_t nbad = 0, nread = 0;
	struct np_finding *f;
	char name[64];

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		int64_t v[3];

		if (!np_sysctl_vec(a->cur, keys[i].id, keys[i].n, v))
			continue;
		nread++;
		for (int j = 0; j < keys[i].n; j++)
			/* The kernel keeps these in an int: past INT_MAX (or wrapped negative). */
			if ((v[j] > INT_MAX || v[j] < 0) && nbad < 16)
				bad[nbad++] = (struct bad_value){ np_sysctl_def(keys[i].id)->key, j, keys[i].n,
								   v[j] };
	}
	if (!nread) {
		np_skip(r, "buffer sysctls not readable");
		return;
	}
	if (!nbad)
		return;
	if (bad[0].n > 1)
		snprintf(name, sizeof(name), "%s[%d]", bad[0].key, bad[0].idx);
	else
		snprintf(name, sizeof(name), "%s", bad[0].key);
	f = np_emit(r, NP_SEV_WARNING, "%s = %lld is beyond what the kernel can hold (2 GiB - 1)%s",
		    name, (long long)bad[0].v, nbad > 1 ? ", and more" : "");
	if (!f)
		return;
	for (size_t i = 0; i < nbad; i++) {
		if (bad[i].n > 1)
			snprintf(name, sizeof(name), "%s[%d]", bad[i].key, bad[i].idx);
		else
			snprintf(name, sizeof(name), "%s", bad[i].key);
		np_ev_value(f, name, "bytes", (double)bad[i].v);
	}
	np_detail(f, "Socket buffer sizes are ints in the kernel: values past 2147483647 are "
		     "rejected on write (so a sysctl.conf line silently leaves the old value), "
		     "overflowed on old kernels, or clamped when SO_RCVBUF doubles them. No path "
		     "needs buffers this large: 1 GiB is 2 × BDP for 10 Gbit/s at about 400 ms.");
	np_remedy(f, "Set the values from socket.tcp-rmem-bdp, e.g. sysctl -w "
		     "net.core.rmem_max=1073741824 at most, and fix /etc/sysctl.d/*.conf so a "
		     "reboot does not restore them.");
	np_remedy(f, "Cost: none; smaller limits only bound what sockets may use.");
}

const struct np_check np_check_socket_tcp_rmem_bdp = {
	.id = "socket.tcp-rmem-bdp",
	.stage = NP_STAGE_SOCKET,
	.scope = NP_SCOPE_NETNS,
	.title = "tcp_rmem max vs bandwidth-delay product",
	.looks_at = "net.ipv4.tcp_rmem[2] vs 2 × bandwidth × RTT (--rtt, --bandwidth or the link "
		    "speed)",
	.why = "A TCP receiver can only have one window in flight per RTT, and the window is about "
	       "half the buffer, so tcp_rmem[2] below 2 × BDP caps every connection below the "
	       "path's capacity. It matters for long paths (tens of ms and more); on a "
	       "sub-millisecond LAN the default 6 MiB fills 10 Gbit/s several times over and "
	       "bigger buffers are only insurance.",
	.fix = "Raise tcp_rmem[2] to 2 × BDP rounded up. Costs memory per busy connection in the "
	       "worst case; autotuning only grows buffers that need it.",
	.related = "net.ipv4.tcp_rmem, net.ipv4.tcp_moderate_rcvbuf, net.ipv4.tcp_adv_win_scale, "
		   "net.ipv4.tcp_mem",
	.kernel_notes = "Up to 6.5 the window is buffer × (1 - 1/2^tcp_adv_win_scale) (half by "
			"default); 6.6+ uses a per-connection scaling_ratio measured from skb "
			"overhead.",
	.warn = 10, .crit = NAN,
	.thr_unit = "ms RTT when the max is below 2 × BDP (info at shorter RTTs)",
	.run = run_rmem_bdp,
};

const struct np_check np_check_socket_tcp_wmem_bdp = {
	.id = "socket.tcp-wmem-bdp",
	.stage = NP_STAGE_SOCKET,
	.scope = NP_SCOPE_NETNS,
	.title = "tcp_wmem max vs bandwidth-delay product",
	.looks_at = "net.ipv4.tcp_wmem[2] vs 2 × bandwidth × RTT",
	.why = "The send buffer holds all unacknowledged data; below about 2 × BDP a sender on "
	       "this host cannot keep a long path full. It matters when this host sends over "
	       "long paths; not for a receiver or on a LAN.",
	.fix = "Raise tcp_wmem[2] to 2 × BDP rounded up. Costs memory per busy sending "
	       "connection.",
	.related = "net.ipv4.tcp_wmem, net.ipv4.tcp_notsent_lowat, net.ipv4.tcp_mem",
	.warn = 10, .crit = NAN,
	.thr_unit = "ms RTT when the max is below 2 × BDP (info at shorter RTTs)",
	.run = run_wmem_bdp,
};

const struct np_check np_check_socket_rcvbuf_autotuning = {
	.id = "socket.rcvbuf-autotuning",
	.stage = NP_STAGE_SOCKET,
	.scope = NP_SCOPE_NETNS,
	.title = "TCP receive buffer autotuning off",
	.looks_at = "net.ipv4.tcp_moderate_rcvbuf",
	.why = "With autotuning off, every TCP connection keeps tcp_rmem[1] (128 KiB by default) "
	       "as its receive buffer, which caps throughput on any path longer than a LAN.",
	.fix = "Turn it back on (tcp_moderate_rcvbuf=1). Costs memory as busy connections grow "
	       "their buffers.",
	.related = "net.ipv4.tcp_moderate_rcvbuf, net.ipv4.tcp_rmem",
	.warn = NAN, .crit = NAN,
	.run = run_autotuning,
};

const struct np_check np_check_socket_rmem_max = {
	.id = "socket.rmem-max",
	.stage = NP_STAGE_SOCKET,
	.scope = NP_SCOPE_HOST,
	.title = "rmem_max/wmem_max: the SO_RCVBUF/SO_SNDBUF ceiling",
	.looks_at = "net.core.rmem_max, wmem_max vs tcp_rmem[2] and the BDP",
	.why = "rmem_max does not limit TCP autotuning, but it caps SO_RCVBUF for every socket, "
	       "and SO_RCVBUF disables autotuning. UDP receivers and applications that size "
	       "their own buffers are limited by it. The default (208 KiB) is fine for a LAN "
	       "and too small for long fast paths.",
	.fix = "Raise rmem_max/wmem_max to the BDP (or tcp_rmem[2]); better, let TCP applications "
	       "leave SO_RCVBUF alone. Nothing is allocated until a socket asks.",
	.related = "net.core.rmem_max, net.core.wmem_max, SO_RCVBUF, SO_SNDBUF",
	.warn = 10, .crit = NAN,
	.thr_unit = "ms RTT when rmem_max is below the BDP (info at shorter RTTs; below "
		    "tcp_rmem[2] without an RTT: info)",
	.run = run_rmem_max,
};

const struct np_check np_check_socket_buffer_limits = {
	.id = "socket.buffer-limits",
	.stage = NP_STAGE_SOCKET,
	.scope = NP_SCOPE_HOST,
	.title = "Buffer sysctls beyond 2 GiB - 1",
	.looks_at = "net.core.{r,w}mem_{max,default}, net.ipv4.tcp_{r,w}mem",
	.why = "The kernel stores socket buffer sizes as int: values past 2147483647 are rejected, "
	       "overflow or are clamped, so the configuration does not do what it says.",
	.fix = "Use values sized from the BDP; fix the sysctl configuration files.",
	.related = "net.core.rmem_max, net.core.wmem_max, net.ipv4.tcp_rmem, net.ipv4.tcp_wmem",
	/* 2 GiB - 1 is the kernel's int, not a policy: nothing to tune or override. */
	.warn = NAN, .crit = NAN,
	.run = run_buffer_limits,
};
