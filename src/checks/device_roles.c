// SPDX-License-Identifier: GPL-2.0-only
/* Which checks judge which device of a stack (device_roles.h). */
#include "device_roles.h"

#include <string.h>

static bool hardware_stage(enum np_stage st)
{
	return st == NP_STAGE_LINK || st == NP_STAGE_PCIE || st == NP_STAGE_NIC ||
	       st == NP_STAGE_IRQ;
}

/* Checks of the hardware stages that a virtual device keeps: it can be down, refuse frames
 * (veth MTU), drop in its own rx path (bridge, VLAN), and outgrow its underlay (tunnels). */
static bool virtual_owned(const struct np_check *c)
{
	static const char *const ids[] = { "link.down", "link.mtu-mismatch", "nic.rx-dropped",
					   "link.tunnel-mtu" };

	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		if (!strcmp(c->id, ids[i]))
			return true;
	return false;
}

/* Checks across the members of a bond or team: they run where the members are beneath. */
static bool member_check(const struct np_check *c)
{
	return !strncmp(c->id, "link.member-", 12);
}

/* Where packets queue for sending: the qdisc checks judge every device that has one. */
static bool qdisc_check(const struct np_check *c)
{
	return c->stage == NP_STAGE_CONGESTION && c->scope == NP_SCOPE_INTERFACE;
}

bool np_role_want(const struct np_check *c, void *arg)
{
	const struct np_role_filter *f = arg;
	bool hw = hardware_stage(c->stage);

	if (f->user && !f->user(c, f->user_arg))
		return false;
	/* Host-wide checks of the hardware stages (irqbalance) say the same on every NIC. */
	if (hw && c->scope == NP_SCOPE_HOST && !strncmp(c->id, "irq.irqbalance", 14) &&
	    !f->first_hw && f->role != NP_ROLE_PRIMARY)
		return false;
	switch (f->role) {
	case NP_ROLE_LOWER:
		return (hw && !member_check(c)) || qdisc_check(c);
	case NP_ROLE_MIDDLE:
		return virtual_owned(c) || member_check(c) || qdisc_check(c);
	case NP_ROLE_TOP:
		if (hw)
			return !f->has_physical_lowers || virtual_owned(c) || member_check(c);
		return c->scope == NP_SCOPE_INTERFACE;
	case NP_ROLE_PRIMARY:
		return !hw || !f->has_physical_lowers || virtual_owned(c) || member_check(c);
	}
	return true;
}
