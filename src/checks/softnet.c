// SPDX-License-Identifier: GPL-2.0-only
/* Stage "softnet": the per-CPU backlog, flow limit and netdev_max_backlog, from softnet_stat. */
#include "softnet_priv.h"
#include "sizing.h"
#include "raise.h"
#include "strjoin.h"

#include <stdio.h>
#include <stdlib.h>

void np_sn_top_text(const struct np_sn_cpu *c, size_t n, bool sampled, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && i < NP_SN_TOP && c[i].key > 0 && len < size; i++) {
		char num[32], cpu[NP_UDEC_MAX];

		if (sampled)
			np_fmt_num(c[i].v.rate, num, sizeof(num));
		else
			np_fmt_num((double)c[i].v.total, num, sizeof(num));
		len += (size_t)np_strjoin(buf + len, size - len, i ? ", " : "", "CPU ",
					  np_sdec(cpu, c[i].cpu), ": ", num,
					  sampled ? "/s" : " since boot");
	}
}

void np_sn_top_ev(struct np_finding *f, const struct np_sn_cpu *c, size_t n, const char *what,
		  const char *unit)
{
	for (size_t i = 0; i < n && i < NP_SN_TOP && c[i].key > 0; i++) {
		char key[48], cpu[NP_UDEC_MAX];

		np_strjoin(key, sizeof(key), "cpu", np_sdec(cpu, c[i].cpu), ".", what);
		np_ev_counter(f, key, unit, &c[i].v);
	}
}

struct np_sn_cpu *np_sn_verdict(const struct np_analysis *a, struct np_report *r, size_t off,
				struct np_counter_view *tot, enum np_severity *sev)
{
	const struct np_snapshot *s = a->cur;
	struct np_sn_cpu *c;

	if (!np_src_ok(s, NP_SRC_SOFTNET) || !s->hs->softnet.n) {
		char why[160];

		np_skip(r, "/proc/net/softnet_stat %s", np_src_why(s, NP_SRC_SOFTNET, why,
								  sizeof(why)));
		return NULL;
	}
	c = np_sn_views(a, off, true, tot);
	if (!c) {
		np_skip(r, "out of memory");
		return NULL;
	}
	*sev = np_verdict(tot, np_thr_warn(r), np_thr_crit(r));
	if (*sev == NP_SEV_OK) {
		free(c);
		return NULL;
	}
	return c;
}

int64_t np_sn_sysctl_or(const struct np_snapshot *s, enum np_sysctl_id id, int64_t dflt, bool *ok)
{
	int64_t v = np_sysctl_int(s, id, 0, ok);

	return *ok ? v : dflt;
}

/* The backlog we suggest: double, and at least 4096 (16384 on 10G+ links). */
/* The cost of a backlog of n packets: memory while full and queueing delay. */
static void backlog_cost(struct np_finding *f, const struct np_snapshot *s, uint64_t n)
{
	double truesize = np_size_backlog_truesize(s);
	char mem[32];

	np_remedy(f, "Cost: memory only while a queue is full, up to %s per CPU (%llu x ~%.0f B "
		     "truesize); and latency: at ~1 us of processing per packet a full queue holds "
		     "~%.1f ms, so packets wait longer instead of being dropped.",
		  np_fmt_bytes((double)n * truesize, mem, sizeof(mem)), (unsigned long long)n,
		  truesize, (double)n / 1000.0);
}

/* ---- softnet.backlog-drops ---- */

/* What serves the interface: its queue IRQ CPUs and RPS targets (see np_rx_cpus). */
struct serving {
	bool known;
	struct np_cpuset irq, rps;
	struct np_cpuset foreign;	/* CPUs of 'hot' that serve neither */
};

static void serving(const struct np_snapshot *s, const struct np_cpuset *hot, struct serving *sv)
{
	sv->known = np_rx_cpus(s, &sv->irq, &sv->rps);
	sv->foreign = *hot;
	for (size_t i = 0; i < NP_MAX_CPUS / 64; i++)
		sv->foreign.w[i] &= ~(sv->irq.w[i] | sv->rps.w[i]);
}

/*
 * Who to spread the load of, for drops concentrated on the CPUs 'hot': the interface only when
 * those CPUs serve it (its queue IRQs or RPS targets); softnet_stat is host-wide, so drops on
 * other CPUs come from whatever else feeds their backlogs.
 */
