// SPDX-License-Identifier: GPL-2.0-only
/* The plan's frame: profiles, lines, the path planned for, and the build in stage order. */
#include "plan_priv.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const profile_names[NP_PROFILE__COUNT] = {
	[NP_PROFILE_LAN] = "lan",
	[NP_PROFILE_LONG_HAUL] = "long-haul",
	[NP_PROFILE_BUSY_SERVER] = "busy-server",
	[NP_PROFILE_LOW_LATENCY] = "low-latency",
};

const char *np_profile_name(enum np_profile p)
{
	return p < NP_PROFILE__COUNT ? profile_names[p] : "?";
}

double np_profile_rtt_ms(enum np_profile p)
{
	switch (p) {
	case NP_PROFILE_LAN:
		return 1;	/* a site's network: well under a millisecond, with margin */
	case NP_PROFILE_LONG_HAUL:
		return 50;	/* across a continent */
	case NP_PROFILE_BUSY_SERVER:
		return 20;	/* clients on the Internet, the near half of them */
	case NP_PROFILE_LOW_LATENCY:
		return 0.2;	/* one switch away */
	case NP_PROFILE__COUNT:
		break;
	}
	return NAN;
}

const char *np_plan_kind_name(enum np_plan_kind k)
{
	static const char *const names[NP_PLAN_KIND__COUNT] = {
		[NP_PLAN_SYSCTL] = "sysctl", [NP_PLAN_LINK] = "link", [NP_PLAN_MODULE] = "module",
		[NP_PLAN_QDISC] = "qdisc", [NP_PLAN_NOTE] = "note",
	};

	return k < NP_PLAN_KIND__COUNT ? names[k] : "?";
}

void np_plan_path(struct np_analysis *a, enum np_profile profile, bool *assumed)
{
	*assumed = false;
	if (isnan(a->rtt_ms)) {
		a->rtt_ms = np_profile_rtt_ms(profile);
		a->rtt_source = "assumed for the profile";
		*assumed = true;
	}
}

struct np_plan_line *np_plan_add(struct np_plan *p, enum np_plan_kind k, enum np_stage st,
				 const char *key)
{
	struct np_plan_line *l;

	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 16;
		struct np_plan_line *nl = realloc(p->l, cap * sizeof(*nl));

		if (!nl) {
			p->oom = true;
			return NULL;
		}
		p->l = nl;
		p->cap = cap;
	}
	l = &p->l[p->n++];
	memset(l, 0, sizeof(*l));
	l->kind = k;
	l->stage = st;
	snprintf(l->dev, sizeof(l->dev), "%s", p->ndev ? p->dev[p->ndev - 1].name : "");
	snprintf(l->key, sizeof(l->key), "%s", key);
	return l;
}

void np_plan_cat(char *dst, size_t size, const char *fmt, ...)
{
	size_t len = strnlen(dst, size);
	va_list ap;

	if (len + 1 >= size)
		return;
	va_start(ap, fmt);
	vsnprintf(dst + len, size - len, fmt, ap);
	va_end(ap);
}

void np_plan_checks(struct np_plan_line *l, const char *c1, const char *c2, const char *c3)
{
	const char *c[] = { c1, c2, c3 };
	size_t n = 0;

	for (size_t i = 0; i < 3; i++)
		if (c[i])
			l->checks[n++] = c[i];
}

bool np_plan_flagged(const struct np_report *rep, const char *id, enum np_severity sev)
{
	for (size_t i = 0; rep && i < rep->n; i++)
		if (!strcmp(rep->f[i].check->id, id) && rep->f[i].severity >= sev)
			return true;
	return false;
}

int np_plan_build(const struct np_analysis *a, const struct np_report *rep,
		  enum np_profile profile, const struct np_kmods *kmods, struct np_plan *p)
{
	const struct np_snapshot *s = a->cur;

	memset(p, 0, sizeof(*p));
	p->profile = profile;
	snprintf(p->ifname, sizeof(p->ifname), "%s", s->dev.name);
	snprintf(p->bus_id, sizeof(p->bus_id), "%s", s->dev.bus_id);
	snprintf(p->kernel, sizeof(p->kernel), "%s", s->host.kernel);
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
