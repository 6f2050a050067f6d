// SPDX-License-Identifier: GPL-2.0-only
/* Stage "ip": IP input drops (rp_filter, no route, damaged headers, discards, reassembly). */
#include "check_util.h"
#include "raise.h"

#include <stdio.h>
#include <string.h>

static const char *rp_mode(int64_t v)
{
	return v == 0 ? "off" : v == 1 ? "strict" : v == 2 ? "loose" : "unknown";
}

static void run_rp_filter(const struct np_analysis *a, struct np_report *r)
{
	static const char *const names[] = { "TcpExtIPReversePathFilter", NULL };
	const char *ifn = a->cur->dev.name;
	struct np_counter_view v;
	int64_t all, dev, eff = -1;
	bool have_all, have_dev;
	char rate[96], ifsys[IF_NAMESIZE];
	struct np_finding *f;
	enum np_severity sev;

	sev = np_mib_verdict(a, r, names, &v);
	if (sev == NP_SEV_OK)
		return;
	all = np_sysctl_int(a->cur, NP_SYSCTL_CONF_ALL_RP_FILTER, 0, &have_all);
	dev = np_sysctl_dev_int(a->cur, NP_SYSCTL_DEV_RP_FILTER_FMT, &have_dev);
	if (have_all && have_dev)
		eff = all > dev ? all : dev;
	np_rate_text(&v, rate, sizeof(rate));
	if (eff >= 0)
		f = np_emit(r, sev, "reverse-path filter dropped packets: %s; %s runs "
			    "rp_filter=%lld (%s)", rate, ifn, (long long)eff, rp_mode(eff));
	else
		f = np_emit(r, sev, "reverse-path filter dropped packets: %s", rate);
	if (!f)
		return;
	f->rank = v.rate;
	np_ev_counter(f, "TcpExtIPReversePathFilter", "packets", &v);
	if (have_all)
		np_ev_value(f, "conf.all.rp_filter", "", (double)all);
	if (have_dev)
		np_ev_value(f, "conf.IF.rp_filter", "", (double)dev);
	if (eff >= 0)
		np_ev_text(f, "effective rp_filter", "%lld (%s) = max(all, %s)", (long long)eff,
			   rp_mode(eff), ifn);
	np_detail(f, "The kernel dropped packets whose source address would not be routed back out "
		     "of the interface they arrived on (strict, 1) or out of any interface (loose, "
		     "2). Legitimate traffic hits this with asymmetric routing: multi-homed hosts, "
		     "policy routing, several uplinks, VRRP/anycast, some tunnels. The counter "
		     "covers all interfaces of the namespace; the setting shown is %s's.", ifn);
	if (eff == 0)
		np_detail(f, "rp_filter is off on %s, so these drops happened on another "
			     "interface.", ifn);
	/* sysctl(8) uses '/' for dots inside an interface name (eth0.100 -> eth0/100). */
	snprintf(ifsys, sizeof(ifsys), "%s", ifn);
	for (char *p = ifsys; *p; p++)
		if (*p == '.')
			*p = '/';
	np_remedy(f, "sysctl -w net.ipv4.conf.%s.rp_filter=2   # loose mode: the effective value "
		     "is max(all, %s), so this alone relaxes strict mode here", ifsys, ifsys);
	if (have_all && all == 1)
		np_remedy(f, "sysctl -w net.ipv4.conf.all.rp_filter=2   # or relax it for every "
			     "interface at once");
	np_remedy(f, "If the drops are spoofed traffic, leave strict mode on: they are doing their "
		     "job.");
	np_remedy(f, "Cost: loose mode only checks that the source is routable at all, so it "
		     "stops fewer spoofed packets.");
}

static void run_no_route(const struct np_analysis *a, struct np_report *r)
{
	static const char *const names[] = { "IpExtInNoRoutes", "Ip6InNoRoutes", NULL };
	bool have_fwd;
	int64_t fwd = np_sysctl_int(a->cur, NP_SYSCTL_IP_FORWARD, 0, &have_fwd);
	struct np_finding *f;

	f = np_mib_drop_finding(a, r, names, "packets", "packets dropped for lack of a route");
	if (!f)
		return;
	if (have_fwd)
		np_ev_value(f, "ip_forward", "", (double)fwd);
	np_detail(f, "InNoRoutes counts received packets the host would forward but has no route "
		     "for (the route lookup returned 'network unreachable'). On a router or "
		     "gateway this is a missing or withdrawn route; on an end host it usually "
		     "means traffic for addresses it does not own reaches it with forwarding on.");
	np_remedy(f, "ip route get <destination>   # see which lookup fails; compare 'ip route "
		     "show table all' with what the traffic needs");
	np_remedy(f, "Cost: none to investigate; the fix is a routing change.");
}

