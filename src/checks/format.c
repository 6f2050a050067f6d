// SPDX-License-Identifier: GPL-2.0-only
/* Numbers for people: digit groups (the locale's, set by main), binary byte units, bit rates,
 * CPU masks; and the word lists sysctls hold. */
#include "check_util.h"
#include "npfloor.h"
#include "strcopy.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* "%.0f" of an integral v below 2^53 in magnitude, by hand: printf's floating-point path was a
 * tenth of a doctor pass's formatting. False when v is not such a number (or is -0: "-0"). */
bool np_fmt_integral(double v, char *out, size_t size)
{
	char tmp[24];
	size_t n = 0, len = 0;
	unsigned long long u;

	if (v != np_floor(v) || fabs(v) >= 9007199254740992.0 || (v == 0 && signbit(v)))
		return false;
	u = (unsigned long long)fabs(v);
	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		tmp[n++] = '-';
	if (n + 1 > size)
		return false;
	while (n)
		out[len++] = tmp[--n];
	out[len] = '\0';
	return true;
}

/* "%.0f %s" of v and unit: by hand when v is integral (np_fmt_integral). */
static void int_unit(double v, const char *unit, char *buf, size_t size)
{
	char num[24];

	if (np_fmt_integral(v, num, sizeof(num))) {
		size_t n = np_strcopy(buf, size, num);

		if (n + 1 < size) {
			buf[n] = ' ';
			np_strcopy(buf + n + 1, size - n - 1, unit);
		}
		return;
	}
	snprintf(buf, size, "%.0f %s", v, unit);
}

const char *np_fmt_bytes(double bytes, char *buf, size_t size)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	int u = 0;

	while (bytes >= 1024 && u < 5) {
		bytes /= 1024;
		u++;
	}
	if (u == 0 || bytes >= 100 || bytes == (double)(long long)bytes)
		int_unit(bytes, units[u], buf, size);
	else
		snprintf(buf, size, "%.1f %s", bytes, units[u]);
	return buf;
}

const char *np_fmt_bps(double bps, char *buf, size_t size)
{
	static const char *const units[] = { "bit/s", "Kbit/s", "Mbit/s", "Gbit/s", "Tbit/s" };
	int u = 0;

	while (bps >= 1000 && u < 4) {
		bps /= 1000;
		u++;
	}
	if (bps == (double)(long long)bps)
		int_unit(bps, units[u], buf, size);
	else
		snprintf(buf, size, "%.1f %s", bps, units[u]);
	return buf;
}

/* The separator between groups of three digits in text for people. "," until main() sets it from
 * the locale (np_text_locale_init): the unit tests see the historical form, netpath itself groups
 * only in human text and only where LC_NUMERIC says so; "" never groups. */
static char group_sep[8] = ",";

void np_fmt_set_group_sep(const char *sep)
{
	np_strcopy(group_sep, sizeof(group_sep), sep ? sep : "");
}

const char *np_fmt_group_sep(void)
{
	return group_sep;
}

const char *np_fmt_group(const char *digits, char *buf, size_t size)
{
	size_t len = strlen(digits), sl = strlen(group_sep), o = 0;
	size_t lead = digits[0] == '-' ? 1 : 0;

	if (!size)
		return buf;
	for (size_t i = 0; i < len && o + 1 < size; i++) {
		if (i > lead && (len - i) % 3 == 0 && sl) {
			if (o + sl + 1 >= size)
				break;
			memcpy(buf + o, group_sep, sl);
			o += sl;
		}
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
	return buf;
}

const char *np_fmt_num(double v, char *buf, size_t size)
{
	char tmp[32];

	if (v < 10 && v != (double)(long long)v) {
		snprintf(buf, size, "%.1f", v);
		return buf;
	}
	if (!np_fmt_integral(v, tmp, sizeof(tmp)))
		snprintf(tmp, sizeof(tmp), "%.0f", v);
	return np_fmt_group(tmp, buf, size);
}

const char *np_fmt_rate(double v)
{
	static _Thread_local char ring[8][40];
	static _Thread_local unsigned next;
	char *buf = ring[next++ % 8];

	return np_fmt_num(v, buf, sizeof(ring[0]));
}

void np_fmt_cpumask(const struct np_cpuset *m, char *buf, size_t size)
{
	int hi = -1;
	size_t len = 0;

	for (int cpu = 0; cpu < NP_MAX_CPUS; cpu++)
		if (np_cpuset_has(m, (unsigned)cpu))
			hi = cpu;
	if (hi < 0) {
		snprintf(buf, size, "0");
		return;
	}
	for (int g = hi / 32; g >= 0 && len < size; g--) {
		uint32_t w = (uint32_t)(m->w[g / 2] >> (32 * (g % 2)));

		len += (size_t)snprintf(buf + len, size - len, g == hi / 32 ? "%x" : ",%08x", w);
	}
}

bool np_word_in(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; p && *p;) {
		while (*p == ' ')
			p++;
		if (!strncmp(p, word, n) && (p[n] == ' ' || p[n] == '\0'))
			return true;
		p = strchr(p, ' ');
	}
	return false;
}
