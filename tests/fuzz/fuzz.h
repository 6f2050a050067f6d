/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared by the libFuzzer targets: exact-size copies (so AddressSanitizer sees a read one byte
 * past the input), NUL-terminated copies for the string parsers, and invariant checks that
 * abort, so a parser breaking its own contract is a crash the fuzzer reports and minimises.
 */
#ifndef NP_FUZZ_H
#define NP_FUZZ_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond)							\
	do {									\
		if (!(cond)) {							\
			fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__,	\
				__LINE__, #cond);				\
			abort();						\
		}								\
	} while (0)

/* The errnos the text parsers document (parse.h). */
static inline bool fuzz_known(int err)
{
	return err == 0 || err == -EINVAL || err == -EBADMSG || err == -ERANGE ||
	       err == -ENOENT || err == -ENOMEM;
}

/* An exact-size heap copy: libFuzzer's own buffer is exact too, but parsers that need a
 * writable or aligned buffer get one here. Never NULL for size 0 (malloc(1)). */
static inline void *fuzz_copy(const uint8_t *data, size_t size)
{
	void *p = malloc(size ? size : 1);

	FUZZ_CHECK(p);
	if (size)
		memcpy(p, data, size);
	return p;
}

/* A C string that ends exactly at size (the first NUL in data ends it earlier). */
static inline char *fuzz_str(const uint8_t *data, size_t size)
{
	char *p = malloc(size + 1);

	FUZZ_CHECK(p);
	if (size)
		memcpy(p, data, size);
	p[size] = '\0';
	return p;
}

/* Consume n bytes from the front of (*data, *size); a short tail is zero-padded. */
static inline void fuzz_take(const uint8_t **data, size_t *size, void *out, size_t n)
{
	size_t k = *size < n ? *size : n;

	memset(out, 0, n);
	if (k)
		memcpy(out, *data, k);
	*data += k;
	*size -= k;
}

#endif
