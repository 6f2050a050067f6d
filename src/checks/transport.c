// SPDX-License-Identifier: GPL-2.0-only
/* Stage "transport": TCP/UDP protocol processing (no socket, checksums, backlog, pruning). */
#include "check_util.h"

#include <stdio.h>

/* tcp_rmem[2] as evidence, when known. */
static void ev_tcp_rmem(struct np_finding *f, const struct np_snapshot *s)
{
	bool ok;
	int64_t max = np_sysctl_int(s, NP_SYSCTL_TCP_RMEM, 2, &ok);

	if (ok)
		np_ev_value(f, "tcp_rmem[2]", "bytes", (double)max);
}

static void run_udp_no_ports(const struct np_analysis *a, struct np_report *r)
{
	static const char *const names[] = { "UdpNoPorts", "Udp6NoPorts", NULL };
	struct np_counter_view v;
	struct np_finding *f;

	if (!np_mib_read(a, r, names, &v))
		return;
	/* Not a loss: reported only while it moves, and never above info. */
	if (!v.sampled || v.delta == 0)
		return;
	f = np_emit(r, NP_SEV_INFO, "UDP datagrams to closed ports: %s/s (%llu since boot)",
		    np_fmt_rate(v.rate), (unsigned long long)v.total);
	if (!f)
		return;
	f->rank = v.rate;
	np_mib_evidence(f, a, names, "datagrams");
	np_detail(f, "Someone sends UDP to a port nothing listens on; the kernel answers with ICMP "
		     "port unreachable (rate limited). This is not a receive-path loss, but if you "
		     "expected a listener there, it is not bound (wrong address, crashed, or bound "
		     "in another network namespace).");
	np_remedy(f, "ss -ulnp   # which UDP ports are open; tcpdump -ni %s 'icmp[0] = 3' shows "
		     "the rejected ones", a->cur->dev.name);
	np_remedy(f, "Cost: none.");
}

static void run_checksum(const struct np_analysis *a, struct np_report *r)
{
	static const char *const names[] = {
		"TcpInCsumErrors", "UdpInCsumErrors", "Udp6InCsumErrors", NULL,
	};
	struct np_finding *f;

	f = np_mib_drop_finding(a, r, names, "segments", "TCP/UDP checksum errors");
	if (!f)
		return;
	np_detail(f, "The transport checksum failed in software, so the NIC did not vouch for the "
		     "packet (rx checksum offload off, or not possible for this encapsulation) and "
		     "the data really was damaged after the sender computed it: a NIC or driver "
		     "bug, a broken offload on a virtual device, a middlebox rewriting packets, or "
		     "memory corruption. Each TCP error costs a retransmission; UDP data is lost.");
	np_remedy(f, "ethtool -k %s | grep -E 'rx-checksumming|rx-gro'   # offload state",
		  a->cur->dev.name);
	np_remedy(f, "Capture on both ends (tcpdump -vv shows 'incorrect' checksums) to find the "
		     "hop that corrupts; update the NIC driver/firmware.");
	np_remedy(f, "Cost: none to investigate.");
}

static void run_backlog_drop(const struct np_analysis *a, struct np_report *r)
{
	static const char *const names[] = { "TcpExtTCPBacklogDrop", NULL };
	struct np_finding *f;

	f = np_mib_drop_finding(a, r, names, "segments",
				"TCP segments dropped at a busy socket's backlog");
	if (!f)
		return;
	ev_tcp_rmem(f, a->cur);
	np_detail(f, "While the application holds the socket lock (inside recv/send), softirq "
		     "queues arriving segments on the socket backlog, bounded by the receive plus "
		     "send buffer. Drops here mean segments arrived faster than the owner released "
		     "the socket: a slow or preempted application thread, or a small receive "
		     "buffer. TCP retransmits them, at a cost in throughput. Which socket it is "
		     "comes from live sockets, reported by a later collector.");
	np_remedy(f, "Let autotuning size the buffer: do not set SO_RCVBUF in the application, and "
		     "make sure tcp_rmem[2] is large enough (see socket.tcp-rmem-bdp).");
	np_remedy(f, "Give the receiving thread its own CPU (away from the NIC's IRQ CPUs) and "
		     "read in larger chunks.");
	np_remedy(f, "Cost: larger buffers cost memory per connection only when used.");
}

