// SPDX-License-Identifier: GPL-2.0-only
/* Stage "irq": where the queue interrupts of the device went, per CPU (/proc/interrupts). */
#include "irq_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Fewer interrupts than these (per second sampled, or since boot) say nothing of a spread. */
#define CPU_RATE_MIN_RATE 100.0
#define CPU_RATE_MIN_BOOT 10000.0

/* Where the device's queue interrupts went, per CPU id. */
struct irq_spread {
	double *per;		/* per CPU id: interrupts (over the interval, or since boot) */
	size_t ncpu_idx;	/* length of per */
	double sum;
	size_t nq, nact;	/* queue IRQs; those that fired */
	size_t nbusyq;		/* queue IRQs with 5% of the interrupts or more */
	double *line;		/* per line of /proc/interrupts: its queue interrupts */
	int topq;		/* the busiest queue IRQ's line, -1 when none fired */
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

/* Interrupts of one line per CPU column into sp->per: the change since pl (sampled; a 32-bit
 * count that went down wrapped once, as the kernel's do) or the total. cur and prev are
 * scratch rows of ci->ncols and p->irqs.ncols counts. */
static double line_counts(const struct np_interrupts *ci, const struct np_snapshot *p,
			  const struct np_irq_line *pl, const struct np_irq_line *l,
			  const int *pcol, uint32_t *cur, uint32_t *prev, struct irq_spread *sp)
{
	double ld = 0;

	np_irq_counts(l, cur, ci->ncols);
	if (p)
		np_irq_counts(pl, prev, p->irqs.ncols);
	for (size_t c = 0; c < ci->ncols; c++) {
		int cpu = ci->col_cpu[c], pc = cpu >= 0 && pcol ? pcol[cpu] : -1;
		double n;

		if (cpu < 0)
			continue;
		if (!p)
			n = cur[c];
		else if (pc >= 0)	/* a CPU without a previous column has no baseline */
			n = (uint32_t)(cur[c] - prev[pc]);
		else
			n = 0;
		sp->per[cpu] += n;
		ld += n;
	}
	return ld;
}

/* Fill sp from the interval when p is given, else from the since-boot counts. */
static bool irq_spread(const struct np_snapshot *s, const struct np_snapshot *p,
		       struct irq_spread *sp)
{
	const struct np_interrupts *ci = &s->irqs;
	uint32_t *cur = NULL, *prev = NULL;
	int *pcol = NULL;
	bool ok = false;

