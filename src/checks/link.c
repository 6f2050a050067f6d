// SPDX-License-Identifier: GPL-2.0-only
/* Stage "link": the wire, PHY and MAC as sysfs reports them. */
#include "check_util.h"
#include "check.h"

#include <string.h>

/* Duplex from sysfs, else from ethtool link modes when sysfs reports none. */
static const char *link_duplex(const struct np_snapshot *s, const char **src)
{
	const char *d = s->dev.duplex;

	*src = "sysfs";
	if (np_src_ok(s, NP_SRC_NETDEV) && d[0])
		return d;
	*src = "ethtool";
	if (np_src_ok(s, NP_SRC_ETHTOOL_LINKMODES) && s->eth.link.duplex >= 0)
		return s->eth.link.duplex == 0 ? "half" : "full";
	return NULL;
}

static void run_speed_duplex(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	const struct np_netdev *d = &s->dev;
	uint64_t speed = d->speed_mbps;
	const char *duplex, *src;
	struct np_finding *f;

	if (!np_src_ok(s, NP_SRC_NETDEV) && !np_src_ok(s, NP_SRC_ETHTOOL_LINKMODES)) {
		np_skip(r, "interface sysfs not readable");
		return;
	}
	duplex = link_duplex(s, &src);
	if (!duplex || strcmp(duplex, "half") != 0)
		return;
	if (!np_has(speed) && np_src_ok(s, NP_SRC_ETHTOOL_LINKMODES))
		speed = s->eth.link.speed_mbps;
	if (speed == 0xffffffffu || !speed)
		speed = NP_NA;	/* SPEED_UNKNOWN passed through */
	f = np_emit(r, NP_SEV_WARNING, "%s negotiated half duplex%s", d->name,
		    np_has(speed) ? "" : " (speed unknown)");
	np_ev_text(f, "duplex", "%s", duplex);
	np_ev_text(f, "duplex_source", "%s", src);
	if (np_has(speed))
		np_ev_value(f, "speed", "Mbit/s", (double)speed);
	np_detail(f, "Half duplex on a modern link almost always means autonegotiation failed on one "
		     "end (one side forced, the other auto): expect collisions, late collisions and a "
		     "fraction of the line rate.");
	np_remedy(f, "ethtool -s %s autoneg on   # on both ends; or force the same speed/duplex on both",
		  d->name);
	np_remedy(f, "Cost: a link renegotiation (a second or two without carrier).");
}

static void run_carrier_flaps(const struct np_analysis *a, struct np_report *r)
{
	const struct np_netdev *d = &a->cur->dev;
	struct np_counter_view v;
	struct np_finding *f;
	enum np_severity sev;

	if (!np_has(d->carrier_changes)) {
		np_skip(r, "carrier_changes not reported");
		return;
	}
	v = np_view_u64(a, a->prev ? a->prev->dev.carrier_changes : NP_NA, d->carrier_changes);
	if (v.sampled && v.delta > 0)
		sev = v.delta >= 2 ? NP_SEV_CRITICAL : NP_SEV_WARNING;
	else if (v.total > np_thr_warn(r))
		sev = NP_SEV_INFO;	/* a bring-up counts 1-2 changes; many since boot is history */
	else
		return;
	if (v.sampled && v.delta)
		f = np_emit(r, sev, "%s lost carrier during the sample (%llu changes in %.1f s)",
			    d->name, (unsigned long long)v.delta, a->dt);
	else
		f = np_emit(r, sev, "%s carrier changed %llu times since boot", d->name,
			    (unsigned long long)v.total);
	np_ev_counter(f, "carrier_changes", "changes", &v);
	if (np_has(d->carrier_down))
		np_ev_value(f, "carrier_down_count", "events", (double)d->carrier_down);
	np_detail(f, "Every carrier loss drops everything in flight and restarts TCP flows from a "
		     "small window. Causes: cable/optic/DAC faults, a switch port error-disabling, "
		     "autonegotiation fights, or the driver resetting the device (look for "
		     "'reset' or 'tx timeout' in dmesg).");
	np_remedy(f, "dmesg | grep -i %s   # find resets vs. real link loss", d->name);
	np_remedy(f, "Check the optic/cable and the switch port's error counters; no host setting "
		     "fixes a flapping physical link.");
}

