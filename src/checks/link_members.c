// SPDX-License-Identifier: GPL-2.0-only
/*
 * Stage "link", across the members of a bond or team: siblings that differ (speed, MTU, ring)
 * and traffic that lands on one member while the others idle (the transmit hash policy of
 * the peer, or of this host for what it sends). They read the members' own snapshots
 * (np_analysis.lower), which doctor gives the bond's run.
 */
#include "check.h"
#include "check_util.h"
#include "stack.h"

#include <stdio.h>
#include <string.h>

/* Members take part only in a bond or team; a bridge's ports are different segments. */
static bool members_apply(const struct np_analysis *a, struct np_report *r)
{
	enum np_dev_kind k = np_dev_kind_of(a->cur);

	if (k != NP_KIND_BOND && k != NP_KIND_TEAM) {
		np_not_applicable(r, "%s is no bond or team", a->cur->dev.name);
		return false;
	}
	if (a->nlower < 2) {
		np_not_applicable(r, "%s has %zu member%s", a->cur->dev.name, a->nlower,
				  a->nlower == 1 ? "" : "s");
		return false;
	}
	return true;
}

/* ---- link.member-mismatch ---- */

static uint64_t member_value(const struct np_snapshot *s, int what)
{
	switch (what) {
	case 0:
		return s->dev.speed_mbps;
	case 1:
		return s->dev.mtu;
	default:
		return s->eth.rings.rx;
	}
}

static void run_mismatch(const struct np_analysis *a, struct np_report *r)
{
	static const char *const what[] = { "speed", "MTU", "rx ring" };
	static const char *const unit[] = { "Mbit/s", "bytes", "descriptors" };

	if (!members_apply(a, r))
		return;
	for (int w = 0; w < 3; w++) {
		uint64_t first = NP_NA, v;
		bool differ = false;
		struct np_finding *f;
		char list[160] = "";
		size_t len = 0;

		for (size_t i = 0; i < a->nlower; i++) {
			v = member_value(a->lower[i]->cur, w);
			if (!np_has(v))
				continue;
			if (!np_has(first))
				first = v;
			differ |= v != first;
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s %llu",
						len ? ", " : "", a->lower[i]->cur->dev.name,
						(unsigned long long)v);
			if (len >= sizeof(list))
				len = sizeof(list) - 1;	/* cut: the evidence has them all */
		}
		if (!differ)
			continue;
		f = np_emit(r, w == 2 ? NP_SEV_INFO : NP_SEV_WARNING, "Members of %s differ in %s: %s",
			    a->cur->dev.name, what[w], list);
		if (!f)
			return;
		for (size_t i = 0; i < a->nlower; i++) {
			char key[48];

			v = member_value(a->lower[i]->cur, w);
			snprintf(key, sizeof(key), "%s.%s", a->lower[i]->cur->dev.name,
				 w == 0 ? "speed" : w == 1 ? "mtu" : "rx_ring");
			if (np_has(v))
				np_ev_value(f, key, unit[w], (double)v);
		}
		if (w == 0)
			np_detail(f, "A bond hashes flows over its members regardless of their speed: "
				     "the flows on the slower member are capped at its speed, and "
				     "802.3ad (LACP) only aggregates ports of one speed. A member that "
				     "negotiated down usually has a cable, optic or switch port fault.");
		else if (w == 1)
			np_detail(f, "The bond sets its MTU on every member; a member that differs "
				     "was changed behind the bond's back and refuses (or fragments) the "
				     "frames its siblings take.");
		else
			np_detail(f, "A member with a smaller ring overflows first under the same "
				     "share of the load.");
		if (w == 0) {
			np_remedy(f, "ethtool MEMBER   # then the cable/optic and switch port of the "
				     "slower one");
			np_remedy(f, "Cost: a maintenance window for cabling.");
		} else if (w == 1) {
			np_remedy(f, "ip link set dev %s mtu N   # the bond sets it on all members",
				  a->cur->dev.name);
			np_remedy(f, "Cost: a moment of link reset on some drivers.");
		} else {
			np_remedy(f, "ethtool -G MEMBER rx N   # the same ring on every member");
			np_remedy(f, "Cost: a ring reset (a short traffic gap) per member.");
		}
	}
}

/* ---- link.member-imbalance ---- */

