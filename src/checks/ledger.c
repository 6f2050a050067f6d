// SPDX-License-Identifier: GPL-2.0-only
/* The loss ledger (ledger.h): each boundary's remainder, or why it cannot be taken here. */
#include "ledger.h"
#include "check_util.h"
#include "funnel.h"
#include "ingress_gap.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define DEVV(a, field) \
	np_view_u64(a, (a)->prev ? (a)->prev->dev.stats.field : NP_NA, (a)->cur->dev.stats.field)

const char *np_ledger_kind_name(enum np_ledger_kind k)
{
	switch (k) {
	case NP_LEDGER_EXACT: return "exact";
	case NP_LEDGER_AT_LEAST: return "at_least";
	case NP_LEDGER_AT_MOST: return "at_most";
	case NP_LEDGER_NOT_COMPARABLE: break;
	}
	return "not_comparable";
}

static struct np_ledger_line *line(struct np_ledger *l, const char *boundary,
				   const char *counters)
{
	struct np_ledger_line *b = &l->b[l->n++];

	memset(b, 0, sizeof(*b));
	b->boundary = boundary;
	b->counters = counters;
	return b;
}

__attribute__((format(printf, 2, 3)))
static void not_comparable(struct np_ledger_line *b, const char *fmt, ...)
{
	va_list ap;

	b->kind = NP_LEDGER_NOT_COMPARABLE;
	b->packets = b->rate = b->in = 0;
	va_start(ap, fmt);
	vsnprintf(b->reason, sizeof(b->reason), fmt, ap);
	va_end(ap);
}

/*
 * The counters of one boundary are read at instants a few milliseconds apart (sysfs, then
 * /proc): a remainder within 1% of what went in, plus 2 packets, is that skew, not a loss.
 * Below minus the tolerance the later stage counted more than came in: its counter covers
 * other traffic, and the boundary is not comparable (neg says why). A remainder is material
 * where it cannot be other traffic (exact, or a lower bound) and is at least 10 packets/s and
 * 1% of the input.
 */
#define NC(...)                                \
	do {                                   \
		not_comparable(b, __VA_ARGS__); \
		return;                        \
	} while (0)

static bool settle(struct np_ledger_line *b, const struct np_analysis *a, bool window, double in,
		   double rem, double tol, enum np_ledger_kind kind)
{
	char num[32];

	b->window = window;
	b->in = in;
	if (rem < -tol) {
		not_comparable(b, "comes out %s packets below zero: ",
			       np_fmt_num(-rem, num, sizeof(num)));
		return false;
	}
	b->kind = kind;
	b->packets = rem > tol ? rem : 0;
	b->rate = window && a->dt > 0 ? b->packets / a->dt : 0;
	b->material = kind != NP_LEDGER_AT_MOST && window && b->rate >= NP_LEDGER_MIN_PPS &&
		      in > 0 && 100.0 * b->packets / in >= NP_LEDGER_MIN_SHARE;
	if (!b->packets)
		snprintf(b->reason, sizeof(b->reason), "balanced (within the counters' read "
			 "skew)");
	return b->packets > 0;
}

static void append(struct np_ledger_line *b, const char *text)
{
	size_t n = strlen(b->reason);

	snprintf(b->reason + n, sizeof(b->reason) - n, "%s", text);
}

/* Sum of MIB counters; *all false when one of them is absent. */
static struct np_counter_view mib_sum(const struct np_analysis *a, const char *const *names,
				      bool *all)
{
	struct np_counter_view v = { 0 };

	*all = true;
	for (size_t i = 0; names[i]; i++) {
		struct np_counter_view x = np_view_mib(a, names[i]);

		*all = *all && x.present;
		v = np_view_sum(v, x);
	}
	return v;
}

static double span(const struct np_counter_view *v, bool window)
{
	return window ? (double)v->delta : (double)v->total;
}

/* Why GRO (or LRO) keeps the device's frames and the later counters apart; NULL: it does not. */
static const char *gro_state(const struct np_snapshot *s)
{
	const struct np_features *f = &s->eth.features;

	if (f->lro == 1)
		return "LRO is on (a merged packet does not always say how many frames it holds)";
	if (f->gro == 1)
		return "GRO is on";
	if (f->gro_hw == 1)
		return "hardware GRO is on";
	if (!np_src_ok(s, NP_SRC_ETHTOOL_FEATURES) || f->gro < 0)
		return "GRO's state is unknown (ethtool -k not read)";
	return NULL;
}

