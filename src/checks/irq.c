// SPDX-License-Identifier: GPL-2.0-only
/* Stage "irq": where the device's queue interrupts are delivered, from procfs and sysfs. */
#include "irq_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Squeezes per second on the IRQ CPUs that count as "the IRQ CPUs are saturated". */
#define IRQ_SQUEEZE_BUSY 100.0

static bool cpuset_disjoint(const struct np_cpuset *a, const struct np_cpuset *b)
{
	for (size_t i = 0; i < NP_MAX_CPUS / 64; i++)
		if (a->w[i] & b->w[i])
			return false;
	return true;
}

/* ---- irq.affinity ---- */

static void run_affinity(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	struct np_cpuset to = np_irq_target_cpus(s);
	struct np_finding *f;
	enum np_severity sev = NP_SEV_OK;
	struct np_irq_sum q;
	unsigned ncpu = np_ncpu_online(s), ntgt = np_cpuset_count(&to), want;
	double drop_in = 0, drop_all = 0, sq_in = 0, sq_all = 0;
	bool hot = false, alone;
	char used[128], num[32], num2[32];

	if (!np_irq_usable(s, r, &q))
		return;
	if (ncpu < 2)
		return;
	/* Drops and squeezes on the IRQ CPUs vs everywhere: are the IRQ CPUs the bottleneck? */
	if (np_src_ok(s, NP_SRC_SOFTNET) && a->prev && a->dt > 0 && s->softnet.n) {
		struct np_counter_view dtot, ztot;
		struct np_sn_cpu *d = np_sn_views(a, NP_SN_DROPPED, false, &dtot);
		struct np_sn_cpu *z = np_sn_views(a, NP_SN_SQUEEZE, false, &ztot);

		if (!d || !z) {
			free(d);
			free(z);
			np_skip(r, "out of memory");
			return;
		}
		/* Unsorted views are in row order: d[i] and z[i] are the same CPU. */
		for (size_t i = 0; i < s->softnet.n; i++) {
			int cpu = d[i].cpu;

			drop_all += (double)d[i].v.delta;
			sq_all += (double)z[i].v.delta;
			if (cpu >= 0 && np_cpuset_has(&q.used, (unsigned)cpu)) {
				drop_in += (double)d[i].v.delta;
				sq_in += (double)z[i].v.delta;
			}
		}
		free(d);
		free(z);
		hot = q.nused < ncpu && drop_in + sq_in > 0 &&
		      drop_in + sq_in >= 0.8 * (drop_all + sq_all) &&
		      (drop_in / a->dt >= np_thr_warn(r) || sq_in / a->dt >= IRQ_SQUEEZE_BUSY);
	}
	want = (unsigned)q.nknown < ntgt ? (unsigned)q.nknown : ntgt;
	np_cpuset_format(&q.used, used, sizeof(used));
	if (hot) {
		sev = drop_in / a->dt >= np_thr_crit(r) ? NP_SEV_CRITICAL : NP_SEV_WARNING;
		f = np_emit(r, sev, "The %u CPUs serving %s's queue IRQs (CPUs %s of %u) take the "
			    "softnet load: %s drops/s, %s squeezes/s there", q.nused, s->dev.name,
			    used, ncpu, np_fmt_num(drop_in / a->dt, num, sizeof(num)),
			    np_fmt_num(sq_in / a->dt, num2, sizeof(num2)));
	} else if (q.nknown >= 2 && q.nused == 1) {
		sev = NP_SEV_WARNING;
		f = np_emit(r, sev, "All %zu queue IRQs of %s are delivered to CPU %s (of %u "
			    "online)", q.nknown, s->dev.name, used, ncpu);
	} else if (q.nused < want) {
		sev = q.nused * 2 <= want ? NP_SEV_WARNING : NP_SEV_INFO;
		f = np_emit(r, sev, "%zu queue IRQs of %s share %u CPUs (%s)", q.nknown,
			    s->dev.name, q.nused, used);
	} else {
		return;
	}
	if (!f)
		return;
	f->rank = drop_in / (a->dt > 0 ? a->dt : 1);
	np_ev_value(f, "queue_irqs", "irqs", (double)q.nq);
	np_ev_value(f, "irq_cpus", "cpus", (double)q.nused);
	np_ev_text(f, "irq_cpu_list", "%s", used);
	np_ev_value(f, "cpus_online", "cpus", (double)ncpu);
	if (hot) {
		np_ev_value(f, "softnet_drops_on_irq_cpus", "packets/s", drop_in / a->dt);
		np_ev_value(f, "time_squeeze_on_irq_cpus", "events/s", sq_in / a->dt);
	}
	alone = np_irq_alone(s);
	np_detail(f, "Each queue's interrupt and its NAPI softirq run on the CPU the IRQ is "
		     "delivered to%s, so the interface is capped by %u CPU%s.",
		  alone ? "" : "; queues sharing a CPU share its cycles", q.nused,
		  q.nused == 1 ? "" : "s");
	if (hot)
		np_detail(f, "Those CPUs carry %.0f%% of the host's softnet drops and squeezes: "
			     "more queues or CPUs for them is the fix, not bigger queues.",
			  100.0 * (drop_in + sq_in) / (drop_all + sq_all));
	if (s->host.irqbalance == 0)
		np_detail(f, "irqbalance is not running.");
	if (alone) {
		np_irq_more_queues_or_rps(f, s, &q, &to, ntgt);
		np_remedy(f, "Cost: more queues use more interrupts and ring memory (ethtool -L "
			     "resets the queues on many drivers); RPS costs an inter-CPU interrupt "
			     "per batch and cache-line traffic.");
		return;
	}
	if (hot && q.nq < ntgt)
		np_remedy(f, "ethtool -L %s combined %u   # one queue per NUMA-local CPU",
			  s->dev.name, ntgt);
	np_irq_pin_lines(f, s, &to, NULL, true);
	np_remedy(f, "Cost: none at run time; the pinned CPUs also run these queues' softirq "
		     "work, so keep latency-critical threads off them.");
}

