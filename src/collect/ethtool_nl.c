// SPDX-License-Identifier: GPL-2.0-only
/* ethtool generic netlink collector: one GET per source, each probed in the family's ops first. */
#include "collect.h"
#include "ethtool_nl.h"
#include "log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct req_ctx {
	struct np_snapshot *s;
	int perr;		/* first parser error */
	size_t replies;
	size_t nstats;		/* STATS_GET: counters found */
};

typedef int (*parse_fn)(const struct nlmsghdr *nlh, struct req_ctx *c);

struct req {
	enum np_source src;
	uint8_t cmd;
	const char *cmd_name;
	const char *since;	/* the kernel that added the command, for the "lacks" detail */
	const char *what;	/* "driver does not report <what>" */
	uint16_t hdr_attr;
	uint32_t flags;
	parse_fn parse;
};

static int p_linkmodes(const struct nlmsghdr *nlh, struct req_ctx *c)
{
	return np_ethtool_parse_linkmodes(nlh, &c->s->eth.link);
}

static int p_rings(const struct nlmsghdr *nlh, struct req_ctx *c)
{
	return np_ethtool_parse_rings(nlh, &c->s->eth.rings);
}

static int p_channels(const struct nlmsghdr *nlh, struct req_ctx *c)
{
	return np_ethtool_parse_channels(nlh, &c->s->eth.channels);
}

static int p_coalesce(const struct nlmsghdr *nlh, struct req_ctx *c)
{
	return np_ethtool_parse_coalesce(nlh, &c->s->eth.coalesce);
}

static int p_features(const struct nlmsghdr *nlh, struct req_ctx *c)
{
	return np_ethtool_parse_features(nlh, &c->s->eth.features);
}

static int p_pause(const struct nlmsghdr *nlh, struct req_ctx *c)
{
	return np_ethtool_parse_pause(nlh, &c->s->eth.pause);
}

static int p_stats(const struct nlmsghdr *nlh, struct req_ctx *c)
{
	size_t n = 0;
	int err = np_ethtool_parse_stats(nlh, &c->s->eth.std_stats, &n);

	c->nstats += n;
	return err;
}

static int p_rss(const struct nlmsghdr *nlh, struct req_ctx *c)
{
	uint32_t *indir;
	size_t n;
	int err = np_ethtool_parse_rss(nlh, &indir, &n);

	free(c->s->eth.rss_indir);
	c->s->eth.rss_indir = indir;
	c->s->eth.rss_size = n;
	return err;
}

static const struct req reqs[] = {
	{ NP_SRC_ETHTOOL_LINKMODES, ETHTOOL_MSG_LINKMODES_GET, "ETHTOOL_MSG_LINKMODES_GET",
	  "pre-5.6?", "link modes", ETHTOOL_A_LINKMODES_HEADER, ETHTOOL_FLAG_COMPACT_BITSETS,
	  p_linkmodes },
	{ NP_SRC_ETHTOOL_RINGS, ETHTOOL_MSG_RINGS_GET, "ETHTOOL_MSG_RINGS_GET", "pre-5.7?",
	  "rings", ETHTOOL_A_RINGS_HEADER, 0, p_rings },
	{ NP_SRC_ETHTOOL_CHANNELS, ETHTOOL_MSG_CHANNELS_GET, "ETHTOOL_MSG_CHANNELS_GET",
	  "pre-5.7?", "channels", ETHTOOL_A_CHANNELS_HEADER, 0, p_channels },
	{ NP_SRC_ETHTOOL_COALESCE, ETHTOOL_MSG_COALESCE_GET, "ETHTOOL_MSG_COALESCE_GET",
	  "pre-5.7?", "coalescing", ETHTOOL_A_COALESCE_HEADER, 0, p_coalesce },
	/* Not compact: the feature bits are only stable by name. */
	{ NP_SRC_ETHTOOL_FEATURES, ETHTOOL_MSG_FEATURES_GET, "ETHTOOL_MSG_FEATURES_GET",
	  "pre-5.7?", "features", ETHTOOL_A_FEATURES_HEADER, 0, p_features },
	{ NP_SRC_ETHTOOL_PAUSE, ETHTOOL_MSG_PAUSE_GET, "ETHTOOL_MSG_PAUSE_GET", "pre-5.7?",
	  "pause settings", ETHTOOL_A_PAUSE_HEADER, ETHTOOL_FLAG_STATS, p_pause },
	/* The only ethtool message whose header is attribute 2. */
	{ NP_SRC_ETHTOOL_STATS, ETHTOOL_MSG_STATS_GET, "ETHTOOL_MSG_STATS_GET", "pre-5.13?",
	  "standard statistics", ETHTOOL_A_STATS_HEADER, 0, p_stats },
	{ NP_SRC_ETHTOOL_RSS, NP_ETHTOOL_MSG_RSS_GET, "ETHTOOL_MSG_RSS_GET", "pre-6.2?",
	  "an RSS indirection table", NP_ETHTOOL_A_RSS_HEADER, 0, p_rss },
};

