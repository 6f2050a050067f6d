// SPDX-License-Identifier: GPL-2.0-only
/* Filter parsing and flow formatting for `netpath trace`: pure, tested without a kernel. */
#include "trace_flow.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct {
	const char *name;
	uint8_t num;
} protos[] = {
	{ "icmp", 1 }, { "igmp", 2 }, { "tcp", 6 }, { "udp", 17 }, { "gre", 47 },
	{ "esp", 50 }, { "ah", 51 }, { "ipv6-icmp", 58 }, { "icmp6", 58 }, { "icmpv6", 58 },
	{ "sctp", 132 }, { "udplite", 136 },
};

static int parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*out = strtoul(s, &end, 10);
	if (errno || *end || *out > max)
		return -EINVAL;
	return 0;
}

int np_trace_filter_host(const char *s, struct np_trace_filter *f)
{
	char addr[INET6_ADDRSTRLEN + 8];
	const char *slash;
	unsigned long prefix;
	unsigned int bits;
	size_t n;

	if (!s)
		return -EINVAL;
	slash = strchr(s, '/');
	n = slash ? (size_t)(slash - s) : strlen(s);
	if (n == 0 || n >= sizeof(addr))
		return -EINVAL;
	memcpy(addr, s, n);
	addr[n] = '\0';
	memset(f->addr, 0, sizeof(f->addr));
	memset(f->mask, 0, sizeof(f->mask));
	if (inet_pton(AF_INET, addr, f->addr) == 1) {
		f->family = NP_FLOW_IPV4;
		bits = 32;
	} else if (inet_pton(AF_INET6, addr, f->addr) == 1) {
		f->family = NP_FLOW_IPV6;
		bits = 128;
	} else {
		return -EINVAL;
	}
	prefix = bits;
	if (slash && parse_uint(slash + 1, bits, &prefix) < 0)
		return -EINVAL;
	for (unsigned int i = 0; i < 16; i++) {
		unsigned int have = prefix > i * 8 ? (unsigned int)prefix - i * 8 : 0;

		f->mask[i] = have >= 8 ? 0xff : (uint8_t)(0xff << (8 - have));
		f->addr[i] &= f->mask[i];
	}
	f->prefix = (unsigned int)prefix;
	f->host = true;
	return 0;
}

int np_trace_filter_proto(const char *s, struct np_trace_filter *f)
{
	unsigned long v;

	for (size_t i = 0; s && i < sizeof(protos) / sizeof(protos[0]); i++) {
		if (strcasecmp(s, protos[i].name) == 0) {
			f->proto = protos[i].num;
			f->proto_on = true;
			return 0;
		}
	}
	if (parse_uint(s, 255, &v) < 0)
		return -EINVAL;
	f->proto = (uint8_t)v;
	f->proto_on = true;
	return 0;
}

int np_trace_filter_port(const char *s, struct np_trace_filter *f)
{
	unsigned long v;

	if (parse_uint(s, 65535, &v) < 0 || v == 0)
		return -EINVAL;
	f->port = (uint16_t)v;
	f->port_on = true;
	return 0;
}

static const char *const by_names[] = {
	[NP_BY_FLOW] = "flow", [NP_BY_SRC] = "src", [NP_BY_DST] = "dst", [NP_BY_PORT] = "port",
};

