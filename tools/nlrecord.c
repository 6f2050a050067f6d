// SPDX-License-Identifier: GPL-2.0-only
/*
 * Record the kernel's raw replies to netpath's generic netlink requests for an interface, as
 * unit-test fixtures: DIR/genl_ctrl_<family>.bin and DIR/<prefix>_<request>.bin, each the
 * bytes of every recv() of one request (replies, then the ACK or NLMSG_DONE). The requests are
 * the collectors' own (np_ethtool_nl_collect, np_qstats_collect), seen through the transport's
 * tap.
 *
 *   nlrecord IFACE DIR PREFIX
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>

#include "ethtool_nl.h"
#include "netdev_qstats.h"

struct tap {
	const char *dir, *prefix;
	uint32_t seq;
	FILE *f;
	uint16_t ethtool_id, netdev_id;
};

static const char *ethtool_cmd_name(unsigned cmd)
{
	switch (cmd) {
	case ETHTOOL_MSG_LINKMODES_GET: return "linkmodes";
	case ETHTOOL_MSG_RINGS_GET: return "rings";
	case ETHTOOL_MSG_CHANNELS_GET: return "channels";
	case ETHTOOL_MSG_COALESCE_GET: return "coalesce";
	case ETHTOOL_MSG_FEATURES_GET: return "features";
	case ETHTOOL_MSG_PAUSE_GET: return "pause";
	case ETHTOOL_MSG_STATS_GET: return "stats";
	case NP_ETHTOOL_MSG_RSS_GET: return "rss";
	}
	return "unknown";
}

static void learn_family(struct tap *t, const char *name, const void *buf, size_t len)
{
	const struct nlmsghdr *nlh = buf;
	struct np_genl_family fam;
	int rem = (int)len;

	for (; mnl_nlmsg_ok(nlh, rem); nlh = mnl_nlmsg_next(nlh, &rem)) {
		if (nlh->nlmsg_type != GENL_ID_CTRL || np_genl_parse_family(nlh, &fam) < 0)
			continue;
		if (!strcmp(name, ETHTOOL_GENL_NAME))
			t->ethtool_id = fam.id;
		else if (!strcmp(name, NP_NETDEV_FAMILY_NAME))
			t->netdev_id = fam.id;
	}
}

static void tap_fn(void *arg, const struct nlmsghdr *req, const void *buf, size_t len)
{
	const struct genlmsghdr *gh = mnl_nlmsg_get_payload(req);
	struct tap *t = arg;
	char path[4096];
	const char *fname = NULL;

	if (req->nlmsg_type == GENL_ID_CTRL) {
		const struct nlattr *a;

		mnl_attr_for_each(a, req, GENL_HDRLEN)
			if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_NAME)
				fname = mnl_attr_get_str(a);
		if (!fname)
			return;
		learn_family(t, fname, buf, len);
		snprintf(path, sizeof(path), "%s/genl_ctrl_%s.bin", t->dir, fname);
	} else if (req->nlmsg_type == t->ethtool_id) {
		snprintf(path, sizeof(path), "%s/%s_%s.bin", t->dir, t->prefix,
			 ethtool_cmd_name(gh->cmd));
	} else if (req->nlmsg_type == t->netdev_id && gh->cmd == NP_NETDEV_CMD_QSTATS_GET) {
		snprintf(path, sizeof(path), "%s/%s_qstats.bin", t->dir, t->prefix);
	} else {
		return;
	}
	if (req->nlmsg_seq != t->seq || !t->f) {
		if (t->f)
			fclose(t->f);
		t->f = fopen(path, "wb");
		t->seq = req->nlmsg_seq;
		if (!t->f) {
			fprintf(stderr, "nlrecord: %s: %s\n", path, strerror(errno));
			return;
		}
		fprintf(stderr, "nlrecord: %s\n", path);
	}
	fwrite(buf, 1, len, t->f);
}

int main(int argc, char **argv)
{
	struct tap t = { 0 };
	struct np_snapshot s;
	struct np_nl g;
	unsigned ifindex;
	int err;

	if (argc != 4) {
		fprintf(stderr, "usage: nlrecord IFACE DIR PREFIX\n");
		return 2;
	}
	t.dir = argv[2];
	t.prefix = argv[3];
	t.ethtool_id = t.netdev_id = UINT16_MAX;
	ifindex = if_nametoindex(argv[1]);
	if (!ifindex) {
		fprintf(stderr, "nlrecord: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	err = np_genl_open(&g);
	if (err) {
		fprintf(stderr, "nlrecord: genl: %s\n", strerror(-err));
		return 1;
	}
	g.tap = tap_fn;
	g.tap_arg = &t;
	np_snapshot_init(&s);
	snprintf(s.ifname, sizeof(s.ifname), "%s", argv[1]);
	np_ethtool_nl_collect(&g, &s);
	np_qstats_collect(&g, &s, ifindex);
	if (t.f)
		fclose(t.f);
	for (int i = NP_SRC_ETHTOOL_LINKMODES; i <= NP_SRC_QSTATS; i++)
		if (i != NP_SRC_DRIVER_STATS)
			fprintf(stderr, "  %-18s %-11s %s\n", np_source_name(i),
				np_src_status_name(s.src[i].status), s.src[i].detail);
	np_snapshot_free(&s);
	np_nl_close(&g);
	return 0;
}
