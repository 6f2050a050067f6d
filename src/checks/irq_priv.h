/* SPDX-License-Identifier: GPL-2.0-only */
/* Stage "irq" is split over irq.c (affinity, NUMA, irqbalance), irq_cpu_rate.c and irq_place.c
 * (IRQ placement); this joins them. */
#ifndef NP_IRQ_PRIV_H
#define NP_IRQ_PRIV_H

#include "check_util.h"

/* Queue IRQ statistics of the current snapshot. */
struct np_irq_sum {
	size_t nq;		/* queue IRQs (RX or TxRx) */
	size_t nknown;		/* ... whose delivery CPUs are known */
	struct np_cpuset used;	/* union of their delivery CPUs */
	unsigned nused;
};

struct np_irq_sum np_irq_summary(const struct np_snapshot *s);
/* Skip a check for want of queue IRQs, saying why: a virtual device or hv_netvsc (not
 * applicable), only management vectors, or none found (and where it looked). */
void np_irq_none(const struct np_snapshot *s, struct np_report *r);
/* Common skips of the affinity-based checks; true when the check can go on. */
bool np_irq_usable(const struct np_snapshot *s, struct np_report *r, struct np_irq_sum *q);
/* Where the queues should go: the NIC's NUMA-local online CPUs, or all online CPUs. */
struct np_cpuset np_irq_target_cpus(const struct np_snapshot *s);
/*
 * Remedy lines pinning the device's queue IRQs (only: NULL = all, else those with only[i])
 * round-robin over 'to', then the irqbalance and managed-IRQ notes. With 'keep', an IRQ
 * already alone on a CPU of 'to' stays, the others take the CPUs no queue IRQ uses yet, and
 * only IRQs that actually move get a line. Returns the echo lines written.
 */
unsigned np_irq_pin_lines(struct np_finding *f, const struct np_snapshot *s,
			  const struct np_cpuset *to, const bool *only, bool keep);
/* Every queue IRQ is delivered to one CPU of its own: no two share a CPU. */
bool np_irq_alone(const struct np_snapshot *s);
/* For IRQs that each own a CPU already: the detail and remedies of more queues or RPS. */
void np_irq_more_queues_or_rps(struct np_finding *f, const struct np_snapshot *s,
			       const struct np_irq_sum *q, const struct np_cpuset *to,
			       unsigned ntgt);
/* irq_queue_kind.c: the detail and remedies when the traffic lands in one of several queues
 * (RSS hash fields, more flows, RPS over the target CPUs but busy_cpu; -1 = none) and when the
 * device has one queue IRQ (channels, the hypervisor's queue count, RPS). Never pinning. */
void np_irq_one_queue_fix(struct np_finding *f, const struct np_snapshot *s, int busy_cpu);
void np_irq_single_queue_fix(struct np_finding *f, const struct np_snapshot *s);

#endif
