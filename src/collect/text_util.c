// SPDX-License-Identifier: GPL-2.0-only
/* Slices, "key: value" lines and tool error messages for the command-output parsers. */
#include "text_util.h"

#include <errno.h>
#include <string.h>

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

struct np_slice np_trim(struct np_slice s)
{
	while (s.n && blank(s.p[0])) {
		s.p++;
		s.n--;
	}
	while (s.n && blank(s.p[s.n - 1]))
		s.n--;
	return s;
}

bool np_slice_eq(struct np_slice s, const char *c)
{
	size_t n = strlen(c);

	return s.n == n && memcmp(s.p, c, n) == 0;
}

bool np_slice_starts(struct np_slice s, const char *c)
{
	size_t n = strlen(c);

	return s.n >= n && memcmp(s.p, c, n) == 0;
}

bool np_kv_split(const char *l, size_t ll, bool last_colon, struct np_slice *k, struct np_slice *v)
{
	const char *c = NULL;

	if (last_colon) {
		for (size_t i = ll; i > 0; i--)
			if (l[i - 1] == ':') {
				c = l + i - 1;
				break;
			}
	} else {
		c = memchr(l, ':', ll);
	}
	if (!c)
		return false;
	*k = np_trim((struct np_slice){ l, (size_t)(c - l) });
	*v = np_trim((struct np_slice){ c + 1, ll - (size_t)(c - l) - 1 });
	return true;
}

int np_slice_u64(struct np_slice v, uint64_t *out)
{
	uint64_t x = 0;

	if (np_slice_eq(v, "n/a"))
		return 0;
	if (!v.n)
		return -1;
	for (size_t i = 0; i < v.n; i++) {
		unsigned d;

		if (v.p[i] < '0' || v.p[i] > '9')
			return -1;
		d = (unsigned)(v.p[i] - '0');
		if (x > (UINT64_MAX - d) / 10)
			return -1;
		x = x * 10 + d;
	}
	*out = x;
	return 1;
}

void np_slice_copy(char *dst, size_t size, struct np_slice s)
{
	size_t n;

	if (!size)
		return;
	n = s.n < size - 1 ? s.n : size - 1;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s.p[i];

		dst[i] = c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	dst[n] = '\0';
}

size_t np_text_len(const char *buf, size_t len)
{
	const char *z = buf ? memchr(buf, '\0', len) : NULL;

	return !buf ? 0 : z ? (size_t)(z - buf) : len;
}

/* A bounded search: the outputs are not NUL-terminated. */
static bool has(const char *buf, size_t len, const char *s)
{
	size_t n = strlen(s);

	for (size_t i = 0; i + n <= len; i++)
		if (buf[i] == s[0] && memcmp(buf + i, s, n) == 0)
			return true;
	return false;
}

int np_text_tool_error(const char *buf, size_t len)
{
	if (has(buf, len, "Operation not supported") || has(buf, len, "no stats available") ||
	    has(buf, len, "not supported"))
		return -EOPNOTSUPP;
	if (has(buf, len, "No such device"))
		return -ENODEV;
	if (has(buf, len, "Operation not permitted"))
		return -EPERM;
	return 0;
}
