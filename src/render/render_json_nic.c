// SPDX-License-Identifier: GPL-2.0-only
/* JSON "nic" object: what the driver, ethtool and rtnetlink reported, as read (since boot). */
#include "driver_counters.h"
#include "json_writer.h"
#include "linkmode.h"
#include "render.h"

#include <stdio.h>

static void u64_or_null(struct np_json *j, const char *key, uint64_t v)
{
	np_json_key(j, key);
	if (np_has(v))
		np_json_u64(j, v);
	else
		np_json_null(j);
}

static void tri(struct np_json *j, const char *key, int v)
{
	np_json_key(j, key);
	if (v < 0)
		np_json_null(j);
	else
		np_json_bool(j, v != 0);
}

/* null when the source did not deliver: the reason is in "unavailable". */
static bool section(struct np_json *j, const struct np_snapshot *s, const char *key,
		    enum np_source src)
{
	np_json_key(j, key);
	if (np_src_ok(s, src))
		return true;
	np_json_null(j);
	return false;
}

static void link_stats(struct np_json *j, const struct np_link_stats *st)
{
#define F(name) u64_or_null(j, #name, st->name)
	np_json_obj_open(j);
	F(rx_packets); F(rx_bytes); F(rx_errors); F(rx_dropped); F(rx_missed_errors);
	F(rx_fifo_errors); F(rx_over_errors); F(rx_crc_errors); F(rx_frame_errors);
	F(rx_length_errors); F(rx_nohandler); F(rx_otherhost_dropped); F(multicast);
	F(tx_packets); F(tx_bytes); F(tx_errors); F(tx_dropped); F(tx_fifo_errors);
	F(tx_carrier_errors); F(collisions);
	np_json_obj_close(j);
#undef F
}

static void driver(struct np_json *j, const struct np_snapshot *s)
{
	const struct np_ethtool *e = &s->eth;

	if (!section(j, s, "driver", NP_SRC_ETHTOOL_DRVINFO))
		return;
	np_json_obj_open(j);
	np_json_kv_str(j, "name", e->driver);
	np_json_kv_str(j, "version", e->version);
	np_json_kv_str(j, "firmware", e->fw_version);
	np_json_kv_str(j, "bus", e->bus_info);
	np_json_obj_close(j);
}

static void linkmodes(struct np_json *j, const struct np_snapshot *s)
{
	const struct np_linkmodes *l = &s->eth.link;

	if (!section(j, s, "link", NP_SRC_ETHTOOL_LINKMODES))
		return;
	np_json_obj_open(j);
	u64_or_null(j, "speed_mbps", l->speed_mbps);
	np_json_kv_str(j, "duplex", l->duplex == 1 ? "full" : l->duplex == 0 ? "half" : NULL);
	tri(j, "autoneg", l->autoneg);
	/* 0 = no mode with a speed (virtual devices): reported as not known. */
	u64_or_null(j, "best_supported_mbps",
		    l->has_supported && np_linkmodes_best(l->supported) ?
		    np_linkmodes_best(l->supported) : NP_NA);
	u64_or_null(j, "best_common_mbps",
		    l->has_supported && (l->has_peer || l->has_advertised) &&
		    np_linkmodes_best_common(l->supported, l->has_peer ? l->peer : l->advertised) ?
		    np_linkmodes_best_common(l->supported, l->has_peer ? l->peer : l->advertised) :
		    NP_NA);
	np_json_obj_close(j);
}

static void rings_channels_coalesce(struct np_json *j, const struct np_snapshot *s)
{
	const struct np_ethtool *e = &s->eth;

	if (section(j, s, "rings", NP_SRC_ETHTOOL_RINGS)) {
		np_json_obj_open(j);
		u64_or_null(j, "rx", e->rings.rx);
		u64_or_null(j, "rx_max", e->rings.rx_max);
		u64_or_null(j, "tx", e->rings.tx);
		u64_or_null(j, "tx_max", e->rings.tx_max);
		u64_or_null(j, "rx_buf_len", e->rings.rx_buf_len);
		np_json_obj_close(j);
	}
	if (section(j, s, "channels", NP_SRC_ETHTOOL_CHANNELS)) {
		np_json_obj_open(j);
		u64_or_null(j, "rx", e->channels.rx);
		u64_or_null(j, "tx", e->channels.tx);
		u64_or_null(j, "other", e->channels.other);
		u64_or_null(j, "combined", e->channels.combined);
		u64_or_null(j, "rx_max", e->channels.rx_max);
		u64_or_null(j, "tx_max", e->channels.tx_max);
		u64_or_null(j, "other_max", e->channels.other_max);
		u64_or_null(j, "combined_max", e->channels.combined_max);
		np_json_obj_close(j);
	}
	if (section(j, s, "coalesce", NP_SRC_ETHTOOL_COALESCE)) {
		np_json_obj_open(j);
		u64_or_null(j, "rx_usecs", e->coalesce.rx_usecs);
		u64_or_null(j, "rx_max_frames", e->coalesce.rx_max_frames);
		u64_or_null(j, "tx_usecs", e->coalesce.tx_usecs);
		u64_or_null(j, "tx_max_frames", e->coalesce.tx_max_frames);
		tri(j, "adaptive_rx", e->coalesce.adaptive_rx);
		tri(j, "adaptive_tx", e->coalesce.adaptive_tx);
		np_json_obj_close(j);
	}
	if (section(j, s, "features", NP_SRC_ETHTOOL_FEATURES)) {
		np_json_obj_open(j);
		tri(j, "gro", e->features.gro);
		tri(j, "lro", e->features.lro);
		tri(j, "gro_hw", e->features.gro_hw);
		tri(j, "rx_checksum", e->features.rx_checksum);
		tri(j, "rxhash", e->features.rxhash);
		tri(j, "ntuple", e->features.ntuple);
		np_json_obj_close(j);
	}
	if (section(j, s, "pause", NP_SRC_ETHTOOL_PAUSE)) {
		np_json_obj_open(j);
		tri(j, "autoneg", e->pause.autoneg);
		tri(j, "rx", e->pause.rx);
		tri(j, "tx", e->pause.tx);
		u64_or_null(j, "tx_frames", e->pause.tx_frames);
		u64_or_null(j, "rx_frames", e->pause.rx_frames);
		np_json_obj_close(j);
	}
}

