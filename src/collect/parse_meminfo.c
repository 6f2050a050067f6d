// SPDX-License-Identifier: GPL-2.0-only
/* /proc/meminfo: MemTotal and MemAvailable ("MemTotal:   24570956 kB") in bytes. */
#include "parse.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static bool next_tok(const char *l, size_t ll, size_t *i, const char **t, size_t *tl)
{
	while (*i < ll && is_blank(l[*i]))
		(*i)++;
	if (*i == ll)
		return false;
	*t = l + *i;
	while (*i < ll && !is_blank(l[*i]))
		(*i)++;
	*tl = (size_t)(l + *i - *t);
	return true;
}

static bool next_line(const char *buf, size_t len, size_t *pos, const char **l, size_t *ll)
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

static bool dec_u64(const char *t, size_t tl, uint64_t *v)
{
	uint64_t x = 0;

	if (!tl)
		return false;
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

/* "value [kB]" after the key; the kernel prints kB for every size (HugePages_* have no unit). */
static int value_bytes(const char *l, size_t ll, size_t i, uint64_t *bytes)
{
	const char *t, *u, *x;
	size_t tl, ul, xl;
	uint64_t v;

	if (!next_tok(l, ll, &i, &t, &tl) || !dec_u64(t, tl, &v))
		return -EINVAL;
	if (!next_tok(l, ll, &i, &u, &ul)) {
		*bytes = v;
		return 0;
	}
	if (ul != 2 || memcmp(u, "kB", 2) || next_tok(l, ll, &i, &x, &xl))
		return -EINVAL;
	if (v > UINT64_MAX / 1024)
		return -ERANGE;
	*bytes = v * 1024;
	return 0;
}

/*
 * MemAvailable is missing before 3.14 and stays NP_NA. Without a usable MemTotal the file is not
 * meminfo: -EINVAL (or -ERANGE on overflow) with both values NP_NA. A bad MemAvailable line
 * after a good MemTotal: -EBADMSG, MemTotal kept.
 */
int np_parse_meminfo(const char *buf, size_t len, struct np_meminfo *out)
{
	const char *l, *k;
	size_t ll, kl, pos = 0;
	uint64_t total = NP_NA, avail = NP_NA;
	int err = 0;

	out->mem_total = NP_NA;
	out->mem_available = NP_NA;
	if (!buf)
		return -EINVAL;
	while (next_line(buf, len, &pos, &l, &ll)) {
		size_t i = 0;
		uint64_t *dst;
		int e;

		if (!next_tok(l, ll, &i, &k, &kl))
			continue;
		if (kl == 9 && !memcmp(k, "MemTotal:", 9))
			dst = &total;
		else if (kl == 13 && !memcmp(k, "MemAvailable:", 13))
			dst = &avail;
		else
			continue;
		e = value_bytes(l, ll, i, dst);
		if (e)
			err = e;
	}
	if (total == NP_NA)
		return err ? err : -EINVAL;
	out->mem_total = total;
	out->mem_available = avail;
	/* MemTotal was fine but MemAvailable was not: partial. */
	return err ? -EBADMSG : 0;
}
