// SPDX-License-Identifier: GPL-2.0-only
/* netdev generic netlink qstats (6.9+): the driver's own per-rx-queue counters. */
#include "collect.h"
#include "log.h"
#include "netdev_qstats.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>

static const struct {
	unsigned attr;
	size_t off;
} qstat_fields[] = {
	{ NP_NETDEV_A_QSTATS_RX_PACKETS, offsetof(struct np_qstat, rx_packets) },
	{ NP_NETDEV_A_QSTATS_RX_BYTES, offsetof(struct np_qstat, rx_bytes) },
	{ NP_NETDEV_A_QSTATS_RX_ALLOC_FAIL, offsetof(struct np_qstat, rx_alloc_fail) },
	{ NP_NETDEV_A_QSTATS_RX_HW_DROPS, offsetof(struct np_qstat, rx_hw_drops) },
	{ NP_NETDEV_A_QSTATS_RX_HW_DROP_OVERRUNS, offsetof(struct np_qstat, rx_hw_drop_overruns) },
	{ NP_NETDEV_A_QSTATS_RX_HW_DROP_RATELIMITS,
	  offsetof(struct np_qstat, rx_hw_drop_ratelimits) },
	{ NP_NETDEV_A_QSTATS_RX_CSUM_NONE, offsetof(struct np_qstat, rx_csum_none) },
	{ NP_NETDEV_A_QSTATS_RX_CSUM_BAD, offsetof(struct np_qstat, rx_csum_bad) },
};

#define QSTATS_MAXATTR NP_NETDEV_A_QSTATS_RX_HW_DROP_RATELIMITS