/* ---- irq.cpu-rate ---- */

/* Fewer interrupts than these (per second sampled, or since boot) say nothing of a spread. */
#define CPU_RATE_MIN_RATE 100.0
#define CPU_RATE_MIN_BOOT 10000.0

/* Where the device's queue interrupts went, per CPU id. */
struct irq_spread {
	double *per;		/* per CPU id: interrupts (over the interval, or since boot) */
	size_t ncpu_idx;	/* length of per */
	double sum;
	size_t nq, nact;	/* queue IRQs; those that fired */
	int top[4];		/* busiest CPUs, -1 when fewer */
	bool sampled;
};

static const struct np_irq_line *prev_line(const struct np_snapshot *p, unsigned irq)
{
	for (size_t j = 0; p && j < p->irqs.n; j++)
		if (p->irqs.lines[j].irq == irq)
			return &p->irqs.lines[j];
	return NULL;
}

/* Interrupts of one line on CPU column c: the change since prev (sampled) or the total. */
static double line_count(const struct np_snapshot *p, const struct np_irq_line *pl,
			 const struct np_irq_line *l, size_t c, int cpu)
{
	if (!p)
		return (double)l->count[c];
	/* The previous column of the same CPU (hotplug moves columns). */
	for (size_t pc = 0; pl && pl->count && pc < p->irqs.ncols; pc++)
		if (p->irqs.col_cpu[pc] == cpu)
			return l->count[c] > pl->count[pc] ? (double)(l->count[c] - pl->count[pc]) : 0;
	return 0;
}

/* Fill sp from the interval when p is given, else from the since-boot counts. */
static bool irq_spread(const struct np_snapshot *s, const struct np_snapshot *p,
		       struct irq_spread *sp)
{
	const struct np_interrupts *ci = &s->irqs;

	memset(sp, 0, sizeof(*sp));
	sp->sampled = p != NULL;
	for (int k = 0; k < 4; k++)
		sp->top[k] = -1;
	for (size_t c = 0; c < ci->ncols; c++)
		if (ci->col_cpu[c] >= 0 && (size_t)ci->col_cpu[c] + 1 > sp->ncpu_idx)
			sp->ncpu_idx = (size_t)ci->col_cpu[c] + 1;
	for (size_t i = 0; i < ci->n; i++)
		sp->nq += np_irq_is_rxq(&ci->lines[i]);
	if (!sp->nq || !sp->ncpu_idx)
		return true;
	sp->per = calloc(sp->ncpu_idx, sizeof(*sp->per));
	if (!sp->per)
		return false;
	for (size_t i = 0; i < ci->n; i++) {
		const struct np_irq_line *l = &ci->lines[i], *pl = prev_line(p, l->irq);
		double ld = 0;

		if (!np_irq_is_rxq(l) || !l->count || (p && !pl))
			continue;
		for (size_t c = 0; c < ci->ncols; c++) {
			int cpu = ci->col_cpu[c];
			double n = cpu >= 0 ? line_count(p, pl, l, c, cpu) : 0;

			sp->per[cpu >= 0 ? cpu : 0] += n;
			ld += n;
		}
		sp->nact += ld > 0;
		sp->sum += ld;
	}
	for (int k = 0; k < 4; k++)
		for (size_t cpu = 0; cpu < sp->ncpu_idx; cpu++) {
			bool taken = false;

			for (int j = 0; j < k; j++)
				taken |= sp->top[j] == (int)cpu;
			if (!taken && sp->per[cpu] > 0 &&
			    (sp->top[k] < 0 || sp->per[cpu] > sp->per[sp->top[k]]))
				sp->top[k] = (int)cpu;
		}
	return true;
}

