// SPDX-License-Identifier: GPL-2.0-only
/* Stage "socket": global TCP/UDP socket memory (tcp_mem, udp_mem: in PAGES) and its pressure. */
#include "socket_priv.h"

/* A tcp_mem/udp_mem triple with what it means in bytes on this host. */
struct memlim {
	const char *name;	/* "tcp_mem" */
	int64_t v[3];		/* pages */
	double page;		/* bytes per page */
	bool page_assumed;
	double ram;		/* bytes, NAN when unknown */
	int eff;		/* the index that acts as the hard limit: 2 for TCP, 0 for UDP */
	int div;		/* kernel default: RAM pages / div (16 TCP, 8 UDP) */
	bool too_big, too_small, disorder;
};

static bool memlim_read(const struct np_snapshot *s, const char *name, int eff, int div,
			struct memlim *m)
{
	struct np_mem_judgement j;
	enum np_sysctl_id id = eff == 2 ? NP_SYSCTL_TCP_MEM : NP_SYSCTL_UDP_MEM;

	m->name = name;
	m->eff = eff;
	m->div = div;
	if (!np_sysctl_vec(s, id, 3, m->v))
		return false;
	m->page_assumed = s->hs->mem.page_size_assumed || !np_has(s->hs->mem.page_size) ||
			  s->hs->mem.page_size == 0;
	m->page = np_has(s->hs->mem.page_size) && s->hs->mem.page_size ?
		  (double)s->hs->mem.page_size : 4096.0;
	m->ram = np_has(s->hs->mem.mem_total) && s->hs->mem.mem_total ?
		 (double)s->hs->mem.mem_total : NAN;
	np_size_mem_judge(m->v, m->page, m->ram, eff, &j);
	m->too_big = j.too_big;
	m->too_small = j.too_small;
	m->disorder = j.disorder;
	return true;
}

static bool memlim_bad(const struct memlim *m)
{
	return m->too_big || m->too_small || m->disorder;
}

/* "16777216 pages = 64 GiB" */
static const char *pages_text(const struct memlim *m, int64_t pages, char *buf, size_t size)
{
	char b[32];

	snprintf(buf, size, "%lld pages = %s", (long long)pages,
		 np_fmt_bytes((double)pages * m->page, b, sizeof(b)));
	return buf;
}

static void memlim_evidence(struct np_finding *f, const struct memlim *m)
{
	char b0[32], b1[32], b2[32], key[48];

	snprintf(key, sizeof(key), "%s", m->name);
	np_ev_text(f, key, "%lld %lld %lld pages (%s / %s / %s)", (long long)m->v[0],
		   (long long)m->v[1], (long long)m->v[2],
		   np_fmt_bytes((double)m->v[0] * m->page, b0, sizeof(b0)),
		   np_fmt_bytes((double)m->v[1] * m->page, b1, sizeof(b1)),
		   np_fmt_bytes((double)m->v[2] * m->page, b2, sizeof(b2)));
	np_ev_value(f, "page_size", m->page_assumed ? "bytes (assumed)" : "bytes", m->page);
	if (!isnan(m->ram))
		np_ev_value(f, "MemTotal", "bytes", m->ram);
}

/* The run-specific explanation of a configuration problem, and its remedy. */
static void memlim_explain(struct np_finding *f, const struct memlim *m)
{
	char b1[48], b2[32];
	int64_t lim[3];

	if (m->too_big)
		np_detail(f, "%s is in pages, not bytes: max %s on a %s host, a limit never "
			     "reached, so queued socket data can push the host into OOM.", m->name,
			  pages_text(m, m->v[2], b1, sizeof(b1)),
			  np_fmt_bytes(m->ram, b2, sizeof(b2)));
	if (m->too_small)
		np_detail(f, "%s[%d] = %s is tiny%s%s: a few busy sockets exhaust it (a value "
			     "meant for another unit?).", m->name,
			  m->eff, pages_text(m, m->v[m->eff], b1, sizeof(b1)),
			  isnan(m->ram) ? "" : " for a host with ",
			  isnan(m->ram) ? "" : np_fmt_bytes(m->ram, b2, sizeof(b2)));
	if (m->disorder)
		np_detail(f, "%s values are not in increasing order (min <= pressure <= max).",
			  m->name);
	if (m->page_assumed)
		np_detail(f, "Page size unknown, 4096 bytes assumed (64 KiB pages on some "
			     "arm64/ppc64 hosts make every value 16 times larger).");
	if (!memlim_bad(m) || isnan(m->ram))
		return;
	/* The kernel's boot-time default for this much memory (tcp_init_mem / udp_init). */
	np_size_mem_pages(m->ram, m->page, m->div, lim);
	np_remedy(f, "sysctl -w net.ipv4.%s=\"%lld %lld %lld\"   # about the kernel's default for "
		     "this RAM, in pages", m->name, (long long)lim[0], (long long)lim[1],
		  (long long)lim[2]);
}

