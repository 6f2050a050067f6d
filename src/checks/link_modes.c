// SPDX-License-Identifier: GPL-2.0-only
/* Stage "link" from ethtool: negotiated speed vs the modes both ends support, MAC/PHY errors. */
#include "check_util.h"
#include "nic_view.h"
#include "linkmode.h"

#include <stdio.h>
#include <string.h>

static void run_speed_below_best(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	const struct np_linkmodes *lm = &s->eth.link;
	const char *ifn = s->dev.name, *basis;
	uint64_t best, sup, adv = 0, peer = 0;
	enum np_severity sev;
	struct np_finding *f;

	if (!np_src_ok(s, NP_SRC_ETHTOOL_LINKMODES)) {
		np_nv_skip_src(r, s, NP_SRC_ETHTOOL_LINKMODES, "link modes");
		return;
	}
	sup = lm->has_supported ? np_linkmodes_best(lm->supported) : 0;
	if (!sup) {
		np_skip(r, "driver reports no supported link modes (virtual or fixed-speed "
			   "device)");
		return;
	}
	if (!np_has(lm->speed_mbps) || !lm->speed_mbps || lm->speed_mbps == 0xffffffffu) {
		np_skip(r, "negotiated speed unknown (link down?)");
		return;
	}
	if (lm->has_advertised)
		adv = np_linkmodes_best_common(lm->supported, lm->advertised);
	if (lm->has_peer)
		peer = np_linkmodes_best(lm->peer);
	/* Without the partner's modes (fibre, DAC, many drivers) the peer may simply be slower,
	 * so that case is information, not a warning. */
	if (peer) {
		best = np_linkmodes_best_common(lm->supported, lm->peer);
		basis = "supported by both ends";
		sev = NP_SEV_WARNING;
	} else if (adv) {
		best = adv;
		basis = "supported and advertised here (link partner's modes not reported)";
		sev = NP_SEV_INFO;
	} else {
		best = sup;
		basis = "supported here (advertised and partner modes not reported)";
		sev = NP_SEV_INFO;
	}
	if (!best || lm->speed_mbps >= best)
		return;
	f = np_emit(r, sev, "%s runs at %llu Mbit/s, below the %llu Mbit/s %s", ifn,
		    (unsigned long long)lm->speed_mbps, (unsigned long long)best, basis);
	if (!f)
		return;
	np_ev_value(f, "speed", "Mbit/s", (double)lm->speed_mbps);
	np_ev_value(f, "best_common_speed", "Mbit/s", (double)best);
	np_ev_value(f, "best_supported_speed", "Mbit/s", (double)sup);
	if (adv)
		np_ev_value(f, "best_advertised_speed", "Mbit/s", (double)adv);
	if (peer)
		np_ev_value(f, "best_partner_speed", "Mbit/s", (double)peer);
	if (lm->autoneg >= 0)
		np_ev_text(f, "autoneg", "%s", lm->autoneg ? "on" : "off");
	if (lm->autoneg == 0)
		np_detail(f, "Autonegotiation is off: the speed was forced, on this end or both.");
	else if (peer && adv && adv < best)
		np_detail(f, "This end does not advertise %llu Mbit/s (its advertised modes stop "
			     "at %llu): someone restricted the advertisement.",
			  (unsigned long long)best, (unsigned long long)adv);
	else
		np_detail(f, "Both ends offered a faster mode but the link came up slower: on "
			     "BASE-T a marginal cable makes the PHYs downshift; on fibre/DAC the "
			     "optic or cable may be a slower type, or the switch port is "
			     "configured to a fixed speed.");
	np_detail(f, "Everything above the link runs at %llu Mbit/s, %.0f%% of what the hardware "
		     "can do.", (unsigned long long)lm->speed_mbps,
		  100.0 * (double)lm->speed_mbps / (double)best);
	np_remedy(f, "ethtool %s   # Supported / Advertised / Link partner advertised link modes",
		  ifn);
	np_remedy(f, "ethtool -s %s autoneg on speed %llu duplex full   # advertise that speed "
		     "(on both ends if both are forced)", ifn, (unsigned long long)best);
	np_remedy(f, "Check the cable (Cat6a for 10GBASE-T, Cat5e for 1G), the optic/DAC type, "
		     "and the switch port's speed setting.");
	np_remedy(f, "Cost: a link renegotiation (a second or two without carrier).");
}

