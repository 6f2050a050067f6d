// SPDX-License-Identifier: GPL-2.0-only
/* netpath diff: the settings of two sides, stage by stage, old -> new. */
#include "diff.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Values that move by themselves: a gauge is not a setting. */
static bool is_gauge(const char *key)
{
	return strcmp(key, "net.netfilter.nf_conntrack_count") == 0;
}

static int add(struct np_diff *d, enum np_stage st, const char *dev, const char *key,
	       const char *old, const char *new)
{
	struct np_diff_setting *s;

	if (!old && !new)
		return 0;
	d->settings_compared++;
	if (old && new && strcmp(old, new) == 0)
		return 0;
	if (d->nset == d->capset) {
		size_t cap = d->capset ? 2 * d->capset : 32;

		s = realloc(d->set, cap * sizeof(*s));
		if (!s)
			return -1;
		d->set = s;
		d->capset = cap;
	}
	s = &d->set[d->nset++];
	memset(s, 0, sizeof(*s));
	s->stage = st;
	snprintf(s->dev, sizeof(s->dev), "%s", dev ? dev : "");
	snprintf(s->key, sizeof(s->key), "%s", key);
	s->old_known = old != NULL;
	s->new_known = new != NULL;
	snprintf(s->old, sizeof(s->old), "%s", old ? old : "");
	snprintf(s->new, sizeof(s->new), "%s", new ? new : "");
	return 0;
}

/* Text of a value, or NULL for unknown. Two buffers per call site: old and new. */
struct vals {
	char o[NP_DIFF_VAL], n[NP_DIFF_VAL];
};

static const char *u64(char *buf, uint64_t v, const char *unit)
{
	if (v == NP_NA)
		return NULL;
	snprintf(buf, NP_DIFF_VAL, "%" PRIu64 "%s", v, unit);
	return buf;
}

static const char *onoff(int v)
{
	return v < 0 ? NULL : v ? "on" : "off";
}

/* Text settings: an empty one was not reported. */
static const char *str(const char *s)
{
	return s && s[0] ? s : NULL;
}

/* Compare one device's settings. b or a NULL: the device is on one side only. */
struct dev_cmp {
	struct np_diff *d;
	const char *dev;
	const struct np_snapshot *b, *a;
	int err;
};

static void cmp_u64(struct dev_cmp *c, enum np_stage st, const char *key, size_t off,
		    const char *unit)
{
	struct vals v;
	const char *o = c->b ? u64(v.o, *(const uint64_t *)((const char *)c->b + off), unit) : NULL;
	const char *n = c->a ? u64(v.n, *(const uint64_t *)((const char *)c->a + off), unit) : NULL;

	c->err |= add(c->d, st, c->dev, key, o, n);
}

static void cmp_onoff(struct dev_cmp *c, enum np_stage st, const char *key, size_t off)
{
	const char *o = c->b ? onoff(*(const int *)((const char *)c->b + off)) : NULL;
	const char *n = c->a ? onoff(*(const int *)((const char *)c->a + off)) : NULL;

	c->err |= add(c->d, st, c->dev, key, o, n);
}

static void cmp_text(struct dev_cmp *c, enum np_stage st, const char *key, const char *o,
		     const char *n)
{
	c->err |= add(c->d, st, c->dev, key, o, n);
}

#define SN(field) offsetof(struct np_snapshot, field)

/* The link speed: sysfs, else ethtool's link modes. */
static const char *speed(char *buf, const struct np_snapshot *s)
{
	if (!s)
		return NULL;
	if (s->dev.speed_mbps != NP_NA)
		return u64(buf, s->dev.speed_mbps, " Mb/s");
	return u64(buf, s->eth.link.speed_mbps, " Mb/s");
}

static const char *mtu(char *buf, const struct np_snapshot *s)
{
	if (!s)
		return NULL;
	return u64(buf, s->dev.mtu != NP_NA ? s->dev.mtu : s->rtnl.mtu, "");
}

static const char *pcie_speed(char *buf, const struct np_snapshot *s)
{
	if (!s || s->pcie.cur_speed == NP_NA)
		return NULL;
	snprintf(buf, NP_DIFF_VAL, "%g GT/s", (double)s->pcie.cur_speed / 1000.0);
	return buf;
}