/* CPUs that took at least 5% of the device's queue interrupts. */
static unsigned busy_cpus(const struct irq_spread *sp)
{
	unsigned n = 0;

	for (size_t cpu = 0; cpu < sp->ncpu_idx; cpu++)
		n += sp->per[cpu] >= 0.05 * sp->sum;
	return n;
}

static void cpu_rate_evidence(struct np_finding *f, const struct irq_spread *sp, double dt,
			      double best)
{
	const char *unit = sp->sampled ? "interrupts/s" : "interrupts since boot";
	double div = sp->sampled ? dt : 1;

	np_ev_value(f, sp->sampled ? "interrupt_rate" : "interrupts_since_boot", unit,
		    sp->sum / div);
	np_ev_value(f, "busiest_cpu_share", "%", best);
	np_ev_value(f, "queue_irqs", "irqs", (double)sp->nq);
	np_ev_value(f, "active_queue_irqs", "irqs", (double)sp->nact);
	for (int k = 0; k < 4 && sp->top[k] >= 0; k++) {
		char key[48];

		snprintf(key, sizeof(key), "cpu%d.interrupts", sp->top[k]);
		np_ev_value(f, key, unit, sp->per[sp->top[k]] / div);
	}
}

/*
 * Without an interval (or when the interval saw too little traffic) the since-boot columns of
 * /proc/interrupts still show where the queues' interrupts went: info with that evidence, the
 * interval escalating as before.
 */
static void cpu_rate_since_boot(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	unsigned ncpu = np_ncpu_online(s), nbusy;
	struct irq_spread sp;
	struct np_finding *f;
	double best;
	char num[32];

	if (!irq_spread(s, NULL, &sp)) {
		np_skip(r, "out of memory");
		return;
	}
	if (!sp.nq) {
		np_irq_none(s, r);
		goto out;
	}
	if (sp.sum < CPU_RATE_MIN_BOOT || sp.top[0] < 0 || ncpu < 2)
		goto out;
	best = 100.0 * sp.per[sp.top[0]] / sp.sum;
	nbusy = busy_cpus(&sp);
	if (best > np_thr_warn(r))
		f = np_emit(r, NP_SEV_INFO, "Since boot %.0f%% of %s's queue interrupts (%zu queue "
			    "IRQ%s) landed on CPU %d of %u", best, s->dev.name, sp.nq,
			    sp.nq == 1 ? "" : "s", sp.top[0], ncpu);
	else if (sp.nq >= 2 && nbusy < sp.nq &&
		 4 * nbusy <= 3 * (sp.nq < ncpu ? sp.nq : ncpu))
		f = np_emit(r, NP_SEV_INFO, "Since boot %s's %zu queue IRQs landed on %u CPU%s of "
			    "%u", s->dev.name, sp.nq, nbusy, nbusy == 1 ? "" : "s", ncpu);
	else
		goto out;
	if (!f)
		goto out;
	cpu_rate_evidence(f, &sp, a->dt, best);
	np_detail(f, "These are counts since boot (%s interrupts in all), not a rate: they show "
		     "where the queues have been served, not whether that CPU is saturated now. "
		     "Sample an interval (--interval 5, or a second capture with --before) to see "
		     "whether it still holds.", np_fmt_num(sp.sum, num, sizeof(num)));
	if (sp.nq == 1)
		np_detail(f, "%s has one queue IRQ: all its receive interrupts and NAPI polling run "
			     "on one CPU (softnet.single-cpu says whether RPS spreads the protocol "
			     "work).", s->dev.name);
	else {
		struct np_cpuset to = np_irq_target_cpus(s);

		np_irq_pin_lines(f, s, &to, NULL, false);
		np_remedy(f, "Cost: none at run time; the pinned CPUs also run these queues' "
			     "softirq work.");
	}
out:
	free(sp.per);
}

