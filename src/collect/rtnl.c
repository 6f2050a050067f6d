// SPDX-License-Identifier: GPL-2.0-only
/* rtnetlink collector (libnl-route-3 socket and messages): link stats64/MTU/XDP and qdiscs. */
#include "clock.h"
#include "collect.h"
#include "ktape.h"
#include "log.h"
#include "rtnl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <linux/rtnetlink.h>
#include <netlink/attr.h>
#include <netlink/errno.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

#define RTNL_TIMEOUT_S	2		/* per recv(): a kernel that does not answer is a finding */
#define RTNL_DEADLINE_S	5.0		/* per request, however many recv() a dump takes */
/* Dump skbs are capped at 32 KiB (netlink max_recvmsg_len); twice that leaves room. */
#define RTNL_BUF	(64 * 1024)
#define RTNL_TRIES	2		/* a dump interrupted by a change is retried once */

struct rtnl_conn {
	struct nl_sock *sk;	/* NULL when a capture's tape answers */
	int fd;
	unsigned char *buf;
	struct np_ktape *tape;	/* ctx->tape: record to it, or replay from it */
	struct np_ktape_play play;
	uint32_t seq;		/* replay: the sequence numbers a socket would have given */
};

static bool replaying(const struct rtnl_conn *c)
{
	return c->tape && !c->tape->recording;
}

static bool recording(const struct rtnl_conn *c)
{
	return c->tape && c->tape->recording;
}

/* libnl speaks NLE_* codes; the snapshot speaks errno. */
static int nle_errno(int nle)
{
	switch (nle < 0 ? -nle : nle) {
	case NLE_NOMEM: return -ENOMEM;
	case NLE_PERM:
	case NLE_NOACCESS: return -EACCES;
	case NLE_AF_NOSUPPORT:
	case NLE_OPNOTSUPP: return -EOPNOTSUPP;
	case NLE_AGAIN: return -ETIMEDOUT;
	case NLE_NODEV: return -ENODEV;
	default: return -EIO;
	}
}

static void conn_close(struct rtnl_conn *c)
{
	struct np_ktape *tape = c->tape;

	if (c->sk)
		nl_socket_free(c->sk);	/* closes the fd */
	free(c->buf);
	memset(c, 0, sizeof(*c));
	c->tape = tape;		/* a reopened connection records or replays the same */
}

static int conn_open(struct rtnl_conn *c)
{
	struct timeval tv = { .tv_sec = RTNL_TIMEOUT_S };
	int one = 1, err;

	c->buf = malloc(RTNL_BUF);
	if (replaying(c))
		return c->buf ? 0 : -ENOMEM;
	c->sk = nl_socket_alloc();
	if (!c->buf || !c->sk)
		return -ENOMEM;
	/* Replies end with their own last message or NLMSG_DONE; an extra ACK is only noise. */
	nl_socket_disable_auto_ack(c->sk);
	err = nl_connect(c->sk, NETLINK_ROUTE);
	if (err < 0)
		return nle_errno(err);
	c->fd = nl_socket_get_fd(c->sk);
	if (setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0)
		return -errno;
	/* Both are best effort: older kernels lack them and still answer. */
	if (setsockopt(c->fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one)) < 0)
		np_dbg("rtnl: no NETLINK_EXT_ACK: %s", strerror(errno));
	if (setsockopt(c->fd, SOL_NETLINK, NETLINK_GET_STRICT_CHK, &one, sizeof(one)) < 0)
		np_dbg("rtnl: no NETLINK_GET_STRICT_CHK: %s", strerror(errno));
	return 0;
}

static int conn_send(struct rtnl_conn *c, struct nl_msg *msg, struct np_rtnl_stream *st)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	int n;

	if (replaying(c)) {
		st->seq = ++c->seq;
		st->portid = 0;
		/* -ENODATA: the capture did not ask this. */
		return np_ktape_find(c->tape, NP_KT_RTNL, nlh, nlh->nlmsg_len, &c->play) < 0 ?
		       -ENODATA : 0;
	}
	n = nl_send_auto(c->sk, msg);
	if (n < 0)
		return nle_errno(n);
	st->seq = nlh->nlmsg_seq;
	st->portid = nl_socket_get_local_port(c->sk);
	if (recording(c))
		np_ktape_begin(c->tape, NP_KT_RTNL, nlh, nlh->nlmsg_len);
	return 0;
}

