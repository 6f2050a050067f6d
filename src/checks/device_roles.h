/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Which checks judge which device of a stack. The hardware stages (link, pcie, nic, irq) are
 * judged on every physical device beneath; the namespace's stages (softnet .. congestion) once,
 * on the interface named; a virtual device keeps what belongs to it (down, refused frames,
 * rx_dropped); the qdisc checks run where packets can queue.
 */
#ifndef NP_DEVICE_ROLES_H
#define NP_DEVICE_ROLES_H

#include "check.h"

enum np_dev_role {
	NP_ROLE_PRIMARY,	/* the interface named (or the first with --all): everything */
	NP_ROLE_TOP,		/* another interface of --all: its interface-scoped checks */
	NP_ROLE_MIDDLE,		/* a virtual device between a top and the NICs (a bond) */
	NP_ROLE_LOWER,		/* a physical device beneath: the hardware stages, its qdisc */
};

struct np_role_filter {
	enum np_dev_role role;
	bool has_physical_lowers;	/* a virtual device judged through its NICs */
	bool first_hw;			/* the first device whose hardware is judged: the
					 * host-wide checks of those stages run there only */
	np_check_filter user;		/* --check/--skip, may be NULL */
	void *user_arg;
};

/* An np_check_filter: arg is a struct np_role_filter. */
bool np_role_want(const struct np_check *c, void *arg);

#endif