static void run_imbalance(const struct np_analysis *a, struct np_report *r)
{
	double sum = 0, best = 0;
	size_t nup = 0, top = 0;
	struct np_finding *f;
	bool sampled = a->prev && a->dt > 0;

	if (!members_apply(a, r))
		return;
	for (size_t i = 0; i < a->nlower; i++) {
		const struct np_analysis *m = a->lower[i];
		struct np_counter_view v = np_view_u64(m, m->prev ? m->prev->dev.stats.rx_packets :
						       NP_NA, m->cur->dev.stats.rx_packets);
		double x = sampled ? (double)v.delta : (double)v.total;

		if (!v.present || strcmp(m->cur->dev.operstate, "up"))
			continue;
		nup++;
		sum += x;
		if (x > best) {
			best = x;
			top = i;
		}
	}
	/* Too little traffic, or one member up: nothing to balance. */
	if (nup < 2 || sum < (sampled ? 1000.0 * a->dt : 100000.0) ||
	    100.0 * best / sum < np_thr_warn(r))
		return;
	f = np_emit(r, NP_SEV_INFO, "%.0f%% of %s's received packets %s arrive on %s (%zu members "
		    "up)", 100.0 * best / sum, a->cur->dev.name, sampled ? "during the sample" :
		    "since boot", a->lower[top]->cur->dev.name, nup);
	if (!f)
		return;
	np_ev_value(f, "busiest_member_share", "%", 100.0 * best / sum);
	np_ev_value(f, sampled ? "received_per_second" : "received_since_boot", "packets",
		    sampled ? sum / a->dt : sum);
	np_detail(f, "Which member a packet arrives on is the sender's choice: the switch's (or "
		     "peer's) hash over the flows. Few large flows, or a hash over MAC addresses "
		     "only (layer2), put them on one link, which then caps them; this host's "
		     "xmit_hash_policy decides the same for what it sends. %s",
		  sampled ? "" : "These are since-boot counts: sample an interval to see whether it "
				 "holds now.");
	np_remedy(f, "cat /sys/class/net/%s/bonding/xmit_hash_policy   # layer3+4 spreads flows "
		     "by port too", a->cur->dev.name);
	np_remedy(f, "On the switch: the port-channel load-balance method (src-dst-ip-port or "
		     "similar).");
	np_remedy(f, "Cost: layer3+4 may send the fragments of one datagram over different "
		     "members (reordering); not 802.3ad-compliant in the strict sense.");
}

const struct np_check np_check_link_member_mismatch = {
	.id = "link.member-mismatch",
	.stage = NP_STAGE_LINK,
	.scope = NP_SCOPE_INTERFACE,
	.title = "Bond or team members that differ (speed, MTU, ring)",
	.looks_at = "speed and MTU in sysfs and the rx ring (ethtool) of each member of a bond "
		    "or team",
	.why = "Siblings should be alike: a member at a lower speed caps the flows hashed onto "
	       "it (and 802.3ad will not aggregate it), one with another MTU refuses its "
	       "siblings' frames, one with a smaller ring overflows first.",
	.fix = "Find why a member negotiated down (cable, optic, switch port); set MTU on the "
	       "bond, not the members; size rings alike.",
	.related = "/sys/class/net/BOND/bonding/slaves, ethtool -G, ip link set mtu",
	.warn = NAN, .crit = NAN, .thr_unit = NULL,
	.run = run_mismatch,
};

const struct np_check np_check_link_member_imbalance = {
	.id = "link.member-imbalance",
	.stage = NP_STAGE_LINK,
	.scope = NP_SCOPE_INTERFACE,
	.title = "One bond or team member carrying nearly all the traffic",
	.looks_at = "rx_packets of each member that is up, over the interval (else since boot)",
	.why = "A bond adds capacity only when flows spread over its members. Most of the "
	       "traffic on one member while the others idle means the hash (the peer's for "
	       "what arrives, xmit_hash_policy for what leaves) puts the flows on one link. It "
	       "does not matter while that link has headroom, or in active-backup mode, where "
	       "one member carrying everything is the design.",
	.fix = "xmit_hash_policy layer3+4 on this host and a matching load-balance method on "
	       "the switch; more flows if there is one big one.",
	.related = "/sys/class/net/BOND/bonding/xmit_hash_policy, bonding mode",
	.warn = 90, .crit = NAN, .thr_unit = "% of the bond's received packets on one member",
	.run = run_imbalance,
};