static void spread_advice(struct np_finding *f, const struct np_snapshot *s,
			  const struct np_cpuset *hot, const struct serving *sv)
{
	const char *ifn = s->dev.name;
	unsigned nf = np_cpuset_count(&sv->foreign);
	char cpus[128], icpus[128], rcpus[128];

	np_cpuset_format(sv->known ? &sv->foreign : hot, cpus, sizeof(cpus));
	np_cpuset_format(&sv->irq, icpus, sizeof(icpus));
	np_cpuset_format(&sv->rps, rcpus, sizeof(rcpus));
	if (!sv->known) {
		np_remedy(f, "Spread the load of whatever feeds CPUs %s (more RSS queues or RPS on "
			     "that interface); which CPUs serve %s is unknown (IRQ affinity and RPS "
			     "not read).", cpus, ifn);
		return;
	}
	if (nf < np_cpuset_count(hot))
		np_remedy(f, "Spread the load: ethtool -L %s combined N (more RSS queues), or RPS "
			     "on /sys/class/net/%s/queues/rx-*/rps_cpus (see softnet.single-cpu).",
			  ifn, ifn);
	if (!nf)
		return;
	np_detail(f, "CPU%s %s do%s not serve %s (its queue IRQs: CPUs %s; RPS: %s): softnet_stat "
		     "is host-wide, so another device, veth or loopback traffic, or RPS from "
		     "another interface feeds %s backlog%s.", nf == 1 ? "" : "s", cpus,
		  nf == 1 ? "es" : "", ifn, icpus[0] ? icpus : "unknown",
		  np_cpuset_count(&sv->rps) ? rcpus : "off", nf == 1 ? "that" : "those",
		  nf == 1 ? "" : "s");
	np_remedy(f, "grep . /sys/class/net/*/queues/rx-*/rps_cpus; cat /proc/interrupts "
		     "/proc/softirqs   # which device's IRQs, NET_RX work or RPS land on CPU%s %s",
		  nf == 1 ? "" : "s", cpus);
}

static void run_backlog_drops(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	struct np_counter_view tot;
	struct np_sn_cpu *c;
	struct np_finding *f;
	struct np_cpuset hotset = { 0 };
	struct serving sv = { 0 };
	enum np_severity sev;
	char top[160], num[32];
	int64_t backlog;
	bool have_backlog, concentrated = false;
	size_t hot = 0;
	unsigned ncpu = np_ncpu_online(s);

	c = np_sn_verdict(a, r, NP_SN_DROPPED, &tot, &sev);
	if (!c)
		return;
	backlog = np_sn_sysctl_or(s, NP_SYSCTL_NETDEV_MAX_BACKLOG, 1000, &have_backlog);
	/* CPUs that carry 80% of the drops: when that is one or two of many, spread the load. */
	for (double acc = 0, need = 0.8 * (tot.sampled ? (double)tot.delta : (double)tot.total);
	     hot < s->hs->softnet.n && c[hot].key > 0 && acc < need; hot++) {
		acc += c[hot].key;
		if (c[hot].cpu >= 0)
			np_cpuset_set(&hotset, (unsigned)c[hot].cpu);
	}
	concentrated = ncpu >= 4 && hot <= (ncpu >= 8 ? 2u : 1u);
	np_sn_top_text(c, s->hs->softnet.n, tot.sampled && tot.delta, top, sizeof(top));
	/* netdev_max_backlog is host-global: a network namespace does not show it. The summary
	 * then says so rather than print the assumed default as if it had been read. */
	if (tot.sampled && tot.delta && have_backlog)
		f = np_emit(r, sev, "Per-CPU backlog full: %s packets/s dropped (%s); "
			    "netdev_max_backlog=%lld", np_fmt_num(tot.rate, num, sizeof(num)),
			    top,
			    (long long)backlog);
	else if (tot.sampled && tot.delta)
		f = np_emit(r, sev, "Per-CPU backlog full: %s packets/s dropped (%s); "
			    "netdev_max_backlog %s", np_fmt_num(tot.rate, num, sizeof(num)), top,
			    np_sysctl_absence_short(s, NP_SYSCTL_NETDEV_MAX_BACKLOG));
	else
		f = np_emit(r, sev, "Per-CPU backlog dropped %s packets since boot%s%s%s%s",
			    np_fmt_num((double)tot.total, num, sizeof(num)), top[0] ? " (" : "",
			    top, top[0] ? ")" : "", tot.sampled ? ", none during the sample" : "");
	if (!f)
		goto out;
	f->rank = tot.rate;
	np_ev_counter(f, "dropped", "packets", &tot);
	np_sn_top_ev(f, c, s->hs->softnet.n, "dropped", "packets");
	/* Unreadable, the kernel default stands in; the key says so (as time-squeeze's do). */
	np_ev_value(f, have_backlog ? "netdev_max_backlog" : "netdev_max_backlog_assumed",
		    "packets", (double)backlog);
	if (concentrated)
		serving(s, &hotset, &sv);
	/* With drops on CPUs that do not serve the interface, the host-wide caveat is said
	 * once, with those CPUs named (spread_advice). */
	if (concentrated && sv.known && np_cpuset_count(&sv.foreign))
		np_detail(f, "A CPU's input backlog held more than netdev_max_backlog packets (or "
			     "flow limit cut a heavy flow); the same drops also count in the "
			     "feeding device's rx_dropped.");
	else
		np_detail(f, "A CPU's input backlog held more than netdev_max_backlog packets (or "
			     "flow limit cut a heavy flow). softnet_stat is host-global: these drops "
			     "belong to every interface whose packets pass a backlog (RPS, veth, "
			     "loopback, tunnels), not only %s; the same drops also count in that "
			     "device's rx_dropped.", s->dev.name);
	if (concentrated)
		np_detail(f, "80%% of the drops land on %zu of %u CPUs: those CPUs are overloaded, "
			     "and a bigger queue only delays the loss. The real fix is spreading "
			     "the load (RSS queues or RPS).", hot, ncpu);
	np_remedy_raise(f, s, "net.core.netdev_max_backlog",
			"sysctl -w net.core.netdev_max_backlog=", have_backlog, backlog,
			(int64_t)np_size_backlog(s, have_backlog ? backlog : 0), NULL);
	if (concentrated)
		spread_advice(f, s, &hotset, &sv);
	backlog_cost(f, s, np_size_backlog(s, backlog));
out:
	free(c);
}

