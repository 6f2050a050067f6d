// SPDX-License-Identifier: GPL-2.0-only
/* rtnetlink collector on the netlink transport: link stats64/MTU/XDP and qdiscs. */
#include "collect.h"
#include "log.h"
#include "nl_transport.h"
#include "rtnl.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/if_link.h>
#include <linux/net_namespace.h>
#include <linux/rtnetlink.h>

#define RTNL_TIMEOUT_S	2		/* per recv(): a kernel that does not answer is a finding */
/* Dump skbs are capped at 32 KiB (netlink max_recvmsg_len); twice that leaves room. */
#define RTNL_BUF	(64 * 1024)
#define RTNL_TRIES	2		/* a dump interrupted by a change is retried once */

static const struct np_nl_bus rtnl_bus = {
	.name = "rtnl",
	.protocol = NETLINK_ROUTE,
	.tape_bus = NP_KT_RTNL,
	.bufsize = RTNL_BUF,
	.timeout_ms = RTNL_TIMEOUT_S * 1000,
	.deadline_s = 5.0,		/* per request, however many recv() a dump takes */
};

/* One request's reply, walked buffer by buffer into r. */
struct reply {
	struct np_rtnl_stream *st;
	struct np_rtnl *r;
};

static int feed(void *arg, const void *buf, size_t len)
{
	struct reply *q = arg;
	int err = np_rtnl_parse_stream(buf, len, q->st, q->r);

	return err < 0 ? err : !q->st->done;
}

/* Send the request built in c and read its reply until it is complete. Replies end with their
 * own last message or NLMSG_DONE: no NLM_F_ACK, an extra ACK would only be noise. */
static int exchange(struct np_nl *c, struct nlmsghdr *nlh, struct np_rtnl_stream *st,
		    struct np_rtnl *r)
{
	struct reply q = { st, r };
	int err;

	st->seq = nlh->nlmsg_seq;
	st->portid = np_nl_portid(c);
	err = np_nl_exchange(c, nlh, feed, &q);
	if (st->foreign)
		np_dbg("rtnl: skipped %u messages for other requests", st->foreign);
	return err;
}

static int get_link(struct np_nl *c, const char *ifname, struct np_rtnl *r,
		    struct np_rtnl_stream *st)
{
	struct nlmsghdr *nlh = np_nl_request(c, RTM_GETLINK, 0);
	struct ifinfomsg *ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	int err;

	ifi->ifi_family = AF_UNSPEC;
	mnl_attr_put_strz(nlh, IFLA_IFNAME, ifname);
	err = exchange(c, nlh, st, r);
	if (!err && !st->got_link)
		err = -ENODATA;
	return err;
}

/* The kernel dumps the qdiscs of every interface whatever tcm_ifindex says (6.18 too): the
 * parser keeps those of ifindex. */
static int dump_qdiscs(struct np_nl *c, int ifindex, struct np_rtnl *r,
		       struct np_rtnl_stream *st)
{
	struct nlmsghdr *nlh = np_nl_request(c, RTM_GETQDISC, NLM_F_DUMP);
	struct tcmsg *tcm = mnl_nlmsg_put_extra_header(nlh, sizeof(*tcm));

	/* No TCA_DUMP_INVISIBLE: the hidden ones are default inner qdiscs (tbf's bfifo) whose
	 * drops their visible parent already counts; the list is what `tc qdisc show` lists. */
	tcm->tcm_family = AF_UNSPEC;
	tcm->tcm_ifindex = ifindex;
	return exchange(c, nlh, st, r);
}

