// SPDX-License-Identifier: GPL-2.0-only
/* Prometheus families of the NIC side: rings, channels, coalescing, queues, driver counters, qdiscs. */
#include "render_monitor.h"
#include "render_prom_priv.h"

#include <stdlib.h>
#include <string.h>

#include "driver_counters.h"

/* Rings and channels: one family at a time, every device's sample in it. Link speed and MTU
 * are node_exporter's (node_network_speed_bytes, node_network_mtu_bytes). */
static void rings_channels(struct np_prom *p, const struct np_snapshot *const *snaps, size_t n)
{
	static const char *const type[3] = { "combined", "rx", "tx" };

	np_prom_family(p, NP_PROM_DEVICE, "netpath_nic_rx_ring_descriptors", "gauge",
		       "RX ring descriptors configured");
	for (size_t i = 0; i < n; i++)
		if (np_src_ok(snaps[i], NP_SRC_ETHTOOL_RINGS)) {
			np_prom_device(p, snaps[i]->ifname);
			np_prom_u64(p, snaps[i]->eth.rings.rx, NULL);
		}
	np_prom_family(p, NP_PROM_DEVICE, "netpath_nic_rx_ring_max_descriptors", "gauge",
		       "RX ring descriptors the hardware supports at most");
	for (size_t i = 0; i < n; i++)
		if (np_src_ok(snaps[i], NP_SRC_ETHTOOL_RINGS)) {
			np_prom_device(p, snaps[i]->ifname);
			np_prom_u64(p, snaps[i]->eth.rings.rx_max, NULL);
		}
	for (int max = 0; max < 2; max++) {
		np_prom_family(p, NP_PROM_DEVICE, max ? "netpath_nic_channels_max" : "netpath_nic_channels",
			       "gauge", max ? "Queues (channels) the hardware supports at most, by type" :
			       "Queues (channels) configured, by type: combined, rx, tx");
		for (size_t i = 0; i < n; i++) {
			const struct np_channels *c = &snaps[i]->eth.channels;
			const uint64_t v[2][3] = { { c->combined, c->rx, c->tx },
						   { c->combined_max, c->rx_max, c->tx_max } };

			if (!np_src_ok(snaps[i], NP_SRC_ETHTOOL_CHANNELS))
				continue;
			np_prom_device(p, snaps[i]->ifname);
			for (int t = 0; t < 3; t++)
				np_prom_u64(p, v[max][t], "type", type[t], NULL);
		}
	}
}

/* RX interrupt coalescing (ethtool -c), which the nic and irq checks judge and node_exporter
 * does not export: the delay in seconds, the frame count, and adaptive on or off. */
static void coalescing(struct np_prom *p, const struct np_snapshot *const *snaps, size_t n)
{
	np_prom_family(p, NP_PROM_DEVICE, "netpath_nic_rx_coalesce_seconds", "gauge",
		       "RX interrupt coalescing delay (ethtool -c rx-usecs / 1e6)");
	for (size_t i = 0; i < n; i++)
		if (np_src_ok(snaps[i], NP_SRC_ETHTOOL_COALESCE) &&
		    np_has(snaps[i]->eth.coalesce.rx_usecs)) {
			np_prom_device(p, snaps[i]->ifname);
			np_prom_dbl(p, (double)snaps[i]->eth.coalesce.rx_usecs * 1e-6, NULL);
		}
	np_prom_family(p, NP_PROM_DEVICE, "netpath_nic_rx_coalesce_frames", "gauge",
		       "RX interrupt coalescing frame count (ethtool -c rx-frames)");
	for (size_t i = 0; i < n; i++)
		if (np_src_ok(snaps[i], NP_SRC_ETHTOOL_COALESCE)) {
			np_prom_device(p, snaps[i]->ifname);
			np_prom_u64(p, snaps[i]->eth.coalesce.rx_max_frames, NULL);
		}
	np_prom_family(p, NP_PROM_DEVICE, "netpath_nic_rx_coalesce_adaptive", "gauge",
		       "1 when adaptive RX coalescing is on, 0 off (absent: not reported)");
	for (size_t i = 0; i < n; i++)
		if (np_src_ok(snaps[i], NP_SRC_ETHTOOL_COALESCE) &&
		    snaps[i]->eth.coalesce.adaptive_rx >= 0) {
			np_prom_device(p, snaps[i]->ifname);
			np_prom_dbl(p, snaps[i]->eth.coalesce.adaptive_rx ? 1 : 0, NULL);
		}
}

