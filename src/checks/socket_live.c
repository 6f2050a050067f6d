// SPDX-License-Identifier: GPL-2.0-only
/* Stage "socket" from live sockets: the listener whose accept queue overflows, the UDP socket
 * that drops. Each finding names the socket (address, port, and the process when mapped). */
#include "socket_live.h"
#include "raise.h"

#include <stdio.h>
#include <string.h>

/* Findings per check: the worst few sockets; the rest are in `--sockets N`. */
#define MAX_FINDINGS 4

/* "drops 12.0/s (340 since the socket opened)": a socket's counters start with the socket. */
static void sock_rate_text(const struct np_counter_view *v, const char *what, char *buf,
			   size_t size)
{
	char n1[32], n2[32];

	if (!v->total)
		snprintf(buf, size, "no %s counted yet", what);
	else if (v->sampled && v->delta)
		snprintf(buf, size, "%s %s/s (%s since the socket opened)", what,
			 np_fmt_num(v->rate, n1, sizeof(n1)), np_fmt_num((double)v->total, n2,
									  sizeof(n2)));
	else
		snprintf(buf, size, "%s %s since the socket opened%s", what,
			 np_fmt_num((double)v->total, n1, sizeof(n1)),
			 v->sampled ? ", none during the sample" : "");
}

static void listener_remedy(struct np_finding *f, const struct np_snapshot *s,
			    const struct np_sock_listener *l, bool have_smc, int64_t somaxconn)
{
	np_remedy(f, "ss -ltnp 'sport = :%u'   # Recv-Q = queued now, Send-Q = the limit",
		  l->id.sport);
	if (have_smc && (int64_t)l->limit < somaxconn)
		np_remedy(f, "The limit %u is the application's listen() backlog (somaxconn is "
			     "%lld): raise it in the application (listen(fd, 4096); nginx "
			     "'listen ... backlog=4096'; Java/Go: the server's backlog option).",
			  l->limit, (long long)somaxconn);
	else {
		char note[128];

		snprintf(note, sizeof(note), "the limit %u is somaxconn; the application's backlog "
			 "must be raised too if it asks for less", l->limit);
		np_remedy_raise(f, s, "net.core.somaxconn", "sysctl -w net.core.somaxconn=",
				have_smc, somaxconn, have_smc && somaxconn >= 2048 ? somaxconn * 2 :
				4096, note);
	}
	np_remedy(f, "Accept faster: more acceptor threads or processes, SO_REUSEPORT listeners.");
	np_remedy(f, "Cost: a deeper queue holds more handshaken clients in memory (a few KiB "
		     "each) and adds queueing delay; it cannot fix an application that accepts "
		     "slower than clients arrive on average.");
}

