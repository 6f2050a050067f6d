// SPDX-License-Identifier: GPL-2.0-only
/* The reason → stage table: pure data. Names, not numbers: the numbers move between kernels. */
#include "trace_stage.h"

#include <stddef.h>
#include <string.h>

#define S(st) NP_STAGE_##st

struct entry {
	const char *name;	/* exact name, or a prefix ending in '_' (or '*') */
	enum np_stage stage;
	bool benign;
	const char *expl;
};

/* Exact names, from include/net/dropreason-core.h of 5.17 to 6.18. */
static const struct entry exact[] = {
	{ "NOT_DROPPED_YET", S(TRANSPORT), true, "not a drop: the skb is still alive" },
	{ "CONSUMED", S(TRANSPORT), true, "not a drop: the packet was delivered and freed" },
	{ "NOT_SPECIFIED", S(IP), true,
	  "freed without a reason: mostly normal frees (clones after delivery, errors on "
	  "send); the freeing function tells where" },
	{ "NO_SOCKET", S(TRANSPORT), false,
	  "no socket for the destination port (UdpNoPorts, TCP answered with a reset): a "
	  "service that is down, or scans" },
	{ "SOCKET_CLOSE", S(SOCKET), true, "data queued on a socket that was closed" },
	{ "SOCKET_FILTER", S(SOCKET), false,
	  "a socket filter (SO_ATTACH_FILTER, BPF) rejected it" },
	{ "SOCKET_RCVBUFF", S(SOCKET), false,
	  "socket receive buffer full: the application does not read fast enough, or "
	  "SO_RCVBUF/rmem_default is too small (UdpRcvbufErrors)" },
	{ "SOCKET_BACKLOG", S(SOCKET), false,
	  "TCP socket busy in the application and its backlog full (TCPBacklogDrop)" },
	{ "PROTO_MEM", S(SOCKET), false,
	  "protocol memory limit reached: tcp_mem/udp_mem (pages) or a memcg limit" },
	{ "PKT_TOO_SMALL", S(IP), false, "packet shorter than its headers say" },
	{ "TCP_CSUM", S(TRANSPORT), false, "TCP checksum error: corruption on the path or NIC" },
	{ "UDP_CSUM", S(TRANSPORT), false, "UDP checksum error: corruption on the path or NIC" },
	{ "ICMP_CSUM", S(TRANSPORT), false, "ICMP checksum error" },
	{ "SKB_CSUM", S(TRANSPORT), false, "checksum error found while copying to the socket" },
	{ "NETFILTER_DROP", S(INGRESS), false,
	  "a netfilter rule (iptables/nftables DROP, REJECT) or conntrack dropped it" },
	{ "OTHERHOST", S(IP), true,
	  "addressed to another host's MAC (promiscuous mode, bridges, flooding switches)" },
	{ "UNICAST_IN_L2_MULTICAST", S(IP), false,
	  "IP unicast inside an L2 multicast/broadcast frame" },
	{ "XFRM_POLICY", S(IP), false, "IPsec policy check failed" },
	{ "IPV6DISABLED", S(IP), false, "IPv6 is disabled on the device" },
	{ "INVALID_PROTO", S(IP), false, "invalid or unsupported protocol in the header" },
	{ "PKT_TOO_BIG", S(IP), false, "larger than the MTU of the way out (forwarding)" },
	{ "DUP_FRAG", S(IP), false, "duplicate IP fragment" },
	{ "FRAG_REASM_TIMEOUT", S(IP), false,
	  "fragments never completed in time (lost fragments; ipfrag_time)" },
	{ "FRAG_TOO_FAR", S(IP), false, "fragment too far out of order (ipfrag_max_dist)" },
	{ "ARP_PVLAN_DISABLE", S(IP), false, "ARP reply suppressed (private VLAN proxy ARP off)" },
	{ "UNHANDLED_PROTO", S(IP), true,
	  "no handler for the frame's protocol (LLDP, STP and similar link chatter; "
	  "rx_nohandler)" },
	{ "CPU_BACKLOG", S(SOFTNET), false,
	  "per-CPU backlog full (netdev_max_backlog) or flow limit hit: RPS target or netif_rx "
	  "device (veth, tunnels) faster than the CPU drains it; counted on the enqueuing CPU" },
	{ "XDP", S(INGRESS), false, "an XDP program dropped it (generic XDP, or veth/tun XDP)" },
	{ "TC_INGRESS", S(INGRESS), false,
	  "a tc ingress filter or action (TC_ACT_SHOT) dropped it" },
	{ "TC_EGRESS", S(CONGESTION), false, "a tc egress filter or action dropped it" },
	{ "TC_COOKIE_ERROR", S(INGRESS), false, "tc classification failed (cookie error)" },
	{ "TC_CHAIN_NOTFOUND", S(INGRESS), false, "tc goto to a chain that does not exist" },
	{ "TC_RECLASSIFY_LOOP", S(INGRESS), false, "tc reclassified too many times (loop)" },
	{ "SECURITY_HOOK", S(INGRESS), false, "a security module (LSM) hook rejected it" },
	{ "BRIDGE_INGRESS_STP_STATE", S(INGRESS), false, "bridge port not forwarding (STP state)" },
	{ "BPF_CGROUP_EGRESS", S(CONGESTION), false, "a cgroup egress BPF program dropped it" },
	{ "SKB_GSO_SEG", S(CONGESTION), false, "GSO segmentation failed on the way out" },
	{ "RECURSION_LIMIT", S(CONGESTION), false, "transmit recursion limit (a device loop)" },
	{ "NO_TX_TARGET", S(CONGESTION), false, "no device to transmit it on" },
	{ "TUNNEL_TXINFO", S(CONGESTION), false, "tunnel transmit metadata missing" },
	{ "DUALPI2_STEP_DROP", S(CONGESTION), false, "dualpi2 qdisc step-threshold drop" },
	{ "SKB_UCOPY_FAULT", S(SOCKET), false, "copying to the user buffer failed" },
	{ "PFMEMALLOC", S(SOCKET), false,
	  "skb from the emergency memory reserve for a socket not allowed to use it: memory "
	  "pressure" },
	{ "QUEUE_PURGE", S(SOCKET), true, "a socket or device queue was purged (close, flush)" },
	{ "PACKET_SOCK_ERROR", S(SOCKET), true,
	  "a copy for a packet socket (tcpdump) was dropped; the packet itself went on" },
	{ "FULL_RING", S(NIC), false,
	  "receive ring of a virtual device full (veth in NAPI/XDP mode, tun): the reader is "
	  "too slow" },
	{ "NOMEM", S(NIC), false, "memory allocation for the packet failed: the host is short of "
	  "memory" },
	{ "DEV_HDR", S(NIC), false, "invalid device header (virtio-net, tun metadata)" },
	{ "DEV_READY", S(NIC), false, "device not up or not ready" },
	{ "HDR_TRUNC", S(NIC), false, "truncated header from the device" },
	{ "TAP_FILTER", S(NIC), false, "tun/tap receive filter rejected it" },
	{ "TAP_TXFILTER", S(NIC), false, "tun/tap transmit filter rejected it" },
	{ "MAC_INVALID_SOURCE", S(LINK), false, "invalid source MAC address" },
	{ "LOCAL_MAC", S(LINK), false, "source MAC is one of ours (a loop)" },
	{ "MAC_IEEE_MAC_CONTROL", S(LINK), true, "IEEE 802.3 MAC control frame (pause), not data" },
	{ "IP_TUNNEL_ECN", S(IP), false, "invalid ECN combination on tunnel decapsulation" },
	{ "PSP_OUTPUT", S(CONGESTION), false, "PSP encryption failed on the way out" },
	{ "TCP_LISTEN_OVERFLOW", S(SOCKET), false,
	  "listen queue full: the application does not accept() fast enough, or the backlog "
	  "(somaxconn) is small" },
	{ "TCP_ZEROWINDOW", S(SOCKET), false,
	  "data beyond a zero receive window: the application does not read" },
	{ "TCP_OFO_DROP", S(SOCKET), false,
	  "out-of-order data not queued: receive memory exhausted (TCPOFODrop)" },
	{ "TCP_OFO_QUEUE_PRUNE", S(SOCKET), false,
	  "out-of-order queue pruned to free receive memory (OfoPruned)" },
	{ "TCP_OLD_DATA", S(TRANSPORT), true, "duplicate of data already received (a retransmit)" },
	{ "TCP_OFOMERGE", S(TRANSPORT), true, "out-of-order data already queued (merged)" },
	{ "TCP_OLD_ACK", S(TRANSPORT), true, "an ACK older than the window (harmless reordering)" },
	{ "TCP_RESET", S(TRANSPORT), true, "a reset segment, consumed by closing the connection" },
	{ "TCP_CLOSE", S(TRANSPORT), true, "segment for a connection being closed" },
	{ "TCP_MINTTL", S(TRANSPORT), false, "TTL below IP_MINTTL (TCPMinTTLDrop)" },
	{ NULL, 0, false, NULL },
};