static void run_cpu_rate(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur, *p = a->prev;
	struct irq_spread sp;
	struct np_finding *f;
	double best = 0;
	char num[32];

	if (!np_src_ok(s, NP_SRC_INTERRUPTS) || (p && !np_src_ok(p, NP_SRC_INTERRUPTS))) {
		char why[160];

		np_skip(r, "/proc/interrupts %s", np_src_why(s, NP_SRC_INTERRUPTS, why,
							     sizeof(why)));
		return;
	}
	if (!p || a->dt <= 0) {
		if (!s->irqs.n)
			np_irq_none(s, r);
		else
			cpu_rate_since_boot(a, r);
		return;
	}
	if (!irq_spread(s, p, &sp)) {
		np_skip(r, "out of memory");
		return;
	}
	if (!sp.nq || !sp.ncpu_idx) {
		np_irq_none(s, r);
		goto out;
	}
	/* Too idle over the interval to say anything: what since boot shows is still true. */
	if (sp.nq < 2 || sp.sum / a->dt < CPU_RATE_MIN_RATE) {
		free(sp.per);
		cpu_rate_since_boot(a, r);
		return;
	}
	best = 100.0 * sp.per[sp.top[0]] / sp.sum;
	if (best <= np_thr_warn(r))
		goto out;
	if (sp.nact >= 2)
		f = np_emit(r, NP_SEV_WARNING, "%.0f%% of %s's queue interrupts (%s/s from %zu "
			    "active IRQs) land on CPU %d", best, s->dev.name,
			    np_fmt_num(sp.sum / a->dt, num, sizeof(num)), sp.nact, sp.top[0]);
	else
		f = np_emit(r, NP_SEV_INFO, "Only one of %s's %zu queue IRQs is active (%s/s on "
			    "CPU %d): the traffic hashes to one queue", s->dev.name, sp.nq,
			    np_fmt_num(sp.sum / a->dt, num, sizeof(num)), sp.top[0]);
	if (!f)
		goto out;
	cpu_rate_evidence(f, &sp, a->dt, best);
	if (sp.nact >= 2) {
		struct np_cpuset to = np_irq_target_cpus(s);

		np_detail(f, "Several queues are busy but their interrupts and NAPI polling all "
			     "run on one CPU, which caps the interface at what that CPU can "
			     "process.");
		np_irq_pin_lines(f, s, &to, NULL, false);
		np_remedy(f, "Cost: none at run time; the pinned CPUs also run these queues' "
			     "softirq work.");
	} else {
		np_detail(f, "RSS puts each flow on one queue: a single large flow (or UDP hashed "
			     "on addresses only) keeps one queue and one CPU busy. Moving IRQs "
			     "does "
			     "not help; more flows, RSS hash fields, or RPS for the protocol work "
			     "do.");
		np_remedy(f, "ethtool -n %s rx-flow-hash udp4   # check which fields are hashed",
			  s->dev.name);
		np_remedy(f, "ethtool -N %s rx-flow-hash udp4 sdfn   # hash UDP on ports too",
			  s->dev.name);
		np_remedy(f, "Cost: port hashing sends fragments of one datagram to different "
			     "queues (reordering).");
	}
out:
	free(sp.per);
}

/* ---- irq.numa ---- */

