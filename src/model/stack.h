/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The device stack under an interface: a VLAN on a bond of two NICs, a bridge over its ports,
 * a container's veth. Plain data: the collector fills it from rtnetlink and sysfs, doctor
 * judges each device where its stage happens, the renderers print it.
 */
#ifndef NP_STACK_H
#define NP_STACK_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>

#include "snapshot.h"

enum np_dev_kind {
	NP_KIND_PHYSICAL, NP_KIND_BOND, NP_KIND_TEAM, NP_KIND_BRIDGE, NP_KIND_VLAN,
	NP_KIND_MACVLAN, NP_KIND_IPVLAN, NP_KIND_VXLAN, NP_KIND_GENEVE, NP_KIND_VETH,
	NP_KIND_TUN, NP_KIND_LOOPBACK, NP_KIND_OTHER, NP_KIND_UNKNOWN,
};

/* Devices kept in one stack (or, with --all, in all of them together). */
#define NP_STACK_MAX 32

struct np_stack_dev {
	char name[IF_NAMESIZE];
	enum np_dev_kind kind;
	int upper;		/* index of the device it sits under, -1 for a top */
	/* Indexes of the devices directly beneath it (the edges: with --all a device can sit
	 * under two tops, eth0 under eth0.100 and on its own). */
	unsigned char nlower;
	unsigned char lower[NP_STACK_MAX];
	char driver[32];	/* "" for virtual devices */
	bool judged_hw;		/* its link/pcie/nic/irq stages are judged (a physical device) */
	int peer_ifindex;	/* veth: the peer's ifindex, 0 unknown */
	bool peer_other_netns;	/* veth: the peer lives in another network namespace */
	bool underlay_by_route;	/* a tunnel whose underlay was taken from the default route */
	/* veth: the peer's name in its own namespace (asked there by IFLA_LINK_NETNSID), "" when
	 * it could not be asked; peer_nsid is that number (-1 none, the same namespace). */
	char peer_name[IF_NAMESIZE];
	int peer_nsid;
	/* Which namespace that is: the one netpath started in (before --netns), else its name
	 * under /run/netns, else "" (then only the ifindex and nsid are said). */
	bool peer_in_start;
	char peer_netns[64];
};

/* dev[n] and beyond are undefined: np_runs_discover clears each entry as it fills it. */
struct np_stack {
	size_t n;
	bool truncated;		/* more devices than NP_STACK_MAX: the rest not judged */
	struct np_stack_dev dev[NP_STACK_MAX];
};

/* What kind of device a snapshot is: rtnetlink's IFLA_INFO_KIND when live, else sysfs
 * evidence (bonding/, bridge/, tun_flags, the loopback type, a device/ link). */
enum np_dev_kind np_dev_kind_of(const struct np_snapshot *s);
const char *np_dev_kind_name(enum np_dev_kind k);
/* Does a device whose link/pcie/nic/irq are judged lie (anywhere) beneath idx? */
bool np_stack_hw_beneath(const struct np_stack *st, size_t idx);
/* Index of name in the stack, -1 if absent. */
int np_stack_find(const struct np_stack *st, const char *name);

#endif
