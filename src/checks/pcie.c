// SPDX-License-Identifier: GPL-2.0-only
/* Stage "pcie": the bus between NIC and host, from sysfs link attributes and config space. */
#include "check.h"

#include <stdio.h>

/* Per-lane data rate in Gbit/s after line encoding, from the transfer rate in MT/s. */
static double lane_gbps(uint64_t mts)
{
	double gt = (double)mts / 1000.0;

	if (mts <= 5000)
		return gt * 8.0 / 10.0;		/* 2.5 and 5 GT/s: 8b/10b */
	if (mts <= 32000)
		return gt * 128.0 / 130.0;	/* 8, 16, 32 GT/s: 128b/130b */
	return gt * 242.0 / 256.0;		/* 64 GT/s: FLIT mode, FEC and CRC inside */
}

static double link_gbps(uint64_t mts, uint64_t width)
{
	return lane_gbps(mts) * (double)width;
}

/* "8 GT/s" or "2.5 GT/s". */
static const char *fmt_gts(uint64_t mts, char *buf, size_t size)
{
	if (mts % 1000)
		snprintf(buf, size, "%.1f GT/s", (double)mts / 1000.0);
	else
		snprintf(buf, size, "%llu GT/s", (unsigned long long)(mts / 1000));
	return buf;
}

/* Share of the link that carries payload at a given MPS: each TLP adds ~24 bytes (header,
 * sequence number, LCRC, framing). */
static double tlp_efficiency(uint64_t mps)
{
	return (double)mps / ((double)mps + 24.0);
}

/* Common skips: virtual devices and devices without PCIe link attributes. */
static bool pcie_device(const struct np_snapshot *s, struct np_report *r)
{
	if (np_src_ok(s, NP_SRC_NETDEV) && np_dev_is_virtual(s)) {
		np_not_applicable(r, "%s is a virtual device: no PCIe link", s->dev.name);
		return false;
	}
	return true;
}