static void run_numa(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	struct np_cpuset local = np_irq_target_cpus(s), on = np_online_cpus(s);
	struct np_finding *f;
	struct np_irq_sum q;
	bool *remote;
	size_t nr = 0, shown = 0;
	char lc[128];

	if (!np_irq_usable(s, r, &q))
		return;
	if (!s->dev.has_local_cpus) {
		np_skip(r, "NUMA locality of %s unknown (no device/local_cpulist)", s->dev.name);
		return;
	}
	/* One NUMA node (local = every online CPU): nothing can be remote. */
	if (np_cpuset_subset(&on, &local))
		return;
	remote = calloc(s->irqs.n, sizeof(*remote));
	if (!remote) {
		np_skip(r, "out of memory");
		return;
	}
	for (size_t i = 0; i < s->irqs.n; i++) {
		const struct np_irq_line *l = &s->irqs.lines[i];
		const struct np_cpuset *c = np_irq_cpus(l);

		if (!np_irq_is_rxq(l) || !c)
			continue;
		/* Effective affinity is where delivery goes; a plain mask only proves remoteness
		 * when none of its CPUs is local. */
		remote[i] = c == &l->effective ? !np_cpuset_subset(c, &local) :
			    cpuset_disjoint(c, &local);
		nr += remote[i];
	}
	if (!nr)
		goto out;
	np_cpuset_format(&local, lc, sizeof(lc));
	if (s->dev.numa_node >= 0)
		f = np_emit(r, NP_SEV_WARNING, "%zu of %zu queue IRQs of %s run outside its NUMA "
			    "node %lld (local CPUs %s)", nr, q.nknown, s->dev.name,
			    (long long)s->dev.numa_node, lc);
	else
		f = np_emit(r, NP_SEV_WARNING, "%zu of %zu queue IRQs of %s run outside its local "
			    "CPUs %s", nr, q.nknown, s->dev.name, lc);
	if (!f)
		goto out;
	np_ev_value(f, "remote_irqs", "irqs", (double)nr);
	np_ev_value(f, "numa_node", "", (double)s->dev.numa_node);
	np_ev_text(f, "local_cpus", "%s", lc);
	for (size_t i = 0; i < s->irqs.n && shown < 6; i++) {
		char key[48], cpus[96];

		if (!remote[i])
			continue;
		snprintf(key, sizeof(key), "irq%u", s->irqs.lines[i].irq);
		np_cpuset_format(np_irq_cpus(&s->irqs.lines[i]), cpus, sizeof(cpus));
		np_ev_text(f, key, "%s on CPU %s", s->irqs.lines[i].name, cpus);
		shown++;
	}
	np_detail(f, "The NIC writes packets into memory of its own node; a remote CPU reads them "
		     "across the interconnect, typically costing 20-40%% of throughput at high "
		     "packet rates. The application's CPU matters the same way.");
	np_irq_pin_lines(f, s, &local, remote, false);
	np_remedy(f, "Cost: none at run time; keep the receiving application on the same node "
		     "(numactl --cpunodebind=%lld) to benefit fully.",
		  (long long)(s->dev.numa_node >= 0 ? s->dev.numa_node : 0));
out:
	free(remote);
}

/* ---- irq.irqbalance ---- */

static void run_irqbalance(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	struct np_finding *f;
	struct np_irq_sum q;
	char used[128];

	if (s->host.irqbalance < 0) {
		np_skip(r, "whether irqbalance runs is unknown");
		return;
	}
	if (s->host.irqbalance == 1) {
		f = np_emit(r, NP_SEV_INFO, "irqbalance is running and manages IRQ affinity");
		np_ev_value(f, "irqbalance", "", 1);
		np_detail(f, "Its default placement is fine for most hosts. It rewrites "
			     "smp_affinity periodically, so manual pinning of %s's IRQs is undone "
			     "unless those IRQs are banned from it.", s->dev.name);
		np_remedy(f, "IRQBALANCE_ARGS=\"--banirq=N\" in /etc/default/irqbalance (or "
			     "/etc/sysconfig/irqbalance) for IRQs you pin by hand.");
		np_remedy(f, "Cost: banned IRQs no longer follow CPU hotplug or load changes.");
		return;
	}
	if (!np_src_ok(s, NP_SRC_INTERRUPTS))
		return;
	q = np_irq_summary(s);
	if (q.nknown < 2 || q.nused * 2 > q.nknown || q.nused >= np_ncpu_online(s))
		return;
	np_cpuset_format(&q.used, used, sizeof(used));
	f = np_emit(r, NP_SEV_INFO, "irqbalance is not running and %zu queue IRQs of %s sit on %u "
		    "CPU%s (%s)", q.nknown, s->dev.name, q.nused, q.nused == 1 ? "" : "s", used);
	np_ev_value(f, "irqbalance", "", 0);
	np_ev_value(f, "queue_irqs", "irqs", (double)q.nknown);
	np_ev_value(f, "irq_cpus", "cpus", (double)q.nused);
	np_detail(f, "Nothing spreads the IRQs: they stay where the driver or the kernel put them "
		     "(often CPU 0). Either pin them by hand (irq.affinity) or run irqbalance.");
	np_remedy(f, "systemctl enable --now irqbalance");
	np_remedy(f, "Cost: a small daemon; it moves IRQs periodically, which can fight manual "
		     "pinning and latency-tuned setups.");
}

