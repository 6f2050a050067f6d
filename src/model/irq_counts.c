// SPDX-License-Identifier: GPL-2.0-only
/* An IRQ line's per-CPU counts: 32-bit, dense or only the nonzero CPUs (snapshot.h). */
#include "snapshot.h"

#include <errno.h>
#include <stdlib.h>

uint32_t np_irq_count(const struct np_irq_line *l, size_t col)
{
	size_t lo = 0, hi = l->ncount;

	if (!l->cols)
		return col < l->ncount ? l->count[col] : 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (l->cols[mid] == col)
			return l->count[mid];
		if (l->cols[mid] < col)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

void np_irq_counts(const struct np_irq_line *l, uint32_t *out, size_t ncols)
{
	for (size_t c = 0; c < ncols; c++)
		out[c] = 0;
	if (!l->cols) {
		for (size_t c = 0; c < l->ncount && c < ncols; c++)
			out[c] = l->count[c];
		return;
	}
	for (size_t k = 0; k < l->ncount; k++)
		if (l->cols[k] < ncols)
			out[l->cols[k]] = l->count[k];
}

int np_irq_set_counts(struct np_irq_line *l, const uint64_t *v, size_t n)
{
	size_t nz = 0, k = 0;
	uint32_t *block;

	for (size_t c = 0; c < n; c++)
		nz += v[c] != 0;
	free(l->count);
	l->count = l->cols = NULL;
	l->ncount = 0;
	if (!nz)
		return 0;
	/* Sparse costs 8 bytes a nonzero cell (column and count), dense 4 a column. */
	if (nz * 2 >= n) {
		block = malloc(n * sizeof(*block));
		if (!block)
			return -ENOMEM;
		for (size_t c = 0; c < n; c++)
			block[c] = (uint32_t)v[c];
		l->count = block;
		l->ncount = n;
		return 0;
	}
	block = malloc(2 * nz * sizeof(*block));
	if (!block)
		return -ENOMEM;
	l->count = block;
	l->cols = block + nz;
	for (size_t c = 0; c < n; c++)
		if (v[c]) {
			l->count[k] = (uint32_t)v[c];
			l->cols[k++] = (uint32_t)c;
		}
	l->ncount = nz;
	return 0;
}

int *np_irq_cpu_columns(const struct np_interrupts *t, size_t ncpu_idx)
{
	int *col = malloc((ncpu_idx ? ncpu_idx : 1) * sizeof(*col));

	if (!col)
		return NULL;
	for (size_t cpu = 0; cpu < ncpu_idx; cpu++)
		col[cpu] = -1;
	for (size_t c = 0; c < t->ncols; c++)
		if (t->col_cpu[c] >= 0 && (size_t)t->col_cpu[c] < ncpu_idx)
			col[t->col_cpu[c]] = (int)c;
	return col;
}