	memset(sp, 0, sizeof(*sp));
	sp->sampled = p != NULL;
	sp->topq = -1;
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
	sp->line = calloc(ci->n, sizeof(*sp->line));
	cur = malloc(ci->ncols * sizeof(*cur));
	prev = malloc((p && p->irqs.ncols ? p->irqs.ncols : 1) * sizeof(*prev));
	/* Columns matched by CPU id in one pass (hotplug moves columns): a search per column
	 * was 8 million steps a line at 4096 CPUs. */
	pcol = p ? np_irq_cpu_columns(&p->irqs, sp->ncpu_idx) : NULL;
	if (!sp->per || !sp->line || !cur || !prev || (p && !pcol))
		goto out;
	for (size_t i = 0; i < ci->n; i++) {
		const struct np_irq_line *l = &ci->lines[i], *pl = prev_line(p, l->irq);
		double ld;

		if (!np_irq_is_rxq(l) || (p && !pl))
			continue;
		ld = line_counts(ci, p, pl, l, pcol, cur, prev, sp);
		sp->nact += ld > 0;
		sp->sum += ld;
		sp->line[i] = ld;
		if (ld > 0 && (sp->topq < 0 || ld > sp->line[sp->topq]))
			sp->topq = (int)i;
	}
	for (size_t i = 0; i < ci->n; i++)
		sp->nbusyq += sp->sum > 0 && sp->line[i] >= 0.05 * sp->sum;
	for (int k = 0; k < 4; k++)
		for (size_t cpu = 0; cpu < sp->ncpu_idx; cpu++) {
			bool taken = false;

			for (int j = 0; j < k; j++)
				taken |= sp->top[j] == (int)cpu;
			if (!taken && sp->per[cpu] > 0 &&
			    (sp->top[k] < 0 || sp->per[cpu] > sp->per[sp->top[k]]))
				sp->top[k] = (int)cpu;
		}
	ok = true;
out:
	if (!ok) {
		free(sp->per);
		free(sp->line);
		sp->per = NULL;
		sp->line = NULL;
	}
	free(cur);
	free(prev);
	free(pcol);
	return ok;
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

static void spread_free(struct irq_spread *sp)
{
	free(sp->per);
	free(sp->line);
	sp->per = NULL;
	sp->line = NULL;
}

/* The busiest queue IRQ's share of the device's queue interrupts, in %. */
static double queue_share(const struct irq_spread *sp)
{
	return sp->topq >= 0 && sp->sum > 0 ? 100.0 * sp->line[sp->topq] / sp->sum : 0;
}

static void queue_evidence(struct np_finding *f, const struct np_snapshot *s,
			   const struct irq_spread *sp)
{
	const struct np_irq_line *l = &s->irqs.lines[sp->topq];

	np_ev_value(f, "busiest_queue_irq", "", (double)l->irq);
	np_ev_text(f, "busiest_queue_irq_name", "%s", l->name);
	np_ev_value(f, "busiest_queue_share", "%", queue_share(sp));
	np_ev_value(f, "busy_queue_irqs", "irqs", (double)sp->nbusyq);
}

/*
 * Several busy queues whose interrupts share CPUs: the placement is the cause, so the remedy
 * pins them, moving only IRQs that are not alone on a target CPU already. When the affinity in
 * force already gives each one a CPU of its own, nothing is proposed: the counts predate it.
 */
static void placement_fix(struct np_finding *f, const struct np_snapshot *s)
{
	struct np_cpuset to = np_irq_target_cpus(s);

	if (np_irq_pin_lines(f, s, &to, NULL, true))
		np_remedy(f, "Cost: none at run time; the pinned CPUs also run these queues' "
			     "softirq work.");
	else
		np_detail(f, "Their affinity in force already puts each queue IRQ on a CPU of its "
			     "own (smp_affinity_list): these counts predate that placement, so there "
			     "is nothing to move; sample an interval to see the present spread.");
}

/*
 * Without an interval (or when the interval saw too little traffic) the since-boot columns of
 * /proc/interrupts still show where the queues' interrupts went: info with that evidence, the
 * interval escalating as before. One queue IRQ, one busy queue among several, and busy queues
 * sharing CPUs are told apart: only the last is a placement problem.
 */
static void cpu_rate_since_boot(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	unsigned ncpu = np_ncpu_online(s), nbusy;
	struct irq_spread sp;
	struct np_finding *f;
	double best, qs;
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
	qs = queue_share(&sp);
	nbusy = busy_cpus(&sp);
	if (sp.nq == 1 && best > np_thr_warn(r))
		f = np_emit(r, NP_SEV_INFO, "Since boot %.0f%% of %s's queue interrupts (1 queue "
			    "IRQ) landed on CPU %d of %u", best, s->dev.name, sp.top[0], ncpu);
	else if (sp.nq >= 2 && qs > np_thr_warn(r))
		f = np_emit(r, NP_SEV_INFO, "Since boot %.0f%% of %s's queue interrupts came from "
			    "one of its %zu queue IRQs (%s): the traffic lands in one queue", qs,
			    s->dev.name, sp.nq, s->irqs.lines[sp.topq].name);
	else if (sp.nq >= 2 && sp.nbusyq > nbusy && best > np_thr_warn(r))
		f = np_emit(r, NP_SEV_INFO, "Since boot %.0f%% of %s's queue interrupts (%zu queue "
			    "IRQs) landed on CPU %d of %u", best, s->dev.name, sp.nq, sp.top[0], ncpu);
	else if (sp.nq >= 2 && sp.nbusyq > nbusy && nbusy < sp.nq &&
		 4 * nbusy <= 3 * (sp.nq < ncpu ? sp.nq : ncpu))
		f = np_emit(r, NP_SEV_INFO, "Since boot %s's %zu busy queue IRQs landed on %u CPU%s "
			    "of %u", s->dev.name, sp.nbusyq, nbusy, nbusy == 1 ? "" : "s", ncpu);
	else
		goto out;
	if (!f)
		goto out;
	cpu_rate_evidence(f, &sp, a->dt, best);
	if (sp.nq >= 2)
		queue_evidence(f, s, &sp);
	np_detail(f, "These are counts since boot (%s interrupts in all), not a rate: they show "
		     "where the queues have been served, not whether that CPU is saturated now. "
		     "Sample an interval (--interval 5, or a second capture with --before) to see "
		     "whether it still holds.", np_fmt_num(sp.sum, num, sizeof(num)));
	if (sp.nq == 1)
		np_irq_single_queue_fix(f, s);
	else if (qs > np_thr_warn(r))
		np_irq_one_queue_fix(f, s, sp.top[0]);
	else
		placement_fix(f, s);
out:
	spread_free(&sp);
}

static void run_cpu_rate(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur, *p = a->prev;
	struct irq_spread sp;
	struct np_finding *f;
	double best = 0, qs;
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
		spread_free(&sp);
		cpu_rate_since_boot(a, r);
		return;
	}
	best = 100.0 * sp.per[sp.top[0]] / sp.sum;
	qs = queue_share(&sp);
	if (qs > np_thr_warn(r) && sp.nact < 2)
		f = np_emit(r, NP_SEV_INFO, "Only one of %s's %zu queue IRQs is active (%s/s on "
			    "CPU %d): the traffic hashes to one queue", s->dev.name, sp.nq,
			    np_fmt_num(sp.sum / a->dt, num, sizeof(num)), sp.top[0]);
	else if (qs > np_thr_warn(r))
		f = np_emit(r, NP_SEV_INFO, "%.0f%% of %s's queue interrupts (%s/s) come from one "
			    "of its %zu queue IRQs (%s): the traffic lands in one queue", qs,
			    s->dev.name, np_fmt_num(sp.sum / a->dt, num, sizeof(num)), sp.nq,
			    s->irqs.lines[sp.topq].name);
	else if (best > np_thr_warn(r) && sp.nbusyq > busy_cpus(&sp))
		f = np_emit(r, NP_SEV_WARNING, "%.0f%% of %s's queue interrupts (%s/s from %zu "
			    "busy IRQs) land on CPU %d", best, s->dev.name,
			    np_fmt_num(sp.sum / a->dt, num, sizeof(num)), sp.nbusyq, sp.top[0]);
	else
		goto out;
	if (!f)
		goto out;
	cpu_rate_evidence(f, &sp, a->dt, best);
	queue_evidence(f, s, &sp);
	if (qs > np_thr_warn(r)) {
		np_irq_one_queue_fix(f, s, sp.top[0]);
	} else {
		np_detail(f, "Several queues are busy but their interrupts and NAPI polling all "
			     "run on one CPU, which caps the interface at what that CPU can "
			     "process.");
		placement_fix(f, s);
	}
out:
	spread_free(&sp);
}

const struct np_check np_check_irq_cpu_rate = {
	.id = "irq.cpu-rate",
	.stage = NP_STAGE_IRQ,
	.scope = NP_SCOPE_HOST,
	.title = "Queue interrupts landing on one CPU",
	.looks_at = "per-CPU counts of the device's queue IRQs in /proc/interrupts: their change "
		    "over the interval, else (no interval, a single capture, an idle interval) "
		    "their totals since boot",
	.why = "Measures where the interrupts actually went, and tells three causes apart. "
	       "Several busy queues interrupting one CPU: the placement (affinity, irqbalance), "
	       "fixed by pinning. One queue carrying more than the threshold of the interrupts "
	       "while others exist: the traffic or the RSS hash (one flow, UDP hashed on "
	       "addresses only, PPPoE or tunnels hashed on the outer header), which moving IRQs "
	       "does not fix. One queue IRQ in all: the channel count (or the hypervisor's, for "
	       "virtio_net, vmxnet3, hv_netvsc). Since-boot totals alone are reported as info: "
	       "they say where the queues were served, not that the CPU is saturated now; the "
	       "interval escalates busy queues sharing a CPU to a warning.",
	.fix = "Busy queues sharing a CPU: pin them to NUMA-local CPUs of their own (IRQs "
	       "already alone on one stay). One busy queue: RSS hash fields (ethtool -N "
	       "rx-flow-hash), more flows, or RPS. One queue: ethtool -L, or the VM's queue count.",
	.related = "/proc/irq/N/smp_affinity_list, ethtool -N rx-flow-hash, ethtool -X",
	.warn = 90, .crit = NAN,
	.thr_unit = "% of the device's interrupts on one CPU, or from one queue IRQ",
	.run = run_cpu_rate,
};