static void run_header_errors(const struct np_analysis *a, struct np_report *r)
{
	static const char *const names[] = {
		"IpInHdrErrors", "IpExtInCsumErrors", "IpExtInTruncatedPkts",
		"Ip6InHdrErrors", "Ip6InTruncatedPkts", NULL,
	};
	struct np_finding *f;

	f = np_mib_drop_finding(a, r, names, "packets",
				"IP packets with bad headers, checksums or lengths");
	if (!f)
		return;
	np_detail(f, "These packets passed the NIC's frame check but failed IP validation: a bad "
		     "header checksum (InCsumErrors), a length field longer than the packet "
		     "(InTruncatedPkts), or a malformed header, bad options or (when forwarding) "
		     "an expired TTL (InHdrErrors). Corruption after the MAC points at a "
		     "NIC/driver or offload bug, a broken middlebox or tunnel endpoint; an "
		     "InHdrErrors rate on a router with no checksum errors is usually TTL expiry "
		     "(traceroute, loops).");
	np_remedy(f, "tcpdump -ni %s -vv -c 2000 ip | grep -iE 'bad cksum|truncated|bad-len|ttl 1,'"
		     "   # the capture sees packets before IP drops them", a->cur->dev.name);
	np_remedy(f, "ethtool -S %s | grep -iE 'csum|err'   # compare with the NIC's own counters",
		  a->cur->dev.name);
	np_remedy(f, "Cost: none to investigate; tcpdump costs CPU on a busy link.");
}

static void run_addr_errors(const struct np_analysis *a, struct np_report *r)
{
	static const char *const names[] = {
		"IpInAddrErrors", "IpInUnknownProtos", "Ip6InAddrErrors", "Ip6InUnknownProtos",
		NULL,
	};
	struct np_counter_view v;
	bool have_fwd;
	int64_t fwd = np_sysctl_int(a->cur, NP_SYSCTL_IP_FORWARD, 0, &have_fwd);
	struct np_finding *f;

	if (!np_mib_read(a, r, names, &v))
		return;
	/* Informational only, and only while it moves: these packets were never ours. */
	if (!v.sampled || v.delta == 0)
		return;
	f = np_emit(r, NP_SEV_INFO, "packets not for this host or for an unknown protocol: %s/s",
		    np_fmt_rate(v.rate));
	if (!f)
		return;
	f->rank = v.rate;
	np_mib_evidence(f, a, names, "packets");
	if (have_fwd)
		np_ev_value(f, "ip_forward", "", (double)fwd);
	np_detail(f, "InAddrErrors counts packets addressed to an address this host does not own "
		     "(or an invalid one) while it does not forward; InUnknownProtos counts "
		     "packets for an IP protocol no handler is registered for (GRE, SCTP, ... "
		     "without the module). Neither is a loss of traffic meant for a local socket.");
	if (have_fwd && fwd == 0)
		np_detail(f, "Forwarding is off: if this host is supposed to route, that is why.");
	np_remedy(f, "No action unless this host should route (sysctl -w net.ipv4.ip_forward=1) or "
		     "serve that protocol (load its module).");
	np_remedy(f, "Cost: enabling forwarding turns the host into a router for every interface; "
		     "firewall it first.");
}

static void run_in_discards(const struct np_analysis *a, struct np_report *r)
{
	static const char *const names[] = { "IpInDiscards", "Ip6InDiscards", NULL };
	struct np_finding *f;

	f = np_mib_drop_finding(a, r, names, "packets", "IP input discarded packets");
	if (!f)
		return;
	np_detail(f, "IPv4 InDiscards counts packets that were valid but could not be processed, "
		     "chiefly an allocation failure when a shared skb had to be copied (memory "
		     "pressure in softirq context). IPv6 also counts packets arriving on an "
		     "interface with IPv6 disabled and some forwarding failures, so check the "
		     "address family split in the evidence.");
	np_remedy(f, "grep -E 'MemAvailable|Slab' /proc/meminfo; dmesg | grep -i 'page allocation "
		     "failure'   # memory pressure in atomic context");
	np_remedy(f, "sysctl -w vm.min_free_kbytes=<larger>   # only if atomic allocations fail");
	np_remedy(f, "Cost: a larger min_free_kbytes reserves that memory away from applications.");
}