struct others {
	bool known;
	unsigned n;		/* interfaces other than IF (its lowers) and lo that received */
	char names[64];
	double lo;		/* lo's rx_packets over the interval */
};

static bool is_lower(const struct np_snapshot *s, const char *name)
{
	for (size_t i = 0; i < s->dev.n_lower && i < NP_MAX_LOWER; i++)
		if (!strcmp(s->dev.lower[i], name))
			return true;
	return false;
}

static void find_others(const struct np_analysis *a, struct others *o)
{
	const struct np_ifrx *c = &a->cur->hs->ifrx, *p = a->prev ? &a->prev->hs->ifrx : NULL;

	memset(o, 0, sizeof(*o));
	if (!p || !c->read || !p->read || c->more)
		return;
	o->known = true;
	for (size_t i = 0; i < c->n; i++) {
		const char *name = c->e[i].name;
		double d = 0;

		if (!strcmp(name, a->cur->ifname) || is_lower(a->cur, name))
			continue;
		for (size_t k = 0; k < p->n; k++)
			if (!strcmp(p->e[k].name, name) && c->e[i].rx_packets >= p->e[k].rx_packets)
				d = (double)(c->e[i].rx_packets - p->e[k].rx_packets);
		if (d <= 0)
			continue;
		if (!strcmp(name, "lo")) {
			o->lo = d;
			continue;
		}
		if (o->n++ < 3) {
			size_t n = strlen(o->names);

			snprintf(o->names + n, sizeof(o->names) - n, "%s%s", n ? ", " : "", name);
		}
	}
}

/* What the device handed on: rx_packets less what the stack counted as refused there. */
static double dev_in(const struct np_analysis *a, bool with_unhandled)
{
	struct np_counter_view rx = DEVV(a, rx_packets), drop = DEVV(a, rx_dropped);
	double in = (double)rx.delta - (double)drop.delta;

	if (with_unhandled) {
		struct np_counter_view nh = DEVV(a, rx_nohandler), oh = DEVV(a, rx_otherhost_dropped);

		in -= (double)nh.delta + (double)oh.delta;
	}
	return in;
}

static void nic_softnet(const struct np_analysis *a, const struct np_funnel *fn,
			const struct others *o, struct np_ledger *l)
{
	struct np_ledger_line *b = line(l, "nic-softnet", "rx_packets - rx_dropped (the "
					"interface) vs softnet processed (every CPU)");
	const struct np_counter_view *sn = NULL;
	const char *gro = gro_state(a->cur);
	char num[32];
	double in;

	for (size_t i = 0; i < fn->n; i++)
		if (fn->rows[i].stage == NP_STAGE_SOFTNET)
			sn = &fn->rows[i].in;
	if (!a->prev || a->dt <= 0)
		NC("needs an interval (the device's and the host's counters "
		   "start at different times)");
	if (!DEVV(a, rx_packets).sampled || !sn || !sn->sampled)
		NC("%s not read twice", !sn || !sn->sampled ?
		   "/proc/net/softnet_stat" : "the interface's rx_packets");
	if (gro)
		NC("on %s, %s: softnet may count merged packets, fewer than the "
		   "frames the device counted", a->cur->ifname, gro);
	in = dev_in(a, false);
	if (!settle(b, a, true, in, in - (double)sn->delta, 2 + 0.01 * in, NP_LEDGER_AT_LEAST)) {
		if (b->kind == NP_LEDGER_NOT_COMPARABLE)
			append(b, o->known && o->n ? "softnet processed more than the interface "
			       "handed on; it counts every interface, and other interfaces received "
			       "packets" : "softnet processed more than the interface handed on; it "
			       "counts every interface of every namespace, and each VLAN or bond pass "
			       "again");
		return;
	}
	snprintf(b->reason, sizeof(b->reason), "%s packets the driver counted never reached "
		 "the stack: native XDP (XDP_DROP, XDP_REDIRECT, XDP_TX, counted only in the "
		 "driver's statistics: ethtool -S %s) or driver drops outside rx_dropped",
		 np_fmt_num(b->packets, num, sizeof(num)), a->cur->ifname);
}

