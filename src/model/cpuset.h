/* SPDX-License-Identifier: GPL-2.0-only */
/* A fixed-size CPU bitmap: big enough for any machine we expect, no allocation. */
#ifndef NP_CPUSET_H
#define NP_CPUSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NP_MAX_CPUS 8192

struct np_cpuset {
	uint64_t w[NP_MAX_CPUS / 64];
};

static inline void np_cpuset_zero(struct np_cpuset *s)
{
	for (size_t i = 0; i < NP_MAX_CPUS / 64; i++)
		s->w[i] = 0;
}

static inline void np_cpuset_set(struct np_cpuset *s, unsigned cpu)
{
	if (cpu < NP_MAX_CPUS)
		s->w[cpu / 64] |= 1ull << (cpu % 64);
}

static inline bool np_cpuset_has(const struct np_cpuset *s, unsigned cpu)
{
	return cpu < NP_MAX_CPUS && (s->w[cpu / 64] >> (cpu % 64)) & 1;
}

unsigned np_cpuset_count(const struct np_cpuset *s);
void np_cpuset_or(struct np_cpuset *dst, const struct np_cpuset *src);
bool np_cpuset_subset(const struct np_cpuset *a, const struct np_cpuset *b); /* a ⊆ b */
/* "0-3,8,10-11"; returns the length written (truncates like snprintf). */
int np_cpuset_format(const struct np_cpuset *s, char *buf, size_t size);

#endif