/* ---- softnet.flow-limit ---- */

static void run_flow_limit(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	struct np_counter_view tot;
	struct np_sn_cpu *c;
	struct np_finding *f;
	enum np_severity sev;
	const char *bitmap = np_sysctl_str(s, NP_SYSCTL_FLOW_LIMIT_CPU_BITMAP);
	char top[160], num[32];

	/* Flow limit (and its counter) came in 3.11: older layouts have no column for it. */
	if (np_src_ok(s, NP_SRC_SOFTNET) && s->hs->softnet.n && s->hs->softnet.ncols < 11) {
		np_not_applicable(r, "this kernel's softnet_stat has no flow_limit_count (%s)",
				  s->hs->softnet.layout ? s->hs->softnet.layout : "old layout");
		return;
	}
	c = np_sn_verdict(a, r, NP_SN_FLOWLIM, &tot, &sev);
	if (!c)
		return;
	np_sn_top_text(c, s->hs->softnet.n, tot.sampled && tot.delta, top, sizeof(top));
	if (tot.sampled && tot.delta)
		f = np_emit(r, sev, "Flow limit dropped %s packets/s of heavy flows (%s)",
			    np_fmt_num(tot.rate, num, sizeof(num)), top);
	else
		f = np_emit(r, sev, "Flow limit dropped %s packets of heavy flows since boot%s",
			    np_fmt_num((double)tot.total, num, sizeof(num)),
			    tot.sampled ? ", none during the sample" : "");
	if (!f)
		goto out;
	f->rank = tot.rate;
	np_ev_counter(f, "flow_limit_count", "packets", &tot);
	np_sn_top_ev(f, c, s->hs->softnet.n, "flow_limit_count", "packets");
	if (bitmap)
		np_ev_text(f, "flow_limit_cpu_bitmap", "%s", bitmap);
	np_detail(f, "Flow limit is on for the CPUs in net.core.flow_limit_cpu_bitmap (%s): when a "
		     "backlog is half full it drops packets of the flows holding most of it, so "
		     "one "
		     "elephant flow cannot starve the others. These drops are counted on the "
		     "enqueuing CPU and are also in softnet 'dropped'.",
		  bitmap ? bitmap : "unknown");
	np_remedy(f, "If the heavy flow matters: spread it (RSS/RPS) or raise "
		     "net.core.netdev_max_backlog (flow limit starts at half of it).");
	np_remedy(f, "sysctl -w net.core.flow_limit_cpu_bitmap=0   # turn flow limit off");
	np_remedy(f, "Cost: without flow limit one heavy flow can fill a backlog and small flows "
		     "sharing that CPU are dropped instead.");
out:
	free(c);
}

/* ---- softnet.max-backlog ---- */

