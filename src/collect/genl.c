// SPDX-License-Identifier: GPL-2.0-only
/* Generic netlink over libmnl: one bounded request/reply exchange at a time, extack kept. */
#include "ctx.h"
#include "genl.h"
#include "log.h"
#include "nl_socket.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <linux/netlink.h>

/* Requests are a header and a few attributes. */
#define REQ_SIZE 1024

static int genl_alloc(struct np_genl *g)
{
	memset(g, 0, sizeof(*g));
	g->buf = malloc(NP_GENL_BUFSIZE + REQ_SIZE);
	if (!g->buf)
		return -ENOMEM;
	/* Start somewhere arbitrary so a previous process's stale replies cannot match. */
	g->seq = (uint32_t)time(NULL);
	return 0;
}

int np_genl_open(struct np_genl *g)
{
	int err = genl_alloc(g);

	if (err)
		return err;
	g->nl = np_nl_socket_open(NETLINK_GENERIC, NP_GENL_TIMEOUT_MS, "genl", &err);
	if (!g->nl) {
		np_genl_close(g);
		return err;
	}
	return 0;
}

int np_genl_open_ctx(struct np_genl *g, const struct np_ctx *ctx)
{
	int err;

	/* NULL: the live kernel, no tape (trace's XDP policy reads LRO/GRO this way, as the
	 * ethtool ioctl side already allows). */
	if (!ctx)
		return np_genl_open(g);
	if (ctx->tape && !ctx->tape->recording) {
		err = genl_alloc(g);
		g->tape = err ? NULL : ctx->tape;
		return err;
	}
	err = np_genl_open(g);
	if (!err)
		g->tape = ctx->tape;
	return err;
}

int np_genl_open_replay(struct np_genl *g, np_genl_replay_fn fn, void *arg)
{
	int err = genl_alloc(g);

	if (err)
		return err;
	g->replay = fn;
	g->replay_arg = arg;
	return 0;
}

void np_genl_close(struct np_genl *g)
{
	if (g->nl)
		mnl_socket_close(g->nl);
	free(g->buf);
	memset(g, 0, sizeof(*g));
}

struct nlmsghdr *np_genl_msg(struct np_genl *g, uint16_t family, uint8_t cmd, uint8_t version,
			     uint16_t flags)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *gh;

	/* libmnl (1.0.4) leaves attribute padding as it was: zero it, so no stale heap bytes go
	 * to the kernel (valgrind: sendto points to uninitialised bytes). */
	memset(g->buf + NP_GENL_BUFSIZE, 0, REQ_SIZE);
	nlh = mnl_nlmsg_put_header(g->buf + NP_GENL_BUFSIZE);
	nlh->nlmsg_type = family;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++g->seq;
	gh = mnl_nlmsg_put_extra_header(nlh, sizeof(*gh));
	gh->cmd = cmd;
	gh->version = version;
	return nlh;
}