static void run_listen_queue(const struct np_analysis *a, struct np_report *r)
{
	const struct np_sockets *k = np_live_socks(a, r), *p = np_live_prev(a);
	bool have_smc;
	int64_t somaxconn;
	unsigned nf = 0;

	if (!k)
		return;
	somaxconn = np_sysctl_int(a->cur, NP_SYSCTL_SOMAXCONN, 0, &have_smc);
	for (uint32_t i = 0; i < k->listen.n && nf < MAX_FINDINGS; i++) {
		const struct np_sock_listener *l = &k->listen.e[i];
		const struct np_sock_listener *pl =
			p ? np_sockets_find_listener(p, l->id.inode, l->id.sport) : NULL;
		bool full = l->limit && l->queued >= l->limit;
		bool near = l->limit && 4ull * l->queued >= 3ull * l->limit;
		bool have_drops = l->drops != UINT64_MAX;
		struct np_counter_view v = { 0 };
		char addr[64], own[48], rate[96];
		enum np_severity sev = NP_SEV_OK;
		struct np_finding *f;

		if (have_drops) {
			v = np_live_view(a, l->drops, pl && pl->drops != UINT64_MAX,
					 pl ? pl->drops : 0, p && p->listen.total <= p->listen.n);
			sev = np_verdict(&v, np_thr_warn(r), np_thr_crit(r));
		}
		/* A full queue is the state right now, not a counter since boot. */
		if (full)
			sev = np_sev_max(sev, NP_SEV_WARNING);
		else if (near)
			sev = np_sev_max(sev, NP_SEV_INFO);
		if (sev == NP_SEV_OK)
			continue;
		np_sock_addr_str(l->id.family, l->id.saddr, l->id.sport, addr, sizeof(addr));
		np_live_owner(&l->id, own, sizeof(own));
		sock_rate_text(&v, "drops", rate, sizeof(rate));
		f = np_emit(r, sev, "listener %s%s: accept queue %u/%u%s, %s", addr, own,
			    l->queued, l->limit, full ? " (full)" : near ? " (nearly full)" : "",
			    rate);
		if (!f)
			return;
		nf++;
		f->rank = v.rate;
		np_ev_text(f, "listener", "%s%s", addr, own);
		np_live_from(f, a);
		np_ev_text(f, "port", "%u", l->id.sport);
		np_ev_value(f, "accept queue", "connections", l->queued);
		np_ev_value(f, "accept queue limit", "connections", l->limit);
		if (have_drops)
			np_ev_counter(f, "listen drops (this socket)", "connections", &v);
		if (have_smc)
			np_ev_value(f, "somaxconn", "connections", (double)somaxconn);
		np_detail(f, "Connections whose handshake completed wait in this accept queue "
			     "until the application calls accept(); its limit is min(listen() "
			     "backlog, somaxconn). When it is full, the final ACK of new handshakes "
			     "(and later SYNs) is dropped and clients retry after 1 s, 3 s, 7 s...: "
			     "slow connects. The drops are this socket's own counter (sk_drops), "
			     "part of TcpExtListenDrops.");
		if (full && !(v.sampled && v.delta))
			np_detail(f, "The queue is full now although no drop was counted during "
				     "the sample: the next connection attempts will be dropped.");
		listener_remedy(f, a->cur, l, have_smc, somaxconn);
	}
}

/* Why this socket's buffer has the size it has, from the sizes the kernel could have given. */
static void udp_buffer_detail(struct np_finding *f, const struct np_sock_udp *u, bool have_def,
			      int64_t rdef, bool have_max, int64_t rmax)
{
	char b1[32], b2[32];

	if (have_def && (int64_t)u->rcvbuf == rdef)
		np_detail(f, "The application never set SO_RCVBUF: the socket got rmem_default "
			     "(%s).", np_fmt_bytes((double)rdef, b1, sizeof(b1)));
	else if (have_max && (int64_t)u->rcvbuf == 2 * rmax)
		np_detail(f, "The application asked SO_RCVBUF for rmem_max or more and got the "
			     "cap: 2 × rmem_max = %s.",
			  np_fmt_bytes((double)u->rcvbuf, b1, sizeof(b1)));
	else
		np_detail(f, "The application set SO_RCVBUF to about %s (the kernel doubles the "
			     "request%s%s).", np_fmt_bytes(u->rcvbuf / 2.0, b1, sizeof(b1)),
			  have_max ? "; rmem_max " : "",
			  have_max ? np_fmt_bytes((double)rmax, b2, sizeof(b2)) : "");
}

/* One problem, two views: UdpRcvbufErrors host-wide (socket.udp-rcvbuf) and each socket's own
 * drops (this check), both in drops/s. A level the admin set for socket.udp-rcvbuf, and none
 * for this check, judges each socket too: raising it quiets both (one socket's rate is at most
 * the host's), instead of the sockets still firing at the table's 1 drop/s. */