static const char *const ip_in[] = { "IpInReceives", "Ip6InReceives", NULL };
static const char *const ip_segs4[] = { "IpExtInNoECTPkts", "IpExtInECT1Pkts", "IpExtInECT0Pkts",
					"IpExtInCEPkts", NULL };
static const char *const ip_segs6[] = { "Ip6InNoECTPkts", "Ip6InECT1Pkts", "Ip6InECT0Pkts",
					"Ip6InCEPkts", NULL };

static void nic_ip(const struct np_analysis *a, const struct others *o, struct np_ledger *l)
{
	struct np_ledger_line *b = line(l, "nic-ip", "rx_packets - rx_dropped - rx_nohandler - "
					"rx_otherhost_dropped (the interface, and lo) vs "
					"IpInReceives + Ip6InReceives");
	const struct np_features *f = &a->cur->eth.features;
	const char *gro = gro_state(a->cur);
	struct np_counter_view ip;
	bool all, all6 = true, segs = false;
	double in;

	if (!a->prev || a->dt <= 0)
		NC("needs an interval (the device's counters start at its "
		   "creation, IP's at the namespace's)");
	if (!o->known)
		NC("/proc/net/dev not read twice: which other interfaces "
		   "fed IP is unknown");
	if (o->n)
		NC("IP counts every interface of the namespace: %u other%s "
		   "received packets in the window (%s%s)", o->n,
		   o->n == 1 ? "" : "s", o->names, o->n > 3 ? ", ..." : "");
	if (f->lro == 1 || (gro && f->gro != 1 && f->gro_hw != 1))
		NC("on %s, %s: IP may count merged packets, fewer than the frames the "
		   "device counted", a->cur->ifname, gro);
	if (gro) {
		/* ip_rcv adds gso_segs to the ECN counters: frames, as the device counts. */
		struct np_counter_view v6r = np_view_mib(a, "Ip6InReceives");

		if (o->lo > 0)
			NC("GRO merges frames on %s, so IP's segment counters "
			   "are needed, and lo (%.0f packets in the window) sends "
			   "TSO packets they count by segment", a->cur->ifname,
			   o->lo);
		ip = mib_sum(a, ip_segs4, &all);
		if (v6r.present && v6r.delta)
			ip = np_view_sum(ip, mib_sum(a, ip_segs6, &all6));
		if (!all || !all6)
			NC("GRO merges frames on %s and IP's segment counters "
			   "(IpExtIn*ECT*Pkts, Ip6In*Pkts) were not read",
			   a->cur->ifname);
		segs = true;
		b->counters = "rx_packets - rx_dropped - rx_nohandler - rx_otherhost_dropped (the "
			      "interface) vs IpExtIn{NoECT,ECT0,ECT1,CE}Pkts + Ip6In{...}Pkts "
			      "(segments)";
	} else {
		ip = mib_sum(a, ip_in, &all);
		if (!ip.sampled)
			NC("IpInReceives not read twice");
	}
	in = dev_in(a, true) + (segs ? 0 : o->lo);
	if (!settle(b, a, true, in, in - (double)ip.delta, 2 + 0.01 * in, NP_LEDGER_AT_MOST)) {
		if (b->kind == NP_LEDGER_NOT_COMPARABLE)
			append(b, "IP counted more than the interface handed on; it takes some "
			       "packets in twice (IPsec tunnel mode, a tunnel decapsulated into the "
			       "same device)");
		return;
	}
	snprintf(b->reason, sizeof(b->reason), "non-IP frames (ARP, LLDP, STP, LACP), or dropped "
		 "before IP with no counter moving: tc ingress (tc -s qdisc show dev %s ingress), "
		 "nftables netdev ingress, generic XDP, frames for other hosts in promiscuous "
		 "mode before 5.19", a->cur->ifname);
}

static void ip_delivered(const struct np_analysis *a, struct np_ledger *l)
{
	struct np_ledger_line *b = line(l, "ip-delivered", "IpInReceives vs IpInDelivers + "
					"IpForwDatagrams + the IP errors + reassembly (IPv4)");
	struct np_ingress_gap g;
	int err = np_ingress_gap(a, &g);

	if (err < 0)
		NC(err == -EAGAIN ? "needs an interval" :
		   "the IP counters were not read");
	if (settle(b, a, true, (double)g.in.delta, (double)g.gone.delta, 0, NP_LEDGER_EXACT))
		snprintf(b->reason, sizeof(b->reason), "IPv4 packets neither delivered, forwarded "
			 "nor counted as an IP error: netfilter rules, IPVS, martians (the funnel's "
			 "ingress row; ingress.netfilter-drops judges it)");
}

