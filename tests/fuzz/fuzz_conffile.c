// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz the config file parser (threshold/check/skip/interval/rtt/bandwidth lines). */
#include "fuzz.h"
#include "doctor_config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_copy(data, size), err[512];
	static struct np_config c;
	int r;

	err[0] = '\0';
	r = np_config_parse(&c, "fuzz.conf", text, size, err, sizeof(err));
	FUZZ_CHECK(r == 0 || r == -EINVAL);
	/* A refusal always says why, naming the file. */
	if (r)
		FUZZ_CHECK(strncmp(err, "fuzz.conf", 9) == 0);
	FUZZ_CHECK(strnlen(err, sizeof(err)) < sizeof(err));
	np_config_free(&c);
	free(text);
	return 0;
}