/* Families; the longest matching prefix wins over shorter ones by order (specific first). */
static const struct entry prefix[] = {
	{ "IPV6_NDISC_", S(IP), false, "invalid IPv6 neighbour discovery message" },
	{ "IPV6_", S(IP), false, "IPv6 input: invalid extension header or similar" },
	{ "IP_", S(IP), false,
	  "IP input: bad header or checksum, no route, rp_filter, martian or not-ours address" },
	{ "TCP_MD5", S(TRANSPORT), false, "TCP MD5 signature missing, unexpected or wrong" },
	{ "TCP_AO", S(TRANSPORT), false, "TCP-AO authentication missing, unexpected or wrong" },
	{ "TCP_RFC7323_", S(TRANSPORT), false,
	  "TCP timestamp (PAWS) check failed: old or wrapped timestamps" },
	{ "TCP_", S(TRANSPORT), false,
	  "TCP protocol processing: invalid flags, sequence or ACK outside the window" },
	{ "NEIGH_", S(IP), false, "neighbour (ARP/NDP) resolution failed or its queue was full" },
	{ "QDISC_", S(CONGESTION), false,
	  "the egress qdisc dropped it (queue full or over limit)" },
	{ "FQ_", S(CONGESTION), false, "the fq qdisc dropped it (flow/band/horizon limit)" },
	{ "CAKE_", S(CONGESTION), false, "the cake qdisc dropped it (flooding flow)" },
	{ "VXLAN_", S(TRANSPORT), false, "VXLAN decapsulation: bad header, unknown VNI or FDB" },
	{ "CAN", S(NIC), false, "invalid CAN frame" },
	{ "UNIX_", S(SOCKET), true, "AF_UNIX socket queue (not network traffic)" },
	{ "PSP_", S(TRANSPORT), false, "PSP decryption or policy failed" },
	{ "MAC80211", S(LINK), false, "wireless stack (mac80211) dropped it" },
	{ "OPENVSWITCH", S(INGRESS), false, "Open vSwitch datapath dropped it (flow action, "
	  "no flow, limits)" },
	{ NULL, 0, false, NULL },
};

