// SPDX-License-Identifier: GPL-2.0-only
/* Stage "ingress": packets IP received that vanished before delivery (netfilter rules). */
#include "check.h"
#include "check_util.h"

#include <stdio.h>

/* Below this rate a gap is reported as info at most, whatever its share. */
#define NF_MIN_PPS 10.0

/*
 * Every IPv4 packet ip_rcv() counts in InReceives ends in exactly one place the IP MIB counts:
 * delivered to a protocol (InDelivers), forwarded (ForwDatagrams), an IP-layer error (header,
 * address, unknown protocol, discards, no route, truncated, rp_filter), or consumed as a fragment
 * of a datagram reassembled later (ReasmReqds - ReasmOKs). What the MIB does not count is a drop
 * by a netfilter hook between them (PREROUTING, INPUT, FORWARD: iptables/nft DROP or REJECT,
 * conntrack), or a martian source the route lookup refuses. Multicast and broadcast a host did
 * not join can vanish the same way and are set aside.
 */
static const char *const explained[] = {
	"IpInDelivers", "IpForwDatagrams", "IpInHdrErrors", "IpInAddrErrors",
	"IpInUnknownProtos", "IpInDiscards", "IpExtInNoRoutes", "IpExtInTruncatedPkts",
	"TcpExtIPReversePathFilter", "IpReasmReqds", "IpExtInMcastPkts", "IpExtInBcastPkts",
	NULL,
};

/* Conntrack's own drops (table full) are netfilter drops that ingress.conntrack-full reports. */
static struct np_counter_view ct_drop(const struct np_analysis *a)
{
	uint64_t prev = NP_NA;

	if (a->prev && np_src_ok(a->prev, NP_SRC_CONNTRACK))
		prev = np_counters_get(&a->prev->conntrack, "drop");
	if (!np_src_ok(a->cur, NP_SRC_CONNTRACK))
		return np_view_u64(a, NP_NA, NP_NA);
	return np_view_u64(a, prev, np_counters_get(&a->cur->conntrack, "drop"));
}

