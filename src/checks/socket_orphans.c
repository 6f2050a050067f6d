// SPDX-License-Identifier: GPL-2.0-only
/* Stage "socket": orphaned TCP sockets against net.ipv4.tcp_max_orphans ("Out of socket memory"
 * has two causes, and tcp_mem is only one of them). */
#include "socket_priv.h"

/*
 * An orphan is a TCP socket its process closed while the connection still ends (FIN_WAIT1,
 * FIN_WAIT2, CLOSING, LAST_ACK): sockstat's "orphan", host-wide. When a timer finds more
 * orphans than tcp_max_orphans, the kernel resets that connection and logs "too many
 * orphaned sockets" (and, before 4.x, "Out of socket memory" for this cause too). It counts a
 * socket that saw an error twice (tcp_out_of_resources' shift): such connections are reset
 * from half the limit, hence the critical level at 50%.
 */
static void run_orphans(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	struct np_finding *f;
	enum np_severity sev = NP_SEV_OK;
	struct np_counter_view aborts = np_view_mib(a, "TcpExtTCPAbortOnMemory");
	bool ok;
	int64_t max = np_sysctl_int(s, NP_SYSCTL_TCP_MAX_ORPHANS, 0, &ok);
	double orph, pct;
	char b[32];

	if (!np_src_ok(s, NP_SRC_SOCKSTAT) || !np_has(s->hs->sockstat.tcp_orphan)) {
		np_skip(r, "sockstat's TCP orphan count not readable");
		return;
	}
	if (!ok || max <= 0) {
		np_skip(r, "net.ipv4.tcp_max_orphans not readable");
		return;
	}
	orph = (double)s->hs->sockstat.tcp_orphan;
	pct = 100.0 * orph / (double)max;
	if (pct >= np_thr_crit(r))
		sev = NP_SEV_CRITICAL;
	else if (pct >= np_thr_warn(r))
		sev = NP_SEV_WARNING;
	if (sev == NP_SEV_OK)
		return;
	f = np_emit(r, sev, "%.0f orphaned TCP sockets, %.0f%% of tcp_max_orphans (%lld): the "
		    "kernel resets connections past %s", orph, pct, (long long)max,
		    pct >= 100 ? "the limit now" : "half of it when they saw an error");
	if (!f)
		return;
	f->rank = pct;
	np_ev_value(f, "sockstat TCP orphan", "sockets", orph);
	np_ev_value(f, "net.ipv4.tcp_max_orphans", "sockets", (double)max);
	np_ev_value(f, "orphans_share", "% of tcp_max_orphans", pct);
	if (aborts.present)
		np_ev_counter(f, "TcpExtTCPAbortOnMemory", "connections", &aborts);
	np_detail(f, "Orphans are connections their process has closed while TCP still ends them "
		     "(FIN_WAIT1/2, CLOSING, LAST_ACK). Past tcp_max_orphans (past half of it for a "
		     "socket that saw an error) the kernel resets them and logs 'too many orphaned "
		     "sockets' - on older kernels the same 'Out of socket memory' that tcp_mem "
		     "exhaustion prints, so the message alone does not say which. Many orphans "
		     "usually mean peers that stop reading or vanish, and a server closing with "
		     "unsent data.");
	np_remedy(f, "ss -tan state fin-wait-1 state fin-wait-2 state closing state last-ack | "
		     "awk 'NR>1 {print $5}' | sort | uniq -c | sort -rn | head   # the peers they "
		     "wait for");
	np_remedy(f, "sysctl -w net.ipv4.tcp_max_orphans=%lld   # double it, if the RAM can "
		     "afford it", (long long)max * 2);
	np_remedy(f, "Cost: each orphan may hold up to ~64 KiB of unswappable memory: %s more "
		     "at the new limit. Lowering tcp_orphan_retries or tcp_fin_timeout ends them "
		     "sooner instead, at the price of giving up on slow peers.",
		  np_fmt_bytes((double)max * 65536.0, b, sizeof(b)));
}

const struct np_check np_check_socket_tcp_orphans = {
	.id = "socket.tcp-orphans",
	.stage = NP_STAGE_SOCKET,
	.scope = NP_SCOPE_HOST,
	.title = "Orphaned TCP sockets (tcp_max_orphans)",
	.looks_at = "sockstat TCP orphan vs net.ipv4.tcp_max_orphans; TcpExt TCPAbortOnMemory",
	.why = "Past tcp_max_orphans the kernel resets closing connections instead of ending "
	       "them, and logs 'too many orphaned sockets' (older kernels: 'Out of socket "
	       "memory', the same words as tcp_mem exhaustion). It counts a socket that saw an "
	       "error twice, so resets start at half the limit.",
	.fix = "Find the peers the orphans wait for; raise tcp_max_orphans if the RAM can "
	       "afford ~64 KiB per orphan, or end them sooner (tcp_orphan_retries, "
	       "tcp_fin_timeout).",
	.related = "net.ipv4.tcp_max_orphans, net.ipv4.tcp_orphan_retries, "
		   "net.ipv4.tcp_fin_timeout, socket.tcp-mem",
	.kernel_notes = "tcp_max_orphans and the orphan count are host-wide (the file exists in "
			"the initial namespace only). The default is half the size of the "
			"established-connection hash, which scales with RAM (tcp_init).",
	.warn = 25, .crit = 50,
	.thr_unit = "% of net.ipv4.tcp_max_orphans (orphans count double once they saw an "
		    "error, so 50% is where resets begin)",
	.run = run_orphans,
};
