// SPDX-License-Identifier: GPL-2.0-only
/*
 * nprtnl: a debug tool that runs the rtnetlink collector on one interface and prints struct
 * np_rtnl as key=value lines, for the integration test to compare against ip(8) and tc(8).
 *   nprtnl IFACE
 */
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

#define STAT(f) { #f, offsetof(struct np_link_stats, f) }
static const struct {
	const char *name;
	size_t off;
} stats[] = {
	STAT(rx_packets), STAT(tx_packets), STAT(rx_bytes), STAT(tx_bytes),
	STAT(rx_errors), STAT(tx_errors), STAT(rx_dropped), STAT(tx_dropped),
	STAT(multicast), STAT(collisions), STAT(rx_length_errors), STAT(rx_over_errors),
	STAT(rx_crc_errors), STAT(rx_frame_errors), STAT(rx_fifo_errors), STAT(rx_missed_errors),
	STAT(tx_aborted_errors), STAT(tx_carrier_errors), STAT(tx_fifo_errors),
	STAT(tx_heartbeat_errors), STAT(tx_window_errors), STAT(rx_compressed), STAT(tx_compressed),
	STAT(rx_nohandler), STAT(rx_otherhost_dropped),
};
#undef STAT

int main(int argc, char **argv)
{
	struct np_snapshot s;
	const struct np_rtnl *r = &s.rtnl;
	char key[64];

	if (argc != 2 || strlen(argv[1]) >= sizeof(s.ifname)) {
		fprintf(stderr, "usage: nprtnl IFACE\n");
		return 2;
	}
	np_snapshot_init(&s);
	snprintf(s.ifname, sizeof(s.ifname), "%s", argv[1]);
	np_collect_rtnl(NULL, &s);

	print_src(&s, "link", NP_SRC_RTNL_LINK);
	print_src(&s, "qdisc", NP_SRC_RTNL_QDISC);
	print_u64("mtu", r->mtu);
	print_u64("txqlen", r->txqlen);
	printf("operstate=%s\n", r->operstate);
	printf("xdp_attached=%d\nxdp_prog_id=%u\n", r->xdp_attached, r->xdp_prog_id);
	printf("has_stats64=%d\nstats64_len=%zu\n", r->has_stats64, r->stats64_len);
	for (size_t i = 0; i < sizeof(stats) / sizeof(stats[0]); i++) {
		uint64_t v;

		memcpy(&v, (const char *)&r->stats64 + stats[i].off, sizeof(v));
		snprintf(key, sizeof(key), "stats64.%s", stats[i].name);
		print_u64(key, v);
	}
	printf("qdisc_count=%zu\n", r->nqdisc);
	for (size_t i = 0; i < r->nqdisc; i++) {
		const struct np_qdisc *q = &r->qdiscs[i];

		/* Handles as tc prints them: "8001:" when the minor is 0, else "8001:1". */
		printf("qdisc.%zu.kind=%s\n", i, q->kind);
		printf("qdisc.%zu.handle=%x:%.0x\n", i, q->handle >> 16, q->handle & 0xffff);
		printf("qdisc.%zu.parent=%x:%.0x\n", i, q->parent >> 16, q->parent & 0xffff);
		printf("qdisc.%zu.root=%d\nqdisc.%zu.ingress=%d\n", i, q->root, i, q->ingress);
#define Q(f) do { snprintf(key, sizeof(key), "qdisc.%zu." #f, i); print_u64(key, q->f); } while (0)
		Q(bytes);
		Q(packets);
		Q(drops);
		Q(overlimits);
		Q(requeues);
		Q(backlog);
		Q(qlen);
#undef Q
	}
	np_snapshot_free(&s);
	return 0;
}
