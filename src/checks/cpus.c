// SPDX-License-Identifier: GPL-2.0-only
/* Which CPUs: online, taking the device's receive interrupts, steered to by RPS. */
#include "check_util.h"

bool np_irq_is_rxq(const struct np_irq_line *l)
{
	return l->role == NP_IRQ_RX || l->role == NP_IRQ_TXRX;
}

const struct np_cpuset *np_irq_cpus(const struct np_irq_line *l)
{
	if (l->has_effective && np_cpuset_count(&l->effective))
		return &l->effective;
	if (l->has_affinity && np_cpuset_count(&l->affinity))
		return &l->affinity;
	return NULL;
}

bool np_rx_cpus(const struct np_snapshot *s, struct np_cpuset *irq, struct np_cpuset *rps)
{
	bool irq_known = false;

	np_cpuset_zero(irq);
	np_cpuset_zero(rps);
	if (np_src_ok(s, NP_SRC_INTERRUPTS) && np_src_ok(s, NP_SRC_IRQ_AFFINITY))
		for (size_t i = 0; i < s->irqs.n; i++) {
			const struct np_cpuset *c = np_irq_cpus(&s->irqs.lines[i]);

			if (!np_irq_is_rxq(&s->irqs.lines[i]) || !c)
				continue;
			np_cpuset_or(irq, c);
			irq_known = true;
		}
	if (np_src_ok(s, NP_SRC_NETDEV))
		for (size_t i = 0; i < s->dev.n_rxq; i++)
			if (s->dev.rxq[i].has_rps)
				np_cpuset_or(rps, &s->dev.rxq[i].rps_cpus);
	return irq_known || np_cpuset_count(rps);
}

struct np_cpuset np_online_cpus(const struct np_snapshot *s)
{
	struct np_cpuset on = s->hs->host.online;

	if (!np_cpuset_count(&on))
		for (size_t i = 0; i < s->hs->softnet.n; i++)
			if (s->hs->softnet.rows[i].cpu >= 0)
				np_cpuset_set(&on, (unsigned)s->hs->softnet.rows[i].cpu);
	/* The columns of /proc/interrupts are the online CPUs too. */
	if (!np_cpuset_count(&on))
		for (size_t c = 0; c < s->irqs.ncols; c++)
			if (s->irqs.col_cpu[c] >= 0 && s->irqs.col_cpu[c] < NP_MAX_CPUS)
				np_cpuset_set(&on, (unsigned)s->irqs.col_cpu[c]);
	return on;
}

unsigned np_ncpu_online(const struct np_snapshot *s)
{
	struct np_cpuset on;

	if (s->hs->host.ncpu_online)
		return s->hs->host.ncpu_online;
	on = np_online_cpus(s);
	return np_cpuset_count(&on);
}