static void run_tcp_mem(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	struct np_counter_view press = np_view_mib(a, "TcpExtTCPMemoryPressures");
	struct np_counter_view chrono = np_view_mib(a, "TcpExtTCPMemoryPressuresChrono");
	struct np_counter_view abort_v = np_view_mib(a, "TcpExtTCPAbortOnMemory");
	enum np_severity sev = NP_SEV_OK, use_sev = NP_SEV_OK, ev_sev = NP_SEV_OK;
	double used = NAN, pct_p = NAN, pct_m = NAN;
	char b1[48], b2[32];
	struct memlim m;
	struct np_finding *f;

	if (!memlim_read(s, "tcp_mem", 2, 16, &m)) {
		np_skip_sysctl(a, r, NP_SYSCTL_TCP_MEM);
		return;
	}
	if (np_src_ok(s, NP_SRC_SOCKSTAT) && np_has(s->hs->sockstat.tcp_mem)) {
		used = (double)s->hs->sockstat.tcp_mem;
		if (m.v[1] > 0)
			pct_p = 100.0 * used / (double)m.v[1];
		if (m.v[2] > 0)
			pct_m = 100.0 * used / (double)m.v[2];
		if (!isnan(pct_m) && pct_m >= np_thr_crit(r))
			use_sev = NP_SEV_CRITICAL;
		else if (!isnan(pct_p) && pct_p >= np_thr_warn(r))
			use_sev = NP_SEV_WARNING;
	}
	/* Entering pressure during the sample is a warning; aborting connections is critical. */
	if (press.present && press.total)
		ev_sev = press.sampled && press.delta ? NP_SEV_WARNING : NP_SEV_INFO;
	if (abort_v.present && abort_v.total)
		ev_sev = np_sev_max(ev_sev, abort_v.sampled && abort_v.delta ?
					 NP_SEV_CRITICAL : NP_SEV_INFO);
	sev = np_sev_max(use_sev, ev_sev);
	if (memlim_bad(&m))
		sev = np_sev_max(sev, NP_SEV_WARNING);
	if (sev == NP_SEV_OK)
		return;

	/* A warning may come from the pressure threshold alone (tcp_mem[2] unusable): quote
	 * the percentage that decided. */
	if (use_sev != NP_SEV_OK)
		f = np_emit(r, sev, "TCP socket memory at %.0f%% of tcp_mem %s (%s; pressure "
			    "above %lld pages)", isnan(pct_m) ? pct_p : pct_m,
			    isnan(pct_m) ? "pressure" : "max",
			    pages_text(&m, (int64_t)used, b1, sizeof(b1)), (long long)m.v[1]);
	else if (ev_sev >= NP_SEV_WARNING)
		f = np_emit(r, sev, "TCP under memory pressure during the sample (%llu entries, "
			    "%llu aborts on memory)", (unsigned long long)press.delta,
			    (unsigned long long)abort_v.delta);
	else if (m.too_big)
		f = np_emit(r, sev, "tcp_mem max = %s on a %s host: the value looks like bytes",
			    pages_text(&m, m.v[2], b1, sizeof(b1)),
			    np_fmt_bytes(m.ram, b2, sizeof(b2)));
	else if (m.too_small)
		f = np_emit(r, sev, "tcp_mem max = %s is absurdly small",
			    pages_text(&m, m.v[2], b1, sizeof(b1)));
	else if (m.disorder)
		f = np_emit(r, sev, "tcp_mem thresholds out of order: %lld %lld %lld",
			    (long long)m.v[0], (long long)m.v[1], (long long)m.v[2]);
	else
		f = np_emit(r, sev, "TCP was under memory pressure since boot (%llu times, %llu "
			    "aborts on memory)", (unsigned long long)press.total,
			    (unsigned long long)(abort_v.present ? abort_v.total : 0));
	if (!f)
		return;
	f->rank = press.rate + abort_v.rate;
	memlim_evidence(f, &m);
	if (!isnan(used)) {
		np_ev_value(f, "sockstat TCP mem", "pages", used);
		np_ev_value(f, "of tcp_mem[1] (pressure)", "%", pct_p);
		np_ev_value(f, "of tcp_mem[2] (max)", "%", pct_m);
	}
	if (press.present)
		np_ev_counter(f, "TcpExtTCPMemoryPressures", "entries", &press);
	if (chrono.present)
		np_ev_counter(f, "TcpExtTCPMemoryPressuresChrono", "ms", &chrono);
	if (abort_v.present)
		np_ev_counter(f, "TcpExtTCPAbortOnMemory", "connections", &abort_v);
	if (use_sev != NP_SEV_OK || ev_sev != NP_SEV_OK) {
		np_detail(f, "tcp_mem is global, in pages. Above [1] TCP is under pressure: "
			     "buffers stop growing, queues are pruned (transport.tcp-prune); above "
			     "[2] charges fail, segments are dropped, orphans aborted "
			     "(TCPAbortOnMemory). Chrono (ms) is only added when pressure ends.");
		np_remedy(f, "ss -tmn   # skmem:(r...,t...) = memory each socket holds; many "
			     "connections with full queues point at slow readers");
		if (!memlim_bad(&m))
			np_remedy(f, "sysctl -w net.ipv4.tcp_mem=\"%lld %lld %lld\"   # double it, "
				     "if the RAM can afford it", (long long)m.v[0] * 2,
				  (long long)m.v[1] * 2, (long long)m.v[2] * 2);
	}
	memlim_explain(f, &m);
	np_remedy(f, "Cost: up to tcp_mem[2] pages of unswappable kernel memory for socket "
		     "buffers; too high a limit lets socket queues push the host into OOM.");
}