static void link_pcie(struct dev_cmp *c)
{
	struct vals v;

	cmp_text(c, NP_STAGE_LINK, "speed", speed(v.o, c->b), speed(v.n, c->a));
	cmp_text(c, NP_STAGE_LINK, "duplex", c->b ? str(c->b->dev.duplex) : NULL,
		 c->a ? str(c->a->dev.duplex) : NULL);
	cmp_onoff(c, NP_STAGE_LINK, "autonegotiation", SN(eth.link.autoneg));
	cmp_text(c, NP_STAGE_LINK, "mtu", mtu(v.o, c->b), mtu(v.n, c->a));
	cmp_text(c, NP_STAGE_LINK, "admin state",
		 c->b && c->b->dev.admin_up >= 0 ? (c->b->dev.admin_up ? "up" : "down") : NULL,
		 c->a && c->a->dev.admin_up >= 0 ? (c->a->dev.admin_up ? "up" : "down") : NULL);
	cmp_text(c, NP_STAGE_PCIE, "pcie link speed", pcie_speed(v.o, c->b),
		 pcie_speed(v.n, c->a));
	cmp_u64(c, NP_STAGE_PCIE, "pcie link width", SN(pcie.cur_width), " lanes");
	cmp_u64(c, NP_STAGE_PCIE, "pcie max payload size", SN(pcie.mps), " bytes");
	cmp_u64(c, NP_STAGE_PCIE, "pcie max read request", SN(pcie.mrrs), " bytes");
}

static void nic(struct dev_cmp *c)
{
	cmp_text(c, NP_STAGE_NIC, "driver", c->b ? str(np_snapshot_driver(c->b)) : NULL,
		 c->a ? str(np_snapshot_driver(c->a)) : NULL);
	cmp_text(c, NP_STAGE_NIC, "driver version", c->b ? str(c->b->eth.version) : NULL,
		 c->a ? str(c->a->eth.version) : NULL);
	cmp_text(c, NP_STAGE_NIC, "firmware", c->b ? str(c->b->eth.fw_version) : NULL,
		 c->a ? str(c->a->eth.fw_version) : NULL);
	cmp_u64(c, NP_STAGE_NIC, "rx ring", SN(eth.rings.rx), "");
	cmp_u64(c, NP_STAGE_NIC, "rx-jumbo ring", SN(eth.rings.rx_jumbo), "");
	cmp_u64(c, NP_STAGE_NIC, "tx ring", SN(eth.rings.tx), "");
	cmp_onoff(c, NP_STAGE_NIC, "pause autonegotiation", SN(eth.pause.autoneg));
	cmp_onoff(c, NP_STAGE_NIC, "pause rx", SN(eth.pause.rx));
	cmp_onoff(c, NP_STAGE_NIC, "pause tx", SN(eth.pause.tx));
	cmp_onoff(c, NP_STAGE_NIC, "rx-checksumming", SN(eth.features.rx_checksum));
	cmp_onoff(c, NP_STAGE_NIC, "receive-hashing", SN(eth.features.rxhash));
	cmp_onoff(c, NP_STAGE_NIC, "ntuple-filters", SN(eth.features.ntuple));
	cmp_onoff(c, NP_STAGE_NIC, "large-receive-offload", SN(eth.features.lro));
	cmp_onoff(c, NP_STAGE_NIC, "rx-gro-hw", SN(eth.features.gro_hw));
}

/* How many distinct rx queues the RSS indirection table spreads over. */
static const char *rss_queues(char *buf, const struct np_snapshot *s)
{
	uint32_t seen[64] = { 0 };
	unsigned n = 0;

	if (!s || !s->eth.rss_size || !np_src_ok(s, NP_SRC_ETHTOOL_RSS))
		return NULL;
	for (size_t i = 0; i < s->eth.rss_size; i++) {
		uint32_t q = s->eth.rss_indir[i];

		if (q < 64 * 32 && !(seen[q / 32] & (1u << (q % 32)))) {
			seen[q / 32] |= 1u << (q % 32);
			n++;
		}
	}
	snprintf(buf, NP_DIFF_VAL, "%u queues", n);
	return buf;
}

