// SPDX-License-Identifier: GPL-2.0-only
/* Numbers for people: thousands separators, binary byte units, bit rates, CPU masks; and the
 * word lists sysctls hold. */
#include "check_util.h"

#include <stdio.h>
#include <string.h>

const char *np_fmt_bytes(double bytes, char *buf, size_t size)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	int u = 0;

	while (bytes >= 1024 && u < 5) {
		bytes /= 1024;
		u++;
	}
	if (u == 0 || bytes >= 100 || bytes == (double)(long long)bytes)
		snprintf(buf, size, "%.0f %s", bytes, units[u]);
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
		snprintf(buf, size, "%.0f %s", bps, units[u]);
	else
		snprintf(buf, size, "%.1f %s", bps, units[u]);
	return buf;
}

const char *np_fmt_num(double v, char *buf, size_t size)
{
	char tmp[32];
	size_t len, o = 0;

	if (v < 10 && v != (double)(long long)v) {
		snprintf(buf, size, "%.1f", v);
		return buf;
	}
	len = (size_t)snprintf(tmp, sizeof(tmp), "%.0f", v);
	for (size_t i = 0; i < len && o + 1 < size; i++) {
		if (i && (len - i) % 3 == 0 && o + 2 < size)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = '\0';
	return buf;
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