/* Per-queue counters from netdev qstats (6.9+); the first of a duplicated queue id wins. */
static void queues(struct np_prom *p, const struct np_snapshot *const *snaps, size_t n)
{
	static const struct {
		const char *name, *help;
		size_t off;
	} fams[] = {
		{ "netpath_queue_rx_packets_total", "Packets received on the RX queue since boot",
		  offsetof(struct np_qstat, rx_packets) },
		{ "netpath_queue_rx_drops_total",
		  "Packets the NIC dropped for the RX queue since boot (qstats rx-hw-drops)",
		  offsetof(struct np_qstat, rx_hw_drops) },
		{ "netpath_queue_rx_alloc_fail_total",
		  "Buffer allocation failures refilling the RX queue since boot",
		  offsetof(struct np_qstat, rx_alloc_fail) },
	};

	for (size_t k = 0; k < sizeof(fams) / sizeof(fams[0]); k++) {
		np_prom_family(p, NP_PROM_DEVICE, fams[k].name, "counter", fams[k].help);
		for (size_t d = 0; d < n; d++) {
			const struct np_ethtool *e = &snaps[d]->eth;

			if (!np_src_ok(snaps[d], NP_SRC_QSTATS))
				continue;
			np_prom_device(p, snaps[d]->ifname);
			for (size_t i = 0; i < e->nqstats; i++) {
				const struct np_qstat *q = &e->qstats[i];
				bool dup = false;
				char qn[16];

				for (size_t j = 0; j < i && !dup; j++)
					dup = e->qstats[j].queue == q->queue;
				if (dup)
					continue;
				snprintf(qn, sizeof(qn), "%d", q->queue);
				np_prom_u64(p, np_prom_field(q, fams[k].off), "queue", qn, NULL);
			}
		}
	}
}

/* Classified driver counters summed by what they witness: a bounded set whatever the driver. */
struct witness {
	enum np_drv_meaning meaning;
	bool tx;
	int queue;
	uint64_t sum;
};

static int cmp_witness(const void *x, const void *y)
{
	const struct witness *a = x, *b = y;

	if (a->meaning != b->meaning)
		return a->meaning < b->meaning ? -1 : 1;
	if (a->tx != b->tx)
		return a->tx ? 1 : -1;
	return a->queue < b->queue ? -1 : a->queue > b->queue;
}

static void witnesses(struct np_prom *p, const struct np_snapshot *s)
{
	const struct np_counters *c = &s->eth.drv_stats;
	const char *drv = np_snapshot_driver(s);
	struct witness *w = calloc(c->n ? c->n : 1, sizeof(*w));
	size_t n = 0;

	if (!w)
		return;	/* no partial sums: a wrong total is worse than none */
	for (size_t i = 0; i < c->n; i++) {
		struct np_drv_class cl;
		size_t k;

		if (!np_has(c->e[i].value) || !np_drv_classify(drv, c->e[i].name, &cl))
			continue;
		for (k = 0; k < n; k++)
			if (w[k].meaning == cl.meaning && w[k].tx == cl.is_tx &&
			    w[k].queue == cl.queue)
				break;
		if (k == n)
			w[n++] = (struct witness){ .meaning = cl.meaning, .tx = cl.is_tx,
						   .queue = cl.queue < 0 ? -1 : cl.queue };
		w[k].sum += c->e[i].value;
	}
	qsort(w, n, sizeof(*w), cmp_witness);
	np_prom_device(p, s->ifname);
	for (size_t k = 0; k < n; k++) {
		char qn[16];

		if (w[k].queue < 0)
			snprintf(qn, sizeof(qn), "device");
		else
			snprintf(qn, sizeof(qn), "%d", w[k].queue);
		np_prom_u64(p, w[k].sum, "meaning", np_drv_meaning_name(w[k].meaning),
			    "direction", w[k].tx ? "tx" : "rx", "queue", qn, NULL);
	}
	free(w);
}

/* Every driver counter, by its escaped name (sorted, so equal names are adjacent and only the
 * first is written: a driver may report a name twice, or two names may escape alike). */
struct raw {
	char esc[NP_PROM_LABEL_MAX];
	const struct np_counter *c;
};

/* By escaped name, then in the driver's order: the first of equal names is the one written. */
static int cmp_raw(const void *x, const void *y)
{
	const struct raw *a = x, *b = y;
	int r = strcmp(a->esc, b->esc);

	return r ? r : (a->c > b->c) - (a->c < b->c);
}

static void raw_counters(struct np_prom *p, const struct np_snapshot *s)
{
	const struct np_counters *c = &s->eth.drv_stats;
	struct raw *r = calloc(c->n ? c->n : 1, sizeof(*r));
	size_t n = 0;

	if (!r)
		return;
	for (size_t i = 0; i < c->n; i++) {
		if (!np_has(c->e[i].value))
			continue;
		np_prom_escape(c->e[i].name, true, r[n].esc, sizeof(r[n].esc));
		r[n++].c = &c->e[i];
	}
	qsort(r, n, sizeof(*r), cmp_raw);
	np_prom_device(p, s->ifname);
	for (size_t i = 0; i < n; i++)
		if (!i || strcmp(r[i].esc, r[i - 1].esc))
			np_prom_u64(p, r[i].c->value, "name", r[i].c->name, NULL);
	free(r);
}