static void run_prune(const struct np_analysis *a, struct np_report *r)
{
	static const char *const loss[] = {
		"TcpExtTCPRcvQDrop", "TcpExtTCPOFODrop", "TcpExtOfoPruned", NULL,
	};
	static const char *const work[] = {
		"TcpExtPruneCalled", "TcpExtRcvPruned", "TcpExtTCPRcvCollapsed", NULL,
	};
	struct np_counter_view lv = np_mib_sum(a, loss), wv = np_mib_sum(a, work);
	struct np_counter_view all = np_view_sum(lv, wv);
	const char *why = np_mib_missing(a, &all);
	const struct np_sockstat *ss = &a->cur->hs->sockstat;
	char rate[96];
	struct np_finding *f;
	enum np_severity sev;

	if (why) {
		np_skip(r, "%s", why);
		return;
	}
	sev = np_verdict(&lv, np_thr_warn(r), np_thr_crit(r));
	/* Pruning and collapsing without loss burn CPU: info while it happens, silent otherwise. */
	if (sev <= NP_SEV_INFO && wv.sampled && wv.delta > 0)
		sev = NP_SEV_INFO;
	else if (sev == NP_SEV_OK)
		return;
	if (lv.present && lv.total) {
		np_rate_text(&lv, rate, sizeof(rate));
		f = np_emit(r, sev, "TCP receive queues over memory, data dropped: %s%s", rate,
			    wv.sampled && wv.delta ? "; pruning active" : "");
	} else {
		np_rate_text(&wv, rate, sizeof(rate));
		f = np_emit(r, sev, "TCP receive queues pruned/collapsed (no data dropped): %s",
			    rate);
	}
	if (!f)
		return;
	f->rank = lv.rate;
	np_mib_evidence(f, a, loss, "segments");
	np_mib_evidence(f, a, work, "events");
	ev_tcp_rmem(f, a->cur);
	if (np_has(ss->tcp_mem))
		np_ev_value(f, "sockstat TCP mem", "pages", (double)ss->tcp_mem);
	np_detail(f, "When a socket's queued data exceeds its receive buffer, or TCP as a whole is "
		     "under tcp_mem pressure, the kernel first collapses queued skbs into compact "
		     "ones (RcvCollapsed, CPU cost), then throws away out-of-order data "
		     "(OfoPruned), and finally drops incoming segments (RcvQDrop, OFODrop), which "
		     "the sender must retransmit. Causes: the application does not read fast "
		     "enough, receive buffers are small for the traffic, or global tcp_mem is "
		     "exhausted (see socket.tcp-mem).");
	np_remedy(f, "Check socket.tcp-mem first: if TCP is under memory pressure, that is the "
		     "cause.");
	np_remedy(f, "Otherwise raise the receive buffer ceiling, e.g. sysctl -w "
		     "net.ipv4.tcp_rmem=\"4096 131072 16777216\", and make the application read "
		     "faster.");
	np_remedy(f, "Cost: up to tcp_rmem[2] of memory per busy connection, bounded by tcp_mem.");
}

static void run_zero_window(const struct np_analysis *a, struct np_report *r)
{
	static const char *const names[] = { "TcpExtTCPZeroWindowDrop", NULL };
	static const char *const ctx[] = {
		"TcpExtTCPToZeroWindowAdv", "TcpExtTCPWantZeroWindowAdv", NULL,
	};
	struct np_finding *f;

	f = np_mib_drop_finding(a, r, names, "segments",
				"TCP data dropped against a zero receive window");
	if (!f)
		return;
	np_mib_evidence(f, a, ctx, "events");
	np_detail(f, "The receiving application stopped reading, its buffer filled, the window "
		     "closed to zero, and the peer still sent in-order data, which was dropped. "
		     "The bottleneck is the application, not the network: buffers only delay the "
		     "moment the window closes. The socket in question comes from live sockets, "
		     "reported by a later collector (ss -tmi shows rcv_space and Recv-Q now).");
	np_remedy(f, "ss -tnmi state established   # a large Recv-Q with r (rmem_alloc) near rb "
		     "(rcvbuf) is the slow reader");
	np_remedy(f, "Fix the reader (more threads, faster processing); no sysctl removes this.");
	np_remedy(f, "Cost: none on the kernel side.");
}