/* Only the counters that witness a loss or a throttle: a curated set, not hundreds. */
static void driver_counters(struct np_json *j, const struct np_snapshot *s, bool all)
{
	const struct np_counters *c = &s->eth.drv_stats;

	if (!section(j, s, "driver_counters", NP_SRC_DRIVER_STATS))
		return;
	np_json_obj_open(j);
	np_json_kv_u64(j, "total", c->n);
	np_json_key_arr_open(j, "counters");
	for (size_t i = 0; i < c->n; i++) {
		struct np_drv_class cls;
		bool known = np_drv_classify(np_snapshot_driver(s), c->e[i].name, &cls);

		if (!known && !all)
			continue;
		np_json_obj_open(j);
		np_json_kv_str(j, "name", c->e[i].name);
		np_json_kv_u64(j, "since_boot", c->e[i].value);
		np_json_kv_str(j, "meaning", known ? np_drv_meaning_name(cls.meaning) : NULL);
		np_json_kv_str(j, "stage", known ? np_stage_name(cls.stage) : NULL);
		np_json_key(j, "queue");
		if (known && cls.queue >= 0)
			np_json_int(j, cls.queue);
		else
			np_json_null(j);
		np_json_kv_bool(j, "tx", known && cls.is_tx);
		np_json_obj_close(j);
	}
	np_json_arr_close(j);
	np_json_obj_close(j);
}

static void qdiscs(struct np_json *j, const struct np_snapshot *s)
{
	const struct np_rtnl *r = &s->rtnl;
	char h[24];

	if (!section(j, s, "qdiscs", NP_SRC_RTNL_QDISC))
		return;
	np_json_arr_open(j);
	for (size_t i = 0; i < r->nqdisc; i++) {
		const struct np_qdisc *q = &r->qdiscs[i];

		np_json_obj_open(j);
		np_json_kv_str(j, "kind", q->kind);
		snprintf(h, sizeof(h), "%x:%x", q->handle >> 16, q->handle & 0xffff);
		np_json_kv_str(j, "handle", h);
		snprintf(h, sizeof(h), "%x:%x", q->parent >> 16, q->parent & 0xffff);
		np_json_kv_str(j, "parent", q->root ? "root" : q->ingress ? "ingress" : h);
		u64_or_null(j, "bytes", q->bytes);
		u64_or_null(j, "packets", q->packets);
		u64_or_null(j, "drops", q->drops);
		u64_or_null(j, "overlimits", q->overlimits);
		u64_or_null(j, "requeues", q->requeues);
		u64_or_null(j, "backlog", q->backlog);
		u64_or_null(j, "qlen", q->qlen);
		np_json_obj_close(j);
	}
	np_json_arr_close(j);
}

static void rtnl_link(struct np_json *j, const struct np_snapshot *s)
{
	static const char *const xdp_modes[] = { "none", "driver", "generic", "offload", "multi" };
	const struct np_rtnl *r = &s->rtnl;

	if (!section(j, s, "rtnl", NP_SRC_RTNL_LINK))
		return;
	np_json_obj_open(j);
	u64_or_null(j, "mtu", r->mtu);
	u64_or_null(j, "txqueuelen", r->txqlen);
	np_json_kv_str(j, "operstate", r->operstate);
	np_json_key_obj_open(j, "xdp");
	np_json_key(j, "attached");
	np_json_str(j, r->xdp_attached >= 0 && r->xdp_attached <= 4 ? xdp_modes[r->xdp_attached]
								     : NULL);
	np_json_key(j, "prog_id");
	if (r->xdp_attached > 0)
		np_json_u64(j, r->xdp_prog_id);
	else
		np_json_null(j);
	np_json_obj_close(j);
	np_json_key(j, "stats64");
	if (r->has_stats64)
		link_stats(j, &r->stats64);
	else
		np_json_null(j);
	np_json_obj_close(j);
}

static void queues(struct np_json *j, const struct np_snapshot *s)
{
	const struct np_ethtool *e = &s->eth;

	if (!section(j, s, "queues", NP_SRC_QSTATS))
		return;
	np_json_arr_open(j);
	for (size_t i = 0; i < e->nqstats; i++) {
		const struct np_qstat *q = &e->qstats[i];

		np_json_obj_open(j);
		np_json_kv_int(j, "queue", q->queue);
		u64_or_null(j, "rx_packets", q->rx_packets);
		u64_or_null(j, "rx_bytes", q->rx_bytes);
		u64_or_null(j, "rx_alloc_fail", q->rx_alloc_fail);
		u64_or_null(j, "rx_hw_drops", q->rx_hw_drops);
		u64_or_null(j, "rx_hw_drop_overruns", q->rx_hw_drop_overruns);
		np_json_obj_close(j);
	}
	np_json_arr_close(j);
}

void np_render_nic_json(struct np_json *j, const struct np_snapshot *s, bool all_counters)
{
	np_json_obj_open(j);
	driver(j, s);
	linkmodes(j, s);
	rings_channels_coalesce(j, s);
	driver_counters(j, s, all_counters);
	rtnl_link(j, s);
	qdiscs(j, s);
	queues(j, s);
	np_json_obj_close(j);
}
