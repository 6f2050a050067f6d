// SPDX-License-Identifier: GPL-2.0-only
/* Views over interface counters, ethtool, driver counters, qstats and qdiscs for NIC checks. */
#include "nic_view.h"
#include "strjoin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t u64_at(const void *base, size_t off)
{
	uint64_t v;

	memcpy(&v, (const char *)base + off, sizeof(v));
	return v;
}

/* ---- sources ---- */

void np_nv_skip_src(struct np_report *r, const struct np_snapshot *s, enum np_source id,
		    const char *what)
{
	const struct np_src *src = np_srcp(s, id);

	/* EOPNOTSUPP is data about the driver, said as such. The collector's own words win;
	 * a bare strerror() text only qualifies ours. */
	if (src->status == NP_SRC_UNSUPPORTED && src->detail[0] &&
	    (!src->err || strcmp(src->detail, strerror(src->err)) != 0))
		np_skip(r, "%s", src->detail);
	else if (src->status == NP_SRC_UNSUPPORTED)
		np_skip(r, "driver does not report %s%s%s%s", what, src->detail[0] ? " (" : "",
			src->detail, src->detail[0] ? ")" : "");
	else
		np_skip(r, "%s not available (%s%s%s)", what, np_src_status_name(src->status),
			src->detail[0] ? ": " : "", src->detail);
}

bool np_nv_src_usable(const struct np_snapshot *s, enum np_source id, const char *what,
		      struct np_report *r)
{
	if (np_src_ok(s, id))
		return true;
	np_nv_skip_src(r, s, id, what);
	return false;
}

uint64_t np_nv_speed_mbps(const struct np_snapshot *s)
{
	/* veth and friends report a nominal 10000 that says nothing about their capacity. */
	if (np_src_ok(s, NP_SRC_NETDEV) && np_dev_is_virtual(s))
		return NP_NA;
	if (np_has(s->dev.speed_mbps) && s->dev.speed_mbps > 0)
		return s->dev.speed_mbps;
	/* SPEED_UNKNOWN is (u32)-1 on the wire; a collector may pass it through. */
	if (np_src_ok(s, NP_SRC_ETHTOOL_LINKMODES) && np_has(s->eth.link.speed_mbps) &&
	    s->eth.link.speed_mbps > 0 && s->eth.link.speed_mbps != 0xffffffffu)
		return s->eth.link.speed_mbps;
	return NP_NA;
}

/* ---- interface counters ---- */

static const struct np_link_stats *rtnl_stats(const struct np_snapshot *s)
{
	return s && np_src_ok(s, NP_SRC_RTNL_LINK) && s->rtnl.has_stats64 ? &s->rtnl.stats64 :
	       NULL;
}

static const struct np_link_stats *sysfs_stats(const struct np_snapshot *s)
{
	return s && np_src_ok(s, NP_SRC_NETDEV) ? &s->dev.stats : NULL;
}

struct np_counter_view np_nv_link_stat(const struct np_analysis *a, size_t off, bool *rtnl)
{
	const struct np_link_stats *c = rtnl_stats(a->cur), *p;
	/* The same kernel counter read two ways: never mix the two across the interval. */
	bool use_rtnl = c && np_has(u64_at(c, off));

	if (!use_rtnl)
		c = sysfs_stats(a->cur);
	p = use_rtnl ? rtnl_stats(a->prev) : sysfs_stats(a->prev);
	if (rtnl)
		*rtnl = use_rtnl;
	if (!c)
		return np_view_u64(a, NP_NA, NP_NA);
	return np_view_u64(a, p ? u64_at(p, off) : NP_NA, u64_at(c, off));
}