static struct np_reason_info info(const struct entry *e, enum np_reason_match m)
{
	return (struct np_reason_info){ e->stage, e->benign, e->expl, m };
}

struct np_reason_info np_reason_info(const char *name)
{
	for (const struct entry *e = exact; e->name; e++)
		if (strcmp(e->name, name) == 0)
			return info(e, NP_MATCH_EXACT);
	for (const struct entry *e = prefix; e->name; e++)
		if (strncmp(e->name, name, strlen(e->name)) == 0)
			return info(e, NP_MATCH_PREFIX);
	return (struct np_reason_info){ NP_STAGE_IP, false,
					"a reason this version of netpath does not know yet "
					"(see include/net/dropreason-core.h)", NP_MATCH_DEFAULT };
}

/* Function prefixes, most specific first. */
static const struct entry funcs[] = {
	/* veth, ipvlan and friends hand a frame to the peer device: it is freed there when the
	 * peer is down or the frame exceeds the peer's MTU, a link-level mismatch. */
	{ "__dev_forward_skb", S(LINK), false,
	  "device-to-device forward (veth): peer down or frame larger than its MTU" },
	{ "dev_forward_skb", S(LINK), false,
	  "device-to-device forward (veth): peer down or frame larger than its MTU" },
	{ "enqueue_to_backlog", S(SOFTNET), false, "per-CPU backlog full (netdev_max_backlog)" },
	{ "netif_rx", S(SOFTNET), false, "per-CPU backlog (netif_rx)" },
	{ "net_rx_action", S(SOFTNET), false, "softirq receive processing" },
	{ "napi_", S(SOFTNET), false, "NAPI/GRO processing" },
	{ "dev_gro", S(SOFTNET), false, "GRO" },
	{ "__netif_receive_skb", S(INGRESS), false,
	  "device receive: no protocol handler, tc ingress, generic XDP" },
	{ "netif_receive_generic_xdp", S(INGRESS), false, "generic XDP" },
	{ "tcf_", S(INGRESS), false, "tc classifier or action" },
	{ "sch_handle_ingress", S(INGRESS), false, "tc ingress" },
	{ "nf_", S(INGRESS), false, "netfilter" },
	{ "ipt_", S(INGRESS), false, "iptables" },
	{ "nft_", S(INGRESS), false, "nftables" },
	{ "br_", S(INGRESS), false, "bridge" },
	{ "ip_rcv", S(IP), false, "IP input" },
	{ "ip_local_deliver", S(IP), false, "IP local delivery" },
	{ "ip_forward", S(IP), false, "IP forwarding" },
	{ "ip_defrag", S(IP), false, "IP reassembly" },
	{ "ip_frag", S(IP), false, "IP reassembly" },
	{ "ipv6_", S(IP), false, "IPv6 input" },
	{ "ip6_", S(IP), false, "IPv6 input" },
	{ "ip_", S(IP), false, "IP" },
	{ "icmp", S(TRANSPORT), false, "ICMP" },
	{ "tcp_v4_rcv", S(TRANSPORT), false, "TCP input" },
	{ "tcp_v6_rcv", S(TRANSPORT), false, "TCP input" },
	{ "tcp_add_backlog", S(SOCKET), false, "TCP socket backlog full" },
	{ "tcp_data_queue", S(SOCKET), false, "TCP receive queue" },
	{ "tcp_prune", S(SOCKET), false, "TCP receive memory pruning" },
	{ "tcp_conn_request", S(SOCKET), false, "TCP listen queue" },
	{ "tcp_", S(TRANSPORT), false, "TCP" },
	{ "__udp_enqueue_schedule_skb", S(SOCKET), false, "UDP socket receive buffer full" },
	{ "__udp_queue_rcv_skb", S(SOCKET), false, "UDP socket receive buffer full" },
	{ "udp_queue_rcv", S(SOCKET), false, "UDP socket queue" },
	{ "__udp4_lib_rcv", S(TRANSPORT), false, "UDP input (no socket, checksum)" },
	{ "__udp6_lib_rcv", S(TRANSPORT), false, "UDP input (no socket, checksum)" },
	{ "udp", S(TRANSPORT), false, "UDP" },
	{ "sk_", S(SOCKET), false, "socket" },
	{ "sock_", S(SOCKET), false, "socket" },
	{ "skb_queue_purge", S(SOCKET), true, "queue purged" },
	{ "neigh_", S(IP), false, "neighbour resolution" },
	{ "arp_", S(IP), false, "ARP" },
	{ "__dev_queue_xmit", S(CONGESTION), false, "transmit" },
	{ "dev_queue_xmit", S(CONGESTION), false, "transmit" },
	{ "qdisc_", S(CONGESTION), false, "qdisc" },
	{ "pfifo", S(CONGESTION), false, "qdisc" },
	{ "fq_", S(CONGESTION), false, "qdisc" },
	{ "veth_", S(NIC), false, "veth" },
	{ "tun_", S(NIC), false, "tun/tap" },
	{ NULL, 0, false, NULL },
};