/* A qdisc's label values as written (the kind escaped): equal ones are one series. */
static void qdisc_labels(const struct np_qdisc *q, char *kind, char *h, char *par, size_t size)
{
	char k[sizeof(q->kind) + 1];

	snprintf(k, sizeof(k), "%.*s", (int)sizeof(q->kind), q->kind);
	np_prom_escape(k, true, kind, NP_PROM_LABEL_MAX);
	snprintf(h, size, "%x:%x", q->handle >> 16, q->handle & 0xffff);
	if (q->root)
		snprintf(par, size, "root");
	else if (q->ingress)
		snprintf(par, size, "ingress");
	else
		snprintf(par, size, "%x:%x", q->parent >> 16, q->parent & 0xffff);
}

/* One device's qdiscs in the current family (off: the counter's offset in struct np_qdisc). */
static void qdisc_samples(struct np_prom *p, const struct np_snapshot *s, size_t off)
{
	const struct np_rtnl *r = &s->rtnl;

	np_prom_device(p, s->ifname);
	for (size_t i = 0; i < r->nqdisc; i++) {
		const struct np_qdisc *q = &r->qdiscs[i];
		char kind[NP_PROM_LABEL_MAX], kj[NP_PROM_LABEL_MAX];
		char h[24], par[24], hj[24], pj[24];
		bool dup = false;

		qdisc_labels(q, kind, h, par, sizeof(h));
		for (size_t j = 0; j < i && !dup; j++) {
			qdisc_labels(&r->qdiscs[j], kj, hj, pj, sizeof(hj));
			dup = !strcmp(h, hj) && !strcmp(par, pj) && !strcmp(kind, kj);
		}
		if (dup)
			continue;
		/* The raw kind: np_prom_u64() escapes it (bounded by its array). */
		snprintf(kj, sizeof(kj), "%.*s", (int)sizeof(q->kind), q->kind);
		np_prom_u64(p, np_prom_field(q, off), "kind", kj, "handle", h, "parent", par, NULL);
	}
}

void np_prom_qdiscs(struct np_prom *p, const struct np_snapshot *const *snaps, size_t n)
{
	static const struct {
		const char *name, *help;
		size_t off;
	} fams[] = {
		{ "netpath_qdisc_drops_total", "Packets the qdisc dropped since it was created",
		  offsetof(struct np_qdisc, drops) },
		{ "netpath_qdisc_overlimits_total",
		  "Times the qdisc was over its limit (shaped or dropped) since it was created",
		  offsetof(struct np_qdisc, overlimits) },
	};
	bool any = false;

	for (size_t d = 0; d < n; d++)
		any |= np_src_ok(snaps[d], NP_SRC_RTNL_QDISC);
	if (!any)
		return;
	for (size_t k = 0; k < sizeof(fams) / sizeof(fams[0]); k++) {
		np_prom_family(p, NP_PROM_DEVICE, fams[k].name, "counter", fams[k].help);
		for (size_t d = 0; d < n; d++)
			if (np_src_ok(snaps[d], NP_SRC_RTNL_QDISC))
				qdisc_samples(p, snaps[d], fams[k].off);
	}
}

void np_prom_nic(struct np_prom *p, const struct np_snapshot *const *snaps, size_t n,
		 bool raw_driver_counters)
{
	rings_channels(p, snaps, n);
	coalescing(p, snaps, n);
	queues(p, snaps, n);
	/* The classified witnesses always (alert rules keep their series), raw ones on request. */
	np_prom_family(p, NP_PROM_DEVICE, "netpath_nic_witness_total", "counter",
		       "Driver counters that witness a loss or throttle, summed by meaning since "
		       "boot; queue=\"device\" is a device-wide counter, which some drivers keep "
		       "besides the per-queue ones: do not add the two");
	for (size_t d = 0; d < n; d++)
		if (np_src_ok(snaps[d], NP_SRC_DRIVER_STATS))
			witnesses(p, snaps[d]);
	if (!raw_driver_counters)
		return;
	/* Not "..._counter_total": a metric name must not repeat its type (promtool). */
	np_prom_family(p, NP_PROM_DEVICE, "netpath_nic_driver_stat_total", "counter",
		       "Every driver statistic (ethtool -S) as the driver names it, since boot");
	for (size_t d = 0; d < n; d++)
		if (np_src_ok(snaps[d], NP_SRC_DRIVER_STATS))
			raw_counters(p, snaps[d]);
}
