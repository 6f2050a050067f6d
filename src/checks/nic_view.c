// SPDX-License-Identifier: GPL-2.0-only
/* Views over ethtool, driver counters and rtnetlink qdiscs shared by the NIC-side checks. */
#include "nic_view.h"


#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool np_nv_src_usable(const struct np_snapshot *s, enum np_source id, const char *what,
		      struct np_report *r)
{
	const struct np_src *src = &s->src[id];

	if (np_src_ok(s, id))
		return true;
	/* EOPNOTSUPP is data about the driver, said as such; the collector's words win. */
	if (src->status == NP_SRC_UNSUPPORTED && strstr(src->detail, "not report"))
		np_skip(r, "%s", src->detail);
	else if (src->status == NP_SRC_UNSUPPORTED)
		np_skip(r, "driver does not report %s%s%s%s", what, src->detail[0] ? " (" : "",
			src->detail, src->detail[0] ? ")" : "");
	else if (src->detail[0])
		np_skip(r, "%s: %s", what, src->detail);
	else
		np_skip(r, "%s not available (%s)", what, np_src_status_name(src->status));
	return false;
}

unsigned np_nv_ncpu(const struct np_snapshot *s)
{
	struct np_cpuset on;

	if (s->host.ncpu_online)
		return s->host.ncpu_online;
	on = np_online_cpus(s);
	return np_cpuset_count(&on);
}

uint64_t np_nv_speed_mbps(const struct np_snapshot *s)
{
	/* veth and friends report a nominal 10000 that says nothing about their capacity. */
	if (np_src_ok(s, NP_SRC_NETDEV) && !s->dev.has_device)
		return NP_NA;
	if (np_has(s->dev.speed_mbps) && s->dev.speed_mbps > 0)
		return s->dev.speed_mbps;
	if (np_src_ok(s, NP_SRC_ETHTOOL_LINKMODES) && np_has(s->eth.link.speed_mbps) &&
	    s->eth.link.speed_mbps > 0 && s->eth.link.speed_mbps != 0xffffffffu)
		return s->eth.link.speed_mbps;
	return NP_NA;
}

/* Interface counters: rtnetlink stats64 when read, else sysfs statistics/. */
static const struct np_link_stats *link_stats(const struct np_snapshot *s, bool rtnl)
{
	if (rtnl)
		return np_src_ok(s, NP_SRC_RTNL_LINK) && s->rtnl.has_stats64 ? &s->rtnl.stats64 :
		       NULL;
	return np_src_ok(s, NP_SRC_NETDEV) ? &s->dev.stats : NULL;
}

/* One field of the interface counters as a view, from the same source in both snapshots. */
static struct np_counter_view stat_view(const struct np_analysis *a, size_t off)
{
	bool rtnl = link_stats(a->cur, true) != NULL;
	const struct np_link_stats *c = link_stats(a->cur, rtnl);
	const struct np_link_stats *p = a->prev ? link_stats(a->prev, rtnl) : NULL;
	uint64_t cv, pv = NP_NA;

	if (!c)
		return np_view_u64(a, NP_NA, NP_NA);
	memcpy(&cv, (const char *)c + off, sizeof(cv));
	if (p)
		memcpy(&pv, (const char *)p + off, sizeof(pv));
	return np_view_u64(a, pv, cv);
}

double np_nv_rx_pps(const struct np_analysis *a)
{
	struct np_counter_view v = stat_view(a, offsetof(struct np_link_stats, rx_packets));

	return v.sampled ? v.rate : NAN;
}

struct np_counter_view np_nv_drv_sum(const struct np_analysis *a, enum np_drv_meaning m)
{
	const struct np_snapshot *s = a->cur;
	const struct np_counters *c = &s->eth.drv_stats;
	const char *drv = s->eth.driver[0] ? s->eth.driver : s->dev.driver;
	bool have_prev = a->prev && np_src_ok(a->prev, NP_SRC_DRIVER_STATS);
	struct np_counter_view sum = { 0 };

