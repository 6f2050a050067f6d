// SPDX-License-Identifier: GPL-2.0-only
/* Snapshot lifecycle and the small lookups every check uses. */
#include "snapshot.h"
#include "strcopy.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const source_names[NP_SRC__COUNT] = {
	[NP_SRC_CPU_ONLINE] = "cpu_online",
	[NP_SRC_SOFTNET] = "softnet_stat",
	[NP_SRC_SOFTIRQS] = "softirqs",
	[NP_SRC_INTERRUPTS] = "interrupts",
	[NP_SRC_IRQ_AFFINITY] = "irq_affinity",
	[NP_SRC_SNMP] = "snmp",
	[NP_SRC_NETSTAT] = "netstat",
	[NP_SRC_SOCKSTAT] = "sockstat",
	[NP_SRC_CONNTRACK] = "nf_conntrack",
	[NP_SRC_MEMINFO] = "meminfo",
	[NP_SRC_SYSCTL] = "sysctl",
	[NP_SRC_NETDEV] = "netdev_sysfs",
	[NP_SRC_PCIE_LINK] = "pcie_link",
	[NP_SRC_PCIE_CONFIG] = "pcie_config",
	[NP_SRC_PROCESSES] = "processes",
	[NP_SRC_ETHTOOL_DRVINFO] = "ethtool_drvinfo",
	[NP_SRC_ETHTOOL_LINKMODES] = "ethtool_linkmodes",
	[NP_SRC_ETHTOOL_RINGS] = "ethtool_rings",
	[NP_SRC_ETHTOOL_CHANNELS] = "ethtool_channels",
	[NP_SRC_ETHTOOL_COALESCE] = "ethtool_coalesce",
	[NP_SRC_ETHTOOL_FEATURES] = "ethtool_features",
	[NP_SRC_ETHTOOL_PAUSE] = "ethtool_pause",
	[NP_SRC_ETHTOOL_STATS] = "ethtool_stats",
	[NP_SRC_ETHTOOL_RSS] = "ethtool_rss",
	[NP_SRC_DRIVER_STATS] = "driver_stats",
	[NP_SRC_QSTATS] = "netdev_qstats",
	[NP_SRC_RTNL_LINK] = "rtnl_link",
	[NP_SRC_RTNL_QDISC] = "rtnl_qdisc",
	[NP_SRC_SOCK_DIAG] = "sock_diag",
};

const char *np_source_name(enum np_source id)
{
	return id < NP_SRC__COUNT && source_names[id] ? source_names[id] : "?";
}

const char *np_src_status_name(enum np_src_status st)
{
	switch (st) {
	case NP_SRC_UNREAD: return "unread";
	case NP_SRC_OK: return "ok";
	case NP_SRC_PARTIAL: return "partial";
	case NP_SRC_ABSENT: return "absent";
	case NP_SRC_DENIED: return "denied";
	case NP_SRC_MALFORMED: return "malformed";
	case NP_SRC_UNSUPPORTED: return "unsupported";
	case NP_SRC_SKIPPED: return "skipped";
	}
	return "?";
}

void np_src_set(struct np_snapshot *s, enum np_source id, int err, const char *detail)
{
	struct np_src *src = np_src_mut(s, id);

	src->err = err < 0 ? -err : err;
	if (err == 0)
		src->status = NP_SRC_OK;
	else if (err == -ENOENT || err == -ENOTDIR)
		src->status = NP_SRC_ABSENT;
	else if (err == -EACCES || err == -EPERM)
		src->status = NP_SRC_DENIED;
	else if (err == -EOPNOTSUPP || err == -ENOTSUP)
		src->status = NP_SRC_UNSUPPORTED;
	else if (err == -EBADMSG)
		src->status = NP_SRC_PARTIAL;	/* parsers keep the good parts of a damaged file */
	else if (err == -EINVAL || err == -ERANGE || err == -ENODATA)
		src->status = NP_SRC_MALFORMED;
	else if (err == -EXDEV || err == -ELOOP || err == -EFBIG || err == -EISDIR)
		src->status = NP_SRC_MALFORMED;	/* a hostile or broken --root tree */
	else
		src->status = NP_SRC_ABSENT;
	if (src->status == NP_SRC_ABSENT && s->captured)
		/* Not "absent on this kernel" nor "not loaded": a capture only holds what its tool
		 * copied. */
		np_strcopy(src->detail, sizeof(src->detail), "not in this capture");
	else if (detail)
		np_strcopy(src->detail, sizeof(src->detail), detail);
	else if (err == -EBADMSG)
		np_strcopy(src->detail, sizeof(src->detail), "some lines malformed and ignored");
	/* openat2() RESOLVE_BENEATH says EXDEV, RESOLVE_NO_MAGICLINKS ELOOP: say what it refused. */
	else if (err == -EXDEV)
		snprintf(src->detail, sizeof(src->detail),
			 "a symlink leads outside the --root tree: not followed");
	else if (err == -ELOOP)
		snprintf(src->detail, sizeof(src->detail),
			 "symlink loop or /proc magic link in the tree: not followed");
	else if (err == -EFBIG)
		snprintf(src->detail, sizeof(src->detail), "file larger than 64 MiB: not read");
	else if (err)
		snprintf(src->detail, sizeof(src->detail), "%s", strerror(src->err));
	else
		src->detail[0] = '\0';
}