/* The detail a reader sees for a failed request: the kernel's own words when it gave some. */
static void set_failed(struct np_snapshot *s, enum np_source id, int err,
		       const struct np_rtnl_stream *st, const char *what)
{
	char d[sizeof(np_srcp(s, 0)->detail)];

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

static void collect_link(struct np_nl *c, struct np_snapshot *s, int *ifindex)
{
	struct np_rtnl_stream st = { 0 };
	int err = get_link(c, s->ifname, &s->rtnl, &st);
	char d[sizeof(np_srcp(s, 0)->detail)];

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

/*
 * A veth's peer by its ifindex, asked in the peer's own namespace: IFLA_LINK_NETNSID numbers it
 * relative to ours, and RTM_GETLINK with IFLA_TARGET_NETNSID (4.20) resolves that number there.
 * Looking the ifindex up in any other namespace names whatever device has that number there.
 * Failure leaves the peer unnamed; the stack then says only its ifindex and nsid.
 */
static void collect_peer(struct np_nl *c, struct np_snapshot *s)
{
	struct np_rtnl_stream st = { 0 };
	struct np_rtnl *me = &s->rtnl;
	struct nlmsghdr *nlh;
	struct ifinfomsg *ifi;
	struct np_rtnl p;

	if (strcmp(me->kind, "veth") || me->link <= 0 ||
	    (me->link_other_netns && me->link_netnsid < 0))
		return;
	np_rtnl_init(&p);
	nlh = np_nl_request(c, RTM_GETLINK, 0);
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = me->link;
	if (me->link_other_netns)
		mnl_attr_put_u32(nlh, IFLA_TARGET_NETNSID, (uint32_t)me->link_netnsid);
	if (exchange(c, nlh, &st, &p) == 0 && st.got_link && st.ifindex == me->link &&
	    p.ifname[0]) {
		memcpy(me->peer_name, p.ifname, sizeof(me->peer_name));
		me->peer_mtu = p.mtu;
		me->peer_rx_dropped = p.stats64.rx_dropped;
	} else {
		np_dbg("rtnl: veth peer ifindex %d (nsid %d) not found: %s", me->link,
		       me->link_netnsid, st.msg[0] ? st.msg : "no reply");
	}
	np_rtnl_free(&p);
}

static void collect_qdiscs(struct np_nl *c, struct np_snapshot *s, int ifindex)
{
	struct np_rtnl_stream st = { .ifindex = ifindex };
	char d[sizeof(np_srcp(s, 0)->detail)];
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
		err = np_nl_reopen(c);
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
	struct np_nl c;
	int err, ifindex = 0;

	np_rtnl_free(&s->rtnl);
	err = np_nl_open(&c, &rtnl_bus, ctx ? ctx->tape : NULL);
	if (err < 0) {
		set_failed(s, NP_SRC_RTNL_LINK, err, NULL, "rtnetlink socket");
		set_failed(s, NP_SRC_RTNL_QDISC, err, NULL, "rtnetlink socket");
		return;
	}
	collect_link(&c, s, &ifindex);
	collect_peer(&c, s);
	/* Without the link reply the sysfs ifindex still lets the qdisc dump be filtered. */
	if (!ifindex && np_srcp(s, NP_SRC_RTNL_LINK)->err != ENODEV && np_has(s->dev.ifindex))
		ifindex = (int)s->dev.ifindex;
	if (ifindex)
		collect_qdiscs(&c, s, ifindex);
	else if (np_srcp(s, NP_SRC_RTNL_LINK)->err == ENODEV)
		set_failed(s, NP_SRC_RTNL_QDISC, -ENODEV, NULL, "RTM_GETQDISC");
	else
		np_src_set(s, NP_SRC_RTNL_QDISC, np_srcp(s, NP_SRC_RTNL_LINK)->err ?
			   -np_srcp(s, NP_SRC_RTNL_LINK)->err : -ENODATA,
			   "not asked: RTM_GETLINK gave no interface index");
	np_nl_close(&c);
}

/* The nsid ours gives the namespace open at fd: >= 0, -1 when it has none, or -errno. */
static int nsid_of(struct np_nl *c, int fd)
{
	struct np_rtnl_stream st = { 0 };
	struct nlmsghdr *nlh = np_nl_request(c, RTM_GETNSID, 0);
	struct rtgenmsg *g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	struct np_rtnl r;
	int err;

	g->rtgen_family = AF_UNSPEC;
	mnl_attr_put_u32(nlh, NETNSA_FD, (uint32_t)fd);
	np_rtnl_init(&r);
	err = exchange(c, nlh, &st, &r);
	np_rtnl_free(&r);
	if (err < 0)
		return err;
	return st.got_nsid ? st.nsid : -ENODATA;
}

int np_collect_netns_of_nsid(const struct np_ctx *ctx, int nsid, int start_fd, char *name,
			     size_t size)
{
	struct np_nl c;
	struct dirent *de;
	int found = -1;
	DIR *d;

	name[0] = '\0';
	if (nsid < 0 || np_nl_open(&c, &rtnl_bus, NULL) < 0)
		return -1;
	if (start_fd >= 0 && nsid_of(&c, start_fd) == nsid)
		found = 1;
	/* `ip netns add` names live in /run/netns: a bind mount of each namespace. */
	if (found < 0 && np_opendir(ctx, NP_RUN, "netns", &d) == 0) {
		while (found < 0 && (de = readdir(d))) {
			int fd;

			if (de->d_name[0] == '.')
				continue;
			fd = openat(dirfd(d), de->d_name, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
			if (fd < 0)
				continue;
			if (nsid_of(&c, fd) == nsid) {
				snprintf(name, size, "%s", de->d_name);
				found = 0;
			}
			close(fd);
		}
		closedir(d);
	}
	np_nl_close(&c);
	return found;
}
