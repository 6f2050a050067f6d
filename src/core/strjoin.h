/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * snprintf(dst, size, "%s%s%s", a, b, c) and "%u" parts without the format machinery: the
 * collectors build every sysfs path this way, ~800 instructions a call in glibc (issue #35).
 * Same bytes (cut to size - 1, terminated when size > 0) and the same return value, the length
 * of the whole text, so "n >= size" still detects a cut. The parts must not overlap dst.
 */
#ifndef NP_STRJOIN_H
#define NP_STRJOIN_H

#include <stddef.h>
#include <string.h>

static inline int np_strjoin_(char *dst, size_t size, const char *const *parts)
{
	size_t len = 0;

	for (; *parts; parts++) {
		size_t n = strlen(*parts);

		if (len + 1 < size)
			memcpy(dst + len, *parts, n < size - 1 - len ? n : size - 1 - len);
		len += n;
	}
	if (size)
		dst[len < size ? len : size - 1] = '\0';
	return (int)len;
}

/* np_strjoin(dst, size, part, ...): the parts, each a string, one after the other. An array,
 * not varargs: each part is checked as a const char *, and no register save area is set up. */
#define np_strjoin(dst, size, ...) \
	np_strjoin_((dst), (size), (const char *const[]){ __VA_ARGS__, NULL })

/* An unsigned integer in decimal ("%u", "%zu") for np_strjoin: the text lives in buf. */
#define NP_UDEC_MAX 21
static inline const char *np_udec(char buf[NP_UDEC_MAX], unsigned long long v)
{
	char *p = buf + NP_UDEC_MAX - 1;

	*p = '\0';
	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	return p;
}

/* A signed integer in decimal ("%d", "%lld") for np_strjoin: the text lives in buf. */
static inline const char *np_sdec(char buf[NP_UDEC_MAX], long long v)
{
	char *p = (char *)np_udec(buf, v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v);

	if (v < 0)
		*--p = '-';
	return p;
}

#endif
