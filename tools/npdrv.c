// SPDX-License-Identifier: GPL-2.0-only
/*
 * npdrv: a debug tool that runs the SIOCETHTOOL collector on one interface and prints what it
 * got as key=value lines, for the integration test to compare against ethtool(8).
 *   npdrv IFACE              driver info and every driver statistic ("stat.NAME=VALUE")
 *   npdrv --fallbacks IFACE  also rings/channels/coalescing over the ioctl, as on a pre-5.7
 *                            kernel where ethtool netlink lacks those commands
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "collect.h"

static void print_src(const struct np_snapshot *s, const char *key, enum np_source id)
{
	printf("%s_status=%s\n", key, np_src_status_name(np_srcp(s, id)->status));
	printf("%s_detail=%s\n", key, np_srcp(s, id)->detail);
}

static void print_u64(const char *key, uint64_t v)
{
	if (np_has(v))
		printf("%s=%" PRIu64 "\n", key, v);
	else
		printf("%s=n/a\n", key);
}

int main(int argc, char **argv)
{
	struct np_snapshot s;
	bool fallbacks = false;
	int argi = 1;

	if (argc > 1 && strcmp(argv[1], "--fallbacks") == 0) {
		fallbacks = true;
		argi++;
	}
	if (argc != argi + 1 || strlen(argv[argi]) >= sizeof(s.ifname)) {
		fprintf(stderr, "usage: npdrv [--fallbacks] IFACE\n");
		return 2;
	}
	np_snapshot_init(&s);
	snprintf(s.ifname, sizeof(s.ifname), "%s", argv[argi]);

	np_collect_ethtool_drvinfo(NULL, &s);
	print_src(&s, "drvinfo", NP_SRC_ETHTOOL_DRVINFO);
	printf("driver=%s\nversion=%s\nfw_version=%s\nbus_info=%s\n", s.eth.driver, s.eth.version,
	       s.eth.fw_version, s.eth.bus_info);

	np_collect_driver_stats(NULL, &s);
	print_src(&s, "stats", NP_SRC_DRIVER_STATS);
	printf("stats_count=%zu\n", s.eth.drv_stats.n);
	for (size_t i = 0; i < s.eth.drv_stats.n; i++)
		printf("stat.%s=%" PRIu64 "\n", s.eth.drv_stats.e[i].name,
		       s.eth.drv_stats.e[i].value);

	if (fallbacks) {
		/* What np_collect_ethtool_nl leaves behind when the family lacks the commands. */
		np_src_set(&s, NP_SRC_ETHTOOL_RINGS, -ENOENT, NULL);
		np_src_set(&s, NP_SRC_ETHTOOL_CHANNELS, -ENOENT, NULL);
		np_src_set(&s, NP_SRC_ETHTOOL_COALESCE, -ENOENT, NULL);
		np_collect_ethtool_fallbacks(NULL, &s);
		print_src(&s, "rings", NP_SRC_ETHTOOL_RINGS);
		print_u64("rings.rx", s.eth.rings.rx);
		print_u64("rings.rx_max", s.eth.rings.rx_max);
		print_u64("rings.tx", s.eth.rings.tx);
		print_u64("rings.tx_max", s.eth.rings.tx_max);
		print_src(&s, "channels", NP_SRC_ETHTOOL_CHANNELS);
		print_u64("channels.rx", s.eth.channels.rx);
		print_u64("channels.tx", s.eth.channels.tx);
		print_u64("channels.combined", s.eth.channels.combined);
		print_u64("channels.combined_max", s.eth.channels.combined_max);
		print_src(&s, "coalesce", NP_SRC_ETHTOOL_COALESCE);
		print_u64("coalesce.rx_usecs", s.eth.coalesce.rx_usecs);
		print_u64("coalesce.rx_max_frames", s.eth.coalesce.rx_max_frames);
		printf("coalesce.adaptive_rx=%d\n", s.eth.coalesce.adaptive_rx);
	}
	np_snapshot_free(&s);
	return 0;
}
