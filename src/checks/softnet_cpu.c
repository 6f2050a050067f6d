// SPDX-License-Identifier: GPL-2.0-only
/* Stage "softnet", per-CPU load: which NAPI limit binds (time_squeeze) and single-CPU receive. */
#include "softnet_priv.h"
#include "sizing.h"
#include "nic_view.h"
#include "raise.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- softnet.time-squeeze ---- */

/* NET_RX softirq count of one CPU (32-bit in /proc/softirqs), as a view over the interval. */
static struct np_counter_view net_rx_view(const struct np_analysis *a, int cpu)
{
	const struct np_softirqs *c = &a->cur->hs->softirqs;
	const struct np_softirqs *p = a->prev ? &a->prev->hs->softirqs : NULL;
	uint64_t pv = NP_NA, cv = NP_NA;

	for (size_t i = 0; c->net_rx && i < c->n; i++)
		if (c->cpu[i] == cpu)
			cv = c->net_rx[i];
	for (size_t i = 0; p && p->net_rx && np_src_ok(a->prev, NP_SRC_SOFTIRQS) && i < p->n; i++)
		if (p->cpu[i] == cpu)
			pv = p->net_rx[i];
	return np_view_u32(a, pv, cv);
}

enum sq_limit { SQ_UNKNOWN, SQ_BUDGET, SQ_TIME };

/*
 * The sysctls to raise for the limit that binds. netdev_budget_usecs exists since 4.12; before,
 * the time limit is a fixed 2 jiffies and only netdev_budget can be changed, so a remedy never
 * names a sysctl this kernel does not have.
 */
static void squeeze_remedy(struct np_finding *f, const struct np_snapshot *s, enum sq_limit lim,
			   int64_t budget, bool have_budget, int64_t usecs, bool have_usecs,
			   int cpu)
{
	const struct np_sysctl *e = np_sysctl_find(s, NP_SYSCTL_NETDEV_BUDGET_USECS);

	if (have_usecs) {
		if (lim != SQ_TIME)
			np_remedy_raise(f, s, "net.core.netdev_budget",
					"sysctl -w net.core.netdev_budget=", have_budget, budget,
					np_size_budget(budget), NULL);
		np_remedy_raise(f, s, "net.core.netdev_budget_usecs",
				"sysctl -w net.core.netdev_budget_usecs=", true, usecs,
				np_size_budget(usecs), NULL);
		np_remedy(f, "Cost: longer softirq runs: other work on those CPUs (applications, "
			     "other softirqs) waits up to %lld us instead of %lld us.",
			  (long long)np_size_budget(usecs), (long long)usecs);
		return;
	}
	if (e && e->err == ENOENT && np_kernel_before(s, 4, 12))
		np_detail(f, "This kernel (%s) has no net.core.netdev_budget_usecs (it came in "
			     "4.12): the time limit is fixed at 2 jiffies (2 ms at HZ=1000, 8 ms "
			     "at HZ=250) and cannot be raised%s.", s->hs->host.kernel,
			  lim == SQ_TIME ? "" : "; only netdev_budget can");
	else if (e && e->err == ENOENT) {
		char why[224];

		np_detail(f, "netdev_budget_usecs was not read (%s), so only netdev_budget is "
			     "suggested.", np_sysctl_absence(s, NP_SYSCTL_NETDEV_BUDGET_USECS, why,
							     sizeof(why)));
	} else
		np_detail(f, "net.core.netdev_budget_usecs could not be read, so only "
			     "netdev_budget is suggested (before 4.12 the time limit is a fixed 2 "
			     "jiffies).");
	if (lim == SQ_TIME) {
		np_remedy(f, "perf top -C %d   # what each packet costs in the softirq (netfilter, "
			     "conntrack, tc/XDP programs)", cpu);
		np_remedy(f, "Cost: diagnosis only (perf samples the CPU while it runs).");
		return;
	}
	np_remedy_raise(f, s, "net.core.netdev_budget", "sysctl -w net.core.netdev_budget=",
			have_budget, budget, np_size_budget(budget), NULL);
	np_remedy(f, "Cost: more packets per softirq run, still within the 2-jiffy limit: other "
		     "work on those CPUs (applications, other softirqs) waits longer between runs.");
}