static const char *const delivered[] = { "IpInDelivers", "Ip6InDelivers", NULL };
static const char *const l4_in[] = {
	"TcpInSegs", "UdpInDatagrams", "UdpInErrors", "UdpNoPorts", "Udp6InDatagrams",
	"Udp6InErrors", "Udp6NoPorts", "UdpLiteInDatagrams", "UdpLiteInErrors", "UdpLiteNoPorts",
	"UdpLite6InDatagrams", "UdpLite6InErrors", "UdpLite6NoPorts", "IcmpInMsgs", "Icmp6InMsgs",
	NULL,
};

static void delivered_l4(const struct np_analysis *a, struct np_ledger *l)
{
	struct np_ledger_line *b = line(l, "delivered-transport", "IpInDelivers + Ip6InDelivers "
					"vs TCP InSegs + UDP, UDP-Lite (InDatagrams, InErrors, "
					"NoPorts) + ICMP InMsgs, IPv4 and IPv6");
	bool all, window = a->prev && a->dt > 0;
	struct np_counter_view d = mib_sum(a, delivered, &all), t = mib_sum(a, l4_in, &all);
	double in = span(&d, window);

	if (!np_view_mib(a, "IpInDelivers").present || !np_view_mib(a, "TcpInSegs").present)
		NC("the IP and TCP counters were not read");
	if (window && !d.sampled)
		NC("IpInDelivers not read twice");
	if (!settle(b, a, window, in, in - span(&t, window), 2 + 0.01 * in, NP_LEDGER_AT_MOST)) {
		if (b->kind == NP_LEDGER_NOT_COMPARABLE)
			append(b, "the transports counted more than IP delivered; TcpInSegs counts "
			       "each segment of a GRO packet on newer kernels, and a multicast or "
			       "broadcast datagram read by several sockets counts once each");
		return;
	}
	snprintf(b->reason, sizeof(b->reason), "delivered to protocols that keep no input "
		 "counter (GRE, ESP/AH, IGMP, SCTP, IPIP, raw sockets alone), or UDP datagrams "
		 "queued and not yet read (UdpInDatagrams counts them when read)");
}

static const char *const udp_err[] = { "UdpInErrors", "Udp6InErrors", NULL };
static const char *const udp_named[] = { "UdpRcvbufErrors", "UdpMemErrors", "UdpInCsumErrors",
					 "Udp6RcvbufErrors", "Udp6MemErrors", "Udp6InCsumErrors",
					 NULL };
static const char *const udp_in[] = { "UdpInDatagrams", "UdpInErrors", "UdpNoPorts",
				      "Udp6InDatagrams", "Udp6InErrors", "Udp6NoPorts", NULL };

static void udp_errors(const struct np_analysis *a, struct np_ledger_line *b)
{
	bool all, window = a->prev && a->dt > 0;
	struct np_counter_view e = mib_sum(a, udp_err, &all), n = mib_sum(a, udp_named, &all),
			       in = mib_sum(a, udp_in, &all);

	if (!np_view_mib(a, "UdpInErrors").present || !np_view_mib(a, "UdpRcvbufErrors").present)
		NC("UdpInErrors and UdpRcvbufErrors were not read");
	if (window && !e.sampled)
		NC("UdpInErrors not read twice");
	/* Every cause counter is charged together with InErrors, in the same file. */
	if (!settle(b, a, window, span(&in, window), span(&e, window) - span(&n, window), 0,
		    NP_LEDGER_EXACT)) {
		if (b->kind == NP_LEDGER_NOT_COMPARABLE)
			append(b, "the cause counters exceed InErrors, which is charged with each "
			       "of them (read apart, or files of different machines)");
		return;
	}
	snprintf(b->reason, sizeof(b->reason), "UDP errors with no cause counter: socket filters "
		 "(SO_ATTACH_FILTER, BPF), IPsec policy, short or malformed headers%s",
		 np_view_mib(a, "UdpMemErrors").present ? "" : ", and udp_mem refusals (this "
		 "kernel has no UdpMemErrors: 5.11+)");
}