static void run_mtu_jumbo(const struct np_analysis *a, struct np_report *r)
{
	const struct np_netdev *d = &a->cur->dev;
	struct np_finding *f;

	if (!np_has(d->mtu) || !np_has(d->speed_mbps)) {
		np_skip(r, "MTU or link speed not reported");
		return;
	}
	if (d->speed_mbps < 10000 || d->mtu > 1500)
		return;
	f = np_emit(r, NP_SEV_INFO, "%s runs MTU %llu on a %llu Mbit/s link", d->name,
		    (unsigned long long)d->mtu, (unsigned long long)d->speed_mbps);
	np_ev_value(f, "mtu", "bytes", (double)d->mtu);
	np_ev_value(f, "speed", "Mbit/s", (double)d->speed_mbps);
	np_detail(f, "At 10 Gbit/s and above, 1500-byte frames mean ~820 thousand packets/s per 10G of "
		     "traffic to interrupt, GRO and route; jumbo frames (9000) cut per-packet work "
		     "about six-fold. It only helps if every hop on the path (switch ports, routers, "
		     "the peer) carries the larger MTU; one 1500 hop makes PMTU discovery fragment or "
		     "black-hole traffic. Internet-facing traffic will stay at 1500 regardless.");
	np_remedy(f, "ip link set dev %s mtu 9000   # only after every hop on the L2/L3 path allows it",
		  d->name);
	np_remedy(f, "Cost: a link reset on many drivers; larger buffers per packet; mismatched "
		     "MTUs cause silent drops (oversize frames), so change both ends together.");
}

static void run_rx_errors(const struct np_analysis *a, struct np_report *r)
{
	const struct np_link_stats *c = &a->cur->dev.stats;
	const struct np_link_stats *p = a->prev ? &a->prev->dev.stats : NULL;
	struct np_counter_view crc, frame, len, all;
	struct np_finding *f;
	enum np_severity sev;

	if (!np_has(c->rx_crc_errors) && !np_has(c->rx_frame_errors) && !np_has(c->rx_length_errors)) {
		np_skip(r, "interface error counters not reported");
		return;
	}
	crc = np_view_u64(a, p ? p->rx_crc_errors : NP_NA, c->rx_crc_errors);
	frame = np_view_u64(a, p ? p->rx_frame_errors : NP_NA, c->rx_frame_errors);
	len = np_view_u64(a, p ? p->rx_length_errors : NP_NA, c->rx_length_errors);
	all = np_view_sum(np_view_sum(crc, frame), len);
	sev = np_verdict(&all, np_thr_warn(r), np_thr_crit(r));
	if (sev == NP_SEV_OK)
		return;
	if (all.sampled && all.delta)
		f = np_emit(r, sev, "%s receives damaged frames: %s/s (CRC %llu, frame %llu, "
			    "length %llu since boot)", a->cur->dev.name, np_fmt_rate(all.rate),
			    (unsigned long long)crc.total, (unsigned long long)frame.total,
			    (unsigned long long)len.total);
	else
		f = np_emit(r, sev, "%s saw damaged frames since boot (CRC %llu, frame %llu, "
			    "length %llu)%s", a->cur->dev.name, (unsigned long long)crc.total,
			    (unsigned long long)frame.total, (unsigned long long)len.total,
			    all.sampled ? ", none during the sample" : "");
	if (!f)
		return;
	f->rank = all.rate;
	np_ev_counter(f, "rx_crc_errors", "frames", &crc);
	np_ev_counter(f, "rx_frame_errors", "frames", &frame);
	np_ev_counter(f, "rx_length_errors", "frames", &len);
	np_detail(f, "CRC/FCS and alignment errors are damage on the wire: a dirty or failing optic, "
		     "a bad cable or DAC, EMI, or a speed/duplex mismatch. Length errors usually mean "
		     "an MTU mismatch with the peer. The host cannot fix either; packets are lost "
		     "before any queue.");
	np_remedy(f, "Replace/clean the optic or cable, check the switch port's own error counters, "
		     "and compare MTU with the peer (ip link show %s).", a->cur->dev.name);
}

