// SPDX-License-Identifier: GPL-2.0-only
/*
 * IRQ collector: the device's interrupt lines, their per-CPU counts and affinity.
 *
 * The IRQs are found by the device, not by their names, in this order:
 *   1. the device's MSI/MSI-X vectors (device/msi_irqs/N), or its legacy INTx line
 *      (device/irq), of the net device's own device or its parent (virtio_net's device is a
 *      virtio bus device whose parent is the PCI function);
 *   2. /proc/irq/N/<action>: the directories named after each IRQ's handlers, for trees
 *      (captures) that carry /proc/irq but not the device's sysfs directory;
 *   3. the action names in /proc/interrupts, as a last resort: "<if>", "<if>-<anything>",
 *      "<drv>-<if>-<anything>", "virtioN-*", and names carrying the PCI address
 *      ("mlx5_comp3@pci:0000:41:00.0", "i40e-0000:03:00.0:misc").
 * The names then tell the queue vectors from the management ones (np_irq_role_from_name); a
 * device whose vectors carry no queue hint at all ("eth0" INTx, e1000e's single MSI
 * "enp0s25", mlx4_en's "eth6-0".."eth6-7") has its traffic on those vectors.
 */
#include "collect.h"
#include "parse.h"
#include "strjoin.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEV_IRQS 4096

struct dev_names {
	const char *ifname;
	char virtio[32];	/* "virtio2" when the device is a virtio bus device */
	char bdf[32];		/* PCI address of the function, "" when unknown */
};

/* Numeric entries of a directory (msi_irqs/, /proc/irq/) appended to irqs. */
static size_t numeric_entries(DIR *d, unsigned *irqs, size_t n)
{
	struct dirent *de;

	while ((de = readdir(d)) && n < MAX_DEV_IRQS) {
		char *end;
		unsigned long v = strtoul(de->d_name, &end, 10);

		if (isdigit((unsigned char)de->d_name[0]) && *end == '\0' && v < UINT32_MAX)
			irqs[n++] = (unsigned)v;
	}
	return n;
}

/* 1. MSI vectors or the INTx line of the device itself, then of its parent. */
static size_t sysfs_irqs(const struct np_ctx *ctx, const struct dev_names *dn, unsigned *irqs)
{
	const char *ifname = dn->ifname;
	static const char *const dirs[] = { "device", "device/.." };
	char path[192];
	size_t n = 0;

	for (size_t i = 0; i < 2 && !n; i++) {
		uint64_t legacy;
		DIR *d;

		/* The parent of a PCI function is a bridge or root port: its vectors (AER, PME)
		 * are not the NIC's. Only a virtio device's parent is its own PCI function. */
		if (i == 1 && !dn->virtio[0])
			break;
		np_strjoin(path, sizeof(path), "class/net/", ifname, "/", dirs[i], "/msi_irqs");
		if (np_opendir(ctx, NP_SYS, path, &d) == 0) {
			n = numeric_entries(d, irqs, n);
			closedir(d);
		}
		if (n)
			break;
		/* "irq" is 0 when the function has no INTx line (MSI-only). The parent of a PCI
		 * function is a bridge whose irq is not ours; that of a virtio device is its
		 * PCI function. */
		np_strjoin(path, sizeof(path), "class/net/", ifname, "/", dirs[i], "/irq");
		if ((i == 0 || dn->virtio[0]) && np_read_u64(ctx, NP_SYS, path, &legacy) == 0 && legacy > 0 &&
		    legacy < UINT32_MAX)
			irqs[n++] = (unsigned)legacy;
	}
	return n;
}

/* Does one action name ("eth0-TxRx-3", "i40e-eth0-TxRx-0", "mlx5_comp2@pci:...") belong to
 * the device? Token boundaries matter: "veth1-..." is not eth1's, "eth10-..." not eth1's. */