void np_ledger_build(const struct np_analysis *a, const struct np_funnel *fn, struct np_ledger *l)
{
	struct others o;

	memset(l, 0, sizeof(*l));
	memcpy(l->dev, a->cur->ifname, strnlen(a->cur->ifname, sizeof(l->dev) - 1));
	find_others(a, &o);
	nic_softnet(a, fn, &o, l);
	nic_ip(a, &o, l);
	ip_delivered(a, l);
	delivered_l4(a, l);
	np_ledger_udp_errors(a, &l->b[l->n++]);
}

void np_ledger_udp_errors(const struct np_analysis *a, struct np_ledger_line *b)
{
	memset(b, 0, sizeof(*b));
	b->boundary = "udp-errors";
	b->counters = "UdpInErrors vs RcvbufErrors + MemErrors + InCsumErrors, IPv4 and IPv6";
	udp_errors(a, b);
}

const char *const np_ledger_explain[] = {
	"What it is",
	"Between two stages of the receive path, what went in less what the next stage counted "
	"and the drops named on the way is what vanished without any counter moving. Doctor "
	"prints it under the packet funnel, one line per boundary, and in JSON as \"ledger\". A "
	"boundary is compared only where its counters count the same packets; elsewhere it says "
	"\"not comparable\" and why, never a negative or made-up loss. A remainder within 1% of "
	"the input plus 2 packets is the counters' read skew and shows as balanced. \"exact\": "
	"the counters cover the same packets; \"at least\": the later counter also counts other "
	"traffic, so what is left is lost for sure; \"at most\": traffic no counter counts lands "
	"in the remainder too. A remainder is marked material when it is exact or a lower bound, "
	"at least 10 packets/s and 1% of the input. The ledger itself never changes the verdict: "
	"the one exact boundary with a meaning of its own, udp-errors, is judged by the check "
	"transport.udp-unnamed-errors (a warning from 10 datagrams/s and 1% of UDP input).",
	"nic-softnet",
	"rx_packets less rx_dropped of the interface against softnet's processed count. softnet "
	"counts every interface of every namespace, and a VLAN or bond pass twice, so only a "
	"shortfall can be read: at least that many packets the driver counted never reached the "
	"stack (native XDP drops and redirects, counted only in ethtool -S). Not comparable with "
	"GRO, LRO or hardware GRO on (softnet counts merged packets) or when GRO's state is "
	"unknown.",
	"nic-ip",
	"What the interface handed on (rx_packets less rx_dropped, rx_nohandler and "
	"rx_otherhost_dropped), with lo's packets, against IPv4 and IPv6 InReceives. Only when "
	"no other interface of the namespace received packets in the window (read from "
	"/proc/net/dev). With GRO on, IP's ECN counters, which count segments, stand in for "
	"InReceives, and lo must be quiet (its TSO packets count once on lo, by segment there). "
	"An upper bound: ARP, LLDP and other non-IP frames land in it, with tc ingress drops, "
	"nftables netdev drops, generic XDP and, before 5.19, frames for other hosts.",
	"ip-delivered",
	"IPv4 input against delivery, forwarding, the IP errors and reassembly: exact; the "
	"funnel's ingress row and the check ingress.netfilter-drops (netfilter rules, IPVS, "
	"martians). IPv6 has no such balance here.",
	"delivered-transport",
	"IPv4 and IPv6 InDelivers against TCP InSegs, UDP and UDP-Lite (InDatagrams, InErrors, "
	"NoPorts) and ICMP InMsgs; also since boot, the counters being the namespace's. An upper "
	"bound: GRE, ESP, AH, IGMP, SCTP, IPIP and raw-only protocols keep no input counter, and "
	"UdpInDatagrams counts a datagram when it is read, not when it is queued. Not comparable "
	"where the transport counted more: newer kernels add a GRO packet's segments to "
	"TcpInSegs, and a multicast datagram read by several sockets counts once each.",
	"udp-errors",
	"UDP's InErrors less the causes it names (RcvbufErrors, MemErrors, InCsumErrors), IPv4 "
	"and IPv6: exact, each cause being charged with InErrors. What is left are UDP drops "
	"without a cause counter: socket filters (SO_ATTACH_FILTER, BPF), IPsec policy, short or "
	"malformed headers, and udp_mem refusals on kernels before 5.11. TCP has no such "
	"balance: its drops after InSegs are named in TcpExt, and netpath trace names the rest.",
	NULL,
};
