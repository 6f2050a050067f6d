/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * snprintf(dst, size, "%s", src) and snprintf(dst, size, "%.*s", n, src) without the format
 * machinery: glibc sets up a string FILE and parses the format for each, ~600 instructions a
 * call, and names and keys are copied hundreds of times per snapshot (issue #35). Same result:
 * the text cut to size - 1 bytes, always terminated when size > 0.
 */
#ifndef NP_STRCOPY_H
#define NP_STRCOPY_H

#include <stddef.h>
#include <string.h>

/* At most n bytes of src, stopping at its NUL, into dst[size]; returns the bytes copied. */
static inline size_t np_strcopy_n(char *dst, size_t size, const char *src, size_t n)
{
	size_t len;

	if (!size)
		return 0;
	len = strnlen(src, n < size - 1 ? n : size - 1);
	memcpy(dst, src, len);
	dst[len] = '\0';
	return len;
}

static inline size_t np_strcopy(char *dst, size_t size, const char *src)
{
	return np_strcopy_n(dst, size, src, size);
}

#endif
