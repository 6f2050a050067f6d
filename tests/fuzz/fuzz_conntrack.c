// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz /proc/net/stat/nf_conntrack: a header of names, one hex row per CPU, summed by name. */
#include "fuzz.h"
#include "counters.h"
#include "parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_copy(data, size);
	struct np_counters c = { 0 };
	int err = np_parse_conntrack_stat(buf, size, &c);

	FUZZ_CHECK(fuzz_known(err));
	if (err == -EINVAL)
		FUZZ_CHECK(!c.n);
	for (size_t i = 0; i < c.n; i++)
		FUZZ_CHECK(strnlen(c.e[i].name, NP_COUNTER_NAME_MAX) < NP_COUNTER_NAME_MAX);
	np_counters_free(&c);
	free(buf);
	return 0;
}