	if (!np_src_ok(s, NP_SRC_DRIVER_STATS))
		return sum;
	for (size_t i = 0; i < c->n; i++) {
		struct np_drv_class cl;
		uint64_t pv;

		if (!np_drv_classify(drv, c->e[i].name, &cl) || cl.meaning != m || cl.is_tx)
			continue;
		pv = have_prev ? np_counters_get(&a->prev->eth.drv_stats, c->e[i].name) : NP_NA;
		sum = np_view_sum(sum, np_view_u64(a, pv, c->e[i].value));
	}
	return sum;
}

struct np_counter_view np_nv_ring_drops(const struct np_analysis *a)
{
	struct np_counter_view link, drv;

	link = np_view_sum(stat_view(a, offsetof(struct np_link_stats, rx_missed_errors)),
			   stat_view(a, offsetof(struct np_link_stats, rx_fifo_errors)));
	drv = np_nv_drv_sum(a, NP_DRV_RING_EMPTY);
	if (!drv.present)
		return link;
	if (!link.present || drv.delta > link.delta ||
	    (drv.delta == link.delta && drv.total > link.total))
		return drv;
	return link;
}

struct np_counter_view np_nv_softnet(const struct np_analysis *a, bool squeeze)
{
	struct np_counter_view tot = { 0 };
	struct np_sn_cpu *c;

	if (!np_src_ok(a->cur, NP_SRC_SOFTNET))
		return tot;
	c = np_sn_views(a, squeeze ? NP_SN_SQUEEZE : NP_SN_DROPPED, false, &tot);
	free(c);
	return tot;
}

/* ---- qdiscs ---- */

#define TC_MAJ(h) ((h) & 0xffff0000u)

bool np_nv_qdisc_multiq(const struct np_qdisc *q)
{
	return !strcmp(q->kind, "mq") || !strcmp(q->kind, "mqprio") || !strcmp(q->kind, "taprio");
}

const struct np_qdisc *np_nv_qdisc_root(const struct np_snapshot *s)
{
	for (size_t i = 0; i < s->rtnl.nqdisc; i++)
		if (s->rtnl.qdiscs[i].root && !s->rtnl.qdiscs[i].ingress)
			return &s->rtnl.qdiscs[i];
	return NULL;
}

bool np_nv_qdisc_below(const struct np_qdisc *root, const struct np_qdisc *q)
{
	return root && q != root && !q->root && !q->ingress &&
	       TC_MAJ(q->parent) == TC_MAJ(root->handle);
}

static const struct np_qdisc *qdisc_prev(const struct np_analysis *a, const struct np_qdisc *q)
{
	const struct np_snapshot *p = a->prev;

	if (!p || !np_src_ok(p, NP_SRC_RTNL_QDISC))
		return NULL;
	for (size_t i = 0; i < p->rtnl.nqdisc; i++) {
		const struct np_qdisc *o = &p->rtnl.qdiscs[i];

		if (o->handle == q->handle && o->parent == q->parent && o->root == q->root &&
		    o->ingress == q->ingress && !strcmp(o->kind, q->kind))
			return o;
	}
	return NULL;
}

struct np_counter_view np_nv_qdisc_drops(const struct np_analysis *a, const struct np_qdisc *q)
{
	const struct np_qdisc *p = qdisc_prev(a, q);

	return np_view_u64(a, p ? p->drops : NP_NA, q->drops);
}

struct np_counter_view np_nv_qdisc_overlimits(const struct np_analysis *a,
					      const struct np_qdisc *q)
{
	const struct np_qdisc *p = qdisc_prev(a, q);

	return np_view_u64(a, p ? p->overlimits : NP_NA, q->overlimits);
}

struct np_counter_view np_nv_qdisc_packets(const struct np_analysis *a, const struct np_qdisc *q)
{
	const struct np_qdisc *p = qdisc_prev(a, q);

	return np_view_u64(a, p ? p->packets : NP_NA, q->packets);
}

const char *np_nv_qdisc_name(const struct np_qdisc *q, char *buf, size_t size)
{
	if (q->handle || q->root || q->ingress)
		snprintf(buf, size, "%s[%x:]", q->kind, q->handle >> 16);
	else if (!TC_MAJ(q->parent))
		snprintf(buf, size, "%s[:%x]", q->kind, q->parent & 0xffff);
	else
		snprintf(buf, size, "%s[%x:%x]", q->kind, q->parent >> 16, q->parent & 0xffff);
	return buf;
}