void np_host_snap_init(struct np_host_snap *h)
{
	memset(h, 0, sizeof(*h));
	h->host.hz_hint = NP_NA;
	h->host.irqbalance = -1;
	h->sockstat = (struct np_sockstat){ NP_NA, NP_NA, NP_NA, NP_NA, NP_NA, NP_NA,
					    NP_NA, NP_NA, NP_NA, NP_NA };
	h->mem = (struct np_meminfo){ NP_NA, NP_NA, NP_NA, false };
}

void np_host_snap_free(struct np_host_snap *h)
{
	free(h->softnet.rows);
	free(h->softirqs.cpu);
	free(h->softirqs.net_rx);
	free(h->softirqs.net_tx);
	np_counters_free(&h->mib);
	np_counters_free(&h->conntrack);
	free(h->sysctl.e);
	np_host_snap_init(h);
}

void np_snapshot_init_in(struct np_snapshot *s, struct np_host_snap *hs)
{
	/* A sample's device snapshot never uses own_hs (every host-wide read and write goes
	 * through s->hs, and release leaves own_hs alone unless s->hs points at it): its 4 KB
	 * are cleared only for a lone snapshot. */
	_Static_assert(offsetof(struct np_snapshot, own_hs) + sizeof(struct np_host_snap) ==
		       sizeof(struct np_snapshot), "own_hs is the one range left out, at the end");
	/* Two ranges, as before own_hs moved: the first, of a size the compiler clears inline
	 * 8 bytes a step, and the rest by memset(). */
	memset(s, 0, offsetof(struct np_snapshot, irqs));
	memset(&s->irqs, 0, offsetof(struct np_snapshot, own_hs) - offsetof(struct np_snapshot, irqs));
	if (!hs)
		np_host_snap_init(&s->own_hs);
	s->hs = hs;
	s->dev.ifindex = s->dev.mtu = s->dev.tx_queue_len = s->dev.speed_mbps = NP_NA;
	s->dev.nominal_speed_mbps = NP_NA;
	s->dev.carrier_changes = s->dev.carrier_up = s->dev.carrier_down = NP_NA;
	s->dev.gro_flush_timeout = s->dev.napi_defer_hard_irqs = NP_NA;
	s->dev.threaded = -1;
	s->dev.carrier = s->dev.admin_up = -1;
	s->dev.is_virtual = -1;
	s->dev.numa_node = -1;
	np_link_stats_init(&s->dev.stats);
	s->pcie = (struct np_pcie){ "", NP_NA, NP_NA, NP_NA, NP_NA, NP_NA, NP_NA, NP_NA,
				    NP_NA, NP_NA, NP_NA };
	np_ethtool_init(&s->eth);
	np_rtnl_init(&s->rtnl);
	np_sockets_init_zeroed(&s->socks);	/* s was cleared whole above */
}

void np_snapshot_init(struct np_snapshot *s)
{
	np_snapshot_init_in(s, NULL);
	s->hs = &s->own_hs;
}

void np_ethtool_init(struct np_ethtool *e)
{
	uint64_t *p;

	memset(e, 0, sizeof(*e));
	e->link.speed_mbps = NP_NA;
	e->link.duplex = e->link.autoneg = -1;
	for (p = (uint64_t *)&e->rings; p < (uint64_t *)(&e->rings + 1); p++)
		*p = NP_NA;
	for (p = (uint64_t *)&e->channels; p < (uint64_t *)(&e->channels + 1); p++)
		*p = NP_NA;
	e->coalesce = (struct np_coalesce){ NP_NA, NP_NA, NP_NA, NP_NA, -1, -1 };
	e->features = (struct np_features){ -1, -1, -1, -1, -1, -1 };
	e->pause = (struct np_pause){ -1, -1, -1, NP_NA, NP_NA };
}

void np_ethtool_free(struct np_ethtool *e)
{
	np_counters_free(&e->std_stats);
	np_counters_free(&e->drv_stats);
	free(e->rss_indir);
	free(e->qstats);
	np_ethtool_init(e);
}

