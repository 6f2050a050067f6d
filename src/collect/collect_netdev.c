// SPDX-License-Identifier: GPL-2.0-only
/* sysfs collector for the interface: /sys/class/net/IF (settings, counters, queues, device). */
#include "collect.h"
#include "stack.h"
#include "parse.h"
#include "strcopy.h"
#include "strjoin.h"

#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void dev_u64(const struct np_ctx *ctx, const char *ifname, const char *file, uint64_t *out)
{
	char path[128];
	uint64_t v;

	np_strjoin(path, sizeof(path), "class/net/", ifname, "/", file);
	if (np_read_u64(ctx, NP_SYS, path, &v) == 0)
		*out = v;
}

static void dev_str(const struct np_ctx *ctx, const char *ifname, const char *file, char *buf,
		    size_t size)
{
	char path[128];

	np_strjoin(path, sizeof(path), "class/net/", ifname, "/", file);
	if (np_read_str(ctx, NP_SYS, path, buf, size) < 0)
		buf[0] = '\0';
}

static int count_queues(const struct np_ctx *ctx, const char *ifname, size_t *nrx, size_t *ntx)
{
	char path[96];
	struct dirent *de;
	DIR *d;
	int r;

	*nrx = *ntx = 0;
	np_strjoin(path, sizeof(path), "class/net/", ifname, "/queues");
	r = np_opendir(ctx, NP_SYS, path, &d);
	if (r < 0)
		return r;
	while ((de = readdir(d))) {
		unsigned q;
		char kind[3];

		/* rx-N / tx-N; N are dense from 0 in the kernel. */
		if (sscanf(de->d_name, "%2[rt]x-%u", kind, &q) != 2)
			continue;
		if (kind[0] == 'r' && q + 1 > *nrx)
			*nrx = q + 1;
		if (kind[0] == 't' && q + 1 > *ntx)
			*ntx = q + 1;
	}
	closedir(d);
	return 0;
}

static void read_queues(const struct np_ctx *ctx, struct np_netdev *d)
{
	char path[128], buf[4200], qn[NP_UDEC_MAX];

	if (count_queues(ctx, d->name, &d->n_rxq, &d->n_txq) < 0)
		return;
	d->rxq = d->n_rxq ? calloc(d->n_rxq, sizeof(*d->rxq)) : NULL;
	d->txq = d->n_txq ? calloc(d->n_txq, sizeof(*d->txq)) : NULL;
	if ((d->n_rxq && !d->rxq) || (d->n_txq && !d->txq)) {
		d->n_rxq = d->n_txq = 0;
		return;
	}
	for (size_t q = 0; q < d->n_rxq; q++) {
		uint64_t v;

		np_strjoin(path, sizeof(path), "class/net/", d->name, "/queues/rx-", np_udec(qn, q),
			   "/rps_cpus");
		d->rxq[q].has_rps = np_read_str(ctx, NP_SYS, path, buf, sizeof(buf)) >= 0 &&
				    np_parse_cpumask(buf, &d->rxq[q].rps_cpus) == 0;
		d->rxq[q].rps_flow_cnt = NP_NA;
		np_strjoin(path, sizeof(path), "class/net/", d->name, "/queues/rx-", np_udec(qn, q),
			   "/rps_flow_cnt");
		if (np_read_u64(ctx, NP_SYS, path, &v) == 0)
			d->rxq[q].rps_flow_cnt = v;
	}
	for (size_t q = 0; q < d->n_txq; q++) {
		np_strjoin(path, sizeof(path), "class/net/", d->name, "/queues/tx-", np_udec(qn, q),
			   "/xps_cpus");
		d->txq[q].has_xps = np_read_str(ctx, NP_SYS, path, buf, sizeof(buf)) >= 0 &&
				    np_parse_cpumask(buf, &d->txq[q].xps_cpus) == 0;
	}
}

static void read_device(const struct np_ctx *ctx, struct np_netdev *d)
{
	char path[160], pci[128], buf[4200];
	int64_t node;

	np_strjoin(path, sizeof(path), "class/net/", d->name, "/device");
	d->has_device = np_exists(ctx, NP_SYS, path);
	if (!d->has_device)
		return;
	np_strjoin(path, sizeof(path), "class/net/", d->name, "/device/driver");
	if (np_read_link_base(ctx, NP_SYS, path, d->driver, sizeof(d->driver)) < 0)
		d->driver[0] = '\0';
	if (np_pci_dir(ctx, d->name, pci, sizeof(pci)) < 0)
		return;
	np_strjoin(path, sizeof(path), pci, "/numa_node");
	if (np_read_s64(ctx, NP_SYS, path, &node) == 0)
		d->numa_node = node;
	np_strjoin(path, sizeof(path), pci, "/local_cpulist");
	d->has_local_cpus = np_read_str(ctx, NP_SYS, path, buf, sizeof(buf)) >= 0 &&
			    np_parse_cpulist(buf, &d->local_cpus) == 0;
	np_strjoin(path, sizeof(path), pci, "/uevent");
	if (np_read_str(ctx, NP_SYS, path, buf, sizeof(buf)) >= 0) {
		const char *slot = strstr(buf, "PCI_SLOT_NAME=");

		if (slot)
			sscanf(slot + 14, "%31[^\n]", d->bus_id);
	}
}