const struct np_check np_check_link_duplex = {
	.id = "link.duplex",
	.stage = NP_STAGE_LINK,
	.scope = NP_SCOPE_INTERFACE,
	.title = "Half duplex negotiated",
	.looks_at = "/sys/class/net/IF/duplex and speed, else the ethtool link modes' duplex",
	.why = "A half-duplex link cannot send and receive at once; on Ethernet it is almost always "
	       "the sign of a failed autonegotiation. It does not apply to virtual devices, which "
	       "report no duplex.",
	.fix = "Enable autonegotiation on both ends, or force identical settings on both ends.",
	.related = "ethtool -s IF autoneg on",
	.warn = NAN, .crit = NAN,
	.run = run_speed_duplex,
};

const struct np_check np_check_link_carrier_flaps = {
	.id = "link.carrier-flaps",
	.stage = NP_STAGE_LINK,
	.scope = NP_SCOPE_INTERFACE,
	.title = "Link carrier flaps",
	.looks_at = "/sys/class/net/IF/carrier_changes (and carrier_down_count) over the interval",
	.why = "A carrier loss drops everything in flight and resets TCP congestion windows. A flap "
	       "during the sample is an incident in itself; a count since boot above the threshold "
	       "is history worth knowing (each bring-up adds one or two).",
	.fix = "Find out whether the driver reset the device (dmesg) or the physical link dropped, "
	       "and fix the cable, optic or switch port.",
	.related = "carrier_changes, carrier_down_count",
	.warn = 10, .crit = NAN, .thr_unit = "changes since boot (info); any change while sampling",
	.run = run_carrier_flaps,
};

const struct np_check np_check_link_mtu_jumbo = {
	.id = "link.mtu-jumbo",
	.stage = NP_STAGE_LINK,
	.scope = NP_SCOPE_INTERFACE,
	.title = "Standard MTU on a 10G+ link",
	.looks_at = "/sys/class/net/IF/mtu and speed",
	.why = "At 10 Gbit/s and above the per-packet cost of 1500-byte frames limits throughput "
	       "per CPU; jumbo frames cut it roughly six-fold. It does not matter for "
	       "Internet-facing traffic (the path MTU stays 1500) or for links far below line rate.",
	.fix = "Raise the MTU to 9000 on every hop of the path together; partial changes black-hole "
	       "large packets.",
	.related = "ip link set dev IF mtu 9000, net.ipv4.tcp_mtu_probing",
	.warn = NAN, .crit = NAN,
	.run = run_mtu_jumbo,
};

const struct np_check np_check_link_rx_errors = {
	.id = "link.rx-errors",
	.stage = NP_STAGE_LINK,
	.scope = NP_SCOPE_INTERFACE,
	.title = "Damaged frames received (CRC, frame, length)",
	.looks_at = "rx_crc_errors, rx_frame_errors, rx_length_errors of the interface",
	.why = "These frames arrived damaged and were discarded by the MAC before any queue: "
	       "the loss is physical (optics, cabling, EMI) or an MTU/duplex mismatch. No kernel "
	       "tuning recovers them.",
	.fix = "Clean or replace optics and cables, check the switch port, align MTUs.",
	.related = "ethtool -S IF, ethtool --include-statistics",
	.warn = 1, .crit = 100, .thr_unit = "errors/s",
	.run = run_rx_errors,
};
