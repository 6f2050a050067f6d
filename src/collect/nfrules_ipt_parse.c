// SPDX-License-Identifier: GPL-2.0-only
/*
 * iptables-legacy / ip6tables-legacy tables (x_tables' IPT_SO_GET_INFO + IPT_SO_GET_ENTRIES
 * replies): the rules that drop or reject and the built-in chains whose policy is DROP, with
 * their counters. Pure: every offset in the blob is checked before it is followed.
 *
 * A table is a flat list of entries: each built-in chain starts at its hook_entry offset and
 * ends with its policy at its underflow offset; a user chain starts with an ERROR target naming
 * it; the last entry is an ERROR target too. Matches sit between the entry and its target.
 */
#include "nfrules.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <linux/netfilter.h>
#include <linux/netfilter/x_tables.h>
#include <linux/netfilter/xt_tcpudp.h>
#include <linux/netfilter_ipv4/ip_tables.h>
#include <linux/netfilter_ipv6/ip6_tables.h>

_Static_assert(sizeof(struct ipt_getinfo) == NP_IPT_INFO_LEN, "ipt_getinfo is 84 bytes");
_Static_assert(sizeof(struct ip6t_getinfo) == NP_IPT_INFO_LEN, "ip6t_getinfo is 84 bytes");

static const char *const hook_names[NF_INET_NUMHOOKS] = {
	"PREROUTING", "INPUT", "FORWARD", "OUTPUT", "POSTROUTING",
};

/* The part of an entry the walk needs, whichever the family. */
struct entry {
	size_t size;			/* sizeof(struct ipt_entry) or ip6t_entry */
	uint16_t target_offset, next_offset;
	uint64_t packets, bytes;
};

struct rendering {
	char *s;
	size_t used;
};

static void add(struct rendering *m, const char *text)
{
	int n;

	if (m->used + 2 >= NP_NFRULE_MATCH)
		return;
	n = snprintf(m->s + m->used, NP_NFRULE_MATCH - m->used, "%s%s", m->used ? " " : "", text);
	if (n > 0)
		m->used += (size_t)n < NP_NFRULE_MATCH - m->used ? (size_t)n
							      : NP_NFRULE_MATCH - m->used - 1;
}

static int prefix_len(const uint8_t *mask, size_t len)
{
	int n = 0;

	for (size_t i = 0; i < len; i++)
		n += __builtin_popcount(mask[i]);
	return n;
}

static void addr(struct rendering *m, const char *opt, bool inv, int af, const void *a,
		 const void *mask, size_t len)
{
	char ip[INET6_ADDRSTRLEN], t[80];

	if (prefix_len(mask, len) == 0)
		return;
	inet_ntop(af, a, ip, sizeof(ip));
	snprintf(t, sizeof(t), "%s%s %s/%d", inv ? "! " : "", opt, ip, prefix_len(mask, len));
	add(m, t);
}

/* An interface: a mask shorter than the name's bytes is iptables' "eth+". */
static void iface(struct rendering *m, const char *opt, bool inv, const char *name,
		  const unsigned char *mask)
{
	char t[40];
	size_t n = strnlen(name, IFNAMSIZ), k = 0;

	if (!n)
		return;
	while (k < IFNAMSIZ && mask[k])
		k++;
	snprintf(t, sizeof(t), "%s%s %.*s%s", inv ? "! " : "", opt, (int)n, name,
		 k <= n && name[n - 1] != '+' ? "+" : "");
	add(m, t);
}

static void proto(struct rendering *m, bool inv, unsigned p)
{
	char t[32];
	const char *n = p == 6 ? "tcp" : p == 17 ? "udp" : p == 1 ? "icmp" : p == 58 ? "icmpv6" :
			p == 132 ? "sctp" : NULL;

	if (!p)
		return;
	if (n)
		snprintf(t, sizeof(t), "%s-p %s", inv ? "! " : "", n);
	else
		snprintf(t, sizeof(t), "%s-p %u", inv ? "! " : "", p);
	add(m, t);
}

static void ports(struct rendering *m, const char *opt, bool inv, const uint16_t p[2])
{
	char t[40];

	if (p[0] == 0 && p[1] == 0xffff)
		return;
	if (p[0] == p[1])
		snprintf(t, sizeof(t), "%s%s %u", inv ? "! " : "", opt, p[0]);
	else
		snprintf(t, sizeof(t), "%s%s %u:%u", inv ? "! " : "", opt, p[0], p[1]);
	add(m, t);
}