bool np_ifname_ok(const char *name)
{
	size_t len = strlen(name);

	/* The kernel's dev_valid_name(), and no control bytes: names reach the terminal. */
	if (!len || len >= IF_NAMESIZE || !strcmp(name, ".") || !strcmp(name, ".."))
		return false;
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)name[i] <= 0x20 || name[i] == 0x7f || name[i] == '/' ||
		    name[i] == ':')
			return false;
	return true;
}

/* lower_* links (sorted, so reports are stable) and the master link. */
static int cmp_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

static void read_members(const struct np_ctx *ctx, struct np_netdev *d)
{
	char path[96], buf[1024];
	struct dirent *de;
	DIR *dir;

	np_strjoin(path, sizeof(path), "class/net/", d->name, "/bonding/slaves");
	if (np_read_str(ctx, NP_SYS, path, buf, sizeof(buf)) >= 0) {
		for (char *tok = strtok(buf, " \t\n"); tok && d->n_lower < NP_MAX_LOWER;
		     tok = strtok(NULL, " \t\n"))
			if (np_ifname_ok(tok))
				np_strjoin(d->lower[d->n_lower++], IF_NAMESIZE, tok);
		return;
	}
	np_strjoin(path, sizeof(path), "class/net/", d->name, "/brif");
	if (np_opendir(ctx, NP_SYS, path, &dir) < 0)
		return;
	while ((de = readdir(dir)) && d->n_lower < NP_MAX_LOWER)
		if (np_ifname_ok(de->d_name))
			np_strcopy_n(d->lower[d->n_lower++], IF_NAMESIZE, de->d_name, 15);
	closedir(dir);
}

static void read_stack_links(const struct np_ctx *ctx, struct np_netdev *d)
{
	char path[96];
	struct dirent *de;
	DIR *dir;

	np_strjoin(path, sizeof(path), "class/net/", d->name, "/master");
	if (np_read_link_base(ctx, NP_SYS, path, d->master, sizeof(d->master)) < 0)
		d->master[0] = '\0';
	np_strjoin(path, sizeof(path), "class/net/", d->name);
	if (np_opendir(ctx, NP_SYS, path, &dir) < 0)
		return;
	while ((de = readdir(dir)) && d->n_lower < NP_MAX_LOWER) {
		const char *low = de->d_name + 6;

		if (!strncmp(de->d_name, "lower_", 6) && np_ifname_ok(low))
			np_strcopy_n(d->lower[d->n_lower++], IF_NAMESIZE, low, 15);
	}
	closedir(dir);
	/* Captures (node_exporter's fixtures, sosreports) often copy bonding/slaves and brif/
	 * but not the lower_* links: the same members, as the bond and the bridge list them. */
	if (!d->n_lower)
		read_members(ctx, d);
	qsort(d->lower, d->n_lower, IF_NAMESIZE, cmp_name);
}

/*
 * Virtual or not. Live, sysfs is whole: no device/ link means a virtual device. A capture may
 * simply not have copied the link, so there only positive evidence counts: a bridge or bond
 * directory, tun flags, the loopback type, or an iflink naming another device (veth peer,
 * VLAN/macvlan parent).
 */