static void run_time_squeeze(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	struct np_counter_view tot, ptot, rxp;
	struct np_sn_cpu *sq, *proc = NULL;
	struct np_finding *f;
	enum np_severity sev;
	enum sq_limit lim = SQ_UNKNOWN;
	double pkts = 0, runs = 0, squeezes = 0, per_run = -1, gro = 1;
	int64_t budget, usecs;
	bool have_budget, have_usecs, runs_known = false;
	char top[160], num[32];

	sq = np_sn_verdict(a, r, NP_SN_SQUEEZE, &tot, &sev);
	if (!sq)
		return;
	budget = np_sn_sysctl_or(s, NP_SYSCTL_NETDEV_BUDGET, 300, &have_budget);
	/* The default is 2 jiffies: 2000 us at HZ=1000, 8000 us at HZ=250. */
	usecs = np_sn_sysctl_or(s, NP_SYSCTL_NETDEV_BUDGET_USECS,
				np_has(s->hs->host.hz_hint) && s->hs->host.hz_hint ?
				(int64_t)(2000000 / s->hs->host.hz_hint) : 2000, &have_usecs);
	/* The kernel keeps both in an int (usecs >= 0). A value outside that, read from a damaged
	 * or hostile tree, is no setting to double: the default stands in, said as assumed. */
	if (have_budget && (budget < 1 || budget > INT32_MAX)) {
		budget = 300;
		have_budget = false;
	}
	if (have_usecs && (usecs < 1 || usecs > INT32_MAX)) {
		usecs = 2000;
		have_usecs = false;
	}
	/* Which limit ends the runs: packets per net_rx_action run on the squeezing CPUs. */
	if (tot.sampled && tot.delta && np_src_ok(s, NP_SRC_SOFTIRQS) && a->prev &&
	    np_src_ok(a->prev, NP_SRC_SOFTIRQS) &&
	    (proc = np_sn_views(a, NP_SN_PROCESSED, false, &ptot))) {
		runs_known = true;
		for (size_t i = 0; i < s->hs->softnet.n && sq[i].key > 0; i++) {
			const struct np_sn_cpu *p = np_sn_find(proc, s->hs->softnet.n, sq[i].cpu);
			struct np_counter_view nr = net_rx_view(a, sq[i].cpu);

			if (!p || !nr.sampled) {
				runs_known = false;
				break;
			}
			pkts += (double)p->v.delta;
			runs += (double)nr.delta;
			squeezes += (double)sq[i].v.delta;
		}
		/* processed counts skbs after GRO; the budget counts frames before it. The
		 * device's rx_packets over all processed skbs estimates the merge factor. */
		rxp = NP_NV_LINK(a, rx_packets, NULL);
		if (rxp.sampled && rxp.delta && ptot.delta) {
			gro = (double)rxp.delta / (double)ptot.delta;
			if (gro < 1)
				gro = 1;
		}
		if (runs_known && runs > 0) {
			per_run = pkts * gro / runs;
			/* A run cannot do much more than its budget: an estimate above it only
			 * says the GRO factor was overestimated (other devices' traffic). */
			if (per_run > (double)budget)
				per_run = (double)budget;
			if (per_run >= 0.75 * (double)budget)
				lim = SQ_BUDGET;
			else if (pkts * gro < 0.5 * squeezes * (double)budget)
				lim = SQ_TIME;	/* too few packets for budget squeezes */
			else if (per_run < 0.25 * (double)budget && squeezes >= 0.5 * runs)
				lim = SQ_TIME;
		}
	}
	np_sn_top_text(sq, s->hs->softnet.n, tot.sampled && tot.delta, top, sizeof(top));
	if (tot.sampled && tot.delta)
		f = np_emit(r, sev, "NAPI polling ran out of %s %s times/s (%s)",
			    lim == SQ_BUDGET ? "packet budget" : lim == SQ_TIME ? "time" :
			    "budget or time", np_fmt_num(tot.rate, num, sizeof(num)), top);
	else
		f = np_emit(r, sev, "NAPI polling ran out of budget or time %s times since boot%s",
			    np_fmt_num((double)tot.total, num, sizeof(num)),
			    tot.sampled ? ", none during the sample" : "");
	if (!f)
		goto out;
	f->rank = tot.rate;
	np_ev_counter(f, "time_squeeze", "events", &tot);
	np_sn_top_ev(f, sq, s->hs->softnet.n, "time_squeeze", "events");
	/* Unreadable sysctls fall back to the kernel defaults; the key says so. */
	np_ev_value(f, have_budget ? "netdev_budget" : "netdev_budget_assumed", "packets",
		    (double)budget);
	np_ev_value(f, have_usecs ? "netdev_budget_usecs" : "netdev_budget_usecs_assumed", "us",
		    (double)usecs);
	if (per_run >= 0) {
		np_ev_value(f, "packets_per_net_rx_run", "packets", per_run);
		if (gro > 1)
			np_ev_value(f, "gro_merge_factor", "frames/skb", gro);
	}
	np_detail(f, "A squeeze is not a drop: the softirq stopped with work left and resumes "
		     "later; loss shows up only if the ring then overflows (nic.missed).");
	if (lim == SQ_BUDGET)
		np_detail(f, "~%.0f packets per NET_RX run against a budget of %lld: the packet "
			     "budget ends the runs.", per_run, (long long)budget);
	else if (lim == SQ_TIME)
		np_detail(f, "Only ~%.0f packets per NET_RX run against a budget of %lld: the %s%lld "
			     "us time limit ends the runs, so each packet is slow to process; "
			     "raising netdev_budget will not help, find what costs CPU (perf top "
			     "-C CPU: netfilter, tc/XDP programs, conntrack).", per_run,
			  (long long)budget, have_usecs ? "" : "~", (long long)usecs);
	else if (tot.sampled && tot.delta)
		np_detail(f, "%s", !runs_known || runs <= 0 ?
			  "Without /proc/softirqs NET_RX counts the binding limit is unknown." :
			  "Squeezes are a minority of runs (bursts); which limit binds is "
			  "unclear.");
	if (s->dev.threaded > 0)
		np_detail(f, "Threaded NAPI is on for %s: its polling runs in kthreads and does "
			     "not count here.", s->dev.name);
	squeeze_remedy(f, s, lim, budget, have_budget, usecs, have_usecs, sq[0].cpu);
out:
	free(sq);
	free(proc);
}

