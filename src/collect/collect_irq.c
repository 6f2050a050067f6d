// SPDX-License-Identifier: GPL-2.0-only
/* IRQ collector: the device's interrupt lines, their per-CPU counts and affinity. */
#include "collect.h"
#include "parse.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEV_IRQS 4096

/* MSI/MSI-X vectors of the device: the names in /proc/interrupts are only a heuristic, the
 * msi_irqs directory is the truth (it also lists management vectors, classified by name). */
static size_t device_irqs(const struct np_ctx *ctx, const char *ifname, unsigned *irqs)
{
	char pci[128], path[192];
	struct dirent *de;
	size_t n = 0;
	uint64_t legacy;
	DIR *d;

	if (np_pci_dir(ctx, ifname, pci, sizeof(pci)) < 0)
		return 0;
	snprintf(path, sizeof(path), "%s/msi_irqs", pci);
	if (np_opendir(ctx, NP_SYS, path, &d) == 0) {
		while ((de = readdir(d)) && n < MAX_DEV_IRQS) {
			char *end;
			unsigned long v = strtoul(de->d_name, &end, 10);

			if (end != de->d_name && *end == '\0')
				irqs[n++] = (unsigned)v;
		}
		closedir(d);
	}
	if (n == 0) {
		snprintf(path, sizeof(path), "%s/irq", pci);
		if (np_read_u64(ctx, NP_SYS, path, &legacy) == 0 && legacy > 0 && legacy < UINT32_MAX)
			irqs[n++] = (unsigned)legacy;
	}
	return n;
}

static void read_affinity(const struct np_ctx *ctx, struct np_irq_line *l, int *denied)
{
	char path[64], buf[4200];
	int r;

	snprintf(path, sizeof(path), "irq/%u/smp_affinity_list", l->irq);
	r = np_read_str(ctx, NP_PROC, path, buf, sizeof(buf));
	l->has_affinity = r >= 0 && np_parse_cpulist(buf, &l->affinity) == 0;
	*denied |= r == -EACCES || r == -EPERM;
	snprintf(path, sizeof(path), "irq/%u/effective_affinity_list", l->irq);
	r = np_read_str(ctx, NP_PROC, path, buf, sizeof(buf));
	l->has_effective = r >= 0 && np_parse_cpulist(buf, &l->effective) == 0;
}

void np_collect_irqs(const struct np_ctx *ctx, struct np_snapshot *s)
{
	unsigned *irqs = calloc(MAX_DEV_IRQS, sizeof(*irqs));
	char pattern[2][80], dev[64], path[96];
	const char *names[2];
	struct np_irq_filter f = { 0 };
	int r, denied = 0, naff = 0;
	char *buf;
	size_t len;

	if (!irqs) {
		np_src_set(s, NP_SRC_INTERRUPTS, -ENOMEM, NULL);
		return;
	}
	f.irqs = irqs;
	f.nirqs = device_irqs(ctx, s->ifname, irqs);
	/* Drivers name their vectors "<if>-TxRx-N", "<drv>-<if>-TxRx-N"; virtio uses the virtio
	 * device name ("virtio2-input.0"). */
	snprintf(pattern[0], sizeof(pattern[0]), "%s-", s->ifname);
	names[f.nnames++] = pattern[0];
	snprintf(path, sizeof(path), "class/net/%s/device", s->ifname);
	if (np_read_link_base(ctx, NP_SYS, path, dev, sizeof(dev)) == 0 &&
	    strncmp(dev, "virtio", 6) == 0) {
		snprintf(pattern[1], sizeof(pattern[1]), "%s-", dev);
		names[f.nnames++] = pattern[1];
	}
	f.names = names;

	r = np_read_file(ctx, NP_PROC, "interrupts", &buf, &len);
	if (r == 0) {
		r = np_parse_interrupts(buf, len, &f, &s->irqs);
		free(buf);
	}
	free(irqs);
	np_src_set(s, NP_SRC_INTERRUPTS, r, NULL);
	if (r < 0) {
		np_src_set(s, NP_SRC_IRQ_AFFINITY, r, NULL);
		return;
	}
	for (size_t i = 0; i < s->irqs.n; i++) {
		read_affinity(ctx, &s->irqs.lines[i], &denied);
		naff += s->irqs.lines[i].has_affinity;
	}
	if (s->irqs.n == 0)
		np_src_set(s, NP_SRC_IRQ_AFFINITY, -ENOENT, "the device has no IRQ of its own");
	else if (naff == 0)
		np_src_set(s, NP_SRC_IRQ_AFFINITY, denied ? -EACCES : -ENOENT, NULL);
	else
		np_src_set(s, NP_SRC_IRQ_AFFINITY, 0, NULL);
}
