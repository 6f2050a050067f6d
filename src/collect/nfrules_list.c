// SPDX-License-Identifier: GPL-2.0-only
/* The list of drop rules the nftables and iptables-legacy parsers fill, and its names. Pure. */
#include "nfrules.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/netfilter.h>

int np_nfrules_add(struct np_nfrules *r, const struct np_nfrule *rule)
{
	if (r->n >= NP_NFRULES_MAX) {
		r->over_cap++;
		return 0;
	}
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 16;
		struct np_nfrule *nr = realloc(r->r, cap * sizeof(*nr));

		if (!nr)
			return -ENOMEM;
		r->r = nr;
		r->cap = cap;
	}
	r->r[r->n++] = *rule;
	return 0;
}

void np_nfrules_free(struct np_nfrules *r)
{
	free(r->r);
	memset(r, 0, sizeof(*r));
}

/* As nft names them; iptables' "ip" is NFPROTO_IPV4 too. */
const char *np_nfrule_family_name(uint8_t family)
{
	switch (family) {
	case NFPROTO_INET: return "inet";
	case NFPROTO_IPV4: return "ip";
	case NFPROTO_ARP: return "arp";
	case NFPROTO_NETDEV: return "netdev";
	case NFPROTO_BRIDGE: return "bridge";
	case NFPROTO_IPV6: return "ip6";
	}
	return "unknown";
}

const char *np_nfrule_verdict_name(enum np_nfrule_verdict v)
{
	switch (v) {
	case NP_NFRULE_DROP: return "drop";
	case NP_NFRULE_REJECT: return "reject";
	case NP_NFRULE_POLICY_DROP: return "policy drop";
	}
	return "?";
}
