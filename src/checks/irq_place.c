// SPDX-License-Identifier: GPL-2.0-only
/* Stage "irq": where the device's queue IRQs are delivered and where they should go. */
#include "irq_priv.h"

#include <string.h>

/* How many concrete "echo CPU > /proc/irq/N/smp_affinity_list" lines a remedy lists. */
#define IRQ_REMEDY_LINES 8
/* IRQ names up to this length are repeated as a comment on the remedy line. */
#define IRQ_REMEDY_NAME 24

static void cpuset_and(struct np_cpuset *dst, const struct np_cpuset *src)
{
	for (size_t i = 0; i < NP_MAX_CPUS / 64; i++)
		dst->w[i] &= src->w[i];
}

/* Where the queues should go: the NIC's NUMA-local online CPUs, or all online CPUs. */
struct np_cpuset np_irq_target_cpus(const struct np_snapshot *s)
{
	struct np_cpuset on = np_online_cpus(s), t = on;

	if (s->dev.has_local_cpus) {
		cpuset_and(&t, &s->dev.local_cpus);
		if (!np_cpuset_count(&t))
			t = on;
	}
	return t;
}

/* The n-th CPU of a set, wrapping around. */
static int nth_cpu(const struct np_cpuset *s, unsigned n)
{
	unsigned cnt = np_cpuset_count(s), k = 0;

	if (!cnt)
		return -1;
	n %= cnt;
	for (int cpu = 0; cpu < NP_MAX_CPUS; cpu++)
		if (np_cpuset_has(s, (unsigned)cpu) && k++ == n)
			return cpu;
	return -1;
}

struct np_irq_sum np_irq_summary(const struct np_snapshot *s)
{
	struct np_irq_sum q = { 0 };

	for (size_t i = 0; i < s->irqs.n; i++) {
		const struct np_irq_line *l = &s->irqs.lines[i];
		const struct np_cpuset *c = np_irq_cpus(l);

		if (!np_irq_is_rxq(l))
			continue;
		q.nq++;
		if (!c)
			continue;
		q.nknown++;
		np_cpuset_or(&q.used, c);
	}
	q.nused = np_cpuset_count(&q.used);
	return q;
}

void np_irq_none(const struct np_snapshot *s, struct np_report *r)
{
	const char *ifn = s->dev.name, *drv = np_snapshot_driver(s);

	if (np_src_ok(s, NP_SRC_NETDEV) && np_dev_is_virtual(s))
		np_not_applicable(r, "%s is a virtual device: no IRQ of its own (its packets are "
				  "processed in the softirq of the CPU that queued them)", ifn);
	else if (!strcmp(drv, "hv_netvsc"))
		np_not_applicable(r, "hv_netvsc receives through VMBus channel interrupts (the "
				  "HYP row of /proc/interrupts), not IRQs of its own");
	else if (s->irqs.n)
		np_skip(r, "the %zu IRQs of %s are all management vectors (%s...): no queue IRQ "
			   "found", s->irqs.n, ifn, s->irqs.lines[0].name);
	else
		np_skip(r, "no IRQ of %s found%s (no device/msi_irqs or device/irq, no /proc/irq/N "
			   "handler and no /proc/interrupts name matching it)", ifn,
			s->captured ? " in this capture" : "");
}

/* Common skips of the affinity-based checks; true when the check can go on. */
bool np_irq_usable(const struct np_snapshot *s, struct np_report *r, struct np_irq_sum *q)
{
	if (!np_src_ok(s, NP_SRC_INTERRUPTS)) {
		char why[160];

		np_skip(r, "/proc/interrupts %s", np_src_why(s, NP_SRC_INTERRUPTS, why,
							     sizeof(why)));
		return false;
	}
	*q = np_irq_summary(s);
	if (!q->nq) {
		np_irq_none(s, r);
		return false;
	}
	if (!np_src_ok(s, NP_SRC_IRQ_AFFINITY) || !q->nknown) {
		np_skip(r, "IRQ affinity %s (/proc/irq/N/smp_affinity_list)",
			s->captured ? "not in this capture" : "not readable");
		return false;
	}
	return true;
}

/* The only CPU an IRQ is delivered to, or -1 when unknown or several. */
static int single_cpu(const struct np_irq_line *l)
{
	const struct np_cpuset *c = np_irq_cpus(l);

	return c && np_cpuset_count(c) == 1 ? nth_cpu(c, 0) : -1;
}

/* The first CPU of 'to' not in 'used' (and marks it used), or -1 when all are taken. */
static int next_free(const struct np_cpuset *to, struct np_cpuset *used)
{
	for (int cpu = 0; cpu < NP_MAX_CPUS; cpu++)
		if (np_cpuset_has(to, (unsigned)cpu) && !np_cpuset_has(used, (unsigned)cpu)) {
			np_cpuset_set(used, (unsigned)cpu);
			return cpu;
		}
	return -1;
}