#define NREQS (sizeof(reqs) / sizeof(reqs[0]))

struct call {
	const struct req *r;
	struct req_ctx ctx;
};

static int call_cb(const struct nlmsghdr *nlh, void *data)
{
	struct call *c = data;
	int err = c->r->parse(nlh, &c->ctx);

	c->ctx.replies++;
	if (err && !c->ctx.perr)
		c->ctx.perr = err;
	return err == -ENOMEM ? -ENOMEM : MNL_CB_OK;
}

static void put_header(struct nlmsghdr *nlh, uint16_t attr, const char *ifname, uint32_t flags)
{
	struct nlattr *hdr = mnl_attr_nest_start(nlh, attr);

	mnl_attr_put_strz(nlh, ETHTOOL_A_HEADER_DEV_NAME, ifname);
	if (flags)
		mnl_attr_put_u32(nlh, ETHTOOL_A_HEADER_FLAGS, flags);
	mnl_attr_nest_end(nlh, hdr);
}

/* GROUPS as a compact bitset without a mask: exactly these groups. */
static void put_stats_groups(struct nlmsghdr *nlh)
{
	struct nlattr *bs = mnl_attr_nest_start(nlh, ETHTOOL_A_STATS_GROUPS);
	uint32_t groups = (1u << NP_ETHTOOL_STATS_GROUPS) - 1;

	mnl_attr_put(nlh, ETHTOOL_A_BITSET_NOMASK, 0, NULL);
	mnl_attr_put_u32(nlh, ETHTOOL_A_BITSET_SIZE, NP_ETHTOOL_STATS_GROUPS);
	mnl_attr_put(nlh, ETHTOOL_A_BITSET_VALUE, sizeof(groups), &groups);
	mnl_attr_nest_end(nlh, bs);
}

static int send_req(struct np_nl *g, const struct np_genl_family *fam, const struct req *r,
		    uint32_t flags, struct call *c, struct np_snapshot *s)
{
	struct nlmsghdr *nlh = np_genl_msg(g, fam->id, r->cmd, ETHTOOL_GENL_VERSION, 0);

	put_header(nlh, r->hdr_attr, s->ifname, flags);
	if (r->cmd == ETHTOOL_MSG_STATS_GET)
		put_stats_groups(nlh);
	memset(&c->ctx, 0, sizeof(c->ctx));
	c->r = r;
	c->ctx.s = s;
	return np_genl_call(g, nlh, call_cb, c);
}