/* One reply chunk from the kernel (or the tape): its length, or -errno. */
static ssize_t conn_recv_one(struct rtnl_conn *c, const struct np_rtnl_stream *st,
			     bool *foreign)
{
	struct sockaddr_nl from;
	socklen_t flen = sizeof(from);
	ssize_t n;

	*foreign = false;
	if (replaying(c))
		return np_ktape_next(&c->play, c->buf, RTNL_BUF, st->seq);
	/* MSG_TRUNC: netlink returns the real length, so a cut reply is detected. */
	do
		n = recvfrom(c->fd, c->buf, RTNL_BUF, MSG_TRUNC, (struct sockaddr *)&from, &flen);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		/* ENOBUFS: the socket overran and messages were lost */
		return errno == EAGAIN || errno == EWOULDBLOCK ? -ETIMEDOUT : -errno;
	if (n == 0)
		return -EPIPE;
	if ((size_t)n > RTNL_BUF)
		return -EMSGSIZE;
	*foreign = from.nl_pid != 0;	/* not from the kernel */
	if (!*foreign && recording(c))
		np_ktape_chunk(c->tape, c->buf, (size_t)n);
	return n;
}

/* Read until the reply is complete; every recv() is bounded by SO_RCVTIMEO, the whole reply
 * by RTNL_DEADLINE_S. */
static int conn_recv(struct rtnl_conn *c, struct np_rtnl_stream *st, struct np_rtnl *r)
{
	double deadline = np_mono_now() + RTNL_DEADLINE_S;

	int err = 0;

	while (!st->done) {
		bool foreign;
		ssize_t n;

		if (np_mono_now() > deadline) {
			err = -ETIMEDOUT;
			break;
		}
		n = conn_recv_one(c, st, &foreign);
		if (n < 0) {
			err = (int)n;
			break;
		}
		if (foreign) {
			st->foreign++;
			continue;
		}
		err = np_rtnl_parse_stream(c->buf, (size_t)n, st, r);
		if (err < 0)
			break;
	}
	if (recording(c))
		np_ktape_end(c->tape, err < 0 && err != -EBADMSG ? err : 0);
	if (st->foreign)
		np_dbg("rtnl: skipped %u messages for other requests", st->foreign);
	return err;
}

static int get_link(struct rtnl_conn *c, const char *ifname, struct np_rtnl *r,
		    struct np_rtnl_stream *st)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct nl_msg *msg = nlmsg_alloc_simple(RTM_GETLINK, NLM_F_REQUEST);
	int err = -ENOMEM;

	if (!msg)
		return -ENOMEM;
	if (nlmsg_append(msg, &ifi, sizeof(ifi), NLMSG_ALIGNTO) == 0 &&
	    nla_put_string(msg, IFLA_IFNAME, ifname) == 0)
		err = conn_send(c, msg, st);
	nlmsg_free(msg);
	if (!err)
		err = conn_recv(c, st, r);
	if (!err && !st->got_link)
		err = -ENODATA;
	return err;
}

/* The kernel dumps the qdiscs of every interface whatever tcm_ifindex says (6.18 too): the
 * parser keeps those of ifindex. */
static int dump_qdiscs(struct rtnl_conn *c, int ifindex, struct np_rtnl *r,
		       struct np_rtnl_stream *st)
{
	struct tcmsg tcm = { .tcm_family = AF_UNSPEC, .tcm_ifindex = ifindex };
	struct nl_msg *msg = nlmsg_alloc_simple(RTM_GETQDISC, NLM_F_REQUEST | NLM_F_DUMP);
	int err = -ENOMEM;

	if (!msg)
		return -ENOMEM;
	/* No TCA_DUMP_INVISIBLE: the hidden ones are default inner qdiscs (tbf's bfifo) whose
	 * drops their visible parent already counts; the list is what `tc qdisc show` lists. */
	if (nlmsg_append(msg, &tcm, sizeof(tcm), NLMSG_ALIGNTO) == 0)
		err = conn_send(c, msg, st);
	nlmsg_free(msg);
	if (!err)
		err = conn_recv(c, st, r);
	return err;
}

/* The detail a reader sees for a failed request: the kernel's own words when it gave some. */
static void set_failed(struct np_snapshot *s, enum np_source id, int err,
		       const struct np_rtnl_stream *st, const char *what)
{
	char d[sizeof(s->src[0].detail)];

	if (st && st->msg[0])
		snprintf(d, sizeof(d), "%s: kernel says: %s", what, st->msg);
	else if (err == -ENODEV)
		snprintf(d, sizeof(d), "interface %s does not exist (any more)", s->ifname);
	else if (err == -ETIMEDOUT)
		snprintf(d, sizeof(d), "%s: no reply from the kernel within %d s", what,
			 RTNL_TIMEOUT_S);
	else if (err == -ENOBUFS)
		snprintf(d, sizeof(d), "%s: netlink socket overrun, messages lost", what);
	else if (err == -EMSGSIZE)
		snprintf(d, sizeof(d), "%s: reply larger than %d bytes", what, RTNL_BUF);
	else if (err == -EBADMSG)
		snprintf(d, sizeof(d), "%s: truncated or malformed reply", what);
	else
		snprintf(d, sizeof(d), "%s: %s", what, strerror(-err));
	np_src_set(s, id, err, d);
}