static const struct np_irq_line *irq_named(const struct np_snapshot *s, const char *name,
					    unsigned irq)
{
	for (size_t i = 0; s && i < s->irqs.n; i++)
		if (name[0] ? strcmp(s->irqs.lines[i].name, name) == 0 : s->irqs.lines[i].irq == irq)
			return &s->irqs.lines[i];
	return NULL;
}

static const char *affinity(char *buf, const struct np_irq_line *l)
{
	if (!l || !(l->has_affinity || l->has_effective))
		return NULL;
	np_cpuset_format(l->has_affinity ? &l->affinity : &l->effective, buf, NP_DIFF_VAL);
	return buf;
}

/* Each IRQ of the device, by its action name (IRQ numbers change across reboots). */
static void irq_affinity(struct dev_cmp *c, const struct np_snapshot *x,
			 const struct np_snapshot *y, bool x_is_before)
{
	for (size_t i = 0; x && i < x->irqs.n; i++) {
		const struct np_irq_line *l = &x->irqs.lines[i], *m;
		char key[96];
		struct vals v;

		m = irq_named(y, l->name, l->irq);
		/* Pairs seen from the after side were compared already. */
		if (!x_is_before && m)
			continue;
		if (l->name[0])
			snprintf(key, sizeof(key), "irq %.64s affinity", l->name);
		else
			snprintf(key, sizeof(key), "irq %u affinity", l->irq);
		if (x_is_before)
			cmp_text(c, NP_STAGE_IRQ, key, affinity(v.o, l), affinity(v.n, m));
		else
			cmp_text(c, NP_STAGE_IRQ, key, NULL, affinity(v.n, l));
	}
}

static void irq(struct dev_cmp *c)
{
	struct vals v;

	cmp_u64(c, NP_STAGE_IRQ, "combined channels", SN(eth.channels.combined), "");
	cmp_u64(c, NP_STAGE_IRQ, "rx channels", SN(eth.channels.rx), "");
	cmp_u64(c, NP_STAGE_IRQ, "tx channels", SN(eth.channels.tx), "");
	cmp_u64(c, NP_STAGE_IRQ, "other channels", SN(eth.channels.other), "");
	cmp_onoff(c, NP_STAGE_IRQ, "adaptive-rx", SN(eth.coalesce.adaptive_rx));
	cmp_onoff(c, NP_STAGE_IRQ, "adaptive-tx", SN(eth.coalesce.adaptive_tx));
	cmp_u64(c, NP_STAGE_IRQ, "rx-usecs", SN(eth.coalesce.rx_usecs), "");
	cmp_u64(c, NP_STAGE_IRQ, "rx-frames", SN(eth.coalesce.rx_max_frames), "");
	cmp_u64(c, NP_STAGE_IRQ, "tx-usecs", SN(eth.coalesce.tx_usecs), "");
	cmp_u64(c, NP_STAGE_IRQ, "tx-frames", SN(eth.coalesce.tx_max_frames), "");
	cmp_text(c, NP_STAGE_IRQ, "rss spread", rss_queues(v.o, c->b), rss_queues(v.n, c->a));
	irq_affinity(c, c->b, c->a, true);
	irq_affinity(c, c->a, c->b, false);
}

static const char *rps(char *buf, const struct np_snapshot *s, size_t q)
{
	if (!s || q >= s->dev.n_rxq || !s->dev.rxq[q].has_rps)
		return NULL;
	if (!np_cpuset_count(&s->dev.rxq[q].rps_cpus))
		return "off";
	np_cpuset_format(&s->dev.rxq[q].rps_cpus, buf, NP_DIFF_VAL);
	return buf;
}

static const char *flow_cnt(char *buf, const struct np_snapshot *s, size_t q)
{
	if (!s || q >= s->dev.n_rxq)
		return NULL;
	return u64(buf, s->dev.rxq[q].rps_flow_cnt, "");
}

static const char *threaded(const struct np_snapshot *s)
{
	if (!s || s->dev.threaded < 0)
		return NULL;
	return s->dev.threaded == 0 ? "off" : s->dev.threaded == 1 ? "on" : "busy-poll";
}

