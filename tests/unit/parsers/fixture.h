/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared by the parser tests: fixture loading and exact-length copies for ASan. */
#ifndef NP_TEST_FIXTURE_H
#define NP_TEST_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* tests/fixtures/parsers/NAME, malloc'd and NUL-terminated (the parsers never need the NUL). */
static inline char *load_fixture(const char *name, size_t *len)
{
	char path[1024];
	char *buf = NULL;
	size_t cap = 0, n = 0;
	FILE *f;

	*len = 0;
	snprintf(path, sizeof(path), "%s/parsers/%s", NP_FIXTURES, name);
	f = fopen(path, "rb");
	if (!f)
		return NULL;
	for (;;) {
		if (cap - n < 4096) {
			char *nb = realloc(buf, cap + 65536);

			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
			cap += 65536;
		}
		size_t r = fread(buf + n, 1, cap - n - 1, f);

		if (!r)
			break;
		n += r;
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* An exact-size heap copy with no terminator, so reading past len trips AddressSanitizer. */
static inline char *exact_copy(const char *s, size_t len)
{
	char *p = calloc(1, len ? len : 1);	/* zeroed: release builds warn otherwise */

	if (p && len)
		memcpy(p, s, len);
	return p;
}

#endif