/*
 * Remedy lines pinning the given queue IRQs (only: NULL = all) round-robin over 'to'. With
 * 'keep', an IRQ already alone on a CPU of 'to' stays there, the others take the CPUs no queue
 * IRQ uses yet, and only IRQs that actually move get a line. Returns the lines written.
 */
unsigned np_irq_pin_lines(struct np_finding *f, const struct np_snapshot *s,
			  const struct np_cpuset *to, const bool *only, bool keep)
{
	struct np_cpuset used = { 0 };
	unsigned k = 0, shown = 0, left = 0;
	char cpus[128];

	for (size_t i = 0; keep && i < s->irqs.n; i++) {
		int cpu = single_cpu(&s->irqs.lines[i]);

		if (np_irq_is_rxq(&s->irqs.lines[i]) && cpu >= 0 && np_cpuset_has(to, (unsigned)cpu))
			np_cpuset_set(&used, (unsigned)cpu);
	}
	for (size_t i = 0; i < s->irqs.n; i++) {
		const struct np_irq_line *l = &s->irqs.lines[i];
		bool named = strlen(l->name) <= IRQ_REMEDY_NAME;
		int cur = single_cpu(l), dst = -1;

		if (!np_irq_is_rxq(l) || (only && !only[i]))
			continue;
		if (keep) {
			/* The first IRQ on a CPU keeps it; later ones sharing it move. */
			for (size_t j = 0; j < i && cur >= 0; j++)
				if (np_irq_is_rxq(&s->irqs.lines[j]) && single_cpu(&s->irqs.lines[j]) == cur)
					cur = -2;
			if (cur >= 0 && np_cpuset_has(to, (unsigned)cur))
				continue;
			dst = next_free(to, &used);
		}
		if (dst < 0)
			dst = nth_cpu(to, k++);
		if (keep && dst == single_cpu(l))
			continue;
		if (shown < IRQ_REMEDY_LINES)
			np_remedy(f, "echo %d > /proc/irq/%u/smp_affinity_list%s%s", dst, l->irq,
				  named ? "   # " : "", named ? l->name : "");
		else
			left++;
		shown++;
	}
	np_cpuset_format(to, cpus, sizeof(cpus));
	if (left)
		np_remedy(f, "... and %u more IRQs the same way, round-robin over CPUs %s", left,
			  cpus);
	if (!shown)
		return 0;
	if (s->hs->host.irqbalance == 1)
		np_remedy(f, "irqbalance runs and will move them again: ban these IRQs "
			     "(IRQBALANCE_ARGS=--banirq=N) or stop it.");
	np_remedy(f, "A write failing with 'Input/output error' means a kernel-managed IRQ: change "
		     "the channel count instead (ethtool -L %s combined N).", s->dev.name);
	return shown;
}

/* Every queue IRQ is delivered to one CPU of its own: no two share a CPU. */
bool np_irq_alone(const struct np_snapshot *s)
{
	struct np_cpuset seen = { 0 };

	for (size_t i = 0; i < s->irqs.n; i++) {
		int cpu = single_cpu(&s->irqs.lines[i]);

		if (!np_irq_is_rxq(&s->irqs.lines[i]))
			continue;
		if (cpu < 0 || np_cpuset_has(&seen, (unsigned)cpu))
			return false;
		np_cpuset_set(&seen, (unsigned)cpu);
	}
	return true;
}

/* Pinning cannot spread IRQs that each own a CPU: more queues or RPS can. */
void np_irq_more_queues_or_rps(struct np_finding *f, const struct np_snapshot *s,
			       const struct np_irq_sum *q, const struct np_cpuset *to, unsigned ntgt)
{
	struct np_cpuset rps = *to;
	char mask[160], cpus[128];

	for (size_t i = 0; i < NP_MAX_CPUS / 64; i++)
		rps.w[i] &= ~q->used.w[i];
	if (!np_cpuset_count(&rps))
		rps = *to;
	np_fmt_cpumask(&rps, mask, sizeof(mask));
	np_cpuset_format(&rps, cpus, sizeof(cpus));
	np_detail(f, "Each queue IRQ already has a CPU of its own, so pinning will not help: "
		     "the fix is more queues (so more CPUs take interrupts) or RPS, which hands "
		     "the protocol (softirq) work of each queue to other CPUs.");
	if (q->nq < ntgt)
		np_remedy(f, "ethtool -L %s combined %u   # one queue per NUMA-local CPU",
			  s->dev.name, ntgt);
	np_remedy(f, "for q in /sys/class/net/%s/queues/rx-*; do echo %s > $q/rps_cpus; done   "
		     "# RPS to CPUs %s", s->dev.name, mask, cpus);
	np_remedy(f, "Managed IRQs (affinity writes fail with 'Input/output error') are placed by "
		     "the kernel: there, too, only the channel count (ethtool -L) changes the "
		     "spread.");
}