static int virtual_kind(const struct np_ctx *ctx, struct np_netdev *d, bool captured)
{
	static const struct {
		const char *file, *kind;
	} marks[] = {
		{ "bridge", "bridge" }, { "bonding", "bond" }, { "tun_flags", "tun" },
		{ "team", "team" },
	};
	char path[128];
	uint64_t type = NP_NA, iflink = NP_NA;

	for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
		np_strjoin(path, sizeof(path), "class/net/", d->name, "/", marks[i].file);
		if (np_exists(ctx, NP_SYS, path))
			np_strjoin(d->kind_hint, sizeof(d->kind_hint), marks[i].kind);
	}
	dev_u64(ctx, d->name, "type", &type);
	if (type == 772)
		snprintf(d->kind_hint, sizeof(d->kind_hint), "loopback");
	/* /proc/net/vlan/IF exists for 802.1Q devices (sosreports copy it too). */
	np_strjoin(path, sizeof(path), "net/vlan/", d->name);
	if (!d->kind_hint[0] && np_exists(ctx, NP_PROC, path))
		snprintf(d->kind_hint, sizeof(d->kind_hint), "vlan");
	if (d->has_device)
		return 0;
	if (!captured || d->kind_hint[0])
		return 1;
	/* A copy without the device link (sosreports copy statistics/ and flags through the
	 * class/net symlink): virtual devices live under devices/virtual/net, so where the copy
	 * holds that directory, a device missing from it is a bus device. */
	np_strjoin(path, sizeof(path), "devices/virtual/net/", d->name);
	if (np_exists(ctx, NP_SYS, path))
		return 1;
	np_strjoin(path, sizeof(path), "class/net/", d->name, "/statistics");
	if (np_exists(ctx, NP_SYS, "devices/virtual/net") && np_exists(ctx, NP_SYS, path))
		return 0;
	dev_u64(ctx, d->name, "iflink", &iflink);
	if (np_has(iflink) && np_has(d->ifindex) && iflink != d->ifindex)
		return 1;
	/* Stacked on another device (lower_* links): a VLAN, macvlan, bond or bridge. */
	return d->n_lower ? 1 : -1;
}

/* A physical device's own speed in Mbit/s, NP_NA when it has none (link down, virtual). */
static uint64_t phys_speed(const struct np_ctx *ctx, const char *ifname)
{
	char path[128];
	uint64_t v = NP_NA;

	np_strjoin(path, sizeof(path), "class/net/", ifname, "/device");
	if (!np_exists(ctx, NP_SYS, path))
		return NP_NA;
	dev_u64(ctx, ifname, "speed", &v);
	return np_has(v) && v > 0 && v < UINT32_MAX ? v : NP_NA;
}

/*
 * The speed of the physical devices beneath a virtual one, through its lower_* links (VLAN and
 * macvlan parents, bond and team members, bridge ports), up to 'depth' levels: a bond counts
 * the sum of its members, anything else the fastest. NP_NA when no physical device is found
 * (a veth, a bridge without physical ports): a veth's 10000 and tun's 10 are made up.
 */
/* Directories lower_speed() may open per device: a hostile tree of 100 devices each listing
 * the 100 others must not make 100^4 of them. */
#define LOWER_SPEED_BUDGET 256

static uint64_t lower_speed_at(const struct np_ctx *ctx, const char *ifname, int depth,
			       char *via, size_t vsize, int *budget)
{
	char path[128];
	struct dirent *de;
	uint64_t best = NP_NA, sum = 0;
	bool bond;
	DIR *d;

	if (depth <= 0 || --*budget < 0)
		return NP_NA;
	np_strjoin(path, sizeof(path), "class/net/", ifname, "/bonding");
	bond = np_exists(ctx, NP_SYS, path);
	np_strjoin(path, sizeof(path), "class/net/", ifname);
	if (np_opendir(ctx, NP_SYS, path, &d) < 0)
		return NP_NA;
	while ((de = readdir(d)) && *budget > 0) {
		const char *low = de->d_name + 6;
		uint64_t v;

		if (strncmp(de->d_name, "lower_", 6) || !np_ifname_ok(low))
			continue;
		v = phys_speed(ctx, low);
		if (!np_has(v))
			v = lower_speed_at(ctx, low, depth - 1, NULL, 0, budget);
		if (!np_has(v))
			continue;
		sum += v;
		if (!np_has(best) || v > best) {
			best = v;
			if (via)
				np_strjoin(via, vsize, low);
		}
	}
	closedir(d);
	return bond && np_has(best) ? sum : best;
}

static uint64_t lower_speed(const struct np_ctx *ctx, const char *ifname, int depth,
			    char *via, size_t vsize)
{
	int budget = LOWER_SPEED_BUDGET;

	return lower_speed_at(ctx, ifname, depth, via, vsize, &budget);
}

int np_pci_dir(const struct np_ctx *ctx, const char *ifname, char *buf, size_t size)
{
	static const char *const candidates[] = { "device", "device/.." };
	char probe[192];

	/* A PCI function's directory has "config" (and "subsystem_vendor"); virtio_net's device
	 * is a virtio bus device whose parent is the PCI function. */
	for (size_t i = 0; i < 2; i++) {
		np_strjoin(buf, size, "class/net/", ifname, "/", candidates[i]);
		np_strjoin(probe, sizeof(probe), buf, "/subsystem_vendor");
		if (np_exists(ctx, NP_SYS, probe))
			return 0;
	}
	buf[0] = '\0';
	return -ENOENT;
}

