// SPDX-License-Identifier: GPL-2.0-only
/* Device kinds and stack lookups. */
#include "stack.h"

#include <string.h>

static const struct {
	const char *rtnl;	/* IFLA_INFO_KIND / the sysfs hint */
	enum np_dev_kind kind;
} kinds[] = {
	{ "bond", NP_KIND_BOND }, { "team", NP_KIND_TEAM }, { "bridge", NP_KIND_BRIDGE },
	{ "vlan", NP_KIND_VLAN }, { "macvlan", NP_KIND_MACVLAN }, { "macvtap", NP_KIND_MACVLAN },
	{ "ipvlan", NP_KIND_IPVLAN }, { "ipvtap", NP_KIND_IPVLAN }, { "vxlan", NP_KIND_VXLAN },
	{ "geneve", NP_KIND_GENEVE }, { "veth", NP_KIND_VETH }, { "tun", NP_KIND_TUN },
	{ "loopback", NP_KIND_LOOPBACK },
};

static const char *const kind_names[] = {
	[NP_KIND_PHYSICAL] = "physical", [NP_KIND_BOND] = "bond", [NP_KIND_TEAM] = "team",
	[NP_KIND_BRIDGE] = "bridge", [NP_KIND_VLAN] = "vlan", [NP_KIND_MACVLAN] = "macvlan",
	[NP_KIND_IPVLAN] = "ipvlan", [NP_KIND_VXLAN] = "vxlan", [NP_KIND_GENEVE] = "geneve",
	[NP_KIND_VETH] = "veth", [NP_KIND_TUN] = "tun", [NP_KIND_LOOPBACK] = "loopback",
	[NP_KIND_OTHER] = "other", [NP_KIND_UNKNOWN] = "unknown",
};

enum np_dev_kind np_dev_kind_of(const struct np_snapshot *s)
{
	const char *k = s->rtnl.kind[0] ? s->rtnl.kind : s->dev.kind_hint;

	for (size_t i = 0; k[0] && i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(k, kinds[i].rtnl))
			return kinds[i].kind;
	if (k[0])
		return NP_KIND_OTHER;		/* dummy, wireguard, gre, ... */
	/* is_virtual 0 without device/: a copy that shows a bus device otherwise (sosreport). */
	if (s->dev.has_device || s->dev.is_virtual == 0)
		return NP_KIND_PHYSICAL;
	/* Live, a device without IFLA_INFO_KIND and without device/ is lo or the like. */
	return s->dev.is_virtual == 1 ? NP_KIND_OTHER : NP_KIND_UNKNOWN;
}

const char *np_dev_kind_name(enum np_dev_kind k)
{
	return (unsigned)k < sizeof(kind_names) / sizeof(kind_names[0]) ? kind_names[k] : "?";
}

int np_stack_find(const struct np_stack *st, const char *name)
{
	for (size_t i = 0; i < st->n; i++)
		if (!strcmp(st->dev[i].name, name))
			return (int)i;
	return -1;
}

static bool hw_beneath(const struct np_stack *st, size_t idx, int depth)
{
	const struct np_stack_dev *d = &st->dev[idx];

	for (unsigned k = 0; k < d->nlower && depth < NP_STACK_MAX; k++)
		if (st->dev[d->lower[k]].judged_hw || hw_beneath(st, d->lower[k], depth + 1))
			return true;
	return false;
}

bool np_stack_hw_beneath(const struct np_stack *st, size_t idx)
{
	return idx < st->n && hw_beneath(st, idx, 0);
}