int np_nl_attrs(const void *payload, size_t len, const struct nlattr **tb, unsigned maxtype)
{
	const char *p = payload;

	memset(tb, 0, (maxtype + 1) * sizeof(*tb));
	while (len >= sizeof(struct nlattr)) {
		const struct nlattr *a = (const struct nlattr *)p;
		unsigned type = a->nla_type & NLA_TYPE_MASK;
		size_t step;

		if (a->nla_len < sizeof(struct nlattr) || a->nla_len > len)
			return -EBADMSG;
		if (type <= maxtype)
			tb[type] = a;
		step = NLA_ALIGN(a->nla_len);
		if (step >= len)
			return 0;
		p += step;
		len -= step;
	}
	return len ? -EBADMSG : 0;
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

int np_nest_attrs(const struct nlattr *nest, const struct nlattr **tb, unsigned maxtype)
{
	return np_nl_attrs(mnl_attr_get_payload(nest), mnl_attr_get_payload_len(nest), tb, maxtype);
}

int np_nest_check(const struct nlattr *nest)
{
	const struct nlattr *tb[1];

	return np_nest_attrs(nest, tb, 0);
}

const char *np_attr_str(const struct nlattr *a)
{
	const char *p = mnl_attr_get_payload(a);
	size_t n = mnl_attr_get_payload_len(a);

	return n && strnlen(p, n) < n ? p : NULL;
}

int np_attr_u8(const struct nlattr *a, uint8_t *v)
{
	if (mnl_attr_get_payload_len(a) != sizeof(*v))
		return -EBADMSG;
	*v = *(const uint8_t *)mnl_attr_get_payload(a);
	return 0;
}

int np_attr_u32(const struct nlattr *a, uint32_t *v)
{
	if (mnl_attr_get_payload_len(a) != sizeof(*v))
		return -EBADMSG;
	memcpy(v, mnl_attr_get_payload(a), sizeof(*v));
	return 0;
}

int np_attr_u64(const struct nlattr *a, uint64_t *v)
{
	/* memcpy: 64-bit attributes are only 4-byte aligned in the message. */
	if (mnl_attr_get_payload_len(a) != sizeof(*v))
		return -EBADMSG;
	memcpy(v, mnl_attr_get_payload(a), sizeof(*v));
	return 0;
}

int np_attr_uint(const struct nlattr *a, uint64_t *v)
{
	const void *p = mnl_attr_get_payload(a);
	uint32_t u32;
	uint16_t u16;

	switch (mnl_attr_get_payload_len(a)) {
	case 1: *v = *(const uint8_t *)p; return 0;
	case 2: memcpy(&u16, p, 2); *v = u16; return 0;
	case 4: memcpy(&u32, p, 4); *v = u32; return 0;
	case 8: memcpy(v, p, 8); return 0;
	}
	return -EBADMSG;
}

/* Copy NLMSGERR_ATTR_MSG from the TLVs that follow an error or a DONE payload. */
static void extack_msg(const char *tlv, size_t len, char *errmsg, size_t errlen)
{
	const struct nlattr *tb[NLMSGERR_ATTR_MSG + 1];
	size_t n;

	np_nl_attrs(tlv, len, tb, NLMSGERR_ATTR_MSG);	/* a damaged tail keeps what parsed */
	if (!tb[NLMSGERR_ATTR_MSG] || !errmsg || !errlen)
		return;
	n = mnl_attr_get_payload_len(tb[NLMSGERR_ATTR_MSG]);
	n = strnlen(mnl_attr_get_payload(tb[NLMSGERR_ATTR_MSG]), n);
	if (n >= errlen)
		n = errlen - 1;
	memcpy(errmsg, mnl_attr_get_payload(tb[NLMSGERR_ATTR_MSG]), n);
	errmsg[n] = '\0';
}

/* The kernel's errors are -1..-4095 (MAX_ERRNO); anything else (INT_MIN cannot even be
 * negated) is a damaged message, not an errno to hand to strerror(). */
static int kernel_errno(int e)
{
	if (e < 0)
		return e >= -4095 ? e : -EPROTO;
	return e <= 4095 ? -e : -EPROTO;
}

static int run_error(const struct nlmsghdr *nlh, char *errmsg, size_t errlen)
{
	const char *pl = mnl_nlmsg_get_payload(nlh);
	size_t plen = nlh->nlmsg_len - NLMSG_HDRLEN, off;
	struct nlmsgerr e;

	if (plen < sizeof(int))
		return -EBADMSG;
	memset(&e, 0, sizeof(e));
	memcpy(&e, pl, plen < sizeof(e) ? plen : sizeof(e));
	if (e.error == 0)
		return 0;	/* an ACK; a warning in its extack is not our business */
	if ((nlh->nlmsg_flags & NLM_F_ACK_TLVS) && plen >= sizeof(e)) {
		/* Without NETLINK_CAP_ACK the kernel echoes our whole request first. */
		off = sizeof(e);
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED) && e.msg.nlmsg_len > NLMSG_HDRLEN)
			off += e.msg.nlmsg_len - NLMSG_HDRLEN;
		off = NLMSG_ALIGN(off);
		if (off < plen)
			extack_msg(pl + off, plen - off, errmsg, errlen);
	}
	return kernel_errno(e.error);
}

static int run_done(const struct nlmsghdr *nlh, char *errmsg, size_t errlen)
{
	const char *pl = mnl_nlmsg_get_payload(nlh);
	size_t plen = nlh->nlmsg_len - NLMSG_HDRLEN;
	int err;

	if (plen < sizeof(int))
		return 0;	/* pre-4.x kernels sent an empty DONE */
	memcpy(&err, pl, sizeof(err));
	if (err && (nlh->nlmsg_flags & NLM_F_ACK_TLVS) && plen > NLMSG_ALIGN(sizeof(int)))
		extack_msg(pl + NLMSG_ALIGN(sizeof(int)), plen - NLMSG_ALIGN(sizeof(int)), errmsg,
			   errlen);
	return kernel_errno(err);
}

int np_genl_run(const void *buf, size_t len, uint32_t seq, np_genl_cb cb, void *data,
		char *errmsg, size_t errlen)
{
	const char *p = buf;

	while (len >= sizeof(struct nlmsghdr)) {
		const struct nlmsghdr *nlh = (const struct nlmsghdr *)p;
		size_t step;
		int ret;

		if (nlh->nlmsg_len < NLMSG_HDRLEN || nlh->nlmsg_len > len)
			return -EBADMSG;	/* truncated: the rest cannot be framed */
		if (nlh->nlmsg_seq != seq)
			goto next;	/* a late reply to an earlier request */
		switch (nlh->nlmsg_type) {
		case NLMSG_NOOP:
			break;
		case NLMSG_ERROR:
			return run_error(nlh, errmsg, errlen);
		case NLMSG_DONE:
			return run_done(nlh, errmsg, errlen);
		case NLMSG_OVERRUN:
			return -ENOBUFS;
		default:
			if (nlh->nlmsg_type < NLMSG_MIN_TYPE)
				break;
			ret = cb ? cb(nlh, data) : MNL_CB_OK;
			if (ret < 0)
				return ret;
			if (ret == MNL_CB_STOP)
				return 0;
		}
next:
		step = NLMSG_ALIGN(nlh->nlmsg_len);
		if (step >= len)
			return 1;
		p += step;
		len -= step;
	}
	return len ? -EBADMSG : 1;
}