static bool action_is_ours(const char *a, size_t al, const struct dev_names *dn)
{
	size_t il = strlen(dn->ifname), vl = strlen(dn->virtio), bl = strlen(dn->bdf);

	if (al == il && !memcmp(a, dn->ifname, il))
		return true;
	if (al > il && !memcmp(a, dn->ifname, il) && a[il] == '-')
		return true;
	/* "<drv>-<if>-...": i40e, ice, iavf prefix their driver name. */
	for (size_t k = 1; k + il + 1 < al; k++) {
		if (a[k - 1] == '-') {
			if (!memcmp(a + k, dn->ifname, il) && a[k + il] == '-')
				return true;
			break;	/* only the first dash separates the driver name */
		}
	}
	if (vl && al > vl && !memcmp(a, dn->virtio, vl) && a[vl] == '-')
		return true;
	if (bl)
		for (size_t k = 0; k + bl <= al; k++)
			if (!memcmp(a + k, dn->bdf, bl))
				return true;
	return false;
}

/* A /proc/interrupts action field may list several handlers: "ehci_hcd:usb1, eth0". */
static bool name_is_ours(const char *name, const struct dev_names *dn)
{
	const char *p = name;

	while (*p) {
		size_t l;

		while (*p == ' ' || *p == ',')
			p++;
		l = strcspn(p, ",");
		while (l && p[l - 1] == ' ')
			l--;
		if (l && action_is_ours(p, l, dn))
			return true;
		p += strcspn(p, ",");
	}
	return false;
}

/* 2. /proc/irq/N/<action> directories naming one of ours. */
static size_t procfs_irqs(const struct np_ctx *ctx, const struct dev_names *dn, unsigned *irqs)
{
	unsigned *all = calloc(MAX_DEV_IRQS, sizeof(*all));
	size_t nall = 0, n = 0;
	DIR *d;

	if (!all)
		return 0;
	if (np_opendir(ctx, NP_PROC, "irq", &d) == 0) {
		nall = numeric_entries(d, all, 0);
		closedir(d);
	}
	for (size_t i = 0; i < nall && n < MAX_DEV_IRQS; i++) {
		struct dirent *de;
		char path[32], num[NP_UDEC_MAX];
		DIR *id;

		np_strjoin(path, sizeof(path), "irq/", np_udec(num, all[i]));
		if (np_opendir(ctx, NP_PROC, path, &id) < 0)
			continue;
		while ((de = readdir(id))) {
			if (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN)
				continue;
			if (de->d_name[0] == '.' || !strcmp(de->d_name, "node"))
				continue;
			if (action_is_ours(de->d_name, strlen(de->d_name), dn)) {
				irqs[n++] = all[i];
				break;
			}
		}
		closedir(id);
	}
	free(all);
	return n;
}

/* Management vectors carry no receive traffic, whatever else their name says. Only what
 * follows the interface's name counts: an interface called mgmt0 is no management vector. */
static bool management_name(const char *name, const char *ifname)
{
	static const char *const words[] = { "config", "misc", "async", "mgmnt", "mgmt", "ctrl",
					     "aer", "fdir", "lsc", "other", "err" };
	const char *own = strstr(name, ifname);

	if (!strcmp(name, ifname))
		return false;
	if (own)
		name = own + strlen(ifname);
	for (size_t k = 0; k < sizeof(words) / sizeof(words[0]); k++)
		if (strstr(name, words[k]))
			return true;
	return false;
}

/* "<if>-<digits>": mlx4_en's per-ring completion vectors ("eth6-0"). */
static bool ring_number_name(const char *name, const char *ifname)
{
	size_t il = strlen(ifname);
	const char *p = name + il + 1;

	if (strncmp(name, ifname, il) || name[il] != '-' || !*p)
		return false;
	for (; *p; p++)
		if (!isdigit((unsigned char)*p))
			return false;
	return true;
}

/*
 * Queue vectors whose names carry no rx/tx hint: mlx4_en's "<if>-<n>" always; otherwise,
 * when none of the device's vectors is named as a queue, every non-management vector carries
 * its traffic (a legacy INTx "eth0", e1000e's single MSI "enp0s25", xen-netfront's "eth0").
 */
static void settle_roles(struct np_interrupts *irqs, const char *ifname)
{
	bool any_queue = false;

	for (size_t i = 0; i < irqs->n; i++) {
		struct np_irq_line *l = &irqs->lines[i];

		if (l->role == NP_IRQ_OTHER && ring_number_name(l->name, ifname))
			l->role = NP_IRQ_TXRX;
		any_queue |= l->role == NP_IRQ_RX || l->role == NP_IRQ_TXRX;
	}
	if (any_queue)
		return;
	for (size_t i = 0; i < irqs->n; i++)
		if (irqs->lines[i].role == NP_IRQ_OTHER &&
		    !management_name(irqs->lines[i].name, ifname))
			irqs->lines[i].role = NP_IRQ_TXRX;
}

