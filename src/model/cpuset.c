// SPDX-License-Identifier: GPL-2.0-only
/* CPU bitmap helpers shared by the parsers, the checks and the renderers. */
#include "cpuset.h"

#include <stdio.h>
#include <string.h>

/* Two words a vector: GCC and clang lower it to SSE2 (or to word pairs elsewhere). */
typedef uint64_t np_u64x2 __attribute__((vector_size(16)));

unsigned np_cpuset_count(const struct np_cpuset *s)
{
	unsigned n = 0;

	/* Most words are 0 (a few CPUs of 8192): sixteen words are skipped with one test of eight
	 * vector ORs (four words a test cost ~290 instructions a count, done ~25 times a pass:
	 * issue #35). Without -mpopcnt each count is a library call, made for nonzero words only. */
	_Static_assert(NP_MAX_CPUS % 1024 == 0, "whole groups of sixteen words");
	for (size_t i = 0; i < NP_MAX_CPUS / 64; i += 16) {
		np_u64x2 any = { 0, 0 };

		for (size_t j = i; j < i + 16; j += 2) {
			np_u64x2 x;

			memcpy(&x, &s->w[j], sizeof(x));
			any |= x;
		}
		if (!(any[0] | any[1]))
			continue;
		for (size_t j = i; j < i + 16; j++)
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
