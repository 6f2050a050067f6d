// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz np_parse_nstat_text: iproute2 `nstat -zas` text (sos nstat_-zas). */
#include "fuzz_counters.h"
#include "parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_copy(data, size);
	struct np_counters c = { 0 };
	int err = np_parse_nstat_text(buf, size, &c);

	fuzz_check_counters(err, &c);
	np_counters_free(&c);
	free(buf);
	return 0;
}
