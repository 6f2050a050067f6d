// SPDX-License-Identifier: GPL-2.0-only
/* CPU bitmap helpers shared by the parsers, the checks and the renderers. */
#include "cpuset.h"

#include <stdio.h>

unsigned np_cpuset_count(const struct np_cpuset *s)
{
	unsigned n = 0;

	/* Most words are 0 (a few CPUs of 8192): without -mpopcnt each count is a library call,
	 * and four words are skipped with one test (a count is done ~50 times a pass). */
	_Static_assert(NP_MAX_CPUS % 256 == 0, "whole groups of four words");
	for (size_t i = 0; i < NP_MAX_CPUS / 64; i += 4) {
		if (!(s->w[i] | s->w[i + 1] | s->w[i + 2] | s->w[i + 3]))
			continue;
		for (size_t j = i; j < i + 4; j++)
			if (s->w[j])
				n += (unsigned)__builtin_popcountll(s->w[j]);
	}
	return n;
}

void np_cpuset_or(struct np_cpuset *dst, const struct np_cpuset *src)
{
	for (size_t i = 0; i < NP_MAX_CPUS / 64; i++)
		dst->w[i] |= src->w[i];
}

bool np_cpuset_subset(const struct np_cpuset *a, const struct np_cpuset *b)
{
	for (size_t i = 0; i < NP_MAX_CPUS / 64; i++)
		if (a->w[i] & ~b->w[i])
			return false;
	return true;
}

int np_cpuset_format(const struct np_cpuset *s, char *buf, size_t size)
{
	size_t len = 0;
	int cpu = 0;

	if (size)
		buf[0] = '\0';
	while (cpu < NP_MAX_CPUS) {
		int end;

		if (!np_cpuset_has(s, (unsigned)cpu)) {
			/* A word without a CPU is skipped whole. */
			cpu = !s->w[cpu / 64] ? (cpu / 64 + 1) * 64 : cpu + 1;
			continue;
		}
		end = cpu;
		while (end + 1 < NP_MAX_CPUS && np_cpuset_has(s, (unsigned)end + 1))
			end++;
		if (len < size) {
			int n = end == cpu ? snprintf(buf + len, size - len, "%s%d", len ? "," : "", cpu)
					   : snprintf(buf + len, size - len, "%s%d-%d", len ? "," : "", cpu, end);
			len += n > 0 ? (size_t)n : 0;
		}
		cpu = end + 1;
	}
	return (int)len;
}