struct np_reason_info np_symbol_info(const char *func)
{
	/* Local symbols of the compiler: "foo.isra.0", "foo.cold": match on the stem. */
	for (const struct entry *e = funcs; e->name; e++)
		if (strncmp(e->name, func, strlen(e->name)) == 0)
			return info(e, NP_MATCH_PREFIX);
	return (struct np_reason_info){ NP_STAGE_IP, false, "freed here (no reason given)",
					NP_MATCH_DEFAULT };
}

/* Reasons whose counter a doctor check already judges. */
static const struct {
	const char *reason, *check;
} checks[] = {
	{ "NO_SOCKET", "transport.udp-no-ports" },
	{ "SOCKET_RCVBUFF", "socket.udp-rcvbuf" },
	{ "CPU_BACKLOG", "softnet.backlog-drops" },
	{ "TCP_CSUM", "transport.checksum" },
	{ "UDP_CSUM", "transport.checksum" },
	{ "SOCKET_BACKLOG", "transport.tcp-backlog-drop" },
	{ "TCP_ZEROWINDOW", "transport.tcp-zero-window" },
	{ "TCP_LISTEN_OVERFLOW", "socket.listen-overflow" },
	{ "IP_INNOROUTES", "ip.no-route" },
	{ "IP_RPFILTER", "ip.rp-filter" },
	{ "IP_INADDRERRORS", "ip.addr-errors" },
};

const char *np_reason_check(const char *name)
{
	for (size_t i = 0; i < sizeof(checks) / sizeof(checks[0]); i++)
		if (strcmp(checks[i].reason, name) == 0)
			return checks[i].check;
	return NULL;
}