const struct np_check np_check_transport_udp_no_ports = {
	.id = "transport.udp-no-ports",
	.stage = NP_STAGE_TRANSPORT,
	.scope = NP_SCOPE_NETNS,
	.title = "UDP to closed ports",
	.looks_at = "UdpNoPorts (and Udp6NoPorts) over the interval",
	.why = "Datagrams for a port nothing listens on are answered with ICMP port unreachable. "
	       "It is not a loss of traffic you wanted, unless a service you expect is not bound. "
	       "Informational only, and only while the counter moves.",
	.fix = "Nothing, or start/bind the expected service; netpath trace IF lists the ports and "
	       "senders under NO_SOCKET, rated by this check's rule (never above info).",
	.related = "ss -ulnp",
	.warn = NAN, .crit = NAN,
	.run = run_udp_no_ports,
};

const struct np_check np_check_transport_checksum = {
	.id = "transport.checksum",
	.stage = NP_STAGE_TRANSPORT,
	.scope = NP_SCOPE_NETNS,
	.title = "TCP/UDP checksum errors",
	.looks_at = "TcpInCsumErrors, UdpInCsumErrors (and Udp6InCsumErrors) over the interval",
	.why = "A failed transport checksum means data was damaged between the sender and the "
	       "socket and the NIC did not catch it: a driver/offload bug, a rewriting middlebox "
	       "or corruption. TCP pays a retransmission per error; UDP loses the datagram.",
	.fix = "Locate the hop that corrupts (captures on both ends, NIC counters), update "
	       "drivers/firmware. No tuning helps.",
	.related = "ethtool -k IF rx-checksumming",
	.warn = 1, .crit = 100, .thr_unit = "errors/s",
	.run = run_checksum,
};

const struct np_check np_check_transport_tcp_backlog_drop = {
	.id = "transport.tcp-backlog-drop",
	.stage = NP_STAGE_TRANSPORT,
	.scope = NP_SCOPE_NETNS,
	.title = "TCP backlog drops while the socket is busy",
	.looks_at = "TcpExtTCPBacklogDrop over the interval; net.ipv4.tcp_rmem",
	.why = "Segments arriving while the application holds the socket are queued on a backlog "
	       "limited by the socket's buffers; beyond it they are dropped and retransmitted. "
	       "It points at a slow application thread or a too small receive buffer.",
	.fix = "Let autotuning size buffers (no SO_RCVBUF), raise tcp_rmem[2] if needed, give the "
	       "reader CPU time. Costs memory per busy connection.",
	.related = "net.ipv4.tcp_rmem, SO_RCVBUF",
	.kernel_notes = "Since 4.19 the backlog coalesces segments (TCPBacklogCoalesce), making "
			"drops rarer; since 5.x the limit adds 64 KiB headroom.",
	.warn = 1, .crit = 100, .thr_unit = "drops/s",
	.run = run_backlog_drop,
};

const struct np_check np_check_transport_tcp_prune = {
	.id = "transport.tcp-prune",
	.stage = NP_STAGE_TRANSPORT,
	.scope = NP_SCOPE_NETNS,
	.title = "TCP receive queue pruning and memory drops",
	.looks_at = "TcpExt PruneCalled, RcvPruned, OfoPruned, TCPOFODrop, TCPRcvQDrop, "
		    "TCPRcvCollapsed over the interval",
	.why = "When a socket's receive queue outgrows its buffer or TCP memory is under "
	       "pressure, the kernel collapses queues (CPU), discards out-of-order data and drops "
	       "segments. Drops force retransmissions and stall the window.",
	.fix = "Relieve tcp_mem pressure, size tcp_rmem for the path, make the application read "
	       "faster. Costs memory per connection when the buffers are used.",
	.related = "net.ipv4.tcp_rmem, net.ipv4.tcp_mem, net.ipv4.tcp_adv_win_scale",
	.warn = 1, .crit = 100, .thr_unit = "dropped segments/s",
	.run = run_prune,
};

const struct np_check np_check_transport_tcp_zero_window = {
	.id = "transport.tcp-zero-window",
	.stage = NP_STAGE_TRANSPORT,
	.scope = NP_SCOPE_NETNS,
	.title = "TCP data dropped on a zero window",
	.looks_at = "TcpExtTCPZeroWindowDrop (and the zero-window advertisement counters)",
	.why = "The receiving application is not reading: its window is zero and arriving data is "
	       "dropped. No network or buffer tuning fixes an application that does not read.",
	.fix = "Find the slow reader (live sockets, ss -tmi) and fix it.",
	.related = "ss -tmi",
	.warn = 1, .crit = 100, .thr_unit = "drops/s",
	.run = run_zero_window,
};
