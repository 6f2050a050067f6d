// SPDX-License-Identifier: GPL-2.0-only
/* The default route's interface from /proc/net/route and /proc/net/ipv6_route. */
#include "parse.h"
#include "parse_util.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#define RTF_UP		0x0001
#define RTF_REJECT	0x0200

/* /proc/net/route prints the u32 metric with %d: large metrics come out negative. */
static bool metric_u32(const char *t, size_t tl, uint32_t *v)
{
	bool neg = tl && t[0] == '-';
	uint64_t x;

	if (neg) {
		t++;
		tl--;
	}
	/* %d prints at most ten digits: a longer token, even zero-padded, is not the kernel's. */
	if (tl > 10 || !np_tok_u64(t, tl, &x))
		return false;
	if (x > (neg ? (uint64_t)INT32_MAX + 1 : UINT32_MAX))
		return false;
	*v = neg ? (uint32_t)(0 - x) : (uint32_t)x;
	return true;
}

static bool all_zero(const char *t, size_t tl)
{
	for (size_t i = 0; i < tl; i++)
		if (t[i] != '0')
			return false;
	return true;
}

/* A 128-bit address as ipv6_route prints it: exactly 32 hex digits. */
static bool addr6(const char *t, size_t tl)
{
	uint32_t v;

	return tl == 32 && np_tok_hex32(t, 8, &v) && np_tok_hex32(t + 8, 8, &v) &&
	       np_tok_hex32(t + 16, 8, &v) && np_tok_hex32(t + 24, 8, &v);
}

struct best {
	bool found;
	uint32_t metric;
	const char *name;
	size_t nl;
};

/* Lowest metric wins; on a tie the first one seen stays. */
static void consider(struct best *b, const char *name, size_t nl, uint32_t metric)
{
	/* A NUL inside the name (garbage, never the kernel's) would hand back a cut name. */
	if (memchr(name, '\0', nl))
		return;
	if (b->found && metric >= b->metric)
		return;
	b->found = true;
	b->metric = metric;
	b->name = name;
	b->nl = nl;
}

/*
 * -ENOENT: no default route; -EINVAL: nothing we could read as a route table (rows we cannot
 * parse are skipped while at least one row parses); -ENOSPC: the name does not fit.
 */
static int result(const struct best *b, bool any_row, bool bad_row, char *ifname, size_t size)
{
	if (!b->found)
		return bad_row && !any_row ? -EINVAL : -ENOENT;
	if (b->nl >= size)
		return -ENOSPC;
	memcpy(ifname, b->name, b->nl);
	ifname[b->nl] = '\0';
	return 0;
}

/* Iface Destination Gateway Flags RefCnt Use Metric Mask MTU Window IRTT */
int np_parse_route_default(const char *buf, size_t len, char *ifname, size_t size)
{
	const char *l;
	size_t ll, pos = 0;
	struct best b = { 0 };
	bool header = false, any_row = false, bad_row = false;

	if (!ifname || !size)
		return -EINVAL;
	ifname[0] = '\0';
	if (!buf)
		return -EINVAL;
	while (np_line_next(buf, len, &pos, &l, &ll)) {
		const char *f[8];
		size_t fl[8], i = 0, k;
		uint32_t dst, flags, metric, mask;

		for (k = 0; k < 8 && np_tok_next(l, ll, &i, &f[k], &fl[k]); k++)
			;
		if (!k)
			continue;
		if (!header) {
			if (!np_tok_eq(f[0], fl[0], "Iface"))
				return -EINVAL;
			header = true;
			continue;
		}
		if (k < 8 || !np_tok_hex32(f[1], fl[1], &dst) || !np_tok_hex32(f[3], fl[3], &flags) ||
		    !metric_u32(f[6], fl[6], &metric) || !np_tok_hex32(f[7], fl[7], &mask)) {
			bad_row = true;
			continue;
		}
		any_row = true;
		/* Unreachable/prohibit routes show as iface "*" with RTF_REJECT. */
		if (dst || mask || !(flags & RTF_UP) || (flags & RTF_REJECT) ||
		    (fl[0] == 1 && f[0][0] == '*'))
			continue;
		consider(&b, f[0], fl[0], metric);
	}
	if (!header)
		return -EINVAL;
	return result(&b, any_row, bad_row, ifname, size);
}

/* dest dest_plen src src_plen nexthop metric refcnt use flags iface, all hex, no header. */
int np_parse_ipv6_route_default(const char *buf, size_t len, char *ifname, size_t size)
{
	const char *l;
	size_t ll, pos = 0;
	struct best b = { 0 };
	bool any_row = false, bad_row = false;

	if (!ifname || !size)
		return -EINVAL;
	ifname[0] = '\0';
	if (!buf)
		return -EINVAL;
	while (np_line_next(buf, len, &pos, &l, &ll)) {
		const char *f[10], *x;
		size_t fl[10], xl, i = 0, k;
		uint32_t plen, splen, metric, flags, v;

		for (k = 0; k < 10 && np_tok_next(l, ll, &i, &f[k], &fl[k]); k++)
			;
		if (!k)
			continue;
		if (k < 10 || np_tok_next(l, ll, &i, &x, &xl) || !addr6(f[0], fl[0]) ||
		    !addr6(f[2], fl[2]) || !addr6(f[4], fl[4]) || !np_tok_hex32(f[1], fl[1], &plen) ||
		    !np_tok_hex32(f[3], fl[3], &splen) ||
		    !np_tok_hex32(f[5], fl[5], &metric) || !np_tok_hex32(f[6], fl[6], &v) ||
		    !np_tok_hex32(f[7], fl[7], &v) || !np_tok_hex32(f[8], fl[8], &flags)) {
			bad_row = true;
			continue;
		}
		any_row = true;
		/*
		 * The kernel's own "unreachable" default sits on lo with RTF_REJECT; a default with
		 * a source prefix applies only to some sources, so it is not "the" default.
		 */
		if (plen || splen || !all_zero(f[0], fl[0]) || !(flags & RTF_UP) ||
		    (flags & RTF_REJECT) || np_tok_eq(f[9], fl[9], "lo"))
			continue;
		consider(&b, f[9], fl[9], metric);
	}
	return result(&b, any_row, bad_row, ifname, size);
}
