// SPDX-License-Identifier: GPL-2.0-only
/* CPU list ("0-3,8") and hex mask ("ff,00000001") text into a struct np_cpuset. */
#include "parse.h"
#include "parse_util.h"

#include <errno.h>
#include <stdbool.h>

/* Decimal CPU number at *p; -ERANGE past NP_MAX_CPUS so a huge id cannot wrap. */
static int parse_cpu(const char **p, unsigned *cpu)
{
	const char *s = *p;
	unsigned v = 0;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	while (*s >= '0' && *s <= '9') {
		v = v * 10 + (unsigned)(*s - '0');
		if (v >= NP_MAX_CPUS)
			return -ERANGE;
		s++;
	}
	*p = s;
	*cpu = v;
	return 0;
}

static int cpulist(const char *s, struct np_cpuset *out)
{
	while (np_is_space(*s))
		s++;
	if (!*s)
		return 0;
	for (;;) {
		unsigned lo, hi;
		int err = parse_cpu(&s, &lo);

		if (err)
			return err;
		hi = lo;
		if (*s == '-') {
			s++;
			err = parse_cpu(&s, &hi);
			if (err)
				return err;
			if (hi < lo)
				return -EINVAL;
		}
		for (unsigned c = lo; c <= hi; c++)
			np_cpuset_set(out, c);
		if (*s != ',')
			break;
		s++;
	}
	while (np_is_space(*s))
		s++;
	return *s ? -EINVAL : 0;
}

int np_parse_cpulist(const char *s, struct np_cpuset *out)
{
	int err;

	np_cpuset_zero(out);
	if (!s)
		return -EINVAL;
	err = cpulist(s, out);
	if (err)
		np_cpuset_zero(out);
	return err;
}

/*
 * Two passes: the first validates and counts the groups, because the bit offset of a group
 * depends on how many groups follow it.
 */
int np_parse_cpumask(const char *s, struct np_cpuset *out)
{
	const char *p, *end;
	size_t ngroups = 1, g = 0, digits = 0;
	uint32_t v = 0;

	np_cpuset_zero(out);
	if (!s)
		return -EINVAL;
	while (np_is_space(*s))
		s++;
	end = s;
	while (*end && !np_is_space(*end))
		end++;
	for (p = end; *p; p++)
		if (!np_is_space(*p))
			return -EINVAL;
	if (end == s)
		return -EINVAL;
	for (p = s; p < end; p++) {
		if (*p == ',') {
			if (!digits)
				return -EINVAL;
			ngroups++;
			digits = 0;
		} else if (np_hex_digit(*p) < 0 || ++digits > 8) {
			return -EINVAL;
		}
	}
	if (!digits)
		return -EINVAL;

	for (p = s; p <= end; p++) {
		if (p == end || *p == ',') {
			/* Group g starts at bit (ngroups-1-g)*32; leading zero groups are fine. */
			size_t base = (ngroups - 1 - g) * 32;

			/* Stops at the highest set bit: most groups of a wide mask are 0. */
			for (unsigned b = 0; b < 32 && v >> b; b++) {
				if (!(v >> b & 1))
					continue;
				if (base + b >= NP_MAX_CPUS) {
					np_cpuset_zero(out);
					return -ERANGE;
				}
				np_cpuset_set(out, (unsigned)(base + b));
			}
			g++;
			v = 0;
			continue;
		}
		v = v << 4 | (uint32_t)np_hex_digit(*p);
	}
	return 0;
}
