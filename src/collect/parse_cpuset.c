// SPDX-License-Identifier: GPL-2.0-only
/* CPU list ("0-3,8") and hex mask ("ff,00000001") text into a struct np_cpuset. */
#include "parse.h"

#include <errno.h>
#include <stdbool.h>

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

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
	while (is_space(*s))
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
	while (is_space(*s))
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
	while (is_space(*s))
		s++;
	end = s;
	while (*end && !is_space(*end))
		end++;
	for (p = end; *p; p++)
		if (!is_space(*p))
			return -EINVAL;
	if (end == s)
		return -EINVAL;
	for (p = s; p < end; p++) {
		if (*p == ',') {
			if (!digits)
				return -EINVAL;
			ngroups++;
			digits = 0;
		} else if (hexval(*p) < 0 || ++digits > 8) {
			return -EINVAL;
		}
	}
	if (!digits)
		return -EINVAL;

	for (p = s; p <= end; p++) {
		if (p == end || *p == ',') {
			/* Group g starts at bit (ngroups-1-g)*32; leading zero groups are fine. */
			size_t base = (ngroups - 1 - g) * 32;

			for (unsigned b = 0; b < 32; b++) {
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
		v = v << 4 | (uint32_t)hexval(*p);
	}
	return 0;
}
