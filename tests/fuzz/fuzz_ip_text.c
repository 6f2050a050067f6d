// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz the `ip -s -d link` parser: the first interface name of the input (or "eth0") is looked
 * up, so the fuzzer reaches the block parsing without guessing a name. */
#include "fuzz.h"
#include "sos_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	char name[IF_NAMESIZE] = "eth0";
	const char *c = memchr(buf, ':', size);
	struct np_ip_link l;
	int e;

	/* "N: NAME:" -> NAME */
	if (c && (size_t)(c - buf) + 2 < size && c[1] == ' ') {
		size_t i = 0;

		for (c += 2; c < buf + size && *c != ':' && *c != '@' && *c != ' ' &&
		     i < sizeof(name) - 1; c++)
			name[i++] = *c;
		name[i] = '\0';
	}
	e = np_parse_ip_link(buf, size, name, &l);
	FUZZ_CHECK(fuzz_known(e) || e == -ENODATA);
	FUZZ_CHECK(strnlen(l.kind, sizeof(l.kind)) < sizeof(l.kind));
	FUZZ_CHECK(strnlen(l.master, sizeof(l.master)) < sizeof(l.master));
	FUZZ_CHECK(e != 0 || l.name[0]);
	return 0;
}