static void run_udp_mem(const struct np_analysis *a, struct np_report *r)
{
	static const char *const names[] = { "UdpMemErrors", "Udp6MemErrors", NULL };
	const struct np_snapshot *s = a->cur;
	struct np_counter_view v = np_mib_sum(a, names);
	enum np_severity sev, use_sev = NP_SEV_OK;
	bool have_min;
	int64_t rmin = np_sysctl_int(s, NP_SYSCTL_UDP_RMEM_MIN, 0, &have_min);
	double used = NAN, pct = NAN;
	char rate[96], b1[48], b2[32];
	struct memlim m;
	struct np_finding *f;

	if (!memlim_read(s, "udp_mem", 0, 8, &m)) {
		/* The counter alone says the limit was hit (a pasted netstat -su, a sosreport
		 * without sysctl -a): say so; only the size of a raise needs the limit. */
		sev = np_verdict(&v, np_thr_warn(r), np_thr_crit(r));
		if (!v.present || !v.total || sev == NP_SEV_OK) {
			np_skip_sysctl(a, r, NP_SYSCTL_UDP_MEM);
			return;
		}
		np_rate_text(&v, rate, sizeof(rate));
		f = np_emit(r, sev, "UDP memory limit hit: %s (udp_mem not in this evidence)", rate);
		if (!f)
			return;
		f->rank = v.rate;
		np_mib_evidence(f, a, names, "datagrams");
		np_detail(f, "UdpMemErrors counts datagrams dropped because all UDP sockets together "
			     "held more than udp_mem[0] pages (UDP has no pressure mode): a raise of "
			     "rmem or SO_RCVBUF does not help. A memory cgroup's socket limit fails "
			     "the same way.");
		np_remedy(f, "sysctl net.ipv4.udp_mem   # not in this evidence: read it, then double "
			     "it if the RAM can afford it");
		np_remedy(f, "ss -uamn   # sockets with a large Recv-Q hold the memory: their "
			     "readers are too slow");
		return;
	}
	if (np_src_ok(s, NP_SRC_SOCKSTAT) && np_has(s->hs->sockstat.udp_mem)) {
		used = (double)s->hs->sockstat.udp_mem;
		if (m.v[0] > 0)
			pct = 100.0 * used / (double)m.v[0];
		if (used >= (double)m.v[2])
			use_sev = NP_SEV_CRITICAL;
		else if (used >= (double)m.v[0])
			use_sev = NP_SEV_WARNING;
	}
	sev = np_sev_max(np_verdict(&v, np_thr_warn(r), np_thr_crit(r)), use_sev);
	if (memlim_bad(&m))
		sev = np_sev_max(sev, NP_SEV_WARNING);
	if (sev == NP_SEV_OK)
		return;

	if (v.present && v.total) {
		np_rate_text(&v, rate, sizeof(rate));
		f = np_emit(r, sev, "UDP memory limit hit: %s", rate);
	} else if (use_sev != NP_SEV_OK) {
		f = np_emit(r, sev, "UDP socket memory at %.0f%% of udp_mem[0] (%s)", pct,
			    pages_text(&m, (int64_t)used, b1, sizeof(b1)));
	} else if (m.too_big) {
		f = np_emit(r, sev, "udp_mem max = %s on a %s host: the value looks like bytes",
			    pages_text(&m, m.v[2], b1, sizeof(b1)),
			    np_fmt_bytes(m.ram, b2, sizeof(b2)));
	} else if (m.too_small) {
		f = np_emit(r, sev, "udp_mem[0] = %s is absurdly small",
			    pages_text(&m, m.v[0], b1, sizeof(b1)));
	} else {
		f = np_emit(r, sev, "udp_mem thresholds out of order: %lld %lld %lld",
			    (long long)m.v[0], (long long)m.v[1], (long long)m.v[2]);
	}
	if (!f)
		return;
	f->rank = v.rate;
	memlim_evidence(f, &m);
	if (!isnan(used)) {
		np_ev_value(f, "sockstat UDP mem", "pages", used);
		np_ev_value(f, "of udp_mem[0]", "%", pct);
	}
	np_mib_evidence(f, a, names, "datagrams");
	if (have_min)
		np_ev_value(f, "udp_rmem_min", "bytes", (double)rmin);
	if (use_sev != NP_SEV_OK || (v.present && v.total)) {
		np_detail(f, "UDP has no pressure mode: once all UDP sockets hold more than "
			     "udp_mem[0] pages, a socket above udp_rmem_min (%s) cannot charge the "
			     "next datagram and drops it (UdpMemErrors, and UdpInErrors): "
			     "udp_mem[0] is in effect the hard limit. A memory cgroup's socket "
			     "limit (containers) fails the same way.",
			  have_min ? np_fmt_bytes((double)rmin, b2, sizeof(b2)) : "4 KiB");
		if (!memlim_bad(&m))
			np_remedy(f, "sysctl -w net.ipv4.udp_mem=\"%lld %lld %lld\"   # double it, "
				     "if the RAM can afford it", (long long)m.v[0] * 2,
				  (long long)m.v[1] * 2, (long long)m.v[2] * 2);
		np_remedy(f, "ss -uamn   # sockets with a large Recv-Q hold the memory: their "
			     "readers are too slow");
	}
	memlim_explain(f, &m);
	np_remedy(f, "Cost: unswappable kernel memory for queued datagrams, up to the new limit.");
}