static void run_netfilter_drops(const struct np_analysis *a, struct np_report *r)
{
	struct np_counter_view in = np_view_mib(a, "IpInReceives");
	struct np_counter_view oks = np_view_mib(a, "IpReasmOKs");
	struct np_counter_view deliv = np_view_mib(a, "IpInDelivers");
	struct np_counter_view ct = ct_drop(a), gone = { 0 };
	enum np_severity sev = NP_SEV_INFO;
	double n = 0, tot = 0, share;
	struct np_finding *f;
	char num[32];

	if (!in.present || !deliv.present) {
		np_skip(r, "IP counters (/proc/net/snmp Ip: InReceives, InDelivers) not readable");
		return;
	}
	if (!in.sampled || a->dt <= 0) {
		np_not_applicable(r, "needs an interval: the IP counters only balance over the same window");
		return;
	}
	n = (double)in.delta + (double)oks.delta - (ct.sampled ? (double)ct.delta : 0.0);
	tot = (double)in.total + (double)oks.total - (ct.present ? (double)ct.total : 0.0);
	for (size_t i = 0; explained[i]; i++) {
		struct np_counter_view v = np_view_mib(a, explained[i]);

		n -= (double)v.delta;
		tot -= (double)v.total;
	}
	if (n < 1 || !in.delta)
		return;
	gone.present = gone.sampled = true;
	gone.total = tot > n ? (uint64_t)tot : (uint64_t)n;
	gone.delta = (uint64_t)n;
	gone.rate = n / a->dt;
	share = 100.0 * n / (double)in.delta;
	if (gone.rate >= NF_MIN_PPS && share >= np_thr_crit(r))
		sev = NP_SEV_CRITICAL;
	else if (gone.rate >= NF_MIN_PPS && share >= np_thr_warn(r))
		sev = NP_SEV_WARNING;
	f = np_emit(r, sev, "%s packets/s (%.1f%% of IPv4 input) vanished after IP input without "
		    "an IP error: dropped by netfilter rules (or taken by IPVS, refused as "
		    "martians)", np_fmt_num(gone.rate, num, sizeof(num)), share);
	if (!f)
		return;
	f->rank = gone.rate;
	np_ev_counter(f, "vanished", "packets", &gone);
	np_ev_value(f, "vanished_share", "% of IpInReceives", share);
	np_ev_counter(f, "IpInReceives", "packets", &in);
	np_ev_counter(f, "IpInDelivers", "packets", &deliv);
	if (ct.present)
		np_ev_counter(f, "conntrack_drop (not counted here)", "packets", &ct);
	np_detail(f, "Every IPv4 packet IP receives is delivered, forwarded, counted as an IP "
		     "error or reassembled; these were none of those. That is a netfilter hook "
		     "(iptables/nft DROP or REJECT in PREROUTING, INPUT or FORWARD, a raw/mangle "
		     "rule, conntrack refusing a packet) or a martian source address the route "
		     "lookup refuses (net.ipv4.conf.*.log_martians shows those). Two things look "
		     "the same and are fine: a firewall blocking unwanted traffic on purpose, and "
		     "an IPVS load balancer (kube-proxy in IPVS mode), which takes the packets it "
		     "forwards out of IP input.");
	np_remedy(f, "iptables -L -v -n -x; iptables -t raw -L -v -n -x   # rules whose packet "
		     "counters grow (iptables-legacy -L too, if both are in use)");
	np_remedy(f, "nft list ruleset | grep -E 'drop|reject'   # nftables rules (add 'counter' "
		     "to see which one matches)");
	np_remedy(f, "netpath trace %s   # NETFILTER_DROP vs IP_INADDRERRORS names the cause, "
		     "and the rules whose counters grew",
		  a->cur->dev.name);
	np_remedy(f, "sysctl -w net.ipv4.conf.all.log_martians=1   # log martian sources");
	np_remedy(f, "ipvsadm -Ln --stats   # an IPVS director: its InPkts account for the gap");
	np_remedy(f, "Cost: diagnosis only; fixing means changing the rule set, which only the "
		     "owner of the firewall policy can judge.");
}

const struct np_check np_check_ingress_netfilter_drops = {
	.id = "ingress.netfilter-drops",
	.stage = NP_STAGE_INGRESS,
	.scope = NP_SCOPE_NETNS,
	.title = "Packets dropped after IP input without an IP error (netfilter rules)",
	.looks_at = "/proc/net/snmp Ip: InReceives vs InDelivers, ForwDatagrams, the IP error "
		    "counters and reassembly; IpExt multicast/broadcast; TcpExt "
		    "IPReversePathFilter; conntrack drop; over the interval",
	.why = "The IP MIB accounts for every received IPv4 packet except those a netfilter hook "
	       "drops: iptables/nft rules (DROP, REJECT), and martian sources. Such drops appear "
	       "in no drop counter, so a rule blocking wanted traffic is otherwise invisible. A "
	       "firewall dropping unwanted traffic by design shows up here too, usually as a "
	       "small share.",
	.fix = "Find the rule whose counters grow (iptables -L -v, nft list ruleset) and change it "
	       "if the traffic is wanted; netpath trace IF shows whose packets NETFILTER_DROP "
	       "takes (sources, ports), where, and which nftables or iptables rules counted them "
	       "during the window (nft rules need a 'counter' to be named). Costs nothing to "
	       "look.",
	.related = "iptables -L -v -n, nft list ruleset, net.ipv4.conf.all.log_martians",
	.kernel_notes = "IPv4 only. The counters are per network namespace; run doctor in the "
			"namespace that receives the traffic. IPVS (ip_vs) takes the packets it "
			"balances at LOCAL_IN: on a director they count here. netpath trace names "
			"the reason (NETFILTER_DROP) where drop reasons exist (5.17+).",
	.warn = 5, .crit = 50,
	.thr_unit = "% of IPv4 input vanished (at least 10 packets/s; below: info)",
	.run = run_netfilter_drops,
};