static void run_reassembly(const struct np_analysis *a, struct np_report *r)
{
	static const char *const fails[] = { "IpReasmFails", "Ip6ReasmFails", NULL };
	static const char *const other[] = {
		"IpReasmTimeout", "IpExtReasmOverlaps", "Ip6ReasmTimeout", "IpReasmReqds", NULL,
	};
	const struct np_sockstat *ss = &a->cur->hs->sockstat;
	bool have_hi, have_time;
	int64_t hi = np_sysctl_int(a->cur, NP_SYSCTL_IPFRAG_HIGH_THRESH, 0, &have_hi);
	int64_t tmo = np_sysctl_int(a->cur, NP_SYSCTL_IPFRAG_TIME, 0, &have_time);
	char b1[32];
	struct np_finding *f;

	f = np_mib_drop_finding(a, r, fails, "failures", "IP reassembly failures");
	if (!f)
		return;
	np_mib_evidence(f, a, other, "count");
	if (np_has(ss->frag_memory))
		np_ev_value(f, "sockstat FRAG memory", "bytes", (double)ss->frag_memory);
	if (have_hi)
		np_ev_value(f, "ipfrag_high_thresh", "bytes", (double)hi);
	if (have_time)
		np_ev_value(f, "ipfrag_time", "s", (double)tmo);
	np_detail(f, "A failed reassembly loses the whole datagram, not one fragment. Timeouts "
		     "mean fragments went missing on the way (any fragment lost = datagram lost); "
		     "failures with no timeouts point at the fragment memory limit (%s) being "
		     "full, or at overlapping/duplicate fragments. Typical sources: UDP with "
		     "datagrams larger than the path MTU (DNS with large EDNS buffers, NFS/UDP, "
		     "video), and tunnels whose inner MTU was not lowered.",
		  have_hi ? np_fmt_bytes((double)hi, b1, sizeof(b1)) : "ipfrag_high_thresh");
	np_remedy(f, "Stop the fragmentation: lower the sender's datagram size or the tunnel/"
		     "interface MTU so packets fit the path MTU (ip link set dev %s mtu ...).",
		  a->cur->dev.name);
	np_remedy_raise(f, a->cur, "net.ipv4.ipfrag_high_thresh",
			"sysctl -w net.ipv4.ipfrag_high_thresh=", have_hi, hi,
			have_hi && hi >= (4ll << 20) ? hi * 2 : 8ll << 20,
			"only if failures come without timeouts (the memory limit is hit)");
	np_remedy(f, "Cost: more kernel memory held by incomplete datagrams (a fragment flood can "
		     "pin all of it).");
}

const struct np_check np_check_ip_rp_filter = {
	.id = "ip.rp-filter",
	.stage = NP_STAGE_IP,
	.scope = NP_SCOPE_NETNS,
	.title = "Reverse-path filter drops",
	.looks_at = "TcpExtIPReversePathFilter over the interval; net.ipv4.conf.{all,IF}.rp_filter",
	.why = "Strict reverse-path filtering drops packets whose source would be routed out of a "
	       "different interface. It is anti-spoofing on single-homed hosts and silent packet "
	       "loss on hosts with asymmetric routing (several uplinks, policy routing, anycast). "
	       "On a host with one interface and one default route it never drops legitimate "
	       "traffic.",
	.fix = "Use loose mode (2) on interfaces that legitimately see asymmetric traffic. Costs "
	       "weaker spoofing protection on those interfaces.",
	.related = "net.ipv4.conf.all.rp_filter, net.ipv4.conf.IF.rp_filter",
	.kernel_notes = "The effective value is max(conf.all, conf.IF). The drop reason is "
			"IP_RPFILTER in skb:kfree_skb on kernels with drop reasons.",
	.warn = 1, .crit = 100, .thr_unit = "drops/s",
	.run = run_rp_filter,
};

const struct np_check np_check_ip_no_route = {
	.id = "ip.no-route",
	.stage = NP_STAGE_IP,
	.scope = NP_SCOPE_NETNS,
	.title = "Packets dropped for lack of a route",
	.looks_at = "IpExtInNoRoutes (and Ip6InNoRoutes) over the interval",
	.why = "Received packets that should be forwarded but match no route are dropped. It "
	       "matters on routers, gateways and container hosts; on a plain end host it is "
	       "usually stray traffic.",
	.fix = "Fix the routing table (or the source sending that traffic). No cost beyond the "
	       "routing change.",
	.related = "ip route, net.ipv4.ip_forward",
	.warn = 1, .crit = 100, .thr_unit = "drops/s",
	.run = run_no_route,
};