const struct np_check np_check_irq_affinity = {
	.id = "irq.affinity",
	.stage = NP_STAGE_IRQ,
	.scope = NP_SCOPE_HOST,
	.title = "Queue IRQs concentrated on few CPUs",
	.looks_at = "/proc/interrupts lines of the device's RX/TxRx queues, "
		    "/proc/irq/N/effective_affinity_list (else smp_affinity_list), softnet drops "
		    "and time_squeeze per CPU",
	.why = "A queue's hard IRQ and its NAPI softirq run on the CPU the IRQ is delivered to. "
	       "If all queues land on one CPU, or only a few of many CPUs serve them while those "
	       "CPUs drop or squeeze, that handful of CPUs caps the interface. A single-queue "
	       "device is inevitably on one CPU (see softnet.single-cpu); at low packet rates "
	       "placement does not matter.",
	.fix = "Pin each queue IRQ to its own NUMA-local CPU (echo CPU > "
	       "/proc/irq/N/smp_affinity_list) or add queues (ethtool -L); irqbalance may "
	       "rewrite manual pinning; managed IRQs reject writes.",
	.related = "/proc/irq/N/smp_affinity_list, irqbalance, ethtool -L",
	.kernel_notes = "effective_affinity exists since 4.13. Drivers using managed IRQs "
			"(nvme-like allocation, many modern NICs) spread IRQs themselves and "
			"refuse affinity writes (EIO).",
	.warn = 1, .crit = 100, .thr_unit = "softnet drops/s on the IRQ CPUs",
	.run = run_affinity,
};

const struct np_check np_check_irq_cpu_rate = {
	.id = "irq.cpu-rate",
	.stage = NP_STAGE_IRQ,
	.scope = NP_SCOPE_HOST,
	.title = "Queue interrupts landing on one CPU",
	.looks_at = "per-CPU counts of the device's queue IRQs in /proc/interrupts: their change "
		    "over the interval, else (no interval, a single capture, an idle interval) "
		    "their totals since boot",
	.why = "Measures where the interrupts actually went. Several busy queues interrupting "
	       "one CPU means an affinity problem; one busy queue means the traffic hashes to "
	       "one queue (a single flow, or UDP hashed on addresses only), which moving IRQs "
	       "does not fix. Since-boot totals alone (>= 90% on one CPU, or the queues on at "
	       "most three quarters of the CPUs they could use) are reported as info: they say "
	       "where the queues were served, not "
	       "that the CPU is saturated now; the interval escalates to a warning.",
	.fix = "Spread the IRQs over NUMA-local CPUs; for one hot queue, more flows, RSS hash "
	       "fields (ethtool -N rx-flow-hash) or RPS.",
	.related = "/proc/irq/N/smp_affinity_list, ethtool -N rx-flow-hash, ethtool -X",
	.warn = 90, .crit = NAN, .thr_unit = "% of the device's interrupts on one CPU",
	.run = run_cpu_rate,
};

const struct np_check np_check_irq_numa = {
	.id = "irq.numa",
	.stage = NP_STAGE_IRQ,
	.scope = NP_SCOPE_HOST,
	.title = "Queue IRQs on CPUs of another NUMA node",
	.looks_at = "/sys/class/net/IF/device/{numa_node,local_cpulist}, effective affinity of the "
		    "queue IRQs",
	.why = "The NIC DMAs into memory of its own NUMA node. A CPU of another node handling the "
	       "queue reads every packet across the interconnect, typically 20-40% less "
	       "throughput at high rates. Irrelevant on single-socket machines.",
	.fix = "Pin the queue IRQs (and ideally the application) to the NIC's local CPUs.",
	.related = "/proc/irq/N/smp_affinity_list, numactl, irqbalance",
	.warn = NAN, .crit = NAN,
	.run = run_numa,
};

const struct np_check np_check_irq_irqbalance = {
	.id = "irq.irqbalance",
	.stage = NP_STAGE_IRQ,
	.scope = NP_SCOPE_HOST,
	.title = "irqbalance state",
	.looks_at = "whether irqbalance runs (systemd's irqbalance.service cgroup, else every "
		    "/proc/PID/comm, bounded to 50,000 processes and 0.25 s), queue IRQ placement",
	.why = "irqbalance spreads IRQs over CPUs and is a fine default; it periodically "
	       "rewrites affinity, undoing hand pinning of IRQs not banned from it. Without it, "
	       "IRQs stay wherever the driver put them, often all on CPU 0.",
	.fix = "Run irqbalance, or pin by hand and ban pinned IRQs from irqbalance.",
	.related = "irqbalance --banirq, IRQBALANCE_BANNED_CPULIST",
	.warn = NAN, .crit = NAN,
	.run = run_irqbalance,
};
