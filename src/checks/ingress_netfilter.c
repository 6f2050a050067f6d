// SPDX-License-Identifier: GPL-2.0-only
/* Stage "ingress": packets IP received that vanished before delivery (netfilter rules). */
#include "check.h"
#include "check_util.h"
#include "ingress_gap.h"

#include <errno.h>
#include <stdio.h>

/* Below this rate a gap is reported as info at most, whatever its share. */
#define NF_MIN_PPS 10.0

static void run_netfilter_drops(const struct np_analysis *a, struct np_report *r)
{
	struct np_ingress_gap g;
	enum np_severity sev = NP_SEV_INFO;
	int err = np_ingress_gap(a, &g);
	double share;
	struct np_finding *f;
	char num[32];

	if (err == -ENOENT) {
		np_skip(r, "IP counters (/proc/net/snmp Ip: InReceives, InDelivers) not readable");
		return;
	}
	if (err < 0) {
		np_not_applicable(r, "needs an interval: the IP counters only balance over the same window");
		return;
	}
	if (!g.gone.delta)
		return;
	share = 100.0 * (double)g.gone.delta / (double)g.in.delta;
	if (g.gone.rate >= NF_MIN_PPS && share >= np_thr_crit(r))
		sev = NP_SEV_CRITICAL;
	else if (g.gone.rate >= NF_MIN_PPS && share >= np_thr_warn(r))
		sev = NP_SEV_WARNING;
	f = np_emit(r, sev, "%s packets/s (%.1f%% of IPv4 input) vanished after IP input without "
		    "an IP error: dropped by netfilter rules (or taken by IPVS, refused as "
		    "martians)", np_fmt_num(g.gone.rate, num, sizeof(num)), share);
	if (!f)
		return;
	f->rank = g.gone.rate;
	np_ev_counter(f, "vanished", "packets", &g.gone);
	np_ev_value(f, "vanished_share", "% of IpInReceives", share);
	np_ev_counter(f, "IpInReceives", "packets", &g.in);
	np_ev_counter(f, "IpInDelivers", "packets", &g.deliv);
	if (g.ct.present)
		np_ev_counter(f, "conntrack_drop (not counted here)", "packets", &g.ct);
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
