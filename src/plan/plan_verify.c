// SPDX-License-Identifier: GPL-2.0-only
/* A plan applied to doctor's snapshot and judged again: which findings its settings end.
 * This is the test of "one source of truth": a plan that does not make its checks pass is
 * wrong, whatever its comments say. */
#include "plan_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static void apply_sysctl(const struct np_plan_line *l, struct np_snapshot *s)
{
	const struct np_sysctl *e = np_sysctl_find_key(s, l->key);
	struct np_sysctl *w;

	if (!e)
		return;
	w = (struct np_sysctl *)e;	/* the caller's snapshot, changed in place */
	np_parse_sysctl_value(l->planned, w);
	w->err = 0;
}

static uint64_t u64(const char *v)
{
	return strtoull(v, NULL, 10);
}

static void apply_link(const struct np_plan_line *l, struct np_snapshot *s)
{
	if (!strcmp(l->key, "MTUBytes"))
		s->dev.mtu = u64(l->planned);
	else if (!strcmp(l->key, "RxBufferSize"))
		s->eth.rings.rx = u64(l->planned);
	else if (!strcmp(l->key, "CombinedChannels"))
		s->eth.channels.combined = u64(l->planned);
	else if (!strcmp(l->key, "RxChannels"))
		s->eth.channels.rx = u64(l->planned);
	else if (!strcmp(l->key, "UseAdaptiveRxCoalesce"))
		s->eth.coalesce.adaptive_rx = !strcmp(l->planned, "yes");
	else if (!strcmp(l->key, "RxCoalesceSec"))
		s->eth.coalesce.rx_usecs = u64(l->planned);
}

/* A module loaded at boot: its congestion control is then available. */
static void apply_module(const struct np_plan_line *l, struct np_snapshot *s)
{
	const struct np_sysctl *e = np_sysctl_find(s, NP_SYSCTL_TCP_AVAILABLE_CONGESTION_CONTROL);
	char text[sizeof(e->raw) + 8];

	if (!e || strcmp(l->key, "tcp_bbr") || strstr(e->raw, "bbr"))
		return;
	snprintf(text, sizeof(text), "%s bbr", e->raw);
	/* raw holds 127 bytes: a list of 124 or more would lose the added name (none is that long). */
	np_parse_sysctl_value(text, (struct np_sysctl *)e);
}

/* tc qdisc replace ... root: the new root replaces the whole egress tree (mq and its leaves). */
static void apply_qdisc(const struct np_plan_line *l, struct np_snapshot *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->rtnl.nqdisc; i++) {
		struct np_qdisc *q = &s->rtnl.qdiscs[i];

		if (q->root)
			snprintf(q->kind, sizeof(q->kind), "%.15s", l->planned);
		if (q->root || q->ingress)
			s->rtnl.qdiscs[n++] = *q;
	}
	s->rtnl.nqdisc = n;
}

int np_plan_apply(const struct np_plan *p, struct np_snapshot *s)
{
	for (size_t i = 0; i < p->n; i++) {
		const struct np_plan_line *l = &p->l[i];

		/* A device's NIC settings and qdisc are its own. */
		if ((l->kind == NP_PLAN_LINK || l->kind == NP_PLAN_QDISC) &&
		    strcmp(l->dev, s->dev.name))
			continue;
		switch (l->kind) {
		case NP_PLAN_SYSCTL:
			apply_sysctl(l, s);
			break;
		case NP_PLAN_LINK:
			apply_link(l, s);
			break;
		case NP_PLAN_MODULE:
			apply_module(l, s);
			break;
		case NP_PLAN_QDISC:
			apply_qdisc(l, s);
			break;
		case NP_PLAN_NOTE:
		case NP_PLAN_KIND__COUNT:
			break;
		}
	}
	return 0;
}

static bool fired(const struct np_report *r, const char *id)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->f[i].check->id, id))
			return true;
	return false;
}

static bool claimed(const struct np_plan *p, const char *id)
{
	for (size_t i = 0; i < p->n; i++)
		for (size_t j = 0; j < NP_PLAN_CHECKS && p->l[i].checks[j]; j++)
			if (p->l[i].kind != NP_PLAN_NOTE && !strcmp(p->l[i].checks[j], id))
				return true;
	return false;
}

static void add_id(const char **list, size_t *n, size_t max, const char *id)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(list[i], id))
			return;
	if (*n < max)
		list[(*n)++] = id;
}

int np_plan_verify(struct np_plan *p, const struct np_analysis *a, const struct np_report *before,
		   struct np_snapshot *s)
{
	struct np_analysis b = *a;
	struct np_report after = { 0 };
	size_t max = sizeof(p->resolved) / sizeof(p->resolved[0]);

	np_plan_apply(p, s);
	b.cur = s;
	if (np_analyze(&b, &after, NULL, NULL) < 0) {
		np_report_free(&after);
		return -ENOMEM;
	}
	for (size_t i = 0; i < before->n; i++) {
		const char *id = before->f[i].check->id;

		if (!fired(&after, id))
			add_id(p->resolved, &p->nresolved, max, id);
		else if (claimed(p, id))
			add_id(p->remaining, &p->nremaining, max, id);
	}
	np_report_free(&after);
	return 0;
}