/* ---- softnet.single-cpu ---- */

/* The CPUs RPS should use: NUMA-local online CPUs (or all online ones) except the busy one. */
static void rps_targets(const struct np_snapshot *s, int busy, struct np_cpuset *out)
{
	struct np_cpuset on = np_online_cpus(s);

	*out = on;
	if (s->dev.has_local_cpus) {
		for (size_t i = 0; i < NP_MAX_CPUS / 64; i++)
			out->w[i] &= s->dev.local_cpus.w[i];
		if (np_cpuset_count(out) < 2)
			*out = on;
	}
	if (busy >= 0 && busy < NP_MAX_CPUS && np_cpuset_count(out) > 1)
		out->w[busy / 64] &= ~(1ull << (busy % 64));
}

/* Since boot, below this many packets one CPU's share says nothing (a box that just booted). */
#define ROWS_ONLY_MIN_PACKETS 1000000

/*
 * The device's queues or RPS settings are unknown (a sosreport copies no queues/ directory):
 * softnet_stat's rows still say whether one CPU does nearly all receive processing. What they
 * cannot say is why (one queue, IRQs on one CPU, one flow, RPS off), so this only reports the
 * share and names what to look at. softnet_stat is host-wide: other devices count too.
 */
static void single_cpu_rows_only(const struct np_analysis *a, struct np_report *r,
				 const char *unknown)
{
	const struct np_snapshot *s = a->cur;
	struct np_counter_view ptot;
	struct np_sn_cpu *proc;
	struct np_finding *f;
	unsigned ncpu = np_ncpu_online(s);
	bool sampled = np_sn_sampled(a);
	double tot, top, share;
	char num[32];

	if (ncpu < 2)
		return;
	proc = np_sn_views(a, NP_SN_PROCESSED, true, &ptot);
	if (!proc) {
		np_skip(r, "out of memory");
		return;
	}
	tot = sampled ? (double)ptot.delta : (double)ptot.total;
	top = sampled ? (double)proc[0].v.delta : (double)proc[0].v.total;
	if (sampled ? ptot.rate < 1000 : tot < ROWS_ONLY_MIN_PACKETS) {
		np_skip(r, "%s, and softnet_stat holds too little work to judge the CPUs from it",
			unknown);
		goto out;
	}
	share = 100.0 * top / tot;
	if (share <= np_thr_warn(r))
		goto out;
	f = np_emit(r, NP_SEV_INFO, "%.1f%% of softnet packets (%s%s) ran on CPU %d of %u; "
		    "how %s's receive work is spread is unknown (%s), so the cause is not known",
		    share, np_fmt_num(sampled ? ptot.rate : tot, num, sizeof(num)),
		    sampled ? "/s" : " since boot", proc[0].cpu, ncpu, s->dev.name, unknown);
	if (!f)
		goto out;
	np_ev_value(f, "busiest_cpu_share", "%", share);
	np_ev_value(f, "cpus_online", "cpus", (double)ncpu);
	np_ev_counter(f, "processed", "packets", &ptot);
	np_ev_counter(f, "busiest_cpu.processed", "packets", &proc[0].v);
	np_ev_text(f, "judged_from", "/proc/net/softnet_stat rows alone: %s", unknown);
	np_detail(f, "One CPU doing nearly all receive processing caps the packet rate. The rows "
		     "alone cannot tell one receive queue, queue IRQs on one CPU, a single flow "
		     "or RPS off apart; softnet_stat is host-wide, so other devices count too%s.",
		  sampled ? "" : ", and its 32-bit counters since boot may have wrapped");
	np_remedy(f, "ethtool -l %s; grep . /sys/class/net/%s/queues/rx-*/rps_cpus; grep %s "
		     "/proc/interrupts   # how many queues, RPS, and where their IRQs land",
		  s->dev.name, s->dev.name, s->dev.name);
out:
	free(proc);
}

