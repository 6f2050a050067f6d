/* SPDX-License-Identifier: GPL-2.0-only */
/* Helpers shared by the parsers of command outputs (ethtool, ip, tc, lscpu, lspci text). */
#ifndef NP_TEXT_UTIL_H
#define NP_TEXT_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A (pointer, length) slice of a line: never NUL-terminated. */
struct np_slice {
	const char *p;
	size_t n;
};

/* s without leading and trailing blanks. */
struct np_slice np_trim(struct np_slice s);
/* Case-sensitive equality of a slice and a C string. */
bool np_slice_eq(struct np_slice s, const char *c);
/* s starts with the C string c. */
bool np_slice_starts(struct np_slice s, const char *c);
/* "key: value" split at the first (last_colon: last) ':'; both trimmed. False without ':'. */
bool np_kv_split(const char *l, size_t ll, bool last_colon, struct np_slice *k, struct np_slice *v);
/* An unsigned decimal value: 1; "n/a" (ethtool's "not reported"): 0; anything else: -1. */
int np_slice_u64(struct np_slice v, uint64_t *out);
/* Copy a slice into a C string of size bytes, cut to fit; control bytes become '?'. */
void np_slice_copy(char *dst, size_t size, struct np_slice s);
/* buf[0..len) up to its first NUL: the length a text parser should look at. */
size_t np_text_len(const char *buf, size_t len);
/* What an ethtool error message in the output says: -EOPNOTSUPP ("Operation not supported",
 * "no stats available", "not supported"), -ENODEV ("No such device"), -EPERM ("Operation not
 * permitted"), else 0. */
int np_text_tool_error(const char *buf, size_t len);

#endif
