// SPDX-License-Identifier: GPL-2.0-only
/* Generic netlink: genl requests, their runs over the netlink transport, family resolution. */
#include "ctx.h"
#include "genl.h"
#include "log.h"

#include <errno.h>
#include <string.h>
#include <linux/netlink.h>

static const struct np_nl_bus genl_bus = {
	.name = "genl",
	.protocol = NETLINK_GENERIC,
	.tape_bus = NP_KT_GENL,
	.bufsize = NP_GENL_BUFSIZE,
	.timeout_ms = NP_GENL_TIMEOUT_MS,
};

int np_genl_open(struct np_nl *g)
{
	return np_nl_open(g, &genl_bus, NULL);
}

int np_genl_open_ctx(struct np_nl *g, const struct np_ctx *ctx)
{
	return np_nl_open(g, &genl_bus, ctx ? ctx->tape : NULL);	/* NULL: live */
}

int np_genl_open_replay(struct np_nl *g, np_nl_replay_fn fn, void *arg)
{
	return np_nl_open_replay(g, &genl_bus, fn, arg);
}

struct nlmsghdr *np_genl_msg(struct np_nl *g, uint16_t family, uint8_t cmd, uint8_t version,
			     uint16_t flags)
{
	struct nlmsghdr *nlh = np_nl_request(g, family, flags);
	struct genlmsghdr *gh = mnl_nlmsg_put_extra_header(nlh, sizeof(*gh));

	gh->cmd = cmd;
	gh->version = version;
	return nlh;
}

/* One received buffer of a genl reply, walked message by message. */
struct run {
	struct np_nl *g;
	uint32_t seq;
	np_nl_cb cb;
	void *data;
	void (*reset)(void *data);
};

static int feed_run(void *arg, const void *buf, size_t len)
{
	struct run *r = arg;

	return np_nl_run(buf, len, r->seq, r->cb, r->data, r->g->errmsg, sizeof(r->g->errmsg));
}

/* A dump started again: its replies carry the new request's number. */
static void restart_run(void *arg, const struct nlmsghdr *req)
{
	struct run *r = arg;

	r->seq = req->nlmsg_seq;
	if (r->reset)
		r->reset(r->data);
}

int np_genl_dump(struct np_nl *g, struct nlmsghdr *req, np_nl_cb cb, void (*reset)(void *data),
		 void *data)
{
	struct run r = { g, req->nlmsg_seq, cb, data, reset };
	uint16_t family = req->nlmsg_type;
	uint8_t cmd = ((const struct genlmsghdr *)mnl_nlmsg_get_payload(req))->cmd;
	int ret;

	g->errmsg[0] = '\0';
	/* A doit ends with our ACK; a dump ends with NLMSG_DONE and never gets one. */
	if (!(req->nlmsg_flags & NLM_F_DUMP)) {
		req->nlmsg_flags |= NLM_F_ACK;
		ret = np_nl_exchange(g, req, feed_run, &r);
	} else {
		ret = np_nl_dump(g, req, feed_run, restart_run, &r);
	}
	if (ret < 0)
		np_dbg("genl: family %u cmd %u: %s%s%s", family, cmd, strerror(-ret),
		       g->errmsg[0] ? ": " : "", g->errmsg);
	return ret;
}

int np_genl_call(struct np_nl *g, struct nlmsghdr *req, np_nl_cb cb, void *data)
{
	return np_genl_dump(g, req, cb, NULL, data);
}

int np_genl_attrs(const struct nlmsghdr *nlh, const struct nlattr **tb, unsigned maxtype)
{
	if (nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN) {
		memset(tb, 0, (maxtype + 1) * sizeof(*tb));
		return -EBADMSG;
	}
	return np_nl_attrs((const char *)nlh + NLMSG_HDRLEN + GENL_HDRLEN,
			   nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN, tb, maxtype);
}

bool np_genl_has_op(const struct np_genl_family *fam, uint32_t cmd)
{
	for (size_t i = 0; i < fam->nops; i++)
		if (fam->ops[i] == cmd)
			return true;
	return false;
}

/*
 * The last CTRL_ATTR_OP_ID of one op nest and whether the nest is well formed, exactly as
 * np_nest_attrs(nest, tb, CTRL_ATTR_OP_ID) would leave tb[CTRL_ATTR_OP_ID] and its result (an
 * attribute before a malformed one still counts). A walk of its own: a family has dozens of
 * ops, and a cleared table plus library calls per op were most of resolving one.
 */
static int op_id(const struct nlattr *nest, const struct nlattr **id)
{
	const char *p = (const char *)nest + NLA_HDRLEN;
	size_t len = nest->nla_len - NLA_HDRLEN;

	*id = NULL;
	while (len >= sizeof(struct nlattr)) {
		const struct nlattr *a = (const struct nlattr *)p;
		size_t step;

		if (a->nla_len < sizeof(struct nlattr) || a->nla_len > len)
			return -EBADMSG;
		if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_OP_ID)
			*id = a;
		step = NLA_ALIGN(a->nla_len);
		if (step >= len)
			return 0;
		p += step;
		len -= step;
	}
	return len ? -EBADMSG : 0;
}

int np_genl_parse_family(const struct nlmsghdr *nlh, struct np_genl_family *fam)
{
	const struct nlattr *tb[CTRL_ATTR_OPS + 1], *id;
	int err = np_genl_attrs(nlh, tb, CTRL_ATTR_OPS);
	const char *ops;
	size_t len, off;

	memset(fam, 0, sizeof(*fam));
	if (!tb[CTRL_ATTR_FAMILY_ID] || mnl_attr_get_payload_len(tb[CTRL_ATTR_FAMILY_ID]) != 2)
		return -EBADMSG;
	fam->id = mnl_attr_get_u16(tb[CTRL_ATTR_FAMILY_ID]);
	if (tb[CTRL_ATTR_VERSION])
		np_attr_u32(tb[CTRL_ATTR_VERSION], &fam->version);
	if (tb[CTRL_ATTR_MAXATTR])
		np_attr_u32(tb[CTRL_ATTR_MAXATTR], &fam->maxattr);
	if (!tb[CTRL_ATTR_OPS])
		return err;
	/* mnl_attr_for_each_nested() by offset: the ops while each fits what is left. */
	ops = (const char *)tb[CTRL_ATTR_OPS] + NLA_HDRLEN;
	len = tb[CTRL_ATTR_OPS]->nla_len - NLA_HDRLEN;
	for (off = 0; len - off >= sizeof(struct nlattr);) {
		const struct nlattr *a = (const struct nlattr *)(ops + off);

		if (a->nla_len < sizeof(struct nlattr) || a->nla_len > len - off)
			break;
		if (op_id(a, &id) < 0)
			err = -EBADMSG;
		if (id && fam->nops < NP_GENL_MAX_OPS && id->nla_len == NLA_HDRLEN + sizeof(uint32_t))
			memcpy(&fam->ops[fam->nops++], (const char *)id + NLA_HDRLEN, sizeof(uint32_t));
		off += NLA_ALIGN(a->nla_len);
		if (off > len)
			break;
	}
	return err;
}

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	int err = np_genl_parse_family(nlh, data);

	return err < 0 && !((struct np_genl_family *)data)->id ? err : MNL_CB_OK;
}

int np_genl_family(struct np_nl *g, const char *name, struct np_genl_family *fam)
{
	struct nlmsghdr *nlh = np_genl_msg(g, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1, 0);
	int err;

	memset(fam, 0, sizeof(*fam));
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, name);
	err = np_genl_call(g, nlh, family_cb, fam);
	if (!err && !fam->id)
		err = -ENOENT;
	return err;
}