static void collect_link(struct rtnl_conn *c, struct np_snapshot *s, int *ifindex)
{
	struct np_rtnl_stream st = { 0 };
	int err = get_link(c, s->ifname, &s->rtnl, &st);
	char d[sizeof(s->src[0].detail)];

	*ifindex = st.got_link ? st.ifindex : 0;
	if (err < 0 && !(err == -EBADMSG && st.got_link)) {
		set_failed(s, NP_SRC_RTNL_LINK, err, &st, "RTM_GETLINK");
		return;
	}
	if (err < 0 || st.bad) {
		snprintf(d, sizeof(d), "RTM_NEWLINK partly malformed (IFLA_STATS64 %zu bytes)",
			 s->rtnl.stats64_len);
		np_src_set(s, NP_SRC_RTNL_LINK, -EBADMSG, d);
	} else if (!s->rtnl.has_stats64) {
		np_src_set(s, NP_SRC_RTNL_LINK, -EBADMSG, "no IFLA_STATS64 in the reply");
	} else {
		np_src_set(s, NP_SRC_RTNL_LINK, 0, NULL);
	}
}

static void collect_qdiscs(struct rtnl_conn *c, struct np_snapshot *s, int ifindex)
{
	struct np_rtnl_stream st = { .ifindex = ifindex };
	char d[sizeof(s->src[0].detail)];
	int err = 0;

	for (int i = 0; i < RTNL_TRIES; i++) {
		st = (struct np_rtnl_stream){ .ifindex = ifindex };
		free(s->rtnl.qdiscs);
		s->rtnl.qdiscs = NULL;
		s->rtnl.nqdisc = 0;
		err = dump_qdiscs(c, ifindex, &s->rtnl, &st);
		if ((err != -ENOBUFS && !(err == 0 && st.intr)) || i + 1 == RTNL_TRIES)
			break;
		np_dbg("rtnl: qdisc dump %s, retrying", err ? "overran" : "interrupted");
		/* A fresh socket: the old one may still hold the rest of the broken dump, and
		 * the kernel refuses a new dump (EBUSY) while one is running on a socket. */
		conn_close(c);
		err = conn_open(c);
		if (err < 0)
			break;
	}
	if (err == -E2BIG) {
		snprintf(d, sizeof(d), "more than %d qdiscs: the first %d kept",
			 NP_RTNL_MAX_QDISCS, NP_RTNL_MAX_QDISCS);
		np_src_set(s, NP_SRC_RTNL_QDISC, -EBADMSG, d);
	} else if (err < 0) {
		set_failed(s, NP_SRC_RTNL_QDISC, err, &st, "RTM_GETQDISC");
	} else if (st.intr) {
		np_src_set(s, NP_SRC_RTNL_QDISC, -EBADMSG, "qdiscs changed during the dump");
	} else if (st.bad) {
		snprintf(d, sizeof(d), "%u malformed qdisc messages (kept what parsed)", st.bad);
		np_src_set(s, NP_SRC_RTNL_QDISC, -EBADMSG, d);
	} else {
		np_src_set(s, NP_SRC_RTNL_QDISC, 0, NULL);
	}
}

void np_collect_rtnl(const struct np_ctx *ctx, struct np_snapshot *s)
{
	struct rtnl_conn c = { .tape = ctx ? ctx->tape : NULL };
	int err, ifindex = 0;

	np_rtnl_free(&s->rtnl);
	err = conn_open(&c);
	if (err < 0) {
		set_failed(s, NP_SRC_RTNL_LINK, err, NULL, "rtnetlink socket");
		set_failed(s, NP_SRC_RTNL_QDISC, err, NULL, "rtnetlink socket");
		conn_close(&c);
		return;
	}
	collect_link(&c, s, &ifindex);
	/* Without the link reply the sysfs ifindex still lets the qdisc dump be filtered. */
	if (!ifindex && s->src[NP_SRC_RTNL_LINK].err != ENODEV && np_has(s->dev.ifindex))
		ifindex = (int)s->dev.ifindex;
	if (ifindex)
		collect_qdiscs(&c, s, ifindex);
	else if (s->src[NP_SRC_RTNL_LINK].err == ENODEV)
		set_failed(s, NP_SRC_RTNL_QDISC, -ENODEV, NULL, "RTM_GETQDISC");
	else
		np_src_set(s, NP_SRC_RTNL_QDISC, s->src[NP_SRC_RTNL_LINK].err ?
			   -s->src[NP_SRC_RTNL_LINK].err : -ENODATA,
			   "not asked: RTM_GETLINK gave no interface index");
	conn_close(&c);
}