static void udp_thresholds(const struct np_analysis *a, const struct np_report *r, double *warn,
			   double *crit)
{
	const struct np_check *host = np_check_find("socket.udp-rcvbuf");
	int own = r->cur ? np_check_index(r->cur->check) : -1, h = host ? np_check_index(host) : -1;

	*warn = np_thr_warn(r);
	*crit = np_thr_crit(r);
	if (!a->ovr || own < 0 || h < 0 || a->ovr->t[own].has_warn || a->ovr->t[own].has_crit ||
	    !(a->ovr->t[h].has_warn || a->ovr->t[h].has_crit))
		return;
	*warn = np_check_warn(host, a->ovr);
	*crit = np_check_crit(host, a->ovr);
}

static void run_udp_drops(const struct np_analysis *a, struct np_report *r)
{
	const struct np_sockets *k = np_live_socks(a, r), *p = np_live_prev(a);
	bool have_max, have_def;
	int64_t rmax, rdef, target;
	double warn, crit;
	unsigned nf = 0;

	if (!k)
		return;
	udp_thresholds(a, r, &warn, &crit);
	rmax = np_sysctl_int(a->cur, NP_SYSCTL_RMEM_MAX, 0, &have_max);
	rdef = np_sysctl_int(a->cur, NP_SYSCTL_RMEM_DEFAULT, 0, &have_def);
	for (uint32_t i = 0; i < k->udp.n && nf < MAX_FINDINGS; i++) {
		const struct np_sock_udp *u = &k->udp.e[i];
		const struct np_sock_udp *pu =
			p ? np_sockets_find_udp(p, u->id.inode, u->id.sport) : NULL;
		struct np_counter_view v = np_live_view(a, u->drops, pu != NULL, pu ? pu->drops : 0,
							p && p->udp.total <= p->udp.n);
		enum np_severity sev = np_verdict(&v, warn, crit);
		char addr[64], own[48], rate[96], b1[32], b2[32], b3[32];
		struct np_finding *f;

		if (sev == NP_SEV_OK && u->rcvbuf && (uint64_t)u->rmem_alloc * 8 >=
		    (uint64_t)u->rcvbuf * 7)
			sev = NP_SEV_INFO;	/* full now: the next datagrams will be dropped */
		if (sev == NP_SEV_OK)
			continue;
		np_sock_addr_str(u->id.family, u->id.saddr, u->id.sport, addr, sizeof(addr));
		np_live_owner(&u->id, own, sizeof(own));
		sock_rate_text(&v, "drops", rate, sizeof(rate));
		f = np_emit(r, sev, "UDP socket %s%s: %s; rcvbuf %s (rmem_default %s, "
			    "rmem_max %s)", addr, own, v.total ? rate : "queue full, no drop yet",
			    np_fmt_bytes(u->rcvbuf, b1, sizeof(b1)),
			    have_def ? np_fmt_bytes((double)rdef, b2, sizeof(b2)) : "?",
			    have_max ? np_fmt_bytes((double)rmax, b3, sizeof(b3)) : "?");
		if (!f)
			return;
		nf++;
		f->rank = v.rate;
		np_ev_text(f, "socket", "%s%s", addr, own);
		np_live_from(f, a);
		np_ev_text(f, "port", "%u", u->id.sport);
		np_ev_counter(f, "drops (this socket)", "datagrams", &v);
		np_ev_value(f, "rcvbuf", "bytes", u->rcvbuf);
		np_ev_value(f, "queued (rmem_alloc)", "bytes", u->rmem_alloc);
		if (have_def)
			np_ev_value(f, "rmem_default", "bytes", (double)rdef);
		if (have_max)
			np_ev_value(f, "rmem_max", "bytes", (double)rmax);
		np_detail(f, "This socket's receive queue (charged by skb truesize, often "
			     "several KiB per datagram) reached its rcvbuf and datagrams were "
			     "dropped (UdpRcvbufErrors).");
		udp_buffer_detail(f, u, have_def, rdef, have_max, rmax);
		np_detail(f, "A bigger buffer absorbs bursts and stalls of the reader; a reader "
			     "slower than the arrival rate on average loses data whatever the "
			     "size.");
		target = have_max && rmax >= (4ll << 20) ? 2 * rmax : 8ll << 20;
		if (target > (1ll << 30))	/* an int in the kernel: doubling stops at 1 GiB */
			target = 1ll << 30;
		if (!have_max || rmax < target / 2 || (int64_t)u->rcvbuf == 2 * rmax)
			np_remedy_raise(f, a->cur, "net.core.rmem_max", "sysctl -w net.core.rmem_max=",
					have_max, rmax, target, "the SO_RCVBUF ceiling");
		np_remedy(f, "In the application on port %u: setsockopt(SO_RCVBUF, %lld), and "
			     "read faster (a dedicated reader thread, recvmmsg(), SO_REUSEPORT).",
			  u->id.sport, (long long)target);
		if (have_def && (int64_t)u->rcvbuf == rdef)
			np_remedy_raise(f, a->cur, "net.core.rmem_default",
					"sysctl -w net.core.rmem_default=", have_def, rdef,
					4ll << 20, "only if the application cannot be changed: "
					"every new non-TCP socket gets it");
		np_remedy(f, "Cost: memory while the queue is full (up to the buffer per socket), "
			     "bounded by udp_mem; a deeper queue also means older data when read.");
	}
}

