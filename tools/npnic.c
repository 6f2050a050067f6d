// SPDX-License-Identifier: GPL-2.0-only
/*
 * Debug tool: run the ethtool netlink and netdev qstats collectors on one interface and print
 * what they filled as key=value lines ("rings.rx=256", "n/a" when not reported), for eyes and
 * for tests/integration/ethtool-oracle.sh, which compares them with ethtool(8).
 *
 *   npnic IFACE
 */
#include <stdio.h>
#include <string.h>
#include <net/if.h>

#include "collect.h"
#include "linkmode.h"

static void u64(const char *key, uint64_t v)
{
	if (np_has(v))
		printf("%s=%llu\n", key, (unsigned long long)v);
	else
		printf("%s=n/a\n", key);
}

static void tri(const char *key, int v)
{
	printf("%s=%s\n", key, v < 0 ? "n/a" : v ? "on" : "off");
}

static void modes(const char *key, bool has, const uint64_t *m)
{
	printf("%s=", key);
	if (!has) {
		printf("n/a\n");
		return;
	}
	for (int w = NP_LINKMODE_WORDS - 1; w >= 0; w--)
		printf("%016llx", (unsigned long long)m[w]);
	printf("\n");
}

int main(int argc, char **argv)
{
	static const enum np_source srcs[] = {
		NP_SRC_ETHTOOL_LINKMODES, NP_SRC_ETHTOOL_RINGS, NP_SRC_ETHTOOL_CHANNELS,
		NP_SRC_ETHTOOL_COALESCE, NP_SRC_ETHTOOL_FEATURES, NP_SRC_ETHTOOL_PAUSE,
		NP_SRC_ETHTOOL_STATS, NP_SRC_ETHTOOL_RSS, NP_SRC_QSTATS,
	};
	struct np_snapshot s;
	const struct np_ethtool *e = &s.eth;

	if (argc != 2 || strlen(argv[1]) >= IF_NAMESIZE) {
		fprintf(stderr, "usage: npnic IFACE\n");
		return 2;
	}
	np_snapshot_init(&s);
	snprintf(s.ifname, sizeof(s.ifname), "%s", argv[1]);
	np_collect_ethtool_nl(NULL, &s);
	np_collect_qstats(NULL, &s);

	for (size_t i = 0; i < sizeof(srcs) / sizeof(srcs[0]); i++) {
		const struct np_src *src = np_srcp(&s, srcs[i]);

		printf("src.%s=%s\n", np_source_name(srcs[i]), np_src_status_name(src->status));
		if (src->detail[0])
			printf("src.%s.detail=%s\n", np_source_name(srcs[i]), src->detail);
	}
	u64("link.speed", e->link.speed_mbps);
	printf("link.duplex=%s\n", e->link.duplex < 0 ? "n/a" : e->link.duplex ? "full" : "half");
	tri("link.autoneg", e->link.autoneg);
	modes("link.supported", e->link.has_supported, e->link.supported);
	modes("link.advertised", e->link.has_advertised, e->link.advertised);
	modes("link.peer", e->link.has_peer, e->link.peer);
	if (e->link.has_supported)
		u64("link.best_supported", np_linkmodes_best(e->link.supported));
	if (e->link.has_supported && e->link.has_peer)
		u64("link.best_common", np_linkmodes_best_common(e->link.supported, e->link.peer));
	u64("rings.rx", e->rings.rx);
	u64("rings.rx_max", e->rings.rx_max);
	u64("rings.rx_mini", e->rings.rx_mini);
	u64("rings.rx_mini_max", e->rings.rx_mini_max);
	u64("rings.rx_jumbo", e->rings.rx_jumbo);
	u64("rings.rx_jumbo_max", e->rings.rx_jumbo_max);
	u64("rings.tx", e->rings.tx);
	u64("rings.tx_max", e->rings.tx_max);
	u64("rings.rx_buf_len", e->rings.rx_buf_len);
	u64("channels.rx", e->channels.rx);
	u64("channels.rx_max", e->channels.rx_max);
	u64("channels.tx", e->channels.tx);
	u64("channels.tx_max", e->channels.tx_max);
	u64("channels.other", e->channels.other);
	u64("channels.other_max", e->channels.other_max);
	u64("channels.combined", e->channels.combined);
	u64("channels.combined_max", e->channels.combined_max);
	u64("coalesce.rx_usecs", e->coalesce.rx_usecs);
	u64("coalesce.rx_frames", e->coalesce.rx_max_frames);
	u64("coalesce.tx_usecs", e->coalesce.tx_usecs);
	u64("coalesce.tx_frames", e->coalesce.tx_max_frames);
	tri("coalesce.adaptive_rx", e->coalesce.adaptive_rx);
	tri("coalesce.adaptive_tx", e->coalesce.adaptive_tx);
	tri("features.gro", e->features.gro);
	tri("features.lro", e->features.lro);
	tri("features.gro_hw", e->features.gro_hw);
	tri("features.rx_checksum", e->features.rx_checksum);
	tri("features.rxhash", e->features.rxhash);
	tri("features.ntuple", e->features.ntuple);
	tri("pause.autoneg", e->pause.autoneg);
	tri("pause.rx", e->pause.rx);
	tri("pause.tx", e->pause.tx);
	u64("pause.tx_frames", e->pause.tx_frames);
	u64("pause.rx_frames", e->pause.rx_frames);
	for (size_t i = 0; i < e->std_stats.n; i++)
		printf("std.%s=%llu\n", e->std_stats.e[i].name,
		       (unsigned long long)e->std_stats.e[i].value);
	printf("rss.size=%zu\n", e->rss_size);
	if (e->rss_size) {
		printf("rss.indir=");
		for (size_t i = 0; i < e->rss_size; i++)
			printf("%s%u", i ? " " : "", e->rss_indir[i]);
		printf("\n");
	}
	printf("qstats.queues=%zu\n", e->nqstats);
	for (size_t i = 0; i < e->nqstats; i++) {
		const struct np_qstat *q = &e->qstats[i];
		char k[64];

#define Q(f) do { snprintf(k, sizeof(k), "qstats.rx%d." #f, q->queue); u64(k, q->f); } while (0)
		Q(rx_packets);
		Q(rx_bytes);
		Q(rx_alloc_fail);
		Q(rx_hw_drops);
		Q(rx_hw_drop_overruns);
		Q(rx_hw_drop_ratelimits);
		Q(rx_csum_none);
		Q(rx_csum_bad);
#undef Q
	}
	np_snapshot_free(&s);
	return 0;
}