static void run_single_cpu(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	const struct np_netdev *d = &s->dev;
	struct np_counter_view ptot, dtot, stot;
	struct np_sn_cpu *proc = NULL, *drop = NULL, *sq = NULL;
	const struct np_sn_cpu *hd = NULL, *hs = NULL;
	struct np_finding *f;
	struct np_cpuset tgt;
	enum np_severity sev = NP_SEV_INFO;
	unsigned ncpu = np_ncpu_online(s);
	double share = 0;
	int busy = -1;
	char mask[160], cpus[160], num[32];
	uint64_t flows;

	if (!np_src_ok(s, NP_SRC_SOFTNET) || !s->hs->softnet.n) {
		char why[160];

		np_skip(r, "/proc/net/softnet_stat %s",
			np_src_why(s, NP_SRC_SOFTNET, why, sizeof(why)));
		return;
	}
	if (!np_src_ok(s, NP_SRC_NETDEV) || !d->n_rxq) {
		single_cpu_rows_only(a, r, s->captured ? "queues/ not in this capture" :
					   "receive queues not readable");
		return;
	}
	for (size_t i = 0; i < d->n_rxq; i++) {
		if (!d->rxq[i].has_rps) {
			single_cpu_rows_only(a, r, "rps_cpus not readable (kernel without "
						   "CONFIG_RPS?)");
			return;
		}
		if (np_cpuset_count(&d->rxq[i].rps_cpus))
			return;		/* RPS already spreads this device */
	}
	if (ncpu < 2 || (!np_dev_is_virtual(s) && d->n_rxq != 1))
		return;
	if (np_sn_sampled(a)) {
		proc = np_sn_views(a, NP_SN_PROCESSED, true, &ptot);
		drop = np_sn_views(a, NP_SN_DROPPED, false, &dtot);
		sq = np_sn_views(a, NP_SN_SQUEEZE, false, &stot);
		if (!proc || !drop || !sq) {
			np_skip(r, "out of memory");
			goto out;
		}
		/* Below ~1000 packets/s a single CPU is not a bottleneck: judge configuration. */
		if (ptot.rate >= 1000) {
			share = 100.0 * (double)proc[0].v.delta / (double)ptot.delta;
			if (share <= np_thr_warn(r))
				goto out;
			busy = proc[0].cpu;
			hd = np_sn_find(drop, s->hs->softnet.n, busy);
			hs = np_sn_find(sq, s->hs->softnet.n, busy);
			if ((hd && hd->v.delta) || (hs && hs->v.delta))
				sev = NP_SEV_WARNING;
		}
	}
	if (busy < 0 && ncpu < 4)
		goto out;
	rps_targets(s, busy, &tgt);
	np_fmt_cpumask(&tgt, mask, sizeof(mask));
	if (busy >= 0)
		f = np_emit(r, sev, "%.0f%% of softnet packets (%s/s) run on CPU %d: %s has %s and "
			    "RPS is "
			    "off%s", share, np_fmt_num(ptot.rate, num, sizeof(num)), busy,
			    d->name,
			    !np_dev_is_virtual(s) ? "one receive queue" : "no hardware queues (virtual)",
			    sev == NP_SEV_WARNING ? ", and that CPU drops or squeezes" : "");
	else
		f = np_emit(r, NP_SEV_INFO, "%s has %s and RPS is off: its receive work lands on "
			    "one of %u CPUs", d->name, !np_dev_is_virtual(s) ? "one receive queue" :
			    "no hardware queues (virtual)", ncpu);
	if (!f)
		goto out;
	np_ev_value(f, "rx_queues", "queues", (double)d->n_rxq);
	np_ev_value(f, "cpus_online", "cpus", (double)ncpu);
	if (busy >= 0) {
		np_ev_value(f, "busiest_cpu_share", "%", share);
		np_ev_counter(f, "processed", "packets", &ptot);
		np_ev_counter(f, "busiest_cpu.processed", "packets", &proc[0].v);
		if (hd)
			np_ev_counter(f, "busiest_cpu.dropped", "packets", &hd->v);
		if (hs)
			np_ev_counter(f, "busiest_cpu.time_squeeze", "events", &hs->v);
		f->rank = hd ? hd->v.rate : 0;
	}
	np_detail(f, "Without several queues or RPS, one CPU does all of %s's protocol processing; "
		     "it saturates long before the link. softnet_stat is host-global, so other "
		     "traffic on that CPU counts too.", d->name);
	np_cpuset_format(&tgt, cpus, sizeof(cpus));
	if (d->n_rxq == 1)
		np_remedy(f, "echo %s > /sys/class/net/%s/queues/rx-0/rps_cpus   # CPUs %s", mask,
			  d->name, cpus);
	else
		np_remedy(f, "for q in /sys/class/net/%s/queues/rx-*; do echo %s > $q/rps_cpus; "
			     "done   # CPUs %s", d->name, mask, cpus);
	flows = 32768 / d->n_rxq;
	np_remedy(f, "sysctl -w net.core.rps_sock_flow_entries=32768; echo %llu > "
		     "/sys/class/net/%s/queues/rx-%s/rps_flow_cnt   # RFS: steer to the app's CPU",
		  (unsigned long long)flows, d->name, d->n_rxq == 1 ? "0" : "N");
	np_remedy(f, "Cost: an inter-CPU interrupt per batch and cache-line traffic; one single "
		     "flow still runs on one CPU (RPS hashes per flow).");
out:
	free(proc);
	free(drop);
	free(sq);
}