void np_collect_netdev(const struct np_ctx *ctx, struct np_snapshot *s)
{
	struct np_netdev *d = &s->dev;
	char path[128];
	int64_t v;

	np_strjoin(d->name, sizeof(d->name), s->ifname);
	np_strjoin(path, sizeof(path), "class/net/", d->name);
	if (!np_exists(ctx, NP_SYS, path)) {
		np_src_set(s, NP_SRC_NETDEV, -ENODEV, "interface not found in sysfs");
		return;
	}
	dev_u64(ctx, d->name, "ifindex", &d->ifindex);
	dev_u64(ctx, d->name, "mtu", &d->mtu);
	dev_u64(ctx, d->name, "tx_queue_len", &d->tx_queue_len);
	/* speed reads -1 (unknown) or fails with EINVAL when the link is down or virtual. */
	dev_u64(ctx, d->name, "speed", &d->speed_mbps);
	if (np_has(d->speed_mbps) && (d->speed_mbps == 0 || d->speed_mbps >= UINT32_MAX))
		d->speed_mbps = NP_NA;
	dev_str(ctx, d->name, "duplex", d->duplex, sizeof(d->duplex));
	/* sysfs says "unknown" for a link without a duplex (down, virtual): not reported. */
	if (!strcmp(d->duplex, "unknown"))
		d->duplex[0] = '\0';
	dev_str(ctx, d->name, "operstate", d->operstate, sizeof(d->operstate));
	/* "carrier" cannot be read (EINVAL) while the device is administratively down. */
	np_strjoin(path, sizeof(path), "class/net/", d->name, "/carrier");
	if (np_read_s64(ctx, NP_SYS, path, &v) == 0 && (v == 0 || v == 1))
		d->carrier = (int)v;
	np_strjoin(path, sizeof(path), "class/net/", d->name, "/flags");
	{
		char fl[32];
		unsigned long flags;

		if (np_read_str(ctx, NP_SYS, path, fl, sizeof(fl)) > 0 &&
		    sscanf(fl, "%lx", &flags) == 1)
			d->admin_up = (flags & 0x1) != 0;	/* IFF_UP */
	}
	dev_u64(ctx, d->name, "carrier_changes", &d->carrier_changes);
	dev_u64(ctx, d->name, "carrier_up_count", &d->carrier_up);
	dev_u64(ctx, d->name, "carrier_down_count", &d->carrier_down);
	dev_u64(ctx, d->name, "gro_flush_timeout", &d->gro_flush_timeout);
	dev_u64(ctx, d->name, "napi_defer_hard_irqs", &d->napi_defer_hard_irqs);
	np_strjoin(path, sizeof(path), "class/net/", d->name, "/threaded");
	if (np_read_s64(ctx, NP_SYS, path, &v) == 0)
		d->threaded = v;
	read_queues(ctx, d);
	read_device(ctx, d);
	read_stack_links(ctx, d);
	d->is_virtual = virtual_kind(ctx, d, !np_ctx_faithful(ctx));
	/* A veth's, tun's or bridge's own speed is made up: use what is beneath. A bond's or
	 * team's is not (the sum of the members that can transmit: one in active-backup). */
	if (d->is_virtual == 1 && !(np_has(d->speed_mbps) && (!strcmp(d->kind_hint, "bond") ||
							       !strcmp(d->kind_hint, "team")))) {
		d->nominal_speed_mbps = d->speed_mbps;
		d->speed_mbps = lower_speed(ctx, d->name, 4, d->speed_from, sizeof(d->speed_from));
	}
	np_src_set(s, NP_SRC_NETDEV, np_has(d->ifindex) || np_has(d->mtu) ? 0 : -EACCES, NULL);
}

void np_collect_netdev_stats(const struct np_ctx *ctx, struct np_snapshot *s)
{
	struct np_netdev *d = &s->dev;
	char num[32];

	if (!np_src_ok(s, NP_SRC_NETDEV))
		return;
	/* Both are dev_get_stats(): when RTM_GETLINK brought IFLA_STATS64, the 24 sysfs files
	 * (75 system calls) would only repeat it. */
	if (np_src_ok(s, NP_SRC_RTNL_LINK) && s->rtnl.has_stats64) {
		d->stats = s->rtnl.stats64;
		/* Live, the same dev_get_stats() call: nothing to add. A capture's stats64 came
		 * from `ip -s link` text (a sosreport), whose columns lack crc, frame and length
		 * errors: the statistics/ files sos copied beside it have them. */
		if (!s->captured)
			return;
	}
	for (size_t i = 0; i < np_link_stats_nfields; i++) {
		uint64_t *f = np_link_stats_at(&d->stats, i);

		if (np_has(*f))
			continue;
		np_strjoin(num, sizeof(num), "statistics/", np_link_stats_fields[i].name);
		dev_u64(ctx, d->name, num, f);
	}
}