double np_nv_rx_pps(const struct np_analysis *a)
{
	struct np_counter_view v = NP_NV_LINK(a, rx_packets, NULL);

	return v.sampled ? v.rate : NAN;
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

/* ---- witnesses ---- */

static bool max_picks_y(const struct np_counter_view *x, const struct np_counter_view *y)
{
	if (!x->present || !y->present)
		return !x->present && y->present;
	if (x->sampled && x->delta && (!y->sampled || x->delta >= y->delta))
		return false;
	if (y->sampled && y->delta)
		return true;
	return y->total > x->total;
}

struct np_counter_view np_nv_max(struct np_counter_view x, struct np_counter_view y)
{
	return max_picks_y(&x, &y) ? y : x;
}

struct np_counter_view np_nv_beyond(const struct np_analysis *a, struct np_counter_view x,
				    struct np_counter_view w)
{
	if (!x.present || !w.present)
		return x;
	x.total = x.total > w.total ? x.total - w.total : 0;
	if (x.sampled && w.sampled) {
		x.delta = x.delta > w.delta ? x.delta - w.delta : 0;
		x.rate = a->dt > 0 ? (double)x.delta / a->dt : 0;
	}
	/* The witness may have a longer history (reset at another time): what moved counts. */
	if (x.sampled && x.total < x.delta)
		x.total = x.delta;
	return x;
}

/* ---- driver-private counters ---- */

const char *np_nv_drv_name(const struct np_snapshot *s)
{
	return np_snapshot_driver(s);
}

const char *np_nv_drv_label(const struct np_snapshot *s, char *buf, size_t size)
{
	const char *n = np_nv_drv_name(s);

	np_strjoin(buf, size, "the ", n, n[0] ? " " : "", "driver");
	return buf;
}

static bool drv_ok(const struct np_snapshot *s)
{
	return s && np_src_ok(s, NP_SRC_DRIVER_STATS);
}

struct np_counter_view np_nv_drv_view(const struct np_analysis *a, const char *name, uint64_t cur)
{
	uint64_t prev = NP_NA;

	if (drv_ok(a->prev))
		prev = np_counters_get(&a->prev->eth.drv_stats, name);
	return np_view_u64(a, prev, cur);
}

/* Ranks contributors: what moved during the sample first, then the since-boot total. */
static bool view_bigger(const struct np_counter_view *x, const struct np_counter_view *y)
{
	if (x->delta != y->delta)
		return x->delta > y->delta;
	return x->total > y->total;
}

static void top_add(struct np_nv_drv_hit *top, size_t *n, const char *name, int queue,
		    const struct np_counter_view *v)
{
	size_t i = *n < NP_NV_DRV_TOP ? (*n)++ : NP_NV_DRV_TOP;

	/* Insertion into a short sorted array; the smallest falls off the end. */
	while (i > 0 && view_bigger(v, &top[i - 1].v)) {
		if (i < NP_NV_DRV_TOP)
			top[i] = top[i - 1];
		i--;
	}
	if (i < NP_NV_DRV_TOP)
		top[i] = (struct np_nv_drv_hit){ name, queue, *v };
}

bool np_nv_drv_class(const struct np_analysis *a, size_t i, struct np_drv_class *out)
{
	const struct np_counters *c = &a->cur->eth.drv_stats;

	if (a->drv_cls && a->drv_cls_of == c) {
		*out = a->drv_cls[i];
		return out->meaning != NP_DRV_NONE;
	}
	return np_drv_classify(np_nv_drv_name(a->cur), c->e[i].name, out);
}

void np_nv_drv_collect(const struct np_analysis *a, enum np_drv_meaning m, bool want_tx,
		       struct np_nv_drv *out)
{
	const struct np_counters *c = &a->cur->eth.drv_stats;
	struct np_counter_view dev = { 0 }, perq = { 0 };
	struct np_nv_drv_hit tdev[NP_NV_DRV_TOP], tq[NP_NV_DRV_TOP];
	size_t ndev = 0, nq = 0, cnt_dev = 0, cnt_q = 0;

	memset(out, 0, sizeof(*out));
	if (!drv_ok(a->cur))
		return;
	for (size_t i = 0; i < c->n; i++) {
		struct np_drv_class cl;
		struct np_counter_view v;

		if (!np_nv_drv_class(a, i, &cl) || cl.meaning != m)
			continue;
		if (cl.is_tx && !want_tx)
			continue;
		v = np_nv_drv_view(a, c->e[i].name, c->e[i].value);
		/* Different counters on the same side are different events (mlx5 rx_xdp_drop
		 * and rx_xdp_tx_full): those add up. */
		if (cl.queue < 0) {
			dev = np_view_sum(dev, v);
			cnt_dev++;
			top_add(tdev, &ndev, c->e[i].name, -1, &v);
		} else {
			perq = np_view_sum(perq, v);
			cnt_q++;
			top_add(tq, &nq, c->e[i].name, cl.queue, &v);
			if (cl.queue + 1 > out->nqueues)
				out->nqueues = cl.queue + 1;
		}
	}
	/*
	 * Drivers that keep a device total and per-queue copies (mlx5 rx_xdp_drop and
	 * rxN_xdp_drop, virtio rx_drops and rxN_drops) would count every event twice if both
	 * were summed. The per-queue side may hold more kinds than the total (virtio
	 * rxN_hw_drops has no device-wide twin), so take whichever saw more.
	 */
	out->n = cnt_dev + cnt_q;
	out->per_queue = max_picks_y(&dev, &perq);
	out->v = out->per_queue ? perq : dev;
	out->ntop = out->per_queue ? nq : ndev;
	memcpy(out->top, out->per_queue ? tq : tdev, out->ntop * sizeof(out->top[0]));
}

void np_nv_drv_ev(struct np_finding *f, const struct np_nv_drv *d, const char *unit)
{
	for (size_t i = 0; i < d->ntop; i++)
		if (d->top[i].v.total)
			np_ev_counter(f, d->top[i].name, unit, &d->top[i].v);
}

/* ---- netdev qstats ---- */

static const struct np_qstat *qstat_find(const struct np_snapshot *s, int queue)
{
	for (size_t i = 0; i < s->eth.nqstats; i++)
		if (s->eth.qstats[i].queue == queue)
			return &s->eth.qstats[i];
	return NULL;
}

struct np_counter_view np_nv_qstat_q(const struct np_analysis *a, const struct np_qstat *q,
				     size_t off)
{
	const struct np_qstat *p = NULL;

	if (a->prev && np_src_ok(a->prev, NP_SRC_QSTATS))
		p = qstat_find(a->prev, q->queue);
	return np_view_u64(a, p ? u64_at(p, off) : NP_NA, u64_at(q, off));
}

struct np_counter_view np_nv_qstat(const struct np_analysis *a, size_t off)
{
	struct np_counter_view t = { 0 };

	if (!np_src_ok(a->cur, NP_SRC_QSTATS))
		return t;
	for (size_t i = 0; i < a->cur->eth.nqstats; i++)
		t = np_view_sum(t, np_nv_qstat_q(a, &a->cur->eth.qstats[i], off));
	return t;
}

/* ---- the RX ring ---- */

enum np_nv_ring_state np_nv_ring_state(const struct np_snapshot *s)
{
	const struct np_rings *rg = &s->eth.rings;

	if (!np_src_ok(s, NP_SRC_ETHTOOL_RINGS) || !np_has(rg->rx) || !np_has(rg->rx_max) ||
	    !rg->rx_max)
		return NP_NV_RING_UNKNOWN;
	return rg->rx < rg->rx_max ? NP_NV_RING_BELOW_MAX : NP_NV_RING_AT_MAX;
}

void np_nv_ring_empty(const struct np_analysis *a, struct np_nv_ring *out)
{
	struct np_counter_view link;

	memset(out, 0, sizeof(*out));
	out->missed = NP_NV_LINK(a, rx_missed_errors, &out->rtnl);
	out->fifo = NP_NV_LINK(a, rx_fifo_errors, NULL);
	out->over = NP_NV_LINK(a, rx_over_errors, NULL);
	np_nv_drv_collect(a, NP_DRV_RING_EMPTY, false, &out->drv);
	out->overruns = np_nv_qstat(a, offsetof(struct np_qstat, rx_hw_drop_overruns));
	/* rx_missed_errors is the driver's out-of-buffer count on mlx5, i40e and ixgbe, and
	 * qstats overruns are the driver's per-queue count: witnesses, never added. */
	out->ring = np_nv_max(np_nv_max(out->drv.v, out->missed), out->overruns);
	/* FIFO and overrun errors are other events than missed packets: those add up. */
	link = np_view_sum(np_view_sum(out->missed, out->fifo), out->over);
	out->all = np_nv_max(np_nv_max(out->drv.v, link), out->overruns);
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