const struct np_check np_check_softnet_time_squeeze = {
	.id = "softnet.time-squeeze",
	.stage = NP_STAGE_SOFTNET,
	.scope = NP_SCOPE_HOST,
	.title = "NAPI budget or time exhausted (time_squeeze)",
	.looks_at = "/proc/net/softnet_stat column 3 (time_squeeze) and processed per CPU, "
		    "/proc/softirqs NET_RX, net.core.netdev_budget, net.core.netdev_budget_usecs",
	.why = "net_rx_action stops after netdev_budget packets (300) or netdev_budget_usecs "
	       "(2000 us at HZ=1000, 8000 at HZ=250) and counts a squeeze. It is not a drop: work "
	       "resumes in the next softirq or in ksoftirqd; packets are lost only if the ring "
	       "overflows meanwhile. Packets per NET_RX run tell which limit binds: near the "
	       "budget, the packet budget; far below, the time limit (slow per-packet work), "
	       "which a bigger budget does not fix. An occasional squeeze is normal.",
	.fix = "Raise net.core.netdev_budget (e.g. 600) when the packet budget binds, "
	       "netdev_budget_usecs (e.g. 4000) otherwise; both make softirq runs longer, "
	       "delaying other work on those CPUs. Slow per-packet work needs profiling.",
	.related = "net.core.netdev_budget, net.core.netdev_budget_usecs, net.core.dev_weight, "
		   "/sys/class/net/IF/threaded",
	.kernel_notes = "netdev_budget_usecs exists since 4.12; before, a run ends after a fixed 2 "
			"jiffies and only netdev_budget can be raised. Threaded NAPI (5.12+, "
			"/sys/class/net/IF/threaded) and busy polling bypass net_rx_action: their "
			"work never counts a squeeze.",
	.warn = 100, .crit = NAN, .thr_unit = "squeezes/s",
	.run = run_time_squeeze,
};