/* A standard statistic by the names the collector may use (kernel string, ethtool's JSON). */
static uint64_t std_get(const struct np_snapshot *s, const char *const *names)
{
	if (!np_src_ok(s, NP_SRC_ETHTOOL_STATS))
		return NP_NA;
	for (; *names; names++) {
		uint64_t v = np_counters_get(&s->eth.std_stats, *names);

		if (np_has(v))
			return v;
	}
	return NP_NA;
}

static struct np_counter_view std_view(const struct np_analysis *a, const char *const *names)
{
	return np_view_u64(a, a->prev ? std_get(a->prev, names) : NP_NA, std_get(a->cur, names));
}

static const char *const fcs_names[] = { "eth-mac.FrameCheckSequenceErrors", NULL };
static const char *const align_names[] = { "eth-mac.AlignmentErrors", NULL };
static const char *const toolong_names[] = { "eth-mac.FrameTooLongErrors", NULL };
static const char *const symbol_names[] = { "eth-phy.SymbolErrorDuringCarrier", NULL };
static const char *const oversize_names[] = { "rmon.etherStatsOversizePkts", "rmon.oversize_pkts",
					      NULL };
static const char *const jabber_names[] = { "rmon.etherStatsJabbers", "rmon.jabbers", NULL };

static struct np_counter_view sysfs_view(const struct np_analysis *a, size_t off)
{
	const void *c = &a->cur->dev.stats, *p = a->prev ? &a->prev->dev.stats : NULL;

	if (!np_src_ok(a->cur, NP_SRC_NETDEV))
		return np_view_u64(a, NP_NA, NP_NA);
	if (a->prev && !np_src_ok(a->prev, NP_SRC_NETDEV))
		p = NULL;
	return np_view_u64(a, p ? *(const uint64_t *)(const void *)((const char *)p + off) : NP_NA,
			   *(const uint64_t *)(const void *)((const char *)c + off));
}

#define SYSFS(a, field) sysfs_view(a, offsetof(struct np_link_stats, field))

static double show(const struct np_counter_view *v, bool by_rate)
{
	return by_rate ? v->rate : (double)v->total;
}

