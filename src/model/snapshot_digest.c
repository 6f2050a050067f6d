// SPDX-License-Identifier: GPL-2.0-only
/*
 * A digest of a snapshot's configuration (snapshot_counters.h): every setting and state that
 * the recorder stores apart from the counters, hashed with FNV-1a 64 field by field (never a
 * struct's padding). No counter goes in: a digest that moved with the traffic would make the
 * recorder store the configuration every second.
 */
#include "snapshot_counters.h"
#include "snapshot_counters_priv.h"

#include <string.h>

#define FNV_PRIME 0x100000001b3ull

static uint64_t mix(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= FNV_PRIME;
	}
	return h;
}

static uint64_t u64(uint64_t h, uint64_t v)
{
	return mix(h, &v, sizeof(v));
}

static uint64_t i64(uint64_t h, int64_t v)
{
	return u64(h, (uint64_t)v);
}

/* A string with its terminator, so that "ab","c" and "a","bc" differ. */
static uint64_t str(uint64_t h, const char *s)
{
	return mix(h, s, strlen(s) + 1);
}

static uint64_t cpus(uint64_t h, const struct np_cpuset *c)
{
	return mix(h, c->w, sizeof(c->w));
}

/* The sysctls whose value is a gauge, not a setting: in the frames instead. */
static bool sysctl_is_gauge(const char *key)
{
	return strcmp(key, NP_SNAPCNT_SYSCTL_GAUGE) == 0;
}

static uint64_t sysctls(uint64_t h, const struct np_sysctls *t)
{
	h = u64(h, t->n);
	for (size_t i = 0; i < t->n; i++) {
		const struct np_sysctl *e = &t->e[i];

		h = str(h, e->key);
		if (sysctl_is_gauge(e->key))
			continue;
		h = str(h, e->raw);
		h = i64(h, e->err);
		h = u64(h, e->host_wide);
	}
	return h;
}

static uint64_t netdev(uint64_t h, const struct np_netdev *d)
{
	h = str(h, d->name);
	h = u64(h, d->ifindex);
	h = u64(h, d->mtu);
	h = u64(h, d->tx_queue_len);
	h = u64(h, d->speed_mbps);
	h = u64(h, d->nominal_speed_mbps);
	h = str(h, d->speed_from);
	h = str(h, d->duplex);
	h = str(h, d->operstate);
	h = i64(h, d->carrier);
	h = i64(h, d->admin_up);
	h = i64(h, d->threaded);
	h = u64(h, d->gro_flush_timeout);
	h = u64(h, d->napi_defer_hard_irqs);
	h = u64(h, d->has_device);
	h = i64(h, d->is_virtual);
	h = str(h, d->kind_hint);
	h = str(h, d->driver);
	h = str(h, d->bus_id);
	h = i64(h, d->numa_node);
	h = u64(h, d->has_local_cpus);
	if (d->has_local_cpus)
		h = cpus(h, &d->local_cpus);
	h = u64(h, d->n_lower);
	for (size_t i = 0; i < d->n_lower && i < NP_MAX_LOWER; i++)
		h = str(h, d->lower[i]);
	h = str(h, d->master);
	h = u64(h, d->n_rxq);
	for (size_t i = 0; d->rxq && i < d->n_rxq; i++) {
		h = u64(h, d->rxq[i].has_rps);
		if (d->rxq[i].has_rps)
			h = cpus(h, &d->rxq[i].rps_cpus);
		h = u64(h, d->rxq[i].rps_flow_cnt);
	}
	h = u64(h, d->n_txq);
	for (size_t i = 0; d->txq && i < d->n_txq; i++) {
		h = u64(h, d->txq[i].has_xps);
		if (d->txq[i].has_xps)
			h = cpus(h, &d->txq[i].xps_cpus);
	}
	return h;
}

