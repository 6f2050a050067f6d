// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz /proc/net/sockstat. */
#include "fuzz.h"
#include "parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_copy(data, size);
	struct np_sockstat ss;

	FUZZ_CHECK(fuzz_known(np_parse_sockstat(buf, size, &ss)));
	free(buf);
	return 0;
}