static void run_max_backlog(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	struct np_finding *f;
	bool ok;
	int64_t backlog = np_sysctl_int(s, NP_SYSCTL_NETDEV_MAX_BACKLOG, 0, &ok);

	if (!ok) {
		np_skip_sysctl(a, r, NP_SYSCTL_NETDEV_MAX_BACKLOG);
		return;
	}
	if (!np_has(s->dev.speed_mbps) || !s->dev.speed_mbps) {
		if (np_src_ok(s, NP_SRC_NETDEV) && np_dev_is_virtual(s))
			np_skip(r, "link speed of %s unknown: a virtual device with no physical "
				"device beneath (its own speed is nominal)", s->dev.name);
		else
			np_skip(r, "link speed of %s unknown", s->dev.name);
		return;
	}
	if (s->dev.speed_mbps < 10000 || backlog > 1000)
		return;
	f = np_emit(r, NP_SEV_INFO, "netdev_max_backlog=%lld on a %llu Mbit/s link",
		    (long long)backlog, (unsigned long long)s->dev.speed_mbps);
	np_ev_value(f, "netdev_max_backlog", "packets", (double)backlog);
	np_ev_value(f, "speed", "Mbit/s", (double)s->dev.speed_mbps);
	np_detail(f, "At 10 Gbit/s, 1000 packets arrive in ~1.2 ms: a short stall of a CPU fed by "
		     "RPS, veth or another netif_rx() user overflows its backlog. Plain NAPI "
		     "traffic "
		     "without RPS never uses the backlog; then this value does not matter.");
	np_remedy(f, "sysctl -w net.core.netdev_max_backlog=%llu",
		  (unsigned long long)np_size_backlog(s, backlog));
	backlog_cost(f, s, np_size_backlog(s, backlog));
}

const struct np_check np_check_softnet_backlog_drops = {
	.id = "softnet.backlog-drops",
	.stage = NP_STAGE_SOFTNET,
	.scope = NP_SCOPE_HOST,
	.title = "Per-CPU backlog drops",
	.looks_at = "/proc/net/softnet_stat column 2 (dropped) per CPU over the interval, "
		    "net.core.netdev_max_backlog",
	.why = "Packets queued to a CPU's input backlog (RPS/RFS steering, veth, loopback, tunnels "
	       "and every netif_rx() user) are dropped when the queue holds netdev_max_backlog "
	       "packets. softnet_stat is host-global. If the drops land on one or two CPUs, those "
	       "CPUs are overloaded and a bigger queue only adds latency before the same loss; "
	       "NIC traffic without RPS never passes this queue. Spreading advice names the "
	       "interface only when the dropping CPUs serve it (its queue IRQs or RPS targets).",
	.fix = "Raise net.core.netdev_max_backlog (double it; 4096, or 16384 on 10G+), costing "
	       "memory "
	       "while full and queueing latency; if the drops concentrate, spread the work with "
	       "more RSS queues or RPS instead.",
	.related = "net.core.netdev_max_backlog, net.core.flow_limit_cpu_bitmap, rps_cpus",
	.kernel_notes = "softnet_stat counters are 32-bit and wrap. Before 5.10 rows carry no CPU "
			"id (row i is the i-th online CPU). Drop reason CPU_BACKLOG since ~5.18.",
	.warn = 1, .crit = 100, .thr_unit = "drops/s",
	.run = run_backlog_drops,
};

const struct np_check np_check_softnet_flow_limit = {
	.id = "softnet.flow-limit",
	.stage = NP_STAGE_SOFTNET,
	.scope = NP_SCOPE_HOST,
	.title = "Flow limit dropping heavy flows",
	.looks_at = "/proc/net/softnet_stat column 11 (flow_limit_count), "
		    "net.core.flow_limit_cpu_bitmap",
	.why = "With net.core.flow_limit_cpu_bitmap set, a backlog more than half full drops "
	       "packets of the flows that hold most of it, protecting small flows from one "
	       "elephant. That is the feature working; it matters when the heavy flow is the "
	       "one you care about. Off by default.",
	.fix = "Spread the heavy flow's load or raise netdev_max_backlog; clearing the bitmap "
	       "turns the protection off (small flows then suffer instead).",
	.related = "net.core.flow_limit_cpu_bitmap, net.core.flow_limit_table_len, "
		   "net.core.netdev_max_backlog",
	.warn = 1, .crit = NAN, .thr_unit = "drops/s",
	.run = run_flow_limit,
};

const struct np_check np_check_softnet_max_backlog = {
	.id = "softnet.max-backlog",
	.stage = NP_STAGE_SOFTNET,
	.scope = NP_SCOPE_HOST,
	.title = "Default netdev_max_backlog on a 10G+ link",
	.looks_at = "net.core.netdev_max_backlog, /sys/class/net/IF/speed",
	.why = "1000 packets (the default) is ~1.2 ms of 10G traffic: bursts steered by RPS, or "
	       "from veth and other netif_rx() users, overflow it. Traffic handled by the NIC's "
	       "own NAPI queues without RPS never enters the backlog, and then the value does "
	       "not matter.",
	.fix = "Raise net.core.netdev_max_backlog (16384 on 10G+); it costs memory only while a "
	       "queue is full, and queueing latency.",
	.related = "net.core.netdev_max_backlog",
	.warn = NAN, .crit = NAN,
	.run = run_max_backlog,
};
