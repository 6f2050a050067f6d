// SPDX-License-Identifier: GPL-2.0-only
/* /proc/meminfo: MemTotal and MemAvailable ("MemTotal:   24570956 kB") in bytes. */
#include "parse.h"
#include "parse_util.h"

#include <errno.h>
#include <stdbool.h>

/* "value [kB]" after the key; the kernel prints kB for every size (HugePages_* have no unit). */
static int value_bytes(const char *l, size_t ll, size_t i, uint64_t *bytes)
{
	const char *t, *u, *x;
	size_t tl, ul, xl;
	uint64_t v;

	if (!np_tok_next(l, ll, &i, &t, &tl) || !np_tok_u64(t, tl, &v))
		return -EINVAL;
	if (!np_tok_next(l, ll, &i, &u, &ul)) {
		*bytes = v;
		return 0;
	}
	if (!np_tok_eq(u, ul, "kB") || np_tok_next(l, ll, &i, &x, &xl))
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
	while (np_line_next(buf, len, &pos, &l, &ll)) {
		size_t i = 0;
		uint64_t *dst;
		int e;

		if (!np_tok_next(l, ll, &i, &k, &kl))
			continue;
		if (np_tok_eq(k, kl, "MemTotal:"))
			dst = &total;
		else if (np_tok_eq(k, kl, "MemAvailable:"))
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