const struct np_check np_check_ip_header_errors = {
	.id = "ip.header-errors",
	.stage = NP_STAGE_IP,
	.scope = NP_SCOPE_NETNS,
	.title = "Damaged IP headers, checksums, truncated packets",
	.looks_at = "IpInHdrErrors, IpExtInCsumErrors, IpExtInTruncatedPkts (and IPv6 twins)",
	.why = "Packets that survived the NIC's CRC but fail IP validation were corrupted after "
	       "the wire (driver, offload, middlebox) or built wrong by the sender. On a router, "
	       "InHdrErrors also counts TTL expiry, which is not corruption.",
	.fix = "Find the corrupting element: compare NIC counters, test with offloads off, "
	       "capture the packets. No kernel setting recovers them.",
	.related = "ethtool -k IF (rx-checksumming), tcpdump",
	.warn = 1, .crit = 100, .thr_unit = "packets/s",
	.run = run_header_errors,
};

const struct np_check np_check_ip_addr_errors = {
	.id = "ip.addr-errors",
	.stage = NP_STAGE_IP,
	.scope = NP_SCOPE_NETNS,
	.title = "Packets not for this host or for an unknown protocol",
	.looks_at = "IpInAddrErrors, IpInUnknownProtos (and IPv6 twins) over the interval",
	.why = "These packets were never meant for a local socket: wrong destination address "
	       "with forwarding off, or an IP protocol with no handler. Informational only, and "
	       "only reported while the counters move: they explain rx counts that never reach "
	       "an application, not a loss.",
	.fix = "Nothing, unless the host should forward (ip_forward) or serve that protocol.",
	.related = "net.ipv4.ip_forward",
	.warn = NAN, .crit = NAN,
	.run = run_addr_errors,
};

const struct np_check np_check_ip_in_discards = {
	.id = "ip.in-discards",
	.stage = NP_STAGE_IP,
	.scope = NP_SCOPE_NETNS,
	.title = "IP input discards",
	.looks_at = "IpInDiscards (and Ip6InDiscards) over the interval",
	.why = "Valid packets the IP layer could not process for lack of resources (an allocation "
	       "failure in softirq context). Rare on healthy hosts; a steady rate means memory "
	       "pressure in atomic context.",
	.fix = "Relieve memory pressure; raise vm.min_free_kbytes if atomic allocations fail "
	       "(costs that much memory held in reserve).",
	.related = "vm.min_free_kbytes",
	.kernel_notes = "IPv6 counts more cases in Ip6InDiscards (IPv6 disabled on the interface, "
			"some forwarding failures).",
	.warn = 1, .crit = 100, .thr_unit = "drops/s",
	.run = run_in_discards,
};

const struct np_check np_check_ip_reassembly = {
	.id = "ip.reassembly",
	.stage = NP_STAGE_IP,
	.scope = NP_SCOPE_NETNS,
	.title = "IP fragment reassembly failures",
	.looks_at = "IpReasmFails, IpReasmTimeout, IpExtReasmOverlaps (and IPv6 twins); "
		    "net.ipv4.ipfrag_high_thresh, ipfrag_time; sockstat FRAG memory",
	.why = "A datagram is lost when any of its fragments is lost, times out or the fragment "
	       "memory limit is reached. Fragmentation itself is the problem: it multiplies the "
	       "loss rate and costs CPU. Hosts that never see fragments can ignore this.",
	.fix = "Make packets fit the path MTU (sender datagram size, tunnel MTU). As a stopgap "
	       "raise ipfrag_high_thresh, which costs kernel memory held by partial datagrams.",
	.related = "net.ipv4.ipfrag_high_thresh, net.ipv4.ipfrag_low_thresh, net.ipv4.ipfrag_time, "
		   "net.ipv6.ip6frag_high_thresh",
	.kernel_notes = "IpExtReasmOverlaps exists on newer kernels (about 5.x); "
			"ipfrag_high_thresh defaults to 4 MiB.",
	.warn = 1, .crit = 100, .thr_unit = "failed reassemblies/s",
	.run = run_reassembly,
};