int np_trace_by_parse(const char *s, enum np_flow_by *by)
{
	for (int i = 0; s && i <= NP_BY_PORT; i++) {
		if (strcmp(s, by_names[i]) == 0) {
			*by = (enum np_flow_by)i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *np_trace_by_name(enum np_flow_by by)
{
	return by <= NP_BY_PORT ? by_names[by] : "?";
}

const char *np_proto_name(uint8_t proto, char *buf, size_t size)
{
	for (size_t i = 0; i < sizeof(protos) / sizeof(protos[0]); i++) {
		if (protos[i].num == proto) {
			snprintf(buf, size, "%s", protos[i].name);
			return buf;
		}
	}
	snprintf(buf, size, "proto %u", proto);
	return buf;
}

const char *np_trace_filter_text(const struct np_trace_filter *f, char *buf, size_t size)
{
	char a[INET6_ADDRSTRLEN], p[16];
	size_t n = 0;

	buf[0] = '\0';
	if (f->host && inet_ntop(f->family == NP_FLOW_IPV4 ? AF_INET : AF_INET6, f->addr, a,
				 sizeof(a)))
		n += (size_t)snprintf(buf + n, size - n, "host %s/%u", a, f->prefix);
	if (f->port_on && n < size)
		n += (size_t)snprintf(buf + n, size - n, "%sport %u", n ? " " : "", f->port);
	if (f->proto_on && n < size)
		snprintf(buf + n, size - n, "%sproto %s", n ? " " : "",
			 np_proto_name(f->proto, p, sizeof(p)));
	return buf;
}

bool np_flow_is_icmp(const struct np_flow_key *k)
{
	return (k->family == NP_FLOW_IPV4 && k->proto == 1) ||
	       (k->family == NP_FLOW_IPV6 && k->proto == 58);
}

static bool all_zero(const uint8_t *a, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i])
			return false;
	return true;
}

const char *np_flow_addr(const struct np_flow_key *k, bool src, char *buf, size_t size)
{
	const uint8_t *a = src ? k->src : k->dst;

	buf[0] = '\0';
	if (k->family == NP_FLOW_NONE || all_zero(a, 16))
		return buf;
	if (!inet_ntop(k->family == NP_FLOW_IPV4 ? AF_INET : AF_INET6, a, buf, (socklen_t)size))
		buf[0] = '\0';
	return buf;
}

/* "[2001:db8::1]:80" or "198.18.0.1:80": brackets keep an IPv6 port readable. */
static void endpoint(const struct np_flow_key *k, bool src, bool port, char *buf, size_t size)
{
	char a[INET6_ADDRSTRLEN];

	np_flow_addr(k, src, a, sizeof(a));
	if (!port)
		snprintf(buf, size, "%s", a);
	else if (k->family == NP_FLOW_IPV6)
		snprintf(buf, size, "[%s]:%u", a, src ? k->sport : k->dport);
	else
		snprintf(buf, size, "%s:%u", a, src ? k->sport : k->dport);
}

const char *np_flow_format(const struct np_flow_key *k, enum np_flow_by by, char *buf,
			   size_t size)
{
	char s[64], d[64], p[16], vlan[16] = "";
	bool icmp = np_flow_is_icmp(k);
	bool ports = !icmp && (k->sport || k->dport);

	if (k->vlan & NP_FLOW_VLAN)
		snprintf(vlan, sizeof(vlan), "vlan %u ", k->vlan & 0x0fff);
	if (k->family == NP_FLOW_NONE) {
		snprintf(buf, size, "%snon-IP or unreadable headers", vlan);
		return buf;
	}
	np_proto_name(k->proto, p, sizeof(p));
	switch (by) {
	case NP_BY_SRC:
		snprintf(buf, size, "%ssrc %s", vlan, np_flow_addr(k, true, s, sizeof(s)));
		break;
	case NP_BY_DST:
		snprintf(buf, size, "%sdst %s", vlan, np_flow_addr(k, false, d, sizeof(d)));
		break;
	case NP_BY_PORT:
		if (icmp)
			snprintf(buf, size, "%s%s type %u code %u", vlan, p, k->sport, k->dport);
		else
			snprintf(buf, size, "%s%s dport %u", vlan, p, k->dport);
		break;
	default:
		endpoint(k, true, ports, s, sizeof(s));
		endpoint(k, false, ports, d, sizeof(d));
		if (icmp)
			snprintf(buf, size, "%s%s > %s %s type %u code %u", vlan, s, d, p, k->sport,
				 k->dport);
		else
			snprintf(buf, size, "%s%s > %s %s", vlan, s, d, p);
		break;
	}
	return buf;
}