static void run_phy_errors(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	const char *ifn = s->dev.name;
	struct np_counter_view fcs, align, toolong, symbol, over, jab, dphy, dover;
	struct np_counter_view phys, oversize, all, wphys, wlen, damaged;
	struct np_nv_drv dphy_d, dover_d;
	size_t nphy, nover;
	enum np_severity sev;
	struct np_finding *f;
	bool by_rate;
	uint64_t mtu = np_has(s->rtnl.mtu) ? s->rtnl.mtu : s->dev.mtu;
	const char *u;

	if (!np_src_ok(s, NP_SRC_ETHTOOL_STATS) && !np_src_ok(s, NP_SRC_DRIVER_STATS)) {
		np_nv_skip_src(r, s, NP_SRC_ETHTOOL_STATS, "standard statistics");
		return;
	}
	fcs = std_view(a, fcs_names);
	align = std_view(a, align_names);
	toolong = std_view(a, toolong_names);
	symbol = std_view(a, symbol_names);
	over = std_view(a, oversize_names);
	jab = std_view(a, jabber_names);
	np_nv_drv_collect(a, NP_DRV_PHY_ERROR, false, &dphy_d);
	np_nv_drv_collect(a, NP_DRV_OVERSIZE, false, &dover_d);
	dphy = dphy_d.v;
	dover = dover_d.v;
	nphy = dphy_d.n;
	nover = dover_d.n;
	if (!fcs.present && !align.present && !toolong.present && !symbol.present &&
	    !over.present && !jab.present && !nphy && !nover) {
		np_skip(r, "driver reports neither standard MAC/PHY statistics nor PHY error "
			   "counters");
		return;
	}
	/* The same bad frame shows in eth-mac, eth-phy, rmon and the driver's list (mlx5
	 * rx_crc_errors_phy, rx_symbol_err_phy): one witness per kind of damage. */
	damaged = np_view_sum(fcs, align);
	phys = np_nv_max(np_view_sum(damaged, symbol), dphy);
	oversize = np_nv_max(np_nv_max(toolong, np_view_sum(over, jab)), dover);
	/* Drivers usually fold FCS/alignment into rx_crc/frame_errors and oversize into
	 * rx_length_errors, which link.rx-errors reports: keep only what sysfs missed. */
	wphys = np_view_sum(SYSFS(a, rx_crc_errors), SYSFS(a, rx_frame_errors));
	wlen = SYSFS(a, rx_length_errors);
	phys = np_nv_beyond(a, phys, wphys);
	oversize = np_nv_beyond(a, oversize, wlen);
	all = np_view_sum(phys, oversize);
	sev = np_verdict(&all, np_thr_warn(r), np_thr_crit(r));
	if (sev == NP_SEV_OK)
		return;
	by_rate = all.sampled && all.delta > 0;
	u = by_rate ? "/s" : "";
	if (by_rate)
		f = np_emit(r, sev, "%s MAC/PHY errors that the interface counters do not show: "
			    "%s/s (physical %s/s, oversize %s/s)", ifn, np_fmt_rate(all.rate), np_fmt_rate(phys.rate),
			    np_fmt_rate(oversize.rate));
	else
		f = np_emit(r, sev, "%s counted %llu MAC/PHY errors since boot that the interface "
			    "counters do not show (physical %llu, oversize %llu)%s", ifn,
			    (unsigned long long)all.total, (unsigned long long)phys.total,
			    (unsigned long long)oversize.total,
			    all.sampled ? ", none during the sample" : "");
	if (!f)
		return;
	f->rank = all.rate;
	if (symbol.present)
		np_ev_counter(f, "eth-phy.SymbolErrorDuringCarrier", "errors", &symbol);
	if (fcs.present)
		np_ev_counter(f, "eth-mac.FrameCheckSequenceErrors", "frames", &fcs);
	if (align.present)
		np_ev_counter(f, "eth-mac.AlignmentErrors", "frames", &align);
	if (toolong.present)
		np_ev_counter(f, "eth-mac.FrameTooLongErrors", "frames", &toolong);
	if (over.present)
		np_ev_counter(f, "rmon.oversize", "frames", &over);
	if (jab.present)
		np_ev_counter(f, "rmon.jabbers", "frames", &jab);
	if (nphy)
		np_ev_counter(f, "driver_phy_errors", "errors", &dphy);
	if (nover)
		np_ev_counter(f, "driver_oversize", "frames", &dover);
	if (show(&phys, by_rate) > 0)
		np_detail(f, "Symbol errors are bit errors the PHY decoded wrongly; "
			     "FCS/alignment errors are frames damaged on the wire (standard "
			     "counters: symbol %.1f%s, FCS/alignment %.1f%s). Causes: a dirty or "
			     "failing optic, a bad cable or DAC, EMI, FEC off where the link needs "
			     "it. The host cannot repair them.", show(&symbol, by_rate), u,
			  show(&damaged, by_rate), u);
	if (show(&oversize, by_rate) > 0 && np_has(mtu))
		np_detail(f, "Oversize frames (%.1f%s) are larger than this port accepts: an MTU "
			     "mismatch, the peer or switch sending jumbo frames to a port with MTU "
			     "%llu.", show(&oversize, by_rate), u, (unsigned long long)mtu);
	else if (show(&oversize, by_rate) > 0)
		np_detail(f, "Oversize frames (%.1f%s) are larger than this port accepts: an MTU "
			     "mismatch, the peer or switch sending jumbo frames.",
			  show(&oversize, by_rate), u);
	np_remedy(f, "ethtool -S %s --all-groups; ethtool --show-fec %s   # the standard counters "
		     "and FEC mode", ifn, ifn);
	if (show(&oversize, by_rate) > 0)
		np_remedy(f, "ip link show dev %s   # compare the MTU with the peer and switch "
			     "port; ip link set dev %s mtu N on the side that is wrong", ifn, ifn);
	if (show(&phys, by_rate) > 0)
		np_remedy(f, "Clean or replace the optic/cable, check the switch port's error "
			     "counters, enable FEC if the link type needs it (ethtool --set-fec %s "
			     "encoding auto).", ifn);
	np_remedy(f, "Cost: an optic or cable swap and an MTU or FEC change each take the link "
		     "down briefly; MTU must change on both ends together.");
}

