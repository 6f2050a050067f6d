/* SPDX-License-Identifier: GPL-2.0-only */
/* A plan with one line of each kind that lands in a file (sysctl.d, .link, udev rule,
 * modules-load.d, the apply script): the plan the --write tests write. Include after cmocka.h
 * and plan.h. */
#ifndef NP_TEST_SMALL_PLAN_H
#define NP_TEST_SMALL_PLAN_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static inline void small_plan(struct np_plan *p)
{
	struct np_plan_line *l;

	memset(p, 0, sizeof(*p));
	p->profile = NP_PROFILE_LONG_HAUL;
	snprintf(p->ifname, sizeof(p->ifname), "eth0");
	snprintf(p->dev[0].name, sizeof(p->dev[0].name), "eth0");
	p->ndev = 1;
	p->rtt_ms = 30;
	p->bw_bps = p->bdp = NAN;
	p->bw_source = p->rtt_source = "--rtt";
	l = np_plan_add(p, NP_PLAN_SYSCTL, NP_STAGE_CONGESTION, "net.ipv4.tcp_mtu_probing");
	assert_non_null(l);
	snprintf(l->current, sizeof(l->current), "0");
	snprintf(l->planned, sizeof(l->planned), "1");
	snprintf(l->why, sizeof(l->why), "black holes");
	l = np_plan_add(p, NP_PLAN_LINK, NP_STAGE_NIC, "RxBufferSize");
	assert_non_null(l);
	snprintf(l->current, sizeof(l->current), "512");
	snprintf(l->planned, sizeof(l->planned), "4096");
	snprintf(l->command, sizeof(l->command), "/usr/sbin/ethtool -G $name rx 4096");
	l = np_plan_add(p, NP_PLAN_MODULE, NP_STAGE_CONGESTION, "tcp_bbr");
	assert_non_null(l);
	snprintf(l->command, sizeof(l->command), "modprobe tcp_bbr");
}

#endif
