// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz /proc/meminfo (MemTotal, MemAvailable in kB -> bytes). */
#include "fuzz.h"
#include "parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_copy(data, size);
	struct np_meminfo mi = { 0 };

	FUZZ_CHECK(fuzz_known(np_parse_meminfo(buf, size, &mi)));
	free(buf);
	return 0;
}