int np_qstats_parse(const struct nlmsghdr *nlh, struct np_ethtool *e)
{
	const struct nlattr *tb[QSTATS_MAXATTR + 1];
	const struct genlmsghdr *gh;
	struct np_qstat q, *nq;
	uint32_t type, id;
	int err;

	if (nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return -EBADMSG;
	gh = mnl_nlmsg_get_payload(nlh);
	if (gh->cmd != NP_NETDEV_CMD_QSTATS_GET)
		return -EINVAL;
	err = np_genl_attrs(nlh, tb, QSTATS_MAXATTR);
	/* Queue scope: every message names its queue. */
	if (!tb[NP_NETDEV_A_QSTATS_QUEUE_TYPE] || !tb[NP_NETDEV_A_QSTATS_QUEUE_ID] ||
	    np_attr_u32(tb[NP_NETDEV_A_QSTATS_QUEUE_TYPE], &type) < 0 ||
	    np_attr_u32(tb[NP_NETDEV_A_QSTATS_QUEUE_ID], &id) < 0)
		return -EBADMSG;
	if (type != NP_NETDEV_QUEUE_TYPE_RX)
		return err;
	/* No kernel numbers a queue past INT_MAX; as an int it would read as -1, "no queue". */
	if (id > INT_MAX)
		return -EBADMSG;
	memset(&q, 0, sizeof(q));
	q.queue = (int)id;
	for (size_t i = 0; i < sizeof(qstat_fields) / sizeof(qstat_fields[0]); i++) {
		uint64_t *v = (uint64_t *)((char *)&q + qstat_fields[i].off);

		*v = NP_NA;
		if (tb[qstat_fields[i].attr] && np_attr_uint(tb[qstat_fields[i].attr], v) < 0) {
			*v = NP_NA;
			err = -EBADMSG;
		}
	}
	nq = realloc(e->qstats, (e->nqstats + 1) * sizeof(*nq));
	if (!nq)
		return -ENOMEM;
	e->qstats = nq;
	e->qstats[e->nqstats++] = q;
	return err;
}

struct qctx {
	struct np_ethtool *e;
	int perr;
	size_t msgs;
};

static int qstats_cb(const struct nlmsghdr *nlh, void *data)
{
	struct qctx *c = data;
	int err = np_qstats_parse(nlh, c->e);

	c->msgs++;
	if (err && !c->perr)
		c->perr = err;
	return err == -ENOMEM ? -ENOMEM : MNL_CB_OK;
}

/* The dump is asked again from scratch: what the broken one appended goes. */
static void qstats_reset(void *data)
{
	struct qctx *c = data;

	free(c->e->qstats);
	c->e->qstats = NULL;
	c->e->nqstats = 0;
	c->perr = 0;
	c->msgs = 0;
}

static void qstats_dump(struct np_nl *g, const struct np_genl_family *fam,
			struct np_snapshot *s, unsigned ifindex)
{
	struct nlmsghdr *nlh = np_genl_msg(g, fam->id, NP_NETDEV_CMD_QSTATS_GET,
					   NP_NETDEV_FAMILY_VERSION, NLM_F_DUMP);
	struct qctx c = { &s->eth, 0, 0 };
	char detail[512];	/* np_src_set() cuts it to the source's detail size */
	int err;

	mnl_attr_put_u32(nlh, NP_NETDEV_A_QSTATS_IFINDEX, ifindex);
	mnl_attr_put_u32(nlh, NP_NETDEV_A_QSTATS_SCOPE, NP_NETDEV_QSTATS_SCOPE_QUEUE);
	err = np_genl_dump(g, nlh, qstats_cb, qstats_reset, &c);
	if (err == -EOPNOTSUPP || err == -ENOTSUP) {
		np_src_set(s, NP_SRC_QSTATS, -EOPNOTSUPP, "driver does not report per-queue stats");
	} else if (err == -EAGAIN) {
		qstats_reset(&c);	/* an inconsistent table is no table */
		snprintf(detail, sizeof(detail),
			 "NETDEV_CMD_QSTATS_GET: the queues changed during each of %d dumps",
			 NP_NL_DUMP_TRIES);
		np_src_set(s, NP_SRC_QSTATS, err, detail);
	} else if (err) {
		snprintf(detail, sizeof(detail), "NETDEV_CMD_QSTATS_GET: %s%s%s", strerror(-err),
			 g->errmsg[0] ? ": " : "", g->errmsg);
		np_src_set(s, NP_SRC_QSTATS, err == -ETIMEDOUT ? -ETIMEDOUT : err, detail);
	} else if (c.perr == -EBADMSG) {
		np_src_set(s, NP_SRC_QSTATS, -EBADMSG,
			   "NETDEV_CMD_QSTATS_GET: truncated or malformed reply, kept what parsed");
	} else if (c.perr) {
		snprintf(detail, sizeof(detail), "NETDEV_CMD_QSTATS_GET: unexpected reply (%s)",
			 strerror(-c.perr));
		np_src_set(s, NP_SRC_QSTATS, -EINVAL, detail);
	} else if (!s->eth.nqstats) {
		/* No queue stats ops: 6.18 says EOPNOTSUPP (above); an empty dump is the same. */
		np_src_set(s, NP_SRC_QSTATS, -EOPNOTSUPP, "driver does not report per-queue stats");
	} else {
		np_src_set(s, NP_SRC_QSTATS, 0, NULL);
	}
}

void np_qstats_collect(struct np_nl *g, struct np_snapshot *s, unsigned ifindex)
{
	struct np_genl_family fam;
	char detail[512];	/* np_src_set() cuts it to the source's detail size */
	int err;

	free(s->eth.qstats);
	s->eth.qstats = NULL;
	s->eth.nqstats = 0;
	err = np_genl_family(g, NP_NETDEV_FAMILY_NAME, &fam);
	if (err == -ENOENT) {
		np_src_set(s, NP_SRC_QSTATS, err, "no netdev netlink family (kernel < 6.9)");
		return;
	}
	if (err) {
		snprintf(detail, sizeof(detail), "resolving genl family \"netdev\": %s",
			 strerror(-err));
		np_src_set(s, NP_SRC_QSTATS, err, detail);
		return;
	}
	if (!np_genl_has_op(&fam, NP_NETDEV_CMD_QSTATS_GET)) {
		np_src_set(s, NP_SRC_QSTATS, -ENOENT,
			   "kernel lacks NETDEV_CMD_QSTATS_GET (kernel < 6.9)");
		return;
	}
	qstats_dump(g, &fam, s, ifindex);
}

void np_collect_qstats(const struct np_ctx *ctx, struct np_snapshot *s)
{
	char detail[512];	/* np_src_set() cuts it to the source's detail size */
	struct np_nl g;
	unsigned ifindex;
	int err;

	/* A capture's answers were asked with the captured machine's index, which sysfs kept. */
	if (ctx && ctx->tape && !ctx->tape->recording)
		ifindex = np_has(s->dev.ifindex) ? (unsigned)s->dev.ifindex : 0;
	else
		ifindex = if_nametoindex(s->ifname);
	if (!ifindex) {
		np_src_set(s, NP_SRC_QSTATS, -ENODEV, NULL);
		return;
	}
	err = np_genl_open_ctx(&g, ctx);
	if (err) {
		snprintf(detail, sizeof(detail), "generic netlink socket: %s", strerror(-err));
		np_src_set(s, NP_SRC_QSTATS, err, detail);
		return;
	}
	np_qstats_collect(&g, s, ifindex);
	np_nl_close(&g);
}