static ssize_t genl_recv(struct np_genl *g, const struct nlmsghdr *req)
{
	ssize_t n;

	if (g->tape && !g->tape->recording)
		return np_ktape_next(&g->play, g->buf, NP_GENL_BUFSIZE, req->nlmsg_seq);
	if (g->replay) {
		n = g->replay(g->replay_arg, req, g->buf, NP_GENL_BUFSIZE);
		if (n == 0 || n == -EAGAIN)
			return -ETIMEDOUT;
		return n;
	}
	do {
		n = mnl_socket_recvfrom(g->nl, g->buf, NP_GENL_BUFSIZE);
	} while (n < 0 && errno == EINTR);
	if (n >= 0)
		return n;
	switch (errno) {
	case EAGAIN:
#if EWOULDBLOCK != EAGAIN
	case EWOULDBLOCK:
#endif
		return -ETIMEDOUT;
	case ENOSPC:		/* libmnl's word for MSG_TRUNC */
		return -EMSGSIZE;
	default:
		return -errno;
	}
}

int np_genl_call(struct np_genl *g, struct nlmsghdr *req, np_genl_cb cb, void *data)
{
	ssize_t n;
	int ret;

	g->errmsg[0] = '\0';
	/* A doit ends with our ACK; a dump ends with NLMSG_DONE and never gets one. */
	if (!(req->nlmsg_flags & NLM_F_DUMP))
		req->nlmsg_flags |= NLM_F_ACK;
	if (g->tape && !g->tape->recording) {
		if (np_ktape_find(g->tape, NP_KT_GENL, req, req->nlmsg_len, &g->play) < 0)
			return -ENODATA;	/* the capture did not ask this */
	} else if (!g->replay && mnl_socket_sendto(g->nl, req, req->nlmsg_len) < 0) {
		return -errno;
	}
	if (g->tape && g->tape->recording)
		np_ktape_begin(g->tape, NP_KT_GENL, req, req->nlmsg_len);
	do {
		n = genl_recv(g, req);
		if (n < 0) {
			if (g->tape && g->tape->recording)
				np_ktape_end(g->tape, (int)n);
			return (int)n;
		}
		if (g->tape && g->tape->recording)
			np_ktape_chunk(g->tape, g->buf, (size_t)n);
		if (g->tap)
			g->tap(g->tap_arg, req, g->buf, (size_t)n);
		ret = np_genl_run(g->buf, (size_t)n, req->nlmsg_seq, cb, data, g->errmsg,
				  sizeof(g->errmsg));
	} while (ret > 0);
	if (g->tape && g->tape->recording)
		np_ktape_end(g->tape, 0);
	if (ret < 0)
		np_dbg("genl: family %u cmd %u: %s%s%s", req->nlmsg_type,
		       ((const struct genlmsghdr *)mnl_nlmsg_get_payload(req))->cmd,
		       strerror(-ret), g->errmsg[0] ? ": " : "", g->errmsg);
	return ret;
}

bool np_genl_has_op(const struct np_genl_family *fam, uint32_t cmd)
{
	for (size_t i = 0; i < fam->nops; i++)
		if (fam->ops[i] == cmd)
			return true;
	return false;
}

int np_genl_parse_family(const struct nlmsghdr *nlh, struct np_genl_family *fam)
{
	const struct nlattr *tb[CTRL_ATTR_OPS + 1], *op[CTRL_ATTR_OP_ID + 1], *a;
	int err = np_genl_attrs(nlh, tb, CTRL_ATTR_OPS);

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
	mnl_attr_for_each_nested(a, tb[CTRL_ATTR_OPS]) {
		if (np_nest_attrs(a, op, CTRL_ATTR_OP_ID) < 0)
			err = -EBADMSG;
		if (op[CTRL_ATTR_OP_ID] && fam->nops < NP_GENL_MAX_OPS &&
		    np_attr_u32(op[CTRL_ATTR_OP_ID], &fam->ops[fam->nops]) == 0)
			fam->nops++;
	}
	return err;
}

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	int err = np_genl_parse_family(nlh, data);

	return err < 0 && !((struct np_genl_family *)data)->id ? err : MNL_CB_OK;
}

int np_genl_family(struct np_genl *g, const char *name, struct np_genl_family *fam)
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
