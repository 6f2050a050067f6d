// SPDX-License-Identifier: GPL-2.0-only
/* PCIe collector: negotiated vs capable link from sysfs, MPS/MRRS from config space. */
#include "collect.h"
#include "parse.h"
#include "strjoin.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void read_speed(const struct np_ctx *ctx, const char *pci, const char *file, uint64_t *out)
{
	char path[192], buf[64];

	np_strjoin(path, sizeof(path), pci, "/", file);
	if (np_read_str(ctx, NP_SYS, path, buf, sizeof(buf)) >= 0)
		np_parse_pcie_speed(buf, out);
}

static void read_num(const struct np_ctx *ctx, const char *pci, const char *file, uint64_t *out)
{
	char path[192];
	uint64_t v;

	np_strjoin(path, sizeof(path), pci, "/", file);
	if (np_read_u64(ctx, NP_SYS, path, &v) == 0)
		*out = v;
}

/* aer_dev_* files hold "NAME count" lines ending with "TOTAL_ERR_* n". */
static void read_aer(const struct np_ctx *ctx, const char *pci, const char *file, uint64_t *out)
{
	char path[192], buf[2048];
	const char *p;
	unsigned long long v;

	np_strjoin(path, sizeof(path), pci, "/", file);
	if (np_read_str(ctx, NP_SYS, path, buf, sizeof(buf)) < 0)
		return;
	p = strstr(buf, "TOTAL_ERR_");
	if (p && (p = strchr(p, ' ')) && sscanf(p, "%llu", &v) == 1)
		*out = v;
}

/*
 * Config space reads are slow: every dword is a round trip to the device, and in a VM a trap to
 * the hypervisor (about 50 us each on a virtio NIC), so reading all 256 or 4096 bytes cost
 * milliseconds, more than the rest of a doctor pass. Only the bytes np_parse_pci_config() looks
 * at are read, into a zeroed copy: the walk below mirrors the parser's (same stops, same bytes),
 * and a short read marks where the file ends, so the parser's bounds checks see what a read of
 * the whole file would have shown.
 */
struct cfg_reader {
	int fd;
	uint8_t *cfg;
	size_t len;		/* where the file ends, as far as the reads have shown */
	int err;
};

static bool cfg_fetch(struct cfg_reader *c, size_t off, size_t n)
{
	ssize_t r;

	if (c->err || off >= c->len)
		return false;
	if (off + n > c->len)
		n = c->len - off;
	r = pread(c->fd, c->cfg + off, n, (off_t)off);
	if (r < 0) {
		c->err = -errno;
		return false;
	}
	if ((size_t)r < n)
		c->len = off + (size_t)r;
	return (size_t)r == n;
}

static int read_config(const struct np_ctx *ctx, const char *pci, struct np_pcie *out)
{
	uint8_t cfg[4096] = { 0 };
	struct cfg_reader c = { .cfg = cfg, .len = sizeof(cfg) };
	unsigned pos, ttl = 48;		/* PCI_FIND_CAP_TTL, as in the parser */
	char path[192];

	np_strjoin(path, sizeof(path), pci, "/config");
	c.fd = np_open(ctx, NP_SYS, path, O_RDONLY);
	if (c.fd < 0)
		return c.fd;
	/* Without CAP_SYS_ADMIN the kernel returns only the 64-byte header. */
	cfg_fetch(&c, 64, 2);
	if (!c.err && c.len <= 64) {
		close(c.fd);
		return -EACCES;
	}
	cfg_fetch(&c, 0x06, 2);			/* PCI_STATUS */
	cfg_fetch(&c, 0x34, 1);			/* PCI_CAPABILITY_LIST */
	if (cfg[0x06] & 0x10) {			/* PCI_STATUS_CAP_LIST */
		for (pos = cfg[0x34]; !c.err && ttl--; pos = cfg[pos + 1]) {
			pos &= ~3u;
			/* Offset 64 is already in (the probe above). */
			if (pos < 64 || (pos != 64 && !cfg_fetch(&c, pos, 2)) || cfg[pos] == 0xff)
				break;
			if (cfg[pos] == 0x10) {	/* PCI_CAP_ID_EXP: DEVCAP and DEVCTL */
				cfg_fetch(&c, pos + 4, 6);
				break;
			}
		}
	}
	close(c.fd);
	if (c.err)
		return c.err;
	return np_parse_pci_config(cfg, c.len, out);
}