/* One match (name from its header, data after it): tcp and udp ports decoded, others by name.
 * The blob is only 4-byte aligned after the getinfo head: everything is copied out. */
static void match(struct rendering *m, const struct xt_entry_match *x, const uint8_t *data,
		  size_t len)
{
	char name[XT_EXTENSION_MAXNAMELEN + 4];
	int n = (int)strnlen(x->u.user.name, sizeof(x->u.user.name));

	snprintf(name, sizeof(name), "-m %.*s", n, x->u.user.name);
	if (!strncmp(x->u.user.name, "udp", (size_t)n + 1) && len >= sizeof(struct xt_udp)) {
		struct xt_udp u;

		memcpy(&u, data, sizeof(u));
		ports(m, "--sport", u.invflags & XT_UDP_INV_SRCPT, u.spts);
		ports(m, "--dport", u.invflags & XT_UDP_INV_DSTPT, u.dpts);
	} else if (!strncmp(x->u.user.name, "tcp", (size_t)n + 1) &&
		   len >= sizeof(struct xt_tcp)) {
		struct xt_tcp u;

		memcpy(&u, data, sizeof(u));
		ports(m, "--sport", u.invflags & XT_TCP_INV_SRCPT, u.spts);
		ports(m, "--dport", u.invflags & XT_TCP_INV_DSTPT, u.dpts);
		if (u.flg_mask)
			add(m, "--tcp-flags");
	} else {
		add(m, name);
	}
}

/* The entry header at off, whichever the family; the caller checked that it fits. */
static void read_entry(uint8_t family, const uint8_t *p, struct entry *e,
		       struct rendering *m)
{
	if (family == NFPROTO_IPV4) {
		struct ipt_entry x;

		memcpy(&x, p, sizeof(x));
		e->size = sizeof(x);
		e->target_offset = x.target_offset;
		e->next_offset = x.next_offset;
		e->packets = x.counters.pcnt;
		e->bytes = x.counters.bcnt;
		if (!m)
			return;
		addr(m, "-s", x.ip.invflags & IPT_INV_SRCIP, AF_INET, &x.ip.src, &x.ip.smsk, 4);
		addr(m, "-d", x.ip.invflags & IPT_INV_DSTIP, AF_INET, &x.ip.dst, &x.ip.dmsk, 4);
		proto(m, x.ip.invflags & XT_INV_PROTO, x.ip.proto);
		iface(m, "-i", x.ip.invflags & IPT_INV_VIA_IN, x.ip.iniface, x.ip.iniface_mask);
		iface(m, "-o", x.ip.invflags & IPT_INV_VIA_OUT, x.ip.outiface, x.ip.outiface_mask);
	} else {
		struct ip6t_entry x;

		memcpy(&x, p, sizeof(x));
		e->size = sizeof(x);
		e->target_offset = x.target_offset;
		e->next_offset = x.next_offset;
		e->packets = x.counters.pcnt;
		e->bytes = x.counters.bcnt;
		if (!m)
			return;
		addr(m, "-s", x.ipv6.invflags & IP6T_INV_SRCIP, AF_INET6, &x.ipv6.src,
		     &x.ipv6.smsk, 16);
		addr(m, "-d", x.ipv6.invflags & IP6T_INV_DSTIP, AF_INET6, &x.ipv6.dst,
		     &x.ipv6.dmsk, 16);
		if (x.ipv6.flags & IP6T_F_PROTO)
			proto(m, x.ipv6.invflags & XT_INV_PROTO, x.ipv6.proto);
		iface(m, "-i", x.ipv6.invflags & IP6T_INV_VIA_IN, x.ipv6.iniface,
		      x.ipv6.iniface_mask);
		iface(m, "-o", x.ipv6.invflags & IP6T_INV_VIA_OUT, x.ipv6.outiface,
		      x.ipv6.outiface_mask);
	}
}

/* The hook whose chain starts (entry) or ends (underflow) at off, or -1. */
static int hook_at(const uint32_t *offsets, uint32_t valid, uint32_t off)
{
	for (int h = 0; h < NF_INET_NUMHOOKS; h++)
		if ((valid & (1u << h)) && offsets[h] == off)
			return h;
	return -1;
}

