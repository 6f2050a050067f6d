/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared by the irq checks' tests: synthetic /proc/interrupts rows and device CPUs. */
#ifndef NP_TEST_IRQ_FIXTURE_H
#define NP_TEST_IRQ_FIXTURE_H

#include "synth.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* /proc/interrupts with columns for CPUs 0..ncpu-1 and nq queue IRQs 100.. ("eth0-TxRx-i"),
 * IRQ i effectively on CPU cpus[i]. */
static inline void irqs(struct np_snapshot *s, size_t ncpu, size_t nq, const int *cpus)
{
	struct np_interrupts *in = &s->irqs;

	in->ncols = ncpu;
	in->col_cpu = calloc(ncpu, sizeof(int));
	in->n = nq;
	in->lines = calloc(nq, sizeof(*in->lines));
	assert_non_null(in->col_cpu);
	assert_non_null(in->lines);
	for (size_t c = 0; c < ncpu; c++)
		in->col_cpu[c] = (int)c;
	for (size_t i = 0; i < nq; i++) {
		struct np_irq_line *l = &in->lines[i];

		l->irq = 100 + (unsigned)i;
		snprintf(l->name, sizeof(l->name), "eth0-TxRx-%zu", i);
		l->role = NP_IRQ_TXRX;
		l->count = calloc(ncpu, sizeof(*l->count));	/* dense */
		assert_non_null(l->count);
		l->ncount = ncpu;
		l->has_effective = l->has_affinity = true;
		np_cpuset_set(&l->effective, (unsigned)cpus[i]);
		np_cpuset_set(&l->affinity, (unsigned)cpus[i]);
	}
}

static inline void local_cpus(struct np_snapshot *s, int node, unsigned from, unsigned to)
{
	s->dev.has_device = true;
	s->dev.numa_node = node;
	s->dev.has_local_cpus = true;
	for (unsigned c = from; c <= to; c++)
		np_cpuset_set(&s->dev.local_cpus, c);
}

static inline bool has_text(const char *hay, const char *needle)
{
	return strstr(hay, needle) != NULL;
}
#endif
