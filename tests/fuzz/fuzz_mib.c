// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz np_parse_mib: /proc/net/snmp, /proc/net/netstat and /proc/net/snmp6; and the same input
 * left unsorted and indexed (doctor's table), which must answer every lookup as the sorted. */
#include "fuzz_counters.h"
#include "parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_copy(data, size);
	struct np_counters c = { 0 }, u = { 0 };
	int err = np_parse_mib(buf, size, &c);

	fuzz_check_counters(err, &c);
	FUZZ_CHECK(np_parse_mib_unsorted(buf, size, &u) == err);
	np_counters_index(&u);
	FUZZ_CHECK(u.n == c.n);
	for (size_t i = 0; i < c.n; i++)
		FUZZ_CHECK(np_counters_get(&u, c.e[i].name) == np_counters_get(&c, c.e[i].name));
	np_counters_free(&u);
	np_counters_free(&c);
	free(buf);
	return 0;
}
