// SPDX-License-Identifier: GPL-2.0-only
/*
 * The device's IRQ counts of a frame into a snapshot (snapshot_counters_apply.c). The frame
 * names /proc/interrupts' columns ("irq/col/C" = the CPU id of column C) and each count by its
 * CPU id ("irq/IRQ/CPU"), so a CPU brought online between the configuration and the frame
 * changes nothing: the columns are the frame's. Counts are held until the columns are known
 * (the names may come in any order).
 */
#include "snapshot_counters.h"
#include "snapshot_counters_priv.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct np_snapcnt_irq_cell {
	uint32_t line, cpu;
	uint64_t v;
};

static int column(struct np_snapcnt_irq *st, const char *r, uint64_t v)
{
	unsigned long long col;

	if (!np_snapcnt_parse_id(&r, NP_MAX_CPUS - 1, '\0', &col))
		return 0;
	if (!st->col) {
		st->col = malloc(NP_MAX_CPUS * sizeof(*st->col));
		if (!st->col)
			return -ENOMEM;
		for (size_t c = 0; c < NP_MAX_CPUS; c++)
			st->col[c] = -1;
	}
	st->col[col] = v < NP_MAX_CPUS ? (int32_t)v : -1;
	if (col + 1 > st->ncol)
		st->ncol = (size_t)col + 1;
	return 0;
}

int np_snapcnt_irq_name(struct np_snapcnt_irq *st, struct np_interrupts *it, const char *r,
			uint64_t v)
{
	unsigned long long no, cpu;
	size_t line, cap;
	void *p;

	if (strncmp(r, "col/", 4) == 0)
		return column(st, r + 4, v);
	if (!np_snapcnt_parse_id(&r, UINT32_MAX, '/', &no))
		return 0;
	/* A frame lists a line's names together: try the last one first. */
	line = st->last_line;
	if (line >= it->n || it->lines[line].irq != no)
		for (line = 0; line < it->n && it->lines[line].irq != no; line++)
			;
	st->last_line = line;
	if (line == it->n)
		return 0;	/* a line the configuration does not have */
	if (strcmp(r, "total") == 0) {
		it->lines[line].total = v;
		return 0;
	}
	if (!np_snapcnt_parse_id(&r, NP_MAX_CPUS - 1, '\0', &cpu))
		return 0;
	if (st->ncell == st->cap) {
		cap = st->cap ? st->cap * 2 : 64;
		p = realloc(st->cell, cap * sizeof(*st->cell));
		if (!p)
			return -ENOMEM;
		st->cell = p;
		st->cap = cap;
	}
	st->cell[st->ncell++] = (struct np_snapcnt_irq_cell){ (uint32_t)line, (uint32_t)cpu, v };
	return 0;
}

/* The columns: the frame's "col" names, else the CPUs in the order the counts named them. */
static int columns(struct np_snapcnt_irq *st, struct np_interrupts *it, int32_t *cpu_col)
{
	size_t n = 0;

	if (st->ncol) {
		it->col_cpu = malloc(st->ncol * sizeof(*it->col_cpu));
		if (!it->col_cpu)
			return -ENOMEM;
		for (size_t c = 0; c < st->ncol; c++) {
			it->col_cpu[c] = st->col[c];
			if (st->col[c] >= 0 && !cpu_col[st->col[c]])
				cpu_col[st->col[c]] = (int32_t)c + 1;
		}
		it->ncols = st->ncol;
		return 0;
	}
	for (size_t k = 0; k < st->ncell; k++)
		if (!cpu_col[st->cell[k].cpu])
			cpu_col[st->cell[k].cpu] = (int32_t)++n;
	if (!n)
		return 0;
	it->col_cpu = malloc(n * sizeof(*it->col_cpu));
	if (!it->col_cpu)
		return -ENOMEM;
	for (size_t c = 0; c < NP_MAX_CPUS; c++)
		if (cpu_col[c])
			it->col_cpu[cpu_col[c] - 1] = (int)c;
	it->ncols = n;
	return 0;
}

int np_snapcnt_irq_finish(struct np_snapcnt_irq *st, struct np_interrupts *it)
{
	int32_t *cpu_col;
	uint64_t *row = NULL;
	int err;

	if (!st->ncol && !st->ncell)
		return 0;
	cpu_col = calloc(NP_MAX_CPUS, sizeof(*cpu_col));	/* CPU id -> column + 1 */
	if (!cpu_col)
		return -ENOMEM;
	err = columns(st, it, cpu_col);
	if (!err && it->ncols && st->ncell && !(row = malloc(it->ncols * sizeof(*row))))
		err = -ENOMEM;
	/* A line's total is the frame's own name for it (NP_NA without): never a sum made here,
	 * which would take a line whose counts were all zeros for one with a known total. */
	for (size_t l = 0; row && l < it->n && !err; l++) {
		bool any = false;

		memset(row, 0, it->ncols * sizeof(*row));
		for (size_t k = 0; k < st->ncell; k++) {
			const struct np_snapcnt_irq_cell *c = &st->cell[k];

			if (c->line != l || !cpu_col[c->cpu])
				continue;	/* a CPU the named columns lack */
			row[cpu_col[c->cpu] - 1] = c->v;
			any = true;
		}
		if (any)
			err = np_irq_set_counts(&it->lines[l], row, it->ncols);
	}
	free(row);
	free(cpu_col);
	return err;
}

void np_snapcnt_irq_free(struct np_snapcnt_irq *st)
{
	free(st->col);
	free(st->cell);
}
