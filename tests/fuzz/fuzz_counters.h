/* SPDX-License-Identifier: GPL-2.0-only */
/* What every parser that fills a counter table must leave, whatever the input: bounded names,
 * and a lookup of each name finding a value stored under it (fuzz_mib, fuzz_nstat_text). */
#ifndef NP_FUZZ_COUNTERS_H
#define NP_FUZZ_COUNTERS_H

#include "fuzz.h"
#include "counters.h"

static inline void fuzz_check_counters(int err, const struct np_counters *c)
{
	FUZZ_CHECK(fuzz_known(err));
	if (err == -EINVAL)
		FUZZ_CHECK(!c->n);
	for (size_t i = 0; i < c->n; i++) {
		uint64_t v = np_counters_get(c, c->e[i].name);
		bool seen = false;

		FUZZ_CHECK(strnlen(c->e[i].name, NP_COUNTER_NAME_MAX) < NP_COUNTER_NAME_MAX);
		/* A garbage file may repeat a name: any of its values will do. Quadratic: only
		 * for small tables. */
		for (size_t j = 0; j < c->n && c->n <= 512 && !seen; j++)
			seen = !strcmp(c->e[j].name, c->e[i].name) && c->e[j].value == v;
		FUZZ_CHECK(seen || c->n > 512);
	}
}

#endif