const struct np_check np_check_link_speed_below_best = {
	.id = "link.speed-below-best",
	.stage = NP_STAGE_LINK,
	.scope = NP_SCOPE_INTERFACE,
	.title = "Negotiated speed below the best common mode",
	.looks_at = "ethtool link modes: negotiated speed vs supported, advertised and link "
		    "partner modes",
	.why = "A 25G port running at 10G, or a 10GBASE-T link at 1G, caps everything above it. "
	       "It is a warning when the partner's modes show that both ends could do better; "
	       "without them (fibre, DAC, many drivers) the peer may simply be slower, so it is "
	       "information. It does not matter when the traffic never comes close to the "
	       "negotiated speed.",
	.fix = "Compare the modes with ethtool IF; renegotiate (ethtool -s IF autoneg on speed N); "
	       "replace a marginal cable or a slower optic; check the switch port. Cost: a "
	       "second or two without carrier.",
	.related = "ethtool -s IF autoneg/speed/advertise, link.duplex",
	.kernel_notes = "Link modes over netlink (LINKMODES_GET) since 5.6, ioctl "
			"ETHTOOL_GLINKSETTINGS before; bits past 92 (2023+) need a newer "
			"kernel to be reported.",
	.warn = NAN, .crit = NAN,
	.run = run_speed_below_best,
};

const struct np_check np_check_link_phy_errors = {
	.id = "link.phy-errors",
	.stage = NP_STAGE_LINK,
	.scope = NP_SCOPE_INTERFACE,
	.title = "MAC/PHY errors beyond the interface counters (symbol, FCS, oversize)",
	.looks_at = "ethtool standard statistics eth-mac FrameCheckSequenceErrors, "
		    "AlignmentErrors, FrameTooLongErrors, eth-phy SymbolErrorDuringCarrier, rmon "
		    "oversize/jabbers; driver PHY error and oversize counters",
	.why = "Many drivers count symbol errors, and some count FCS or oversize frames, only in "
	       "the standard or private ethtool statistics, where the interface counters "
	       "(link.rx-errors) never show them. Symbol and FCS errors are physical damage; "
	       "oversize frames mean an MTU mismatch with the peer. Errors that rx_crc/frame/"
	       "length_errors already count are left to link.rx-errors.",
	.fix = "Clean or replace optics and cables, check FEC and the switch port; align the MTU "
	       "with the peer. Each takes the link down briefly.",
	.related = "ethtool -S IF --all-groups, ethtool --show-fec, ip link set mtu, "
		   "link.rx-errors",
	.kernel_notes = "Standard statistics (STATS_GET: eth-phy, eth-mac, eth-ctrl, rmon) since "
			"5.13, for drivers that implement them.",
	.warn = 1, .crit = 100, .thr_unit = "errors/s",
	.run = run_phy_errors,
};
