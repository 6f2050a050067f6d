// SPDX-License-Identifier: GPL-2.0-only
/* PCIe link speed strings from sysfs, and MPS/MRRS from the PCI Express capability. */
#include "parse.h"

#include <errno.h>
#include <stdbool.h>

#define PCI_STATUS		0x06
#define PCI_STATUS_CAP_LIST	0x10
#define PCI_CAPABILITY_LIST	0x34
#define PCI_STD_HEADER_SIZE	0x40
#define PCI_CAP_ID_EXP		0x10
#define PCI_EXP_DEVCAP		0x04
#define PCI_EXP_DEVCTL		0x08
/* Same bound as the kernel's PCI_FIND_CAP_TTL: a corrupt list can loop. */
#define PCI_FIND_CAP_TTL	48

/*
 * "8.0 GT/s PCIe", "8 GT/s", "2.5 GT/s": the leading number in GT/s, to MT/s. Digits past the
 * third decimal are below 1 MT/s and ignored. *mts is left alone on error.
 */
int np_parse_pcie_speed(const char *s, uint64_t *mts)
{
	uint64_t whole = 0, frac = 0, scale = 100;

	if (!s)
		return -EINVAL;
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s < '0' || *s > '9')
		return -EINVAL;
	for (; *s >= '0' && *s <= '9'; s++) {
		whole = whole * 10 + (uint64_t)(*s - '0');
		/* No link runs at a million GT/s; stopping here keeps the product in range. */
		if (whole > 1000000)
			return -ERANGE;
	}
	if (*s == '.') {
		for (s++; *s >= '0' && *s <= '9'; s++) {
			frac += (uint64_t)(*s - '0') * scale;
			scale /= 10;
		}
	}
	*mts = whole * 1000 + frac;
	return 0;
}

static uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Only mps, mps_supported and mrrs are written, and only on success. */
int np_parse_pci_config(const uint8_t *cfg, size_t len, struct np_pcie *out)
{
	unsigned pos, ttl = PCI_FIND_CAP_TTL;

	if (!cfg || len < PCI_STD_HEADER_SIZE)
		return -EINVAL;
	if (!(rd16(cfg + PCI_STATUS) & PCI_STATUS_CAP_LIST))
		return -ENOENT;
	pos = cfg[PCI_CAPABILITY_LIST];
	while (ttl--) {
		uint32_t devcap;
		uint16_t devctl;
		uint8_t id;

		/* Pointers into the standard header (0 included) end the list. */
		pos &= ~3u;
		if (pos < PCI_STD_HEADER_SIZE)
			return -ENOENT;
		/* An unprivileged read stops at 64 bytes: the list points past what we have. */
		if (pos + 2 > len)
			return -EINVAL;
		id = cfg[pos];
		if (id == 0xff)
			return -ENOENT;
		if (id == PCI_CAP_ID_EXP) {
			if (pos + PCI_EXP_DEVCTL + 2 > len)
				return -EINVAL;
			devcap = rd32(cfg + pos + PCI_EXP_DEVCAP);
			devctl = rd16(cfg + pos + PCI_EXP_DEVCTL);
			out->mps_supported = 128u << (devcap & 7);
			out->mps = 128u << ((devctl >> 5) & 7);
			out->mrrs = 128u << ((devctl >> 12) & 7);
			return 0;
		}
		pos = cfg[pos + 1];
	}
	return -ENOENT;
}