const struct np_check np_check_softnet_single_cpu = {
	.id = "softnet.single-cpu",
	.stage = NP_STAGE_SOFTNET,
	.scope = NP_SCOPE_HOST,
	.title = "All receive work on one CPU (single queue or virtual device, RPS off)",
	.looks_at = "/sys/class/net/IF/queues/rx-*/rps_cpus, the number of rx queues, softnet "
		    "processed/dropped/time_squeeze per CPU over the interval (since boot in a "
		    "capture); where the queues or rps_cpus are unknown (sosreports), the "
		    "softnet rows alone",
	.why = "A device with one receive queue (or a virtual device such as veth or a tunnel) "
	       "delivers every packet on one CPU unless RPS spreads them. That CPU caps the "
	       "interface's packet rate. It does not matter at low packet rates, on a one-CPU "
	       "machine, or for a single flow (RPS hashes per flow). Without the queue list "
	       "the rows still show one CPU doing the work, but not why: the finding then only "
	       "says the share and what to look at.",
	.fix = "Enable RPS with a mask of the other (NUMA-local) CPUs, optionally RFS; costs "
	       "inter-CPU interrupts and cache traffic.",
	.related = "rps_cpus, rps_flow_cnt, net.core.rps_sock_flow_entries, ethtool -L",
	.kernel_notes = "net.core.rps_default_mask (~6.2+) sets RPS for new devices.",
	.warn = 80, .crit = NAN, .thr_unit = "% of softnet packets on one CPU",
	.run = run_single_cpu,
};