int np_ipt_rules_parse(uint8_t family, const void *buf, size_t len, struct np_nfrules *out)
{
	const size_t head = NP_IPT_INFO_LEN + offsetof(struct ipt_get_entries, entrytable);
	const size_t esize = family == NFPROTO_IPV4 ? sizeof(struct ipt_entry)
						    : sizeof(struct ip6t_entry);
	const uint8_t *blob = (const uint8_t *)buf + head;
	struct ipt_getinfo info;
	char table[XT_TABLE_MAXNAMELEN + 1], chain[NP_NFRULE_NAME] = "";
	uint32_t size, pos = 0;

	if ((family != NFPROTO_IPV4 && family != NFPROTO_IPV6) || len < head)
		return -EBADMSG;
	memcpy(&info, buf, sizeof(info));
	memcpy(&size, (const uint8_t *)buf + NP_IPT_INFO_LEN +
	       offsetof(struct ipt_get_entries, size), sizeof(size));
	if (size > len - head)
		return -EBADMSG;
	snprintf(table, sizeof(table), "%.*s", (int)strnlen(info.name, sizeof(info.name)),
		 info.name);
	for (uint32_t off = 0; off < size;) {
		struct np_nfrule r = { .source = NP_NFRULE_LEGACY, .family = family,
				       .has_counter = true };
		struct rendering m = { .s = r.match };
		const uint8_t *tdata;
		struct xt_entry_target th;
		struct entry e;
		int hook, verdict = 1;
		uint16_t tsize;

		if (size - off < esize)
			return -EBADMSG;
		read_entry(family, blob + off, &e, NULL);
		if (e.next_offset < e.size + sizeof(th) || e.next_offset > size - off ||
		    e.target_offset < e.size || e.target_offset > e.next_offset - sizeof(th))
			return -EBADMSG;
		memcpy(&th, blob + off + e.target_offset, sizeof(th));
		tsize = th.u.target_size;
		if (tsize < sizeof(th) || tsize > e.next_offset - e.target_offset)
			return -EBADMSG;
		tdata = blob + off + e.target_offset + sizeof(th);
		th.u.user.name[sizeof(th.u.user.name) - 1] = '\0';
		hook = hook_at(info.hook_entry, info.valid_hooks, off);
		if (hook >= 0) {
			snprintf(chain, sizeof(chain), "%s", hook_names[hook]);
			pos = 0;
		}
		if (!strcmp(th.u.user.name, XT_ERROR_TARGET)) {	/* a user chain starts */
			size_t n = tsize - sizeof(th);

			n = strnlen((const char *)tdata, n < NP_NFRULE_NAME ? n : NP_NFRULE_NAME - 1);
			memcpy(chain, tdata, n);
			chain[n] = '\0';
			pos = 0;
			off += e.next_offset;
			continue;
		}
		pos++;
		if (!strcmp(th.u.user.name, XT_STANDARD_TARGET) && tsize >= sizeof(th) + sizeof(int))
			memcpy(&verdict, tdata, sizeof(verdict));
		r.verdict = hook_at(info.underflow, info.valid_hooks, off) >= 0 ?
			    NP_NFRULE_POLICY_DROP : NP_NFRULE_DROP;
		if (!strcmp(th.u.user.name, "REJECT"))
			r.verdict = NP_NFRULE_REJECT;
		else if (verdict != -NF_DROP - 1)
			goto next;
		read_entry(family, blob + off, &e, r.verdict == NP_NFRULE_POLICY_DROP ? NULL : &m);
		for (uint32_t mo = (uint32_t)e.size; mo + sizeof(struct xt_entry_match) <=
		     e.target_offset && r.verdict != NP_NFRULE_POLICY_DROP;) {
			struct xt_entry_match x;

			memcpy(&x, blob + off + mo, sizeof(x));
			if (x.u.match_size < sizeof(x) || x.u.match_size > e.target_offset - mo)
				return -EBADMSG;
			x.u.user.name[sizeof(x.u.user.name) - 1] = '\0';
			match(&m, &x, blob + off + mo + sizeof(x), x.u.match_size - sizeof(x));
			mo += x.u.match_size;
		}
		memcpy(r.table, table, strnlen(table, sizeof(r.table) - 1));
		memcpy(r.chain, chain, sizeof(r.chain));
		r.position = pos;
		r.packets = e.packets;
		r.bytes = e.bytes;
		if (np_nfrules_add(out, &r) < 0)
			return -ENOMEM;
next:
		off += e.next_offset;
	}
	return 0;
}
