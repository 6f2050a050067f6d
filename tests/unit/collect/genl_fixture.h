/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared by the generic netlink tests: recorded reply streams from tests/fixtures/netlink, a
 * builder for hand-made replies (libmnl), and a replay transport that answers the collectors'
 * requests from either.
 */
#ifndef NP_TEST_GENL_FIXTURE_H
#define NP_TEST_GENL_FIXTURE_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ethtool_netlink.h>

#include "genl.h"

/* The family id of hand-built ethtool replies: any id, as long as the CTRL reply agrees. */
#define ETHTOOL_FAM 0x15

/* A stream of netlink messages as recv() returned them, in a malloc'd exact-size buffer. */
struct stream {
	char *buf;
	size_t len;
};

static inline struct stream load_stream(const char *name)
{
	struct stream s = { NULL, 0 };
	char path[1024];
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/netlink/%s", NP_FIXTURES, name);
	f = fopen(path, "rb");
	if (!f)
		return s;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0) {
		s.buf = malloc((size_t)n);
		if (s.buf && fread(s.buf, 1, (size_t)n, f) == (size_t)n)
			s.len = (size_t)n;
	}
	fclose(f);
	return s;
}

static inline void free_stream(struct stream *s)
{
	free(s->buf);
	s->buf = NULL;
	s->len = 0;
}

/* The first message of a stream (the reply proper, before the ACK). */
static inline const struct nlmsghdr *first_msg(const struct stream *s)
{
	return s->len >= sizeof(struct nlmsghdr) ? (const struct nlmsghdr *)s->buf : NULL;
}

/* Hand-built streams: messages appended to one buffer. */
struct builder {
	char buf[16384];
	size_t len;
};

static inline struct nlmsghdr *b_msg(struct builder *b, uint16_t type, uint32_t seq,
				     uint8_t cmd)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(b->buf + b->len);
	struct genlmsghdr *gh;

	nlh->nlmsg_type = type;
	nlh->nlmsg_seq = seq;
	gh = mnl_nlmsg_put_extra_header(nlh, sizeof(*gh));
	gh->cmd = cmd;
	gh->version = 1;
	return nlh;
}

static inline void b_end(struct builder *b, struct nlmsghdr *nlh)
{
	b->len += NLMSG_ALIGN(nlh->nlmsg_len);
}

/* NLMSG_ERROR (error 0 = ACK), capped, with an extack message when msg is not NULL. */
static inline void b_error(struct builder *b, uint32_t seq, int error, const char *msg)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(b->buf + b->len);
	struct nlmsgerr *e;

	nlh->nlmsg_type = NLMSG_ERROR;
	nlh->nlmsg_seq = seq;
	nlh->nlmsg_flags = NLM_F_CAPPED;
	e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));
	e->error = error;
	e->msg.nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN;
	e->msg.nlmsg_seq = seq;
	if (msg) {
		nlh->nlmsg_flags |= NLM_F_ACK_TLVS;
		mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, msg);
	}
	b->len += NLMSG_ALIGN(nlh->nlmsg_len);
}

static inline void b_done(struct builder *b, uint32_t seq, int error)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(b->buf + b->len);
	int *e;

	nlh->nlmsg_type = NLMSG_DONE;
	nlh->nlmsg_seq = seq;
	nlh->nlmsg_flags = NLM_F_MULTI;
	e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));
	*e = error;
	b->len += NLMSG_ALIGN(nlh->nlmsg_len);
}

/* An exact-size heap copy of a built stream, so ASan sees any read past its end. */
static inline struct stream b_stream(const struct builder *b)
{
	struct stream s = { malloc(b->len ? b->len : 1), b->len };

	if (s.buf)
		memcpy(s.buf, b->buf, b->len);
	return s;
}

/*
 * Replay transport: pick answers the request with a stream (NULL: nothing, a timeout). Every
 * message's sequence number is rewritten to the request's, as the kernel would have sent it.
 */
struct replay {
	const struct stream *(*pick)(struct replay *r, const struct nlmsghdr *req);
	void *arg;
	uint32_t served_seq;
	unsigned requests;
};

static inline ssize_t replay_fn(void *arg, const struct nlmsghdr *req, void *buf, size_t size)
{
	struct replay *r = arg;
	const struct stream *s;
	size_t off = 0;

	if (r->served_seq == req->nlmsg_seq)
		return 0;	/* already answered: a timeout if the stream did not end it */
	r->served_seq = req->nlmsg_seq;
	r->requests++;
	s = r->pick(r, req);
	if (!s || !s->len || s->len > size)
		return 0;
	memcpy(buf, s->buf, s->len);
	while (off + sizeof(struct nlmsghdr) <= s->len) {
		struct nlmsghdr *nlh = (struct nlmsghdr *)((char *)buf + off);

		nlh->nlmsg_seq = req->nlmsg_seq;
		if (nlh->nlmsg_len < NLMSG_HDRLEN)
			break;
		off += NLMSG_ALIGN(nlh->nlmsg_len);
	}
	return (ssize_t)s->len;
}

static inline uint8_t req_cmd(const struct nlmsghdr *req)
{
	return ((const struct genlmsghdr *)mnl_nlmsg_get_payload(req))->cmd;
}

/* The family a CTRL_CMD_GETFAMILY request asks for, "" for other requests. */
static inline const char *req_family_name(const struct nlmsghdr *req)
{
	const struct nlattr *a;

	if (req->nlmsg_type != GENL_ID_CTRL)
		return "";
	mnl_attr_for_each(a, req, GENL_HDRLEN)
		if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_NAME)
			return mnl_attr_get_str(a);
	return "";
}

/* A CTRL_CMD_NEWFAMILY reply naming a family with the given ops. */
static inline void b_family(struct builder *b, uint32_t seq, const char *name, uint16_t id,
			    const uint32_t *ops, size_t nops)
{
	struct nlmsghdr *nlh = b_msg(b, GENL_ID_CTRL, seq, CTRL_CMD_NEWFAMILY);
	struct nlattr *all, *op;

	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, name);
	mnl_attr_put_u16(nlh, CTRL_ATTR_FAMILY_ID, id);
	mnl_attr_put_u32(nlh, CTRL_ATTR_VERSION, 1);
	all = mnl_attr_nest_start(nlh, CTRL_ATTR_OPS);
	for (size_t i = 0; i < nops; i++) {
		op = mnl_attr_nest_start(nlh, (uint16_t)(i + 1));
		mnl_attr_put_u32(nlh, CTRL_ATTR_OP_ID, ops[i]);
		mnl_attr_put_u32(nlh, CTRL_ATTR_OP_FLAGS, 0xa);
		mnl_attr_nest_end(nlh, op);
	}
	mnl_attr_nest_end(nlh, all);
	b_end(b, nlh);
	b_error(b, seq, 0, NULL);
}

/* An ethtool reply to "eth9" with its header nest (attribute 1, or 2 for STATS). */
static inline struct nlmsghdr *reply(struct builder *b, uint8_t cmd, uint16_t hdr_attr)
{
	struct nlmsghdr *nlh = b_msg(b, ETHTOOL_FAM, 1, cmd);
	struct nlattr *h = mnl_attr_nest_start(nlh, hdr_attr);

	mnl_attr_put_u32(nlh, ETHTOOL_A_HEADER_DEV_INDEX, 9);
	mnl_attr_put_strz(nlh, ETHTOOL_A_HEADER_DEV_NAME, "eth9");
	mnl_attr_nest_end(nlh, h);
	return nlh;
}

#endif
