// SPDX-License-Identifier: GPL-2.0-only
/* Line and token scanning for the parsers: one bounds-checked copy instead of one per file. */
#include "parse_util.h"

#include <string.h>

#include "cpuset.h"

bool np_is_space(char c)
{
	return c == '\n' || np_blank(c);
}

int np_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

bool np_line_next(const char *buf, size_t len, size_t *pos, const char **l, size_t *ll)
{
	const char *nl;

	if (*pos >= len)
		return false;
	*l = buf + *pos;
	nl = memchr(*l, '\n', len - *pos);
	*ll = nl ? (size_t)(nl - *l) : len - *pos;
	*pos += *ll + (nl ? 1 : 0);
	return true;
}

bool np_line_label(const char *l, size_t ll, const char **p, size_t *pl, size_t *i)
{
	size_t tl;

	*i = 0;
	/* A lone ":" labels nothing. */
	if (!np_tok_next(l, ll, i, p, &tl) || tl < 2 || (*p)[tl - 1] != ':')
		return false;
	*pl = tl - 1;
	return true;
}

bool np_tok_next(const char *l, size_t ll, size_t *i, const char **t, size_t *tl)
{
	size_t k = *i;		/* a local index: stores through i could alias l */

	while (k < ll && np_blank(l[k]))
		k++;
	*i = k;
	if (k == ll)
		return false;
	*t = l + k;
	k = np_tok_end(l, ll, k + 1);
	*i = k;
	*tl = (size_t)(l + k - *t);
	return true;
}

size_t np_tok_count(const char *l, size_t ll, size_t i)
{
	const char *t;
	size_t tl, n = 0;

	while (np_tok_next(l, ll, &i, &t, &tl))
		n++;
	return n;
}

bool np_tok_u64(const char *t, size_t tl, uint64_t *v)
{
	uint64_t x = 0;

	if (!tl)
		return false;
	/* 19 digits cannot overflow: the common short counter skips the limit test. */
	if (tl <= 19) {
		for (size_t i = 0; i < tl; i++) {
			unsigned d = (unsigned)(unsigned char)t[i] - '0';

			if (d > 9)
				return false;
			x = x * 10 + d;
		}
		*v = x;
		return true;
	}
	for (size_t i = 0; i < tl; i++) {
		if (t[i] < '0' || t[i] > '9')
			return false;
		if (x > (UINT64_MAX - (uint64_t)(t[i] - '0')) / 10)
			return false;
		x = x * 10 + (uint64_t)(t[i] - '0');
	}
	*v = x;
	return true;
}

size_t np_tok_u64s(const char *l, size_t ll, size_t i, size_t max, uint64_t *vals, size_t *n)
{
	size_t after = i, k;

	for (k = 0; k < max; k++) {
		uint64_t x = 0;
		size_t s;

		while (i < ll && np_blank(l[i]))
			i++;
		for (s = i; i < ll && l[i] >= '0' && l[i] <= '9'; i++)
			x = x * 10 + (uint64_t)(l[i] - '0');
		/* Not a number: no digit, or more than digits before the next blank. */
		if (i == s || (i < ll && !np_blank(l[i])))
			break;
		/* 19 digits cannot overflow; from 20 on, np_tok_u64 decides (and converts). */
		if (i - s >= 20 && !np_tok_u64(l + s, i - s, &x))
			break;
		if (vals)
			vals[k] = x;
		after = i;
	}
	*n = k;
	return after;
}

/* Hex of at most 'max' digits; the digit limit is what keeps the shifts from overflowing. */
static bool tok_hex(const char *t, size_t tl, size_t max, uint64_t *v)
{
	uint64_t x = 0;

	if (!tl || tl > max)
		return false;
	for (size_t i = 0; i < tl; i++) {
		int h = np_hex_digit(t[i]);

		if (h < 0)
			return false;
		x = x << 4 | (uint64_t)h;
	}
	*v = x;
	return true;
}

bool np_tok_hex32(const char *t, size_t tl, uint32_t *v)
{
	uint64_t x;

	if (!tok_hex(t, tl, 8, &x))
		return false;
	*v = (uint32_t)x;
	return true;
}

bool np_tok_hex64(const char *t, size_t tl, uint64_t *v)
{
	return tok_hex(t, tl, 16, v);
}

bool np_line_cpus(const char *l, size_t ll, int *cpu)
{
	const char *t;
	size_t tl, i = 0;
	uint64_t n;

	for (size_t k = 0; np_tok_next(l, ll, &i, &t, &tl); k++) {
		/* Offline CPUs have no column, so the ids need not be 0..n-1. */
		if (tl < 4 || memcmp(t, "CPU", 3) || !np_tok_u64(t + 3, tl - 3, &n) ||
		    n >= NP_MAX_CPUS)
			return false;
		cpu[k] = (int)n;
	}
	return true;
}

/* The bytes of x equal to '.' made '/' (the next byte value): the exact zero-byte test of
 * x ^ "........" leaves 0x80 in those bytes only, and no step carries into the next byte. */
static inline uint64_t dots_to_slashes8(uint64_t x)
{
	const uint64_t low7 = 0x7f7f7f7f7f7f7f7full;
	uint64_t t = x ^ 0x2e2e2e2e2e2e2e2eull;
	uint64_t m = ~(((t & low7) + low7) | t | low7);

	return x + (m >> 7);
}

void np_sysctl_key_path(const char *key, size_t len, char *path, size_t size)
{
	size_t i = 0;
	uint64_t x;

	if (size < sizeof("sys/")) {
		if (size) {
			memcpy(path, "sys/", size - 1);
			path[size - 1] = '\0';
		}
		return;
	}
	if (len > size - sizeof("sys/"))
		len = size - sizeof("sys/");
	memcpy(path, "sys/", 4);
	path += 4;
	for (; i + 8 <= len; i += 8) {
		memcpy(&x, key + i, 8);
		x = dots_to_slashes8(x);
		memcpy(path + i, &x, 8);
	}
	if (i < len) {
		x = 0;
		memcpy(&x, key + i, len - i);
		x = dots_to_slashes8(x);
		memcpy(path + i, &x, len - i);
	}
	path[len] = '\0';
}