static void read_affinity(const struct np_ctx *ctx, struct np_irq_line *l, int *denied)
{
	char path[64], buf[4200], num[NP_UDEC_MAX];
	const char *irq = np_udec(num, l->irq);
	int r;

	np_strjoin(path, sizeof(path), "irq/", irq, "/smp_affinity_list");
	r = np_read_str(ctx, NP_PROC, path, buf, sizeof(buf));
	l->has_affinity = r >= 0 && np_parse_cpulist(buf, &l->affinity) == 0;
	*denied |= r == -EACCES || r == -EPERM;
	np_strjoin(path, sizeof(path), "irq/", irq, "/effective_affinity_list");
	r = np_read_str(ctx, NP_PROC, path, buf, sizeof(buf));
	l->has_effective = r >= 0 && np_parse_cpulist(buf, &l->effective) == 0;
}

static void device_names(const struct np_ctx *ctx, const struct np_snapshot *s,
			 struct dev_names *dn)
{
	char path[96], dev[64];

	memset(dn, 0, sizeof(*dn));
	dn->ifname = s->ifname;
	np_strjoin(path, sizeof(path), "class/net/", s->ifname, "/device");
	if (np_read_link_base(ctx, NP_SYS, path, dev, sizeof(dev)) == 0) {
		if (strncmp(dev, "virtio", 6) == 0)
			np_strjoin(dn->virtio, sizeof(dn->virtio), dev);
		/* A PCI address "dddd:bb:dd.f": long enough not to match by accident. */
		else if (strlen(dev) == 12 && dev[4] == ':' && dev[7] == ':' && dev[10] == '.')
			np_strjoin(dn->bdf, sizeof(dn->bdf), dev);
	}
	if (!dn->bdf[0] && s->dev.bus_id[0])
		np_strjoin(dn->bdf, sizeof(dn->bdf), s->dev.bus_id);
}

/* Rows of /proc/interrupts are ours by number (steps 1-2) or, when those found none, by name;
 * the parser converts and keeps only those. */
static bool by_name(unsigned irq, const char *name, const void *arg)
{
	(void)irq;
	return name_is_ours(name, arg);
}

static int irq_line(const char *line, size_t len, void *p)
{
	return np_irq_parse_line(p, line, len);
}

void np_collect_irqs(const struct np_ctx *ctx, struct np_snapshot *s)
{
	unsigned *irqs = malloc(MAX_DEV_IRQS * sizeof(*irqs));	/* read up to nirqs only */
	struct np_irq_filter f = { 0 };
	struct dev_names dn;
	int r, denied = 0, naff = 0;
	size_t nirqs;
	const char *how = "by name in /proc/interrupts";
	struct np_irq_parse ip;

	if (!irqs) {
		np_src_set(s, NP_SRC_INTERRUPTS, -ENOMEM, NULL);
		return;
	}
	device_names(ctx, s, &dn);
	nirqs = sysfs_irqs(ctx, &dn, irqs);
	if (nirqs)
		how = "by the device's MSI vectors or INTx line in sysfs";
	else if (s->dev.is_virtual != 1 && (nirqs = procfs_irqs(ctx, &dn, irqs)))
		how = "by handler name in /proc/irq";

	f.irqs = irqs;
	f.nirqs = nirqs;
	/* Names are host-wide: a container's veth named eth0 must not take the host NIC's. */
	if (!nirqs && s->dev.is_virtual != 1) {
		f.match = by_name;
		f.arg = &dn;
	}
	np_irq_parse_begin(&ip, &f, &s->irqs);
	r = np_irq_parse_end(&ip, np_read_lines(ctx, NP_PROC, "interrupts", irq_line, &ip));
	if (r == 0)
		settle_roles(&s->irqs, s->ifname);
	free(irqs);
	np_src_set(s, NP_SRC_INTERRUPTS, r, r == 0 && s->irqs.n ? how : NULL);
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
