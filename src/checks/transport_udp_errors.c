// SPDX-License-Identifier: GPL-2.0-only
/* Stage "transport": UDP drops that no cause counter names (the loss ledger's udp-errors). */
#include "check_util.h"
#include "ledger.h"

#include <stdio.h>

/*
 * UdpInErrors is charged with every UDP drop; RcvbufErrors, MemErrors and InCsumErrors are each
 * charged with it for their cause. What InErrors holds beyond them is exact and has no name
 * here: socket filters, IPsec policy, malformed headers (and, before 5.11, udp_mem). The only
 * ledger boundary exact enough to warn on: a warning from the threshold's rate and 1% of UDP
 * input over the interval, info otherwise (since boot, or small).
 */
static void run_udp_unnamed(const struct np_analysis *a, struct np_report *r)
{
	static const char *const names[] = { "UdpInErrors", "UdpRcvbufErrors", "UdpMemErrors",
					     "UdpInCsumErrors", "Udp6InErrors", "Udp6RcvbufErrors",
					     "Udp6MemErrors", "Udp6InCsumErrors", NULL };
	struct np_ledger_line b;
	enum np_severity sev = NP_SEV_INFO;
	struct np_counter_view v = { 0 };
	struct np_finding *f;
	double share;
	char num[32];

	np_ledger_udp_errors(a, &b);
	if (!np_view_mib(a, "UdpInErrors").present || !np_view_mib(a, "UdpRcvbufErrors").present) {
		const char *why = np_mib_missing(a, &v);

		np_skip(r, "%s", why ? why : "UdpInErrors and UdpRcvbufErrors not in /proc/net/snmp");
		return;
	}
	if (b.kind == NP_LEDGER_NOT_COMPARABLE || b.packets <= 0)
		return;
	share = b.in > 0 ? 100.0 * b.packets / b.in : 0;
	if (b.window && b.rate >= np_thr_warn(r) && share >= NP_LEDGER_MIN_SHARE)
		sev = NP_SEV_WARNING;
	if (b.window)
		f = np_emit(r, sev, "%s UDP datagrams/s (%.1f%% of UDP input) dropped with no cause "
			    "counter: UdpInErrors beyond RcvbufErrors, MemErrors and InCsumErrors",
			    np_fmt_num(b.rate, num, sizeof(num)), share);
	else
		f = np_emit(r, sev, "%s UDP datagrams dropped since boot with no cause counter "
			    "(UdpInErrors beyond RcvbufErrors, MemErrors and InCsumErrors)",
			    np_fmt_num(b.packets, num, sizeof(num)));
	if (!f)
		return;
	f->rank = b.rate;
	np_ev_value(f, b.window ? "unnamed_in_window" : "unnamed_since_boot", "datagrams",
		    b.packets);
	np_ev_value(f, "unnamed_share", "% of UDP input", share);
	np_mib_evidence(f, a, names, "datagrams");
	np_detail(f, "%s", b.reason);
	np_remedy(f, "netpath trace %s   # the drop reason names it where drop reasons exist "
		     "(5.17+): SOCKET_FILTER, XFRM_POLICY, PKT_TOO_SMALL, ...", a->cur->dev.name);
	np_remedy(f, "bpftool prog show | grep -B1 -A3 socket_filter   # BPF socket filters "
		     "(cBPF filters of SO_ATTACH_FILTER show as ss -0 / per process)");
	np_remedy(f, "ip xfrm policy   # IPsec policies that may refuse the datagrams");
	np_remedy(f, "Cost: diagnosis only; a filter or policy dropping on purpose is the "
		     "owner's to change.");
}

const struct np_check np_check_transport_udp_unnamed_errors = {
	.id = "transport.udp-unnamed-errors",
	.stage = NP_STAGE_TRANSPORT,
	.scope = NP_SCOPE_NETNS,
	.title = "UDP drops no cause counter names",
	.looks_at = "/proc/net/snmp Udp: InErrors less RcvbufErrors, MemErrors and InCsumErrors "
		    "(and snmp6's Udp6 twins), over the interval, else since boot",
	.why = "Each UDP cause counter (receive buffer full, udp_mem, bad checksum) is charged "
	       "together with InErrors, so what InErrors holds beyond them is exact: datagrams "
	       "dropped by a socket filter (SO_ATTACH_FILTER, BPF), an IPsec policy, or for a "
	       "malformed header, which no other counter shows. It is the loss ledger's "
	       "udp-errors line (netpath explain ledger). A filter dropping on purpose looks "
	       "the same.",
	.fix = "Name the reason with netpath trace (drop reasons, 5.17+), then the socket filter "
	       "or IPsec policy behind it; costs nothing to look.",
	.related = "bpftool prog show, ip xfrm policy, netpath trace",
	.kernel_notes = "UdpMemErrors exists since 5.11: before, udp_mem refusals are counted "
			"here too (socket.udp-mem judges udp_mem from sockstat).",
	.warn = 10, .crit = NAN,
	.thr_unit = "datagrams/s, with at least 1% of UDP input; below: info",
	.run = run_udp_unnamed,
};
