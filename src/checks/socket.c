// SPDX-License-Identifier: GPL-2.0-only
/* Stage "socket": receive queues (UDP rcvbuf overflows, listen queues) and the stage's table. */
#include "check_util.h"
#include "socket_priv.h"
#include "raise.h"

/* A rmem_max worth suggesting for UDP receivers: 8 MiB, or double what is there already. */
/* Doubling stops at 1 GiB: a socket buffer limit is an int, and 2 x 1 GiB no longer fits. */
static int64_t udp_rmem_target(int64_t cur)
{
	if (cur < (4ll << 20))
		return 8ll << 20;
	if (cur >= (1ll << 29))
		return 1ll << 30;
	return np_size_round_mib(2.0 * (double)cur);
}

static void run_udp_rcvbuf(const struct np_analysis *a, struct np_report *r)
{
	static const char *const names[] = { "UdpRcvbufErrors", "Udp6RcvbufErrors", NULL };
	static const char *const also[] = { "UdpInErrors", "Udp6InErrors", NULL };
	const struct np_snapshot *s = a->cur;
	struct np_counter_view v;
	struct np_counter_view mem = np_view_mib(a, "UdpMemErrors");
	bool have_max, have_def;
	int64_t rmax = np_sysctl_int(s, NP_SYSCTL_RMEM_MAX, 0, &have_max);
	int64_t rdef = np_sysctl_int(s, NP_SYSCTL_RMEM_DEFAULT, 0, &have_def);
	int64_t udp_mem[3], target;
	bool have_udp_mem = np_sysctl_vec(s, NP_SYSCTL_UDP_MEM, 3, udp_mem);
	char rate[96], b1[32], b2[32];
	struct np_finding *f;
	enum np_severity sev;

	sev = np_mib_verdict(a, r, names, &v);
	if (sev == NP_SEV_OK)
		return;
	np_rate_text(&v, rate, sizeof(rate));
	if (have_max && have_def)
		f = np_emit(r, sev, "UDP receive buffers overflowing: %s; rmem_default %s, "
			    "rmem_max %s", rate, np_fmt_bytes((double)rdef, b1, sizeof(b1)),
			    np_fmt_bytes((double)rmax, b2, sizeof(b2)));
	else
		f = np_emit(r, sev, "UDP receive buffers overflowing: %s", rate);
	if (!f)
		return;
	f->rank = v.rate;
	np_mib_evidence(f, a, names, "datagrams");
	np_mib_evidence(f, a, also, "datagrams");
	if (have_def)
		np_ev_value(f, "rmem_default", "bytes", (double)rdef);
	if (have_max)
		np_ev_value(f, "rmem_max", "bytes", (double)rmax);
	if (have_udp_mem)
		np_ev_text(f, "udp_mem", "%lld %lld %lld pages", (long long)udp_mem[0],
			   (long long)udp_mem[1], (long long)udp_mem[2]);
	if (np_has(s->hs->sockstat.udp_mem))
		np_ev_value(f, "sockstat UDP mem", "pages", (double)s->hs->sockstat.udp_mem);
	np_detail(f, "A socket's receive queue was full (SO_RCVBUF, charged by skb truesize: often "
		     "several KiB per datagram whatever its size) and the datagram was dropped; "
		     "UdpInErrors counts it again. The reader does not drain its socket as fast as "
		     "datagrams arrive: a bigger buffer absorbs bursts and stalls, not a reader "
		     "that is too slow on average. The socket comes from live sockets (a later "
		     "collector; ss -uamn shows per-socket drops d now).");
	if (mem.sampled && mem.delta)
		np_detail(f, "UdpMemErrors moves too: udp_mem is exhausted (socket.udp-mem).");
	target = udp_rmem_target(have_max ? rmax : 0);
	np_remedy_raise(f, s, "net.core.rmem_max", "sysctl -w net.core.rmem_max=", have_max,
			rmax, target, "the ceiling SO_RCVBUF may ask for");
	np_remedy(f, "In the application: setsockopt(fd, SOL_SOCKET, SO_RCVBUF, %lld) (the kernel "
		     "doubles the value and caps the request at rmem_max).", (long long)target);
	np_remedy_raise(f, s, "net.core.rmem_default", "sysctl -w net.core.rmem_default=",
			have_def, rdef, target < (4ll << 20) ? target : 4ll << 20,
			"only for applications that never set SO_RCVBUF: applies to every new "
			"non-TCP socket");
	np_remedy(f, "Cost: memory, per socket, only while its queue is full: a flooded socket can "
		     "hold the whole buffer; all UDP together stay under udp_mem.");
}