const struct np_check np_check_socket_listen_queue = {
	.id = "socket.listen-queue",
	.stage = NP_STAGE_SOCKET,
	.scope = NP_SCOPE_NETNS,
	.title = "Listener with a full accept queue (per socket)",
	.looks_at = "sock_diag listeners: accept queue (idiag_rqueue) vs its limit (idiag_wqueue), "
		    "the socket's drops (SK_MEMINFO_DROPS) over the interval; net.core.somaxconn",
	.why = "Names the listening port behind TcpExtListenOverflows: when its accept queue is "
	       "full, handshakes are dropped and clients wait for retransmissions (1 s, 3 s, ...). "
	       "A full queue is a state seen now; drops since the socket opened without any "
	       "during the sample are history. Listeners that keep up never show here.",
	.fix = "Raise the application's listen() backlog (and somaxconn when it is the limit) and "
	       "accept faster. Costs memory per queued connection and queueing delay.",
	.related = "net.core.somaxconn, listen(2) backlog, net.ipv4.tcp_max_syn_backlog, "
		   "socket.listen-overflow",
	.kernel_notes = "Per-listener drops come from sk_drops, which tcp_listendrop() increments "
			"(all kernels with SK_MEMINFO_DROPS, 4.x+). somaxconn is 4096 since 5.4.",
	.warn = 1, .crit = 100, .thr_unit = "drops/s of one listener (a full queue: warning)",
	.run = run_listen_queue,
};

const struct np_check np_check_socket_udp_socket_drops = {
	.id = "socket.udp-socket-drops",
	.stage = NP_STAGE_SOCKET,
	.scope = NP_SCOPE_NETNS,
	.title = "UDP socket dropping datagrams (per socket)",
	.looks_at = "sock_diag UDP sockets: SK_MEMINFO_DROPS over the interval, RMEM_ALLOC vs "
		    "RCVBUF; net.core.rmem_default, rmem_max",
	.why = "Names the socket (port, process with --sockets) behind UdpRcvbufErrors and says "
	       "where its buffer size came from (rmem_default, the rmem_max cap, or the "
	       "application). A buffer absorbs bursts; it cannot save a reader that is too slow "
	       "on average.",
	.fix = "Raise rmem_max and have the application set SO_RCVBUF (or raise rmem_default), "
	       "and make it read faster. Costs memory while queues are full, bounded by udp_mem.",
	.related = "net.core.rmem_max, net.core.rmem_default, net.ipv4.udp_mem, SO_RCVBUF, "
		   "socket.udp-rcvbuf",
	.kernel_notes = "SK_MEMINFO_DROPS needs 4.x+; SO_RCVBUF is capped at rmem_max and doubled.",
	.warn = 1, .crit = 100,
	.thr_unit = "drops/s of one socket; socket.udp-rcvbuf's levels when only those are set",
	.run = run_udp_drops,
};
