// SPDX-License-Identifier: GPL-2.0-only
/* The plan's frame: the path planned for and the build in stage order (lines: plan_line.c). */
#include "plan_priv.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void np_plan_path(struct np_analysis *a, enum np_profile profile, bool *assumed)
{
	*assumed = false;
	if (isnan(a->rtt_ms)) {
		a->rtt_ms = np_profile_rtt_ms(profile);
		a->rtt_source = "assumed for the profile";
		*assumed = true;
	}
}

int np_plan_build(const struct np_analysis *a, const struct np_report *rep,
		  enum np_profile profile, const struct np_kmods *kmods, struct np_plan *p)
{
	const struct np_snapshot *s = a->cur;

	memset(p, 0, sizeof(*p));
	p->profile = profile;
	snprintf(p->ifname, sizeof(p->ifname), "%s", s->dev.name);
	snprintf(p->bus_id, sizeof(p->bus_id), "%s", s->dev.bus_id);
	snprintf(p->kernel, sizeof(p->kernel), "%s", s->hs->host.kernel);
	snprintf(p->dev[0].name, sizeof(p->dev[0].name), "%s", s->dev.name);
	snprintf(p->dev[0].bus_id, sizeof(p->dev[0].bus_id), "%s", s->dev.bus_id);
	p->ndev = 1;
	p->bw_bps = a->bw_bps;
	p->bw_source = a->bw_source;
	p->rtt_ms = a->rtt_ms;
	p->rtt_source = a->rtt_source;
	p->rtt_assumed = a->rtt_source && !strcmp(a->rtt_source, "assumed for the profile");
	p->bdp = np_bdp_bytes(a->bw_bps, a->rtt_ms);
	if (kmods)
		p->kmods = *kmods;
	else
		snprintf(p->kmods.from, sizeof(p->kmods.from), "not looked up");
	/* Receive-path order: the NIC first, then the stack's sysctls, then the send side. */
	np_plan_nic_lines(p, a, rep);
	np_plan_sysctl_lines(p, a, rep);
	np_plan_cc_lines(p, a, rep);
	np_plan_qdisc_line(p, a);
	/* A line that could not be added leaves the plan short: report it, not a partial plan. */
	if (p->oom) {
		np_plan_free(p);
		return -ENOMEM;
	}
	return 0;
}

int np_plan_add_device(struct np_plan *p, const struct np_analysis *a, const struct np_report *rep)
{
	const struct np_snapshot *s = a->cur;
	struct np_plan_dev *d;

	if (p->ndev >= NP_PLAN_DEVS)
		return -ENOSPC;
	d = &p->dev[p->ndev++];
	snprintf(d->name, sizeof(d->name), "%s", s->dev.name);
	snprintf(d->bus_id, sizeof(d->bus_id), "%s", s->dev.bus_id);
	np_plan_nic_lines(p, a, rep);
	np_plan_qdisc_line(p, a);
	return p->oom ? -ENOMEM : 0;
}

void np_plan_free(struct np_plan *p)
{
	free(p->l);
	p->l = NULL;
	p->n = p->cap = 0;
}

const struct np_plan_line *np_plan_nth(const struct np_plan *p, enum np_plan_kind k, size_t i)
{
	for (size_t j = 0; j < p->n; j++)
		if (p->l[j].kind == k && i-- == 0)
			return &p->l[j];
	return NULL;
}

size_t np_plan_count(const struct np_plan *p, enum np_plan_kind k)
{
	size_t n = 0;

	for (size_t j = 0; j < p->n; j++)
		n += p->l[j].kind == k;
	return n;
}