static uint64_t ethtool(uint64_t h, const struct np_ethtool *e)
{
	const struct np_linkmodes *l = &e->link;

	h = str(h, e->driver);
	h = str(h, e->version);
	h = str(h, e->fw_version);
	h = str(h, e->bus_info);
	h = u64(h, l->speed_mbps);
	h = i64(h, l->duplex);
	h = i64(h, l->autoneg);
	h = u64(h, (unsigned)l->has_supported | (unsigned)l->has_advertised << 1 |
		       (unsigned)l->has_peer << 2);
	h = mix(h, l->supported, sizeof(l->supported));
	h = mix(h, l->advertised, sizeof(l->advertised));
	h = mix(h, l->peer, sizeof(l->peer));
	/* Rings and channels are all u64 members (snapshot.c's init walks them the same way). */
	h = mix(h, &e->rings, sizeof(e->rings));
	h = mix(h, &e->channels, sizeof(e->channels));
	h = u64(h, e->coalesce.rx_usecs);
	h = u64(h, e->coalesce.rx_max_frames);
	h = u64(h, e->coalesce.tx_usecs);
	h = u64(h, e->coalesce.tx_max_frames);
	h = i64(h, e->coalesce.adaptive_rx);
	h = i64(h, e->coalesce.adaptive_tx);
	h = i64(h, e->features.gro);
	h = i64(h, e->features.lro);
	h = i64(h, e->features.gro_hw);
	h = i64(h, e->features.rx_checksum);
	h = i64(h, e->features.rxhash);
	h = i64(h, e->features.ntuple);
	h = i64(h, e->pause.autoneg);
	h = i64(h, e->pause.rx);
	h = i64(h, e->pause.tx);
	h = u64(h, e->rss_size);
	if (e->rss_indir)
		h = mix(h, e->rss_indir, e->rss_size * sizeof(*e->rss_indir));
	return h;
}

static uint64_t rtnl(uint64_t h, const struct np_rtnl *r)
{
	h = u64(h, r->has_stats64);
	h = u64(h, r->stats64_len);
	h = u64(h, r->mtu);
	h = u64(h, r->txqlen);
	h = str(h, r->operstate);
	h = str(h, r->kind);
	h = i64(h, r->master);
	h = i64(h, r->link);
	h = u64(h, r->link_other_netns);
	h = i64(h, r->underlay);
	h = i64(h, r->xdp_attached);
	h = u64(h, r->xdp_prog_id);
	h = u64(h, r->nqdisc);
	for (size_t i = 0; i < r->nqdisc; i++) {
		const struct np_qdisc *q = &r->qdiscs[i];

		h = str(h, q->kind);
		h = u64(h, q->handle);
		h = u64(h, q->parent);
		h = u64(h, (unsigned)q->root | (unsigned)q->ingress << 1);
	}
	return h;
}

/* The lines and their placement; the counts and their CPU columns are the frames' (a CPU
 * brought online shows in host.online). */
static uint64_t irqs(uint64_t h, const struct np_interrupts *t)
{
	h = u64(h, t->n);
	for (size_t i = 0; i < t->n; i++) {
		const struct np_irq_line *l = &t->lines[i];

		h = u64(h, l->irq);
		h = str(h, l->name);
		h = u64(h, l->role);
		h = u64(h, (unsigned)l->has_affinity | (unsigned)l->has_effective << 1);
		if (l->has_affinity)
			h = cpus(h, &l->affinity);
		if (l->has_effective)
			h = cpus(h, &l->effective);
	}
	return h;
}

static uint64_t host(uint64_t h, const struct np_snapshot *s)
{
	h = str(h, s->hs->host.kernel);
	h = u64(h, s->hs->host.hz_hint);
	h = i64(h, s->hs->host.irqbalance);
	h = u64(h, s->hs->host.ncpu_online);
	h = str(h, s->hs->host.ncpu_from ? s->hs->host.ncpu_from : "");
	h = cpus(h, &s->hs->host.online);
	h = u64(h, s->hs->softnet.ncols);
	h = u64(h, s->hs->softnet.cpu_from_column);
	h = str(h, s->hs->softnet.error);
	h = u64(h, s->hs->mem.page_size);
	h = u64(h, s->hs->mem.page_size_assumed);
	return h;
}

static uint64_t pcie(uint64_t h, const struct np_pcie *p)
{
	h = str(h, p->bdf);
	h = u64(h, p->cur_speed);
	h = u64(h, p->max_speed);
	h = u64(h, p->cur_width);
	h = u64(h, p->max_width);
	h = u64(h, p->mps);
	h = u64(h, p->mps_supported);
	h = u64(h, p->mrrs);
	return h;
}

uint64_t np_snapshot_config_digest(const struct np_snapshot *s, uint64_t seed)
{
	uint64_t h = 0xcbf29ce484222325ull ^ seed;

	h = str(h, s->ifname);
	h = u64(h, s->captured);
	for (int i = 0; i < NP_SRC__COUNT; i++) {
		h = u64(h, np_srcp(s, i)->status);
		h = i64(h, np_srcp(s, i)->err);
	}
	h = host(h, s);
	h = sysctls(h, &s->hs->sysctl);
	h = sysctls(h, &s->dev_sysctl);
	h = netdev(h, &s->dev);
	h = pcie(h, &s->pcie);
	h = ethtool(h, &s->eth);
	h = rtnl(h, &s->rtnl);
	h = irqs(h, &s->irqs);
	return h;
}
