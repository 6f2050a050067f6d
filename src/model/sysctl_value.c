// SPDX-License-Identifier: GPL-2.0-only
/* A sysctl's text as the model holds it: a whitespace-collapsed copy, plus its integers when it
 * has only those. Pure: the collector fills sysctls with it from files, netpath plan from the
 * values it plans. */
#include "snapshot.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

/* ' ', or '\t' '\n' '\v' '\f' '\r' (9..13): isspace() in the C locale. */
static bool blank(char c)
{
	return c == ' ' || (unsigned char)(c - '\t') < 5;
}

/* 1: an integer, 0: not one (the file is a string), -ERANGE: an integer beyond int64. */
static int dec_s64(const char *t, size_t tl, int64_t *v)
{
	bool neg = tl && t[0] == '-';
	uint64_t x = 0, lim;

	if (neg) {
		t++;
		tl--;
	}
	if (!tl)
		return 0;
	for (size_t i = 0; i < tl; i++)
		if (t[i] < '0' || t[i] > '9')
			return 0;
	/* -INT64_MIN does not fit an int64, so the magnitude limit depends on the sign. */
	lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (size_t i = 0; i < tl; i++) {
		uint64_t d = (uint64_t)(t[i] - '0');

		if (x > (lim - d) / 10)
			return -ERANGE;
		x = x * 10 + d;
	}
	*v = neg ? (int64_t)(0 - x) : (int64_t)x;
	return 1;
}

/*
 * nvals counts at most NP_SYSCTL_VALS integers (the first ones) when every token is an integer,
 * else 0. When every token looks like an integer but one is beyond int64: -ERANGE, raw kept (it
 * is still the file's text), nvals 0. out->key and out->err are the caller's.
 */
int np_parse_sysctl_value(const char *text, struct np_sysctl *out)
{
	const char *p;
	size_t n = 0;
	int nvals = 0;
	bool numeric = true, overflow = false;

	out->raw[0] = '\0';
	out->nvals = 0;
	memset(out->v, 0, sizeof(out->v));
	if (!text)
		return -EINVAL;

	for (p = text;;) {
		const char *t, *d;
		size_t tl, room;
		uint64_t x = 0;
		int64_t v = 0;
		bool neg;

		while (blank(*p))
			p++;
		if (!*p)
			break;
		t = p;
		/* One pass reads the token's digits and finds its end (issue #35): a run of at
		 * most 18 digits cannot pass INT64_MAX, so only longer ones take dec_s64(). */
		neg = *p == '-';
		d = p += neg;
		while ((unsigned char)(*p - '0') < 10)
			x = x * 10 + (uint64_t)(*p++ - '0');
		if (p == d || (*p && !blank(*p))) {
			numeric = false;
			while (*p && !blank(*p))
				p++;
		}
		tl = (size_t)(p - t);

		/* Collapsed copy, truncated to what raw[] holds. */
		if (n && n < sizeof(out->raw) - 1)
			out->raw[n++] = ' ';
		room = sizeof(out->raw) - 1 - n;
		memcpy(out->raw + n, t, tl < room ? tl : room);
		n += tl < room ? tl : room;

		if (!numeric)
			continue;
		if (p - d > 18) {
			if (dec_s64(t, tl, &v) < 0)
				overflow = true;
		} else {
			v = neg ? (int64_t)(0 - x) : (int64_t)x;
		}
		if (!overflow && nvals < NP_SYSCTL_VALS)
			out->v[nvals++] = v;
	}
	/* Truncation may have stopped right after a separator. */
	while (n && out->raw[n - 1] == ' ')
		n--;
	out->raw[n] = '\0';
	if (!numeric || overflow) {
		memset(out->v, 0, sizeof(out->v));
		return numeric ? -ERANGE : 0;
	}
	out->nvals = nvals;
	return 0;
}