/* Turn one request's outcome into its source status. */
static void outcome(struct np_snapshot *s, const struct req *r, int err, const struct call *c,
		    const char *kmsg)
{
	char detail[512];	/* np_src_set() cuts it to the source's detail size */
	const char *sep = kmsg[0] ? ": " : "";

	if (err == -ENODEV && strstr(kmsg, "no device matches")) {
		/* The ethtool core's words for an interface that is gone (renamed, moved to
		 * another namespace, unplugged) since we looked: not the driver's answer. */
		snprintf(detail, sizeof(detail), "interface vanished: %s", kmsg);
		np_src_set(s, r->src, err, detail);
		return;
	}
	if (err == -EOPNOTSUPP || err == -ENOTSUP || err == -ENODEV || err == -ENOENT) {
		/* The driver has no callback for it (lo, veth, virtio for several): data. */
		snprintf(detail, sizeof(detail), "driver does not report %s%s%s", r->what, sep,
			 kmsg);
		np_src_set(s, r->src, -EOPNOTSUPP, detail);
		np_srcp(s, r->src)->err = -err;
		return;
	}
	if (err == -ETIMEDOUT) {
		snprintf(detail, sizeof(detail), "%s: no reply within %d ms", r->cmd_name,
			 NP_GENL_TIMEOUT_MS);
		np_src_set(s, r->src, err, detail);
		return;
	}
	if (err) {
		snprintf(detail, sizeof(detail), "%s: %s%s%s", r->cmd_name, strerror(-err), sep,
			 kmsg);
		np_src_set(s, r->src, err, detail);
		return;
	}
	if (!c->ctx.replies) {
		snprintf(detail, sizeof(detail), "%s: the kernel sent no reply", r->cmd_name);
		np_src_set(s, r->src, -ENODATA, detail);
		return;
	}
	switch (c->ctx.perr) {
	case 0:
		break;
	case -EBADMSG:
		snprintf(detail, sizeof(detail),
			 "%s: truncated or malformed reply, kept what parsed", r->cmd_name);
		np_src_set(s, r->src, -EBADMSG, detail);
		return;
	case -ENODATA:
		snprintf(detail, sizeof(detail), "%s: reply without feature names", r->cmd_name);
		np_src_set(s, r->src, -ENODATA, detail);
		return;
	default:
		snprintf(detail, sizeof(detail), "%s: unexpected reply (%s)", r->cmd_name,
			 strerror(-c->ctx.perr));
		np_src_set(s, r->src, -EINVAL, detail);
		return;
	}
	if (r->src == NP_SRC_ETHTOOL_STATS && !c->ctx.nstats) {
		/* The kernel answers with empty groups when the driver has no callbacks. */
		np_src_set(s, r->src, -EOPNOTSUPP, "driver does not report standard statistics");
		return;
	}
	if (r->src == NP_SRC_ETHTOOL_RSS && !s->eth.rss_size) {
		np_src_set(s, r->src, -EOPNOTSUPP,
			   "driver does not report an RSS indirection table");
		return;
	}
	np_src_set(s, r->src, 0, NULL);
}

void np_ethtool_nl_collect(struct np_nl *g, struct np_snapshot *s)
{
	struct np_genl_family fam;
	char detail[512];	/* np_src_set() cuts it to the source's detail size */
	int err = np_genl_family(g, ETHTOOL_GENL_NAME, &fam);

	if (err) {
		if (err == -ENOENT)
			snprintf(detail, sizeof(detail),
				 "no ethtool netlink family (kernel < 5.6)");
		else
			snprintf(detail, sizeof(detail),
				 "resolving genl family \"ethtool\": %s%s%s", strerror(-err),
				 g->errmsg[0] ? ": " : "", g->errmsg);
		for (size_t i = 0; i < NREQS; i++)
			np_src_set(s, reqs[i].src, err, detail);
		return;
	}
	for (size_t i = 0; i < NREQS; i++) {
		const struct req *r = &reqs[i];
		struct call c;

		/* Like ethtool's netlink_cmd_check(): an unknown command would only earn an
		 * EOPNOTSUPP indistinguishable from the driver's; leave it to the ioctl. */
		if (!np_genl_has_op(&fam, r->cmd)) {
			snprintf(detail, sizeof(detail), "kernel lacks %s (%s)", r->cmd_name,
				 r->since);
			np_src_set(s, r->src, -ENOENT, detail);
			continue;
		}
		err = send_req(g, &fam, r, r->flags, &c, s);
		/* 5.7-5.9 reject ETHTOOL_FLAG_STATS as an unknown flag: ask again without. */
		if (err && (r->flags & ETHTOOL_FLAG_STATS) && strstr(g->errmsg, "flag"))
			err = send_req(g, &fam, r, r->flags & ~ETHTOOL_FLAG_STATS, &c, s);
		outcome(s, r, err, &c, g->errmsg);
	}
	np_counters_sort(&s->eth.std_stats);
}

void np_collect_ethtool_nl(const struct np_ctx *ctx, struct np_snapshot *s)
{
	struct np_nl g;
	int err = np_genl_open_ctx(&g, ctx);

	if (err) {
		char detail[512];	/* np_src_set() cuts it to the source's detail size */

		snprintf(detail, sizeof(detail), "generic netlink socket: %s", strerror(-err));
		for (size_t i = 0; i < NREQS; i++)
			np_src_set(s, reqs[i].src, err, detail);
		return;
	}
	np_ethtool_nl_collect(&g, s);
	np_nl_close(&g);
}