static void softnet(struct dev_cmp *c)
{
	size_t nq = 0;

	cmp_onoff(c, NP_STAGE_SOFTNET, "generic-receive-offload", SN(eth.features.gro));
	cmp_text(c, NP_STAGE_SOFTNET, "napi threaded", threaded(c->b), threaded(c->a));
	cmp_u64(c, NP_STAGE_SOFTNET, "gro_flush_timeout", SN(dev.gro_flush_timeout), " ns");
	cmp_u64(c, NP_STAGE_SOFTNET, "napi_defer_hard_irqs", SN(dev.napi_defer_hard_irqs), "");
	if (c->b)
		nq = c->b->dev.n_rxq;
	if (c->a && c->a->dev.n_rxq > nq)
		nq = c->a->dev.n_rxq;
	for (size_t q = 0; q < nq; q++) {
		char key[48];
		struct vals v;

		snprintf(key, sizeof(key), "rx-%zu rps_cpus", q);
		cmp_text(c, NP_STAGE_SOFTNET, key, rps(v.o, c->b, q), rps(v.n, c->a, q));
		snprintf(key, sizeof(key), "rx-%zu rps_flow_cnt", q);
		cmp_text(c, NP_STAGE_SOFTNET, key, flow_cnt(v.o, c->b, q), flow_cnt(v.n, c->a, q));
	}
}

static const char *xdp(char *buf, const struct np_snapshot *s)
{
	static const char *const mode[] = { "none", "driver", "generic", "offload", "multiple" };

	if (!s || s->rtnl.xdp_attached < 0 || s->rtnl.xdp_attached > 4)
		return NULL;
	if (!s->rtnl.xdp_attached)
		return "none";
	snprintf(buf, NP_DIFF_VAL, "%s (prog %u)", mode[s->rtnl.xdp_attached],
		 s->rtnl.xdp_prog_id);
	return buf;
}

/* The kind of the root (egress) or ingress qdisc; "none" when the dump had none. */
static const char *qdisc(const struct np_snapshot *s, bool ingress)
{
	if (!s || !np_src_ok(s, NP_SRC_RTNL_QDISC))
		return NULL;
	for (size_t i = 0; i < s->rtnl.nqdisc; i++) {
		const struct np_qdisc *q = &s->rtnl.qdiscs[i];

		if (ingress ? q->ingress : q->root)
			return str(q->kind);
	}
	return "none";
}

static const char *txqlen(char *buf, const struct np_snapshot *s)
{
	if (!s)
		return NULL;
	return u64(buf, s->dev.tx_queue_len != NP_NA ? s->dev.tx_queue_len : s->rtnl.txqlen, "");
}

static void ingress_egress(struct dev_cmp *c)
{
	struct vals v;

	cmp_text(c, NP_STAGE_INGRESS, "xdp", xdp(v.o, c->b), xdp(v.n, c->a));
	cmp_text(c, NP_STAGE_INGRESS, "ingress qdisc", qdisc(c->b, true), qdisc(c->a, true));
	cmp_text(c, NP_STAGE_CONGESTION, "root qdisc", qdisc(c->b, false), qdisc(c->a, false));
	cmp_text(c, NP_STAGE_CONGESTION, "txqueuelen", txqlen(v.o, c->b), txqlen(v.n, c->a));
}

static int device(struct np_diff *d, const char *dev, const struct np_snapshot *b,
		  const struct np_snapshot *a)
{
	struct dev_cmp c = { .d = d, .dev = dev, .b = b, .a = a };

	/* A device on one side only (a bond member added or removed): say so once, rather
	 * than every one of its settings as unknown. */
	if (!b || !a)
		return add(d, NP_STAGE_LINK, dev, "device", b ? "present" : "absent",
			   a ? "present" : "absent");
	link_pcie(&c);
	nic(&c);
	irq(&c);
	softnet(&c);
	ingress_egress(&c);
	return c.err ? -1 : 0;
}