static bool config_present(const struct np_ctx *ctx, const char *pci)
{
	char path[192];

	np_strjoin(path, sizeof(path), pci, "/config");
	return np_exists(ctx, NP_SYS, path);
}

/*
 * Since 4.13 sysfs has the link files for every PCI Express function and for those only
 * (pcie_dev_attrs_are_visible), so on a system read faithfully (live, or a netpath capture) a
 * function without them has no PCI Express capability, and walking its config space (a trap to
 * the hypervisor per read on virtio) would only confirm it. Copied trees and older kernels
 * prove nothing by a missing file: the walk decides there.
 */
static bool not_pcie(const struct np_ctx *ctx, const struct np_snapshot *s, const char *pci)
{
	const struct np_pcie *p = &s->pcie;
	unsigned major = 0, minor = 0;
	char path[192];

	if (!np_ctx_faithful(ctx) || np_has(p->cur_speed) || np_has(p->max_speed) ||
	    np_has(p->cur_width) || np_has(p->max_width) ||
	    sscanf(s->hs->host.kernel, "%u.%u", &major, &minor) != 2 ||
	    major < 4 || (major == 4 && minor < 13))
		return false;
	np_strjoin(path, sizeof(path), pci, "/current_link_speed");
	return !np_exists(ctx, NP_SYS, path);
}

void np_collect_pcie(const struct np_ctx *ctx, struct np_snapshot *s)
{
	struct np_pcie *p = &s->pcie;
	char pci[128];
	int r;

	if (np_pci_dir(ctx, s->ifname, pci, sizeof(pci)) < 0) {
		np_src_set(s, NP_SRC_PCIE_LINK, -ENOENT, "not a PCI device");
		np_src_set(s, NP_SRC_PCIE_CONFIG, -ENOENT, "not a PCI device");
		return;
	}
	np_strjoin(p->bdf, sizeof(p->bdf), s->dev.bus_id);
	read_speed(ctx, pci, "current_link_speed", &p->cur_speed);
	read_speed(ctx, pci, "max_link_speed", &p->max_speed);
	read_num(ctx, pci, "current_link_width", &p->cur_width);
	read_num(ctx, pci, "max_link_width", &p->max_width);
	read_aer(ctx, pci, "aer_dev_correctable", &p->aer_correctable);
	read_aer(ctx, pci, "aer_dev_nonfatal", &p->aer_nonfatal);
	read_aer(ctx, pci, "aer_dev_fatal", &p->aer_fatal);
	/* Emulated PCI (virtio in a VM) often has no PCIe link files at all. */
	np_src_set(s, NP_SRC_PCIE_LINK, np_has(p->cur_speed) || np_has(p->cur_width) ? 0 : -ENOENT,
		   np_has(p->cur_speed) || np_has(p->cur_width) ? NULL : "no PCIe link attributes");
	r = not_pcie(ctx, s, pci) ? -ENOENT : read_config(ctx, pci, p);
	np_src_set(s, NP_SRC_PCIE_CONFIG, r, r == -EACCES ? "config space beyond 64 bytes needs root" :
		   r == -ENOENT ? "no PCI Express capability" : NULL);
	if (r == -ENOENT && !config_present(ctx, pci))
		snprintf(np_srcp(s, NP_SRC_PCIE_CONFIG)->detail, sizeof(np_srcp(s, 0)->detail),
			 "no config space file (captured tree without it?)");
}