const struct np_check np_check_socket_tcp_mem = {
	.id = "socket.tcp-mem",
	.stage = NP_STAGE_SOCKET,
	.scope = NP_SCOPE_HOST,
	.title = "TCP socket memory (tcp_mem, in pages)",
	.looks_at = "net.ipv4.tcp_mem (pages) vs sockstat TCP mem and RAM; TcpExt "
		    "TCPMemoryPressures, TCPMemoryPressuresChrono, TCPAbortOnMemory",
	.why = "tcp_mem caps the memory of all TCP sockets together, in pages. Above [1] TCP stops "
	       "growing buffers and prunes queues; above [2] it drops data and aborts orphaned "
	       "connections. A value typed in bytes is either larger than RAM (no limit at all) "
	       "or far too small. The kernel default (~9% of RAM) suits almost every host.",
	.fix = "Find the sockets holding memory (usually slow readers); raise tcp_mem only if RAM "
	       "allows; restore page-sized values if someone typed bytes. Costs unswappable "
	       "kernel memory.",
	.related = "net.ipv4.tcp_mem, net.ipv4.tcp_rmem, net.ipv4.tcp_wmem",
	.kernel_notes = "tcp_mem is global (not per network namespace). Page size is 4 KiB on "
			"x86_64, 64 KiB on some arm64/ppc64 kernels.",
	.warn = 100, .crit = 90,
	.thr_unit = "(usage in % of tcp_mem[1] for warning, of tcp_mem[2] for critical); "
		    "pressure entered during the sample: warning; aborts on memory: critical",
	.run = run_tcp_mem,
};

const struct np_check np_check_socket_udp_mem = {
	.id = "socket.udp-mem",
	.stage = NP_STAGE_SOCKET,
	.scope = NP_SCOPE_HOST,
	.title = "UDP socket memory (udp_mem, in pages)",
	.looks_at = "UdpMemErrors over the interval; net.ipv4.udp_mem (pages) vs sockstat UDP mem "
		    "and RAM; net.ipv4.udp_rmem_min",
	.why = "All UDP sockets together may hold udp_mem[0] pages; beyond that, sockets above "
	       "udp_rmem_min drop datagrams (UdpMemErrors). Typed-in-bytes values are flagged "
	       "like tcp_mem's. It matters for hosts with many busy UDP sockets (DNS, QUIC, "
	       "syslog, VoIP).",
	.fix = "Find the slow readers; raise udp_mem if RAM allows; fix typed-in-bytes values. "
	       "Costs unswappable kernel memory.",
	.related = "net.ipv4.udp_mem, net.ipv4.udp_rmem_min, net.core.rmem_max",
	.kernel_notes = "UdpMemErrors exists since 5.11; udp_mem is global.",
	.warn = 1, .crit = 100, .thr_unit = "drops/s",
	.run = run_udp_mem,
};