static void run_listen_overflow(const struct np_analysis *a, struct np_report *r)
{
	static const char *const names[] = {
		"TcpExtListenOverflows", "TcpExtListenDrops", "TcpExtTCPReqQFullDrop",
		"TcpExtTCPReqQFullDoCookies", NULL,
	};
	const struct np_snapshot *s = a->cur;
	struct np_counter_view drops = np_view_mib(a, "TcpExtListenDrops");
	struct np_counter_view ovf = np_view_mib(a, "TcpExtListenOverflows");
	struct np_counter_view synq = np_view_mib(a, "TcpExtTCPReqQFullDrop");
	struct np_counter_view cookies = np_view_mib(a, "TcpExtTCPReqQFullDoCookies");
	struct np_counter_view v;
	const char *why;
	bool have_smc, have_syn, have_ck;
	int64_t somaxconn = np_sysctl_int(s, NP_SYSCTL_SOMAXCONN, 0, &have_smc);
	int64_t synbl = np_sysctl_int(s, NP_SYSCTL_TCP_MAX_SYN_BACKLOG, 0, &have_syn);
	int64_t syncookies = np_sysctl_int(s, NP_SYSCTL_TCP_SYNCOOKIES, 0, &have_ck);
	char rate[96];
	struct np_finding *f;
	enum np_severity sev;

	/* ListenDrops counts every listener drop (accept queue and SYN queue alike). */
	v = drops.present ? drops : np_view_sum(ovf, synq);
	why = np_mib_missing(a, &v);
	if (why) {
		np_skip(r, "%s", why);
		return;
	}
	sev = np_verdict(&v, np_thr_warn(r), np_thr_crit(r));
	/* SYN cookies without drops: the SYN queue is full but connections still succeed. */
	if (sev == NP_SEV_OK && cookies.sampled && cookies.delta)
		sev = NP_SEV_INFO;
	if (sev == NP_SEV_OK)
		return;
	if (v.total) {
		np_rate_text(&v, rate, sizeof(rate));
		f = np_emit(r, sev, "listen queue drops: %s (accept queue overflows %llu, SYN "
			    "queue drops %llu since boot)", rate, (unsigned long long)ovf.total,
			    (unsigned long long)(synq.present ? synq.total : 0));
	} else {
		f = np_emit(r, sev, "SYN queue full, answering with SYN cookies: %s/s",
			    np_fmt_rate(cookies.rate));
	}
	if (!f)
		return;
	f->rank = v.rate;
	np_mib_evidence(f, a, names, "connections");
	if (have_smc)
		np_ev_value(f, "somaxconn", "connections", (double)somaxconn);
	if (have_syn)
		np_ev_value(f, "tcp_max_syn_backlog", "requests", (double)synbl);
	if (have_ck)
		np_ev_value(f, "tcp_syncookies", "", (double)syncookies);
	np_detail(f, "The accept queue holds handshaken connections not yet accept()ed; its limit "
		     "is min(listen() backlog, somaxconn). When full, the handshake's last ACK is "
		     "dropped (ListenOverflows) and the client retries after 1 s or more: slow "
		     "connects, not errors. SYN queue drops (TCPReqQFullDrop) happen only with "
		     "syncookies off; with them on, cookies are sent (TCPReqQFullDoCookies). The "
		     "port comes from live sockets (a later collector); ss -ltn shows it now.");
	if (ovf.sampled && ovf.delta)
		np_detail(f, "Overflows happen now: the application accepts too slowly or its "
			     "backlog is too small for the bursts.");
	np_remedy(f, "ss -ltn   # Recv-Q = queued connections, Send-Q = the effective backlog");
	if (have_smc && somaxconn < 4096)
		np_remedy(f, "sysctl -w net.core.somaxconn=4096");
	np_remedy(f, "Raise the application's listen() backlog too (e.g. nginx 'listen ... "
		     "backlog=4096'); somaxconn alone changes nothing if the application asks "
		     "for 128. Then make it accept faster (more acceptor threads, SO_REUSEPORT).");
	if (have_ck && syncookies == 0 && synq.present && synq.total)
		np_remedy(f, "sysctl -w net.ipv4.tcp_syncookies=1   # and/or raise "
			     "net.ipv4.tcp_max_syn_backlog");
	np_remedy(f, "Cost: a deeper queue holds more half-served clients in memory (a few KiB "
		     "each) and adds queueing latency; it does not fix an application that cannot "
		     "keep up on average.");
}

