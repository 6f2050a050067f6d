// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz CPU lists ("0-3,8") and hex masks ("ff,00000001"), and format what parsed back. */
#include "fuzz.h"
#include "cpuset.h"
#include "parse.h"

static void check_roundtrip(const struct np_cpuset *cs)
{
	static char text[65536];
	struct np_cpuset again;

	/* What a list parse produced must print and parse back to the same set. */
	if (np_cpuset_format(cs, text, sizeof(text)) < 0)
		return;
	FUZZ_CHECK(np_parse_cpulist(text, &again) == 0);
	FUZZ_CHECK(memcmp(&again, cs, sizeof(again)) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *str = fuzz_str(data, size);
	struct np_cpuset cs;
	int err;

	err = np_parse_cpulist(str, &cs);
	FUZZ_CHECK(fuzz_known(err));
	if (!err)
		check_roundtrip(&cs);
	err = np_parse_cpumask(str, &cs);
	FUZZ_CHECK(fuzz_known(err));
	if (!err)
		check_roundtrip(&cs);
	free(str);
	return 0;
}
