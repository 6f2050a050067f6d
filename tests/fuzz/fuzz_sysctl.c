// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz a sysctl file's text: raw (whitespace collapsed) and up to NP_SYSCTL_VALS integers. */
#include "fuzz.h"
#include "parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *str = fuzz_str(data, size);
	struct np_sysctl sc;

	memset(&sc, 0, sizeof(sc));
	FUZZ_CHECK(fuzz_known(np_parse_sysctl_value(str, &sc)));
	FUZZ_CHECK(strnlen(sc.raw, sizeof(sc.raw)) < sizeof(sc.raw));
	FUZZ_CHECK(sc.nvals >= 0 && sc.nvals <= NP_SYSCTL_VALS);
	free(str);
	return 0;
}