const struct np_check np_check_socket_udp_rcvbuf = {
	.id = "socket.udp-rcvbuf",
	.stage = NP_STAGE_SOCKET,
	.scope = NP_SCOPE_NETNS,
	.title = "UDP receive buffer overflows",
	.looks_at = "UdpRcvbufErrors (and Udp6RcvbufErrors) over the interval; net.core."
		    "rmem_default, rmem_max, net.ipv4.udp_mem",
	.why = "The main UDP loss signal: a socket's receive queue was full and the datagram was "
	       "dropped (counted in UdpInErrors too). Buffers absorb bursts and short stalls of "
	       "the reader; a reader slower than the arrival rate on average loses data whatever "
	       "the buffer size.",
	.fix = "Raise rmem_max (and rmem_default for applications that never set SO_RCVBUF) and "
	       "have the application set SO_RCVBUF; make it read faster. Costs memory per socket "
	       "while its queue is full, bounded by udp_mem. netpath trace IF --by port names the "
	       "ports and senders SOCKET_RCVBUFF drops.",
	.related = "net.core.rmem_max, net.core.rmem_default, net.ipv4.udp_mem, SO_RCVBUF",
	.kernel_notes = "SO_RCVBUF is capped at rmem_max and doubled; SO_RCVBUFFORCE "
			"(CAP_NET_ADMIN) ignores the cap.",
	.warn = 1, .crit = 100, .thr_unit = "drops/s",
	.run = run_udp_rcvbuf,
};

const struct np_check np_check_socket_listen_overflow = {
	.id = "socket.listen-overflow",
	.stage = NP_STAGE_SOCKET,
	.scope = NP_SCOPE_NETNS,
	.title = "Listen queue overflows",
	.looks_at = "TcpExt ListenOverflows, ListenDrops, TCPReqQFullDrop, TCPReqQFullDoCookies; "
		    "net.core.somaxconn, net.ipv4.tcp_max_syn_backlog, tcp_syncookies",
	.why = "When a listener's accept queue is full, handshakes are dropped and clients wait "
	       "for a retransmission (1 s, 3 s, ...): slow connects under load. The effective "
	       "limit is min(listen() backlog, somaxconn); tcp_max_syn_backlog only matters with "
	       "syncookies off.",
	.fix = "Raise both the application's listen() backlog and somaxconn, and accept faster. "
	       "Costs a little memory per queued connection and queueing latency.",
	.related = "net.core.somaxconn, net.ipv4.tcp_max_syn_backlog, net.ipv4.tcp_syncookies",
	.kernel_notes = "somaxconn defaults to 4096 since 5.4 (128 before).",
	.warn = 1, .crit = 100, .thr_unit = "drops/s",
	.run = run_listen_overflow,
};