static const char *sysctl_val(const struct np_snapshot *s, const char *key)
{
	const struct np_sysctl *e = np_sysctl_find_key(s, key);

	return e && !e->err ? e->raw : NULL;
}

/*
 * A host-wide key one side could not see because its namespace hides the host's file: a child
 * namespace entered with ip netns exec (doctor --netns would have read the host's). Such a side
 * lacks netdev_max_backlog, which every kernel has in the initial namespace; a side that has it
 * but lacks another key runs a kernel without that one, which is a difference worth a row.
 */
static bool ns_blind(const struct np_snapshot *s)
{
	return !sysctl_val(s, np_sysctl_def(NP_SYSCTL_NETDEV_MAX_BACKLOG)->key);
}

static bool host_hidden(const char *key, const char *old, const char *new, bool blind_b,
			bool blind_a)
{
	int id = np_sysctl_id_of(key);

	if (id < 0 || np_sysctl_def((enum np_sysctl_id)id)->owner != NP_SYSCTL_OWNER_HOST)
		return false;
	return (!old && new && blind_b) || (old && !new && blind_a);
}

static int sysctls(struct np_diff *d, const struct np_snapshot *b, const struct np_snapshot *a)
{
	const struct np_snapshot *side[2] = { b, a };
	bool blind_b = ns_blind(b), blind_a = ns_blind(a);

	for (int k = 0; k < 4; k++) {
		/* Each side's namespace keys, then its device's, in the order they were read. */
		const struct np_sysctls *t = k % 2 ? &side[k / 2]->dev_sysctl
						     : &side[k / 2]->hs->sysctl;

		for (size_t i = 0; i < t->n; i++) {
			const char *key = t->e[i].key;
			bool listed;

			/* Keys of both sides are compared once, from the before side. */
			if (is_gauge(key) || (k >= 2 && np_sysctl_find_key(b, key)))
				continue;
			if (host_hidden(key, sysctl_val(b, key), sysctl_val(a, key), blind_b,
					blind_a)) {
				d->host_not_comparable++;
				continue;
			}
			if (add(d, np_diff_sysctl_stage(key, &listed), NULL, key,
				sysctl_val(b, key), sysctl_val(a, key)) < 0)
				return -1;
		}
	}
	return 0;
}

static const char *irqbalance(const struct np_snapshot *s)
{
	int irqbalance = s->hs->host.irqbalance;

	return irqbalance < 0 ? NULL : irqbalance ? "running" : "not running";
}

/* Stable by stage, so that within a stage the settings keep the order they were compared in
 * (qsort is not stable). A few hundred rows at most: insertion sort. */
static void sort_by_stage(struct np_diff_setting *s, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct np_diff_setting x = s[i];
		size_t j = i;

		for (; j > 0 && s[j - 1].stage > x.stage; j--)
			s[j] = s[j - 1];
		s[j] = x;
	}
}

int np_diff_settings(const struct np_diff_side *before, const struct np_diff_side *after,
		     struct np_diff *d)
{
	const struct np_snapshot *b0 = before->snap[0], *a0 = after->snap[0];
	size_t first = d->nset;

	if (sysctls(d, b0, a0) < 0 ||
	    add(d, NP_STAGE_IRQ, NULL, "irqbalance", irqbalance(b0), irqbalance(a0)) < 0 ||
	    device(d, a0->ifname, b0, a0) < 0)
		return -1;
	for (size_t i = 1; i < after->nsnap; i++) {
		const struct np_snapshot *b = NULL;

		for (size_t k = 1; k < before->nsnap && !b; k++)
			if (strcmp(before->snap[k]->ifname, after->snap[i]->ifname) == 0)
				b = before->snap[k];
		if (device(d, after->snap[i]->ifname, b, after->snap[i]) < 0)
			return -1;
	}
	for (size_t k = 1; k < before->nsnap; k++) {
		bool found = false;

		for (size_t i = 1; i < after->nsnap && !found; i++)
			found = strcmp(before->snap[k]->ifname, after->snap[i]->ifname) == 0;
		if (!found && device(d, before->snap[k]->ifname, before->snap[k], NULL) < 0)
			return -1;
	}
	sort_by_stage(d->set + first, d->nset - first);
	return 0;
}
