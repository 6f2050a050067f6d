// SPDX-License-Identifier: GPL-2.0-only
/* /proc/stat's per-CPU times, for how busy each end's busiest CPU was during a path test. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "path_host.h"

int np_cpu_times_read(struct np_cpu_times *t, size_t max)
{
	char line[512];
	size_t n = 0;
	FILE *f = fopen("/proc/stat", "re");

	if (!f)
		return -errno;
	memset(t, 0, max * sizeof(*t));
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v[8] = { 0 };
		unsigned cpu;

		/* "cpuN user nice system idle iowait irq softirq steal ..." */
		if (sscanf(line, "cpu%u %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0],
			   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) < 8 || cpu >= max)
			continue;
		t[cpu].total = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
		t[cpu].idle = v[3] + v[4];
		t[cpu].irq = v[5] + v[6];
		if (cpu + 1 > n)
			n = cpu + 1;
	}
	fclose(f);
	return (int)n;
}

void np_cpu_busiest(const struct np_cpu_times *a, const struct np_cpu_times *b, size_t n,
		    double *busy_share, double *irq_share)
{
	*busy_share = *irq_share = NAN;
	for (size_t i = 0; i < n; i++) {
		double dt = (double)(b[i].total - a[i].total);
		double busy, irq;

		if (b[i].total <= a[i].total)
			continue;
		busy = 1 - (double)(b[i].idle - a[i].idle) / dt;
		irq = (double)(b[i].irq - a[i].irq) / dt;
		if (!(*busy_share >= busy))
			*busy_share = busy;
		if (!(*irq_share >= irq))
			*irq_share = irq;
	}
}