void np_rtnl_init(struct np_rtnl *r)
{
	memset(r, 0, sizeof(*r));
	np_link_stats_init(&r->stats64);
	r->mtu = r->txqlen = NP_NA;
	r->xdp_attached = -1;
	r->link_netnsid = -1;
	r->peer_mtu = r->peer_rx_dropped = NP_NA;
}

void np_rtnl_free(struct np_rtnl *r)
{
	free(r->qdiscs);
	np_rtnl_init(r);
}

void np_snapshot_free(struct np_snapshot *s)
{
	np_snapshot_release(s);
	np_snapshot_init(s);
}

void np_snapshot_release(struct np_snapshot *s)
{
	/* own_hs holds something only in a lone snapshot (np_snapshot_init_in). */
	if (s->hs == &s->own_hs)
		np_host_snap_free(&s->own_hs);
	for (size_t i = 0; i < s->irqs.n; i++)
		free(s->irqs.lines[i].count);
	free(s->irqs.lines);
	free(s->irqs.col_cpu);
	free(s->dev_sysctl.e);
	free(s->dev.rxq);
	free(s->dev.txq);
	np_ethtool_free(&s->eth);
	np_rtnl_free(&s->rtnl);
}

static const struct np_sysctl *find_in(const struct np_sysctls *t, const char *key)
{
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->e[i].key, key) == 0)
			return &t->e[i];
	return NULL;
}

const struct np_sysctl *np_sysctl_find_key(const struct np_snapshot *s, const char *key)
{
	const struct np_sysctl *e = find_in(&s->hs->sysctl, key);

	return e ? e : find_in(&s->dev_sysctl, key);
}

const struct np_sysctl *np_sysctl_find(const struct np_snapshot *s, enum np_sysctl_id id)
{
	const struct np_sysctls *t = &s->hs->sysctl;

	if ((unsigned)id >= NP_SYSCTL__COUNT)
		return NULL;
	/* The collector adds every row in the registry's order: the row is at its id. */
	if ((size_t)id < t->in_order)
		return &t->e[id];
	return find_in(t, np_sysctl_def(id)->key);
}

static int64_t entry_int(const struct np_sysctl *e, int idx, bool *ok)
{
	bool good = e && !e->err && idx >= 0 && idx < e->nvals;

	if (ok)
		*ok = good;
	return good ? e->v[idx] : 0;
}

int64_t np_sysctl_int(const struct np_snapshot *s, enum np_sysctl_id id, int idx, bool *ok)
{
	return entry_int(np_sysctl_find(s, id), idx, ok);
}

int64_t np_sysctl_dev_int(const struct np_snapshot *s, const char *fmt, bool *ok)
{
	char key[96];

	snprintf(key, sizeof(key), fmt, s->ifname);
	return entry_int(find_in(&s->dev_sysctl, key), 0, ok);
}

const char *np_sysctl_str(const struct np_snapshot *s, enum np_sysctl_id id)
{
	const struct np_sysctl *e = np_sysctl_find(s, id);

	return e && !e->err ? e->raw : NULL;
}

bool np_sysctl_vec(const struct np_snapshot *s, enum np_sysctl_id id, int n, int64_t *v)
{
	const struct np_sysctl *e = np_sysctl_find(s, id);

	if (!e || e->err || e->nvals < n)
		return false;
	for (int i = 0; i < n; i++)
		v[i] = e->v[i];
	return true;
}

#define KEY_FITS(id, k, u, f, o, stage) \
	_Static_assert(sizeof(k) <= sizeof(((struct np_sysctl *)0)->key), k " fits key[]");
NP_SYSCTLS(KEY_FITS)
#undef KEY_FITS

struct np_sysctl *np_sysctl_add(struct np_sysctls *t, const char *key)
{
	struct np_sysctl *e;

	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		struct np_sysctl *ne = realloc(t->e, cap * sizeof(*ne));

		if (!ne)
			return NULL;
		t->e = ne;
		t->cap = cap;
	}
	e = &t->e[t->n++];
	memset(e, 0, sizeof(*e));
	np_strcopy(e->key, sizeof(e->key), key);
	/* The collector passes the registry's own strings: the same pointer is the same key
	 * (every registry key fits key[], below), without comparing it. */
	if (t->in_order == t->n - 1 && t->in_order < NP_SYSCTL__COUNT) {
		const char *def = np_sysctl_def((enum np_sysctl_id)t->in_order)->key;

		if (key == def || strcmp(e->key, def) == 0)
			t->in_order++;
	}
	return e;
}

const char *np_snapshot_driver(const struct np_snapshot *s)
{
	return s->eth.driver[0] ? s->eth.driver : s->dev.driver;
}
