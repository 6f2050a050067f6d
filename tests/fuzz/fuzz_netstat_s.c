// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz np_parse_netstat_s: net-tools `netstat -s` text (sos netstat_-s, pasted outputs). */
#include "fuzz_counters.h"
#include "parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_copy(data, size);
	struct np_counters c = { 0 };
	unsigned sections;
	int err = np_parse_netstat_s(buf, size, &c, &sections);

	fuzz_check_counters(err, &c);
	/* Every name is a section's (capitalised) plus a kernel MIB name or the table's. */
	for (size_t i = 0; i < c.n; i++)
		FUZZ_CHECK(c.e[i].name[0] >= 'A' && c.e[i].name[0] <= 'Z');
	np_counters_free(&c);
	free(buf);
	return 0;
}
