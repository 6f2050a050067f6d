// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz np_parse_nstat_text: iproute2 `nstat -zas` text (sos nstat_-zas). */
#include "fuzz.h"
#include "counters.h"
#include "parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_copy(data, size);
	struct np_counters c = { 0 };
	int err = np_parse_nstat_text(buf, size, &c);

	FUZZ_CHECK(fuzz_known(err));
	if (err == -EINVAL)
		FUZZ_CHECK(!c.n);
	for (size_t i = 0; i < c.n; i++) {
		uint64_t v = np_counters_get(&c, c.e[i].name);
		bool seen = false;

		FUZZ_CHECK(strnlen(c.e[i].name, NP_COUNTER_NAME_MAX) < NP_COUNTER_NAME_MAX);
		/* A lookup finds a value stored under that name (a garbage file may repeat a
		 * name: any of its values will do). Quadratic: only for small tables. */
		for (size_t j = 0; j < c.n && c.n <= 512 && !seen; j++)
			seen = !strcmp(c.e[j].name, c.e[i].name) && c.e[j].value == v;
		FUZZ_CHECK(seen || c.n > 512);
	}
	np_counters_free(&c);
	free(buf);
	return 0;
}
