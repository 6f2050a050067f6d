/* SPDX-License-Identifier: GPL-2.0-only */
/* Flows of dropped packets: the --host/--port/--proto/--by options and how a flow is written. */
#ifndef NP_TRACE_FLOW_H
#define NP_TRACE_FLOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "netpath_bpf.h"

/* What the kernel side filters on and how it keys flows (the programs' rodata). */
struct np_trace_filter {
	bool host;			/* --host given */
	uint8_t family;			/* NP_FLOW_IPV4 / NP_FLOW_IPV6 */
	uint8_t addr[16];		/* masked, network order */
	uint8_t mask[16];
	unsigned int prefix;		/* as given (or the full length) */
	bool port_on;
	uint16_t port;
	bool proto_on;
	uint8_t proto;
};

/* "198.18.0.0/15", "2001:db8::1", "2001:db8::/32": family, masked address and mask. Host bits
 * beyond the prefix are cleared. Returns 0 or -EINVAL. */
int np_trace_filter_host(const char *s, struct np_trace_filter *f);
/* "tcp", "udp", "icmp", "icmp6"/"ipv6-icmp", "sctp", "udplite", or a number 0-255. */
int np_trace_filter_proto(const char *s, struct np_trace_filter *f);
/* 1-65535. */
int np_trace_filter_port(const char *s, struct np_trace_filter *f);
/* "flow", "src", "dst", "port" → enum np_flow_by. */
int np_trace_by_parse(const char *s, enum np_flow_by *by);
const char *np_trace_by_name(enum np_flow_by by);
/* The filter as the user would write it again ("host 10.0.0.0/8 port 53 proto udp"), "" if
 * none. Returns buf. */
const char *np_trace_filter_text(const struct np_trace_filter *f, char *buf, size_t size);

/* "tcp", "udp", "icmp", "ipv6-icmp", ... or the number. */
const char *np_proto_name(uint8_t proto, char *buf, size_t size);
/* The address of a flow key's src or dst ("198.18.0.1", "2001:db8::1"); "" when the key has
 * none (non-IP, or left out by --by). Returns buf. */
const char *np_flow_addr(const struct np_flow_key *k, bool src, char *buf, size_t size);
/* One line for a flow as --by keyed it: "198.18.0.1:40000 > 198.18.0.2:9001 udp",
 * "src 198.18.0.1", "udp dport 9001", "icmp type 8 code 0", "vlan 10 ...", "non-IP". */
const char *np_flow_format(const struct np_flow_key *k, enum np_flow_by by, char *buf,
			   size_t size);
/* ICMP and ICMPv6 carry type/code in the port fields. */
bool np_flow_is_icmp(const struct np_flow_key *k);

#endif