static void run_link_degraded(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	const struct np_pcie *p = &s->pcie;
	struct np_finding *f;
	enum np_severity sev = NP_SEV_WARNING;
	double cur_bw, max_bw, nic_gbps = -1;
	char cs[32], ms[32], bps[32];

	if (!pcie_device(s, r))
		return;
	if (!np_src_ok(s, NP_SRC_PCIE_LINK) || !np_has(p->cur_speed) || !np_has(p->max_speed) ||
	    !np_has(p->cur_width) || !np_has(p->max_width) || !p->cur_width || !p->max_width) {
		if (s->captured)
			np_skip(r, "PCIe link speed/width not in this capture");
		else
			np_not_applicable(r, "PCIe link speed/width not reported (not a PCIe "
					  "device, or the device sits behind a virtual bus)");
		return;
	}
	if (p->cur_speed >= p->max_speed && p->cur_width >= p->max_width)
		return;
	cur_bw = link_gbps(p->cur_speed, p->cur_width);
	max_bw = link_gbps(p->max_speed, p->max_width);
	if (np_has(s->dev.speed_mbps) && s->dev.speed_mbps > 0)
		nic_gbps = (double)s->dev.speed_mbps / 1000.0;
	if (nic_gbps > 0 && cur_bw < nic_gbps)
		sev = NP_SEV_CRITICAL;
	f = np_emit(r, sev, "PCIe link of %s runs %s x%llu (%.1f Gbit/s) of %s x%llu "
		    "(%.1f Gbit/s)%s",
		    s->dev.name, fmt_gts(p->cur_speed, cs, sizeof(cs)),
		    (unsigned long long)p->cur_width, cur_bw, fmt_gts(p->max_speed, ms, sizeof(ms)),
		    (unsigned long long)p->max_width, max_bw,
		    sev == NP_SEV_CRITICAL ? ": below the NIC's line rate" : "");
	if (!f)
		return;
	np_ev_text(f, "pci_device", "%s", p->bdf[0] ? p->bdf : s->dev.bus_id);
	np_ev_value(f, "current_link_speed", "MT/s", (double)p->cur_speed);
	np_ev_value(f, "max_link_speed", "MT/s", (double)p->max_speed);
	np_ev_value(f, "current_link_width", "lanes", (double)p->cur_width);
	np_ev_value(f, "max_link_width", "lanes", (double)p->max_width);
	np_ev_value(f, "current_bandwidth", "Gbit/s", cur_bw);
	np_ev_value(f, "max_bandwidth", "Gbit/s", max_bw);
	if (nic_gbps > 0)
		np_ev_value(f, "nic_speed", "Mbit/s", (double)s->dev.speed_mbps);
	np_detail(f, "Bandwidth per direction = lanes x per-lane rate after encoding (8b/10b up to "
		     "5 GT/s, 128b/130b from 8 GT/s), before ~10-20%% TLP overhead.");
	if (nic_gbps > 0)
		np_detail(f, "%s the port's %s%s.", cur_bw < nic_gbps ? "That is below" :
			  "That still covers", np_fmt_bps(nic_gbps * 1e9, bps, sizeof(bps)),
			  cur_bw < nic_gbps ? ": the bus drops or throttles traffic at line rate" :
			  " for one port (a dual-port card shares it)");
	np_detail(f, "Causes: a card in a narrower or older slot (many x16 slots are wired x8/x4), "
		     "a riser, BIOS slot settings, or a link that trained down. Some NICs lower "
		     "the "
		     "link speed when idle: recheck under load.");
	np_remedy(f, "lspci -vv -s %s | grep -E 'LnkCap|LnkSta'   # confirm under load",
		  p->bdf[0] ? p->bdf : s->dev.bus_id);
	np_remedy(f, "Move the card to a slot wired for x%llu at %s (see the board manual), check "
		     "BIOS PCIe slot speed/bifurcation settings and risers.",
		  (unsigned long long)p->max_width, ms);
	np_remedy(f, "Cost: a maintenance window (power off to move the card).");
}

static void run_mps(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	const struct np_pcie *p = &s->pcie;
	struct np_finding *f;
	enum np_severity sev = NP_SEV_INFO;
	double bw = -1, usable = -1, best = -1, nic_gbps = -1;

	if (!pcie_device(s, r))
		return;
	if (!np_src_ok(s, NP_SRC_PCIE_CONFIG) || !np_has(p->mps) || !np_has(p->mps_supported)) {
		const char *why = np_srcp(s, NP_SRC_PCIE_CONFIG)->detail;

		/* A device without a PCI Express capability has no MPS to judge. */
		if (np_srcp(s, NP_SRC_PCIE_CONFIG)->status == NP_SRC_ABSENT && !s->captured)
			np_not_applicable(r, "PCIe MPS not known: %s", why[0] ? why : "no PCI "
					  "Express capability");
		else
			np_skip(r, "PCIe MPS not known: %s",
				why[0] ? why : "config space not readable (needs root)");
		return;
	}
	if (p->mps > 128 || p->mps_supported <= 128)
		return;
	if (np_has(p->cur_speed) && np_has(p->cur_width) && p->cur_width) {
		bw = link_gbps(p->cur_speed, p->cur_width);
		usable = bw * tlp_efficiency(p->mps);
		best = bw * tlp_efficiency(p->mps_supported);
	}
	if (np_has(s->dev.speed_mbps) && s->dev.speed_mbps > 0)
		nic_gbps = (double)s->dev.speed_mbps / 1000.0;
	/* A warning only when MPS is what pushes the link below line rate: if even the largest
	 * payload leaves it short, the link itself is the problem (pcie.link-degraded). */
	if (usable > 0 && nic_gbps > 0 && usable < nic_gbps && best >= nic_gbps)
		sev = NP_SEV_WARNING;
	f = np_emit(r, sev, "PCIe Max Payload Size of %s is 128 bytes; the device supports %llu",
		    s->dev.name, (unsigned long long)p->mps_supported);
	if (!f)
		return;
	np_ev_value(f, "mps", "bytes", (double)p->mps);
	np_ev_value(f, "mps_supported", "bytes", (double)p->mps_supported);
	if (np_has(p->mrrs))
		np_ev_value(f, "mrrs", "bytes", (double)p->mrrs);
	if (usable > 0)
		np_ev_value(f, "usable_bandwidth", "Gbit/s", usable);
	np_detail(f, "Each DMA write of received data is split into TLPs of at most MPS bytes with "
		     "~24 bytes of overhead each: %.0f%% efficiency at 128 vs %.0f%% at 256.",
		  100.0 * tlp_efficiency(128), 100.0 * tlp_efficiency(256));
	if (usable > 0 && nic_gbps > 0)
		np_detail(f, "~%.1f Gbit/s usable (%.1f at MPS %llu) against a %.0f Gbit/s port%s.",
			  usable, best, (unsigned long long)p->mps_supported, nic_gbps,
			  usable >= nic_gbps ? ": it matters little here" : best >= nic_gbps ?
			  ": MPS limits line rate" : ": the link is short either way");
	np_detail(f, "MPS must match along the path: the kernel uses the smallest value of the "
		     "root port, switches and device, so a 128-byte root port caps everything. "
		     "MRRS (max read request) mostly affects transmit DMA.");
	np_remedy(f, "Set 'PCIe Max Payload Size' to Auto/256 in the BIOS, or boot with "
		     "pci=pcie_bus_perf (sets MPS to the largest the path supports).");
	np_remedy(f, "Cost: a reboot; nothing if a component on the path supports only 128.");
}

const struct np_check np_check_pcie_link_degraded = {
	.id = "pcie.link-degraded",
	.stage = NP_STAGE_PCIE,
	.scope = NP_SCOPE_INTERFACE,
	.title = "PCIe link slower or narrower than the card supports",
	.looks_at = "/sys/bus/pci/devices/BDF/{current,max}_link_{speed,width}, the NIC's speed",
	.why = "A x8 card in a x4 slot, an older-generation slot or a link that trained down "
	       "halves the bus bandwidth. It only hurts when the remaining bandwidth "
	       "(lanes x per-lane rate after encoding) is near or below what the ports carry; "
	       "some NICs downtrain when idle to save power.",
	.fix = "Move the card to a slot with the full width/generation, check BIOS slot settings "
	       "and risers; costs a maintenance window.",
	.related = "lspci -vv (LnkCap, LnkSta), BIOS PCIe slot settings",
	.kernel_notes = "max_link_speed is the device's capability; the slot's may be lower. "
			"Speed strings vary ('8.0 GT/s PCIe', '8 GT/s').",
	.warn = NAN, .crit = NAN,
	.run = run_link_degraded,
};

const struct np_check np_check_pcie_mps = {
	.id = "pcie.mps",
	.stage = NP_STAGE_PCIE,
	.scope = NP_SCOPE_INTERFACE,
	.title = "PCIe Max Payload Size 128 where more is supported",
	.looks_at = "PCI Express capability in config space: DevCap/DevCtl MPS and MRRS "
		    "(root only)",
	.why = "With 128-byte payloads ~16% of the bus carries headers instead of ~9% at 256. It "
	       "matters on 40G+ NICs whose bus has little headroom; on 1G/10G NICs in a x8 slot "
	       "it does not.",
	.fix = "Set MPS in the BIOS or boot with pci=pcie_bus_perf; costs a reboot, and the whole "
	       "path must support the larger size.",
	.related = "pci=pcie_bus_perf, lspci -vv (DevCtl MaxPayload, MaxReadReq)",
	.warn = NAN, .crit = NAN,
	.run = run_mps,
};
