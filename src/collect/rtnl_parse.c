// SPDX-License-Identifier: GPL-2.0-only
/* Pure parsers for rtnetlink link and qdisc replies, walking attributes with libnl's nla_*. */
#include "nl_msg.h"
#include "rtnl.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/gen_stats.h>
#include <linux/if_link.h>
#include <linux/net_namespace.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/route/link.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Legacy struct tc_stats and struct gnet_stats_{basic,queue}, by offset: their sizeof differs
 * between 32- and 64-bit ABIs (u64 alignment), the wire layout does not. */
#define TC_STATS_MIN	36	/* bytes u64, packets drops overlimits bps pps qlen backlog u32 */
#define GNET_BASIC_MIN	12	/* bytes u64, packets u32 */
#define GNET_QUEUE_MIN	20	/* qlen backlog drops requeues overlimits u32 */

static bool msg_fits(const struct nlmsghdr *nlh, size_t len, size_t hdrlen)
{
	return len >= NLMSG_HDRLEN && nlh->nlmsg_len >= NLMSG_LENGTH(hdrlen) &&
	       nlh->nlmsg_len <= len;
}

/* nla_parse() silently stops at a malformed attribute; report it so the source says partial. */
static bool parse_attrs(struct nlattr **tb, int max, const void *head, int len)
{
	struct nlattr *pos, *h = (struct nlattr *)head;
	int rem;

	memset(tb, 0, sizeof(*tb) * (size_t)(max + 1));
	if (len < 0 || nla_parse(tb, max, h, len, NULL) < 0)
		return false;
	nla_for_each_attr(pos, h, len, rem)
		;
	return rem == 0;
}

static bool parse_nested(struct nlattr **tb, int max, const struct nlattr *nest)
{
	return parse_attrs(tb, max, nla_data(nest), nla_len(nest));
}

static uint32_t rd32(const void *p, size_t off)
{
	uint32_t v;

	memcpy(&v, (const char *)p + off, sizeof(v));
	return v;
}

static uint64_t rd64(const void *p, size_t off)
{
	uint64_t v;

	memcpy(&v, (const char *)p + off, sizeof(v));
	return v;
}

static bool get_u32(const struct nlattr *a, uint32_t *v)
{
	if (!a || nla_len(a) < (int)sizeof(*v))
		return false;
	*v = rd32(nla_data(a), 0);
	return true;
}

static bool get_u8(const struct nlattr *a, uint8_t *v)
{
	if (!a || nla_len(a) < 1)
		return false;
	*v = *(const uint8_t *)nla_data(a);
	return true;
}

/* A string attribute into buf, stopping at its NUL or its end, whichever comes first. */
static void get_str(const struct nlattr *a, char *buf, size_t size)
{
	const char *s = nla_data(a);
	size_t n = (size_t)nla_len(a);
	const char *nul = memchr(s, '\0', n);

	if (nul)
		n = (size_t)(nul - s);
	if (n >= size)
		n = size - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
}

void np_rtnl_operstate_str(uint8_t state, char *buf, size_t size)
{
	rtnl_link_operstate2str(state, buf, size);
}

/* The payload length is the kernel's version: fields it does not have stay NP_NA. */
static int parse_stats64(const struct nlattr *a, struct np_rtnl *r)
{
	size_t n = (size_t)nla_len(a);
	const void *p = nla_data(a);

	np_link_stats_init(&r->stats64);
	/* By position in the kernel's order (link_stats.h): a shorter payload is an older kernel. */
	for (size_t i = 0; i < np_link_stats_nfields && (i + 1) * 8 <= n; i++)
		*np_link_stats_at(&r->stats64, i) = rd64(p, i * 8);
	r->has_stats64 = true;
	r->stats64_len = n;
	return n < NP_RTNL_STATS64_BASE || n % 8 ? -EBADMSG : 0;
}

/* With one program the kernel sends IFLA_XDP_PROG_ID; in multi mode only the per-mode ids. The
 * native (driver) one is preferred there: it is the one that sees frames before the stack. */
static int parse_xdp(const struct nlattr *nest, struct np_rtnl *r)
{
	static const int ids[] = {
		IFLA_XDP_PROG_ID, IFLA_XDP_DRV_PROG_ID, IFLA_XDP_SKB_PROG_ID, IFLA_XDP_HW_PROG_ID,
	};
	struct nlattr *tb[IFLA_XDP_MAX + 1];
	int err = parse_nested(tb, IFLA_XDP_MAX, nest) ? 0 : -EBADMSG;
	uint8_t mode;

	if (!get_u8(tb[IFLA_XDP_ATTACHED], &mode))
		return -EBADMSG;
	r->xdp_attached = mode;
	r->xdp_prog_id = 0;
	for (size_t i = 0; i < ARRAY_SIZE(ids); i++) {
		uint32_t id;

		if (get_u32(tb[ids[i]], &id) && id) {
			r->xdp_prog_id = id;
			break;
		}
	}
	if (mode != XDP_ATTACHED_NONE && !r->xdp_prog_id)
		err = -EBADMSG;
	return err;
}

/* IFLA_LINKINFO/IFLA_INFO_KIND: what kind of virtual device this is (physical ones have none). */
static int parse_kind(const struct nlattr *nest, struct np_rtnl *r)
{
	struct nlattr *tb[IFLA_INFO_MAX + 1];
	int len;

	if (!parse_nested(tb, IFLA_INFO_MAX, nest))
		return -EBADMSG;
	if (!tb[IFLA_INFO_KIND])
		return 0;
	len = nla_len(tb[IFLA_INFO_KIND]);
	if (len <= 0)
		return -EBADMSG;
	snprintf(r->kind, sizeof(r->kind), "%.*s", len, (const char *)nla_data(tb[IFLA_INFO_KIND]));
	for (char *c = r->kind; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	/* A vxlan created with "dev X" names its underlay device: its lower in the stack. */
	if (!strcmp(r->kind, "vxlan") && tb[IFLA_INFO_DATA]) {
		struct nlattr *vx[IFLA_VXLAN_MAX + 1];
		uint32_t v;

		if (!parse_nested(vx, IFLA_VXLAN_MAX, tb[IFLA_INFO_DATA]))
			return -EBADMSG;
		if (get_u32(vx[IFLA_VXLAN_LINK], &v) && v)
			r->underlay = (int)v;
	}
	return 0;
}

int np_rtnl_parse_link(const struct nlmsghdr *nlh, size_t len, struct np_rtnl *r, int *ifindex)
{
	const size_t hl = sizeof(struct ifinfomsg);
	struct nlattr *tb[IFLA_MAX + 1];
	const struct ifinfomsg *ifi;
	int err = 0;
	uint32_t v;
	uint8_t st;

	if (!msg_fits(nlh, len, hl) || nlh->nlmsg_type != RTM_NEWLINK)
		return -EINVAL;
	ifi = NLMSG_DATA(nlh);
	if (!parse_attrs(tb, IFLA_MAX, (const char *)ifi + NLMSG_ALIGN(hl),
			 (int)(nlh->nlmsg_len - NLMSG_LENGTH(NLMSG_ALIGN(hl)))))
		err = -EBADMSG;
	if (ifindex)
		*ifindex = ifi->ifi_index;
	if (tb[IFLA_STATS64] && parse_stats64(tb[IFLA_STATS64], r) < 0)
		err = -EBADMSG;
	if (get_u32(tb[IFLA_MTU], &v))
		r->mtu = v;
	if (get_u32(tb[IFLA_TXQLEN], &v))
		r->txqlen = v;
	if (get_u8(tb[IFLA_OPERSTATE], &st))
		np_rtnl_operstate_str(st, r->operstate, sizeof(r->operstate));
	if (get_u32(tb[IFLA_MASTER], &v))
		r->master = (int)v;
	r->link_other_netns = tb[IFLA_LINK_NETNSID] != NULL;
	/* Relative to the namespace of the device: what a RTM_GETLINK with IFLA_TARGET_NETNSID
	 * or a RTM_GETNSID asked from that namespace resolves. */
	if (get_u32(tb[IFLA_LINK_NETNSID], &v) && (int32_t)v >= 0)
		r->link_netnsid = (int32_t)v;
	if (tb[IFLA_IFNAME]) {
		get_str(tb[IFLA_IFNAME], r->ifname, sizeof(r->ifname));
		for (char *c = r->ifname; *c; c++)
			if ((unsigned char)*c <= 0x20 || *c == 0x7f || *c == '/')
				*c = '?';
	}
	/* A physical device names itself; a veth's peer in another namespace may well have the
	 * same ifindex there. */
	if (get_u32(tb[IFLA_LINK], &v) && ((int)v != ifi->ifi_index || r->link_other_netns))
		r->link = (int)v;
	if (tb[IFLA_LINKINFO] && parse_kind(tb[IFLA_LINKINFO], r) < 0)
		err = -EBADMSG;
	/* Kernels before 4.8 have no IFLA_XDP: xdp_attached stays -1 (unknown), not "none". */
	if (tb[IFLA_XDP] && parse_xdp(tb[IFLA_XDP], r) < 0)
		err = -EBADMSG;
	return err;
}

/* Legacy TCA_STATS first; TCA_STATS2 (what every kernel since 2.6 sends beside it) overrides
 * field by field, so a reply with only one of them still fills what it has. */
static int parse_qdisc_stats(struct nlattr **tca, struct np_qdisc *q)
{
	struct nlattr *tb[TCA_STATS_MAX + 1];
	int err = 0;

	if (tca[TCA_STATS]) {
		const void *p = nla_data(tca[TCA_STATS]);

		if (nla_len(tca[TCA_STATS]) >= TC_STATS_MIN) {
			q->bytes = rd64(p, 0);
			q->packets = rd32(p, 8);
			q->drops = rd32(p, 12);
			q->overlimits = rd32(p, 16);
			q->qlen = rd32(p, 28);
			q->backlog = rd32(p, 32);
		} else {
			err = -EBADMSG;
		}
	}
	if (!tca[TCA_STATS2])
		return err;
	if (!parse_nested(tb, TCA_STATS_MAX, tca[TCA_STATS2]))
		err = -EBADMSG;
	if (tb[TCA_STATS_BASIC]) {
		const void *p = nla_data(tb[TCA_STATS_BASIC]);

		if (nla_len(tb[TCA_STATS_BASIC]) >= GNET_BASIC_MIN) {
			q->bytes = rd64(p, 0);
			q->packets = rd32(p, 8);
		} else {
			err = -EBADMSG;
		}
	}
	/* The 32-bit packets field wraps on a busy qdisc; newer kernels add the full count
	 * as TCA_STATS_PKT64 once it no longer fits. */
	if (tb[TCA_STATS_PKT64] && nla_len(tb[TCA_STATS_PKT64]) >= 8)
		q->packets = rd64(nla_data(tb[TCA_STATS_PKT64]), 0);
	if (tb[TCA_STATS_QUEUE]) {
		const void *p = nla_data(tb[TCA_STATS_QUEUE]);

		if (nla_len(tb[TCA_STATS_QUEUE]) >= GNET_QUEUE_MIN) {
			q->qlen = rd32(p, 0);
			q->backlog = rd32(p, 4);
			q->drops = rd32(p, 8);
			q->requeues = rd32(p, 12);
			q->overlimits = rd32(p, 16);
		} else {
			err = -EBADMSG;
		}
	}
	return err;
}

static int qdisc_append(struct np_rtnl *r, const struct np_qdisc *q)
{
	/* Grow in powers of two; the capacity is implied by nqdisc. */
	size_t n = r->nqdisc;

	if (n >= NP_RTNL_MAX_QDISCS)
		return -E2BIG;
	if ((n & (n - 1)) == 0) {
		size_t cap = n ? n * 2 : 4;
		struct np_qdisc *nq = realloc(r->qdiscs, cap * sizeof(*nq));

		if (!nq)
			return -ENOMEM;
		r->qdiscs = nq;
	}
	r->qdiscs[n] = *q;
	r->nqdisc = n + 1;
	return 0;
}

int np_rtnl_parse_qdisc(const struct nlmsghdr *nlh, size_t len, struct np_rtnl *r, int ifindex)
{
	const size_t hl = sizeof(struct tcmsg);
	struct nlattr *tb[TCA_MAX + 1];
	const struct tcmsg *tcm;
	struct np_qdisc q;
	int err = 0, e;

	if (!msg_fits(nlh, len, hl) || nlh->nlmsg_type != RTM_NEWQDISC)
		return -EINVAL;
	tcm = NLMSG_DATA(nlh);
	if (ifindex && tcm->tcm_ifindex != ifindex)
		return 0;
	memset(&q, 0, sizeof(q));
	q.bytes = q.packets = q.drops = q.overlimits = q.requeues = q.backlog = q.qlen = NP_NA;
	q.handle = tcm->tcm_handle;
	q.parent = tcm->tcm_parent;
	q.root = q.parent == TC_H_ROOT;
	/* clsact sits at the same parent as ingress (TC_H_CLSACT == TC_H_INGRESS). */
	q.ingress = q.parent == TC_H_INGRESS;
	if (!parse_attrs(tb, TCA_MAX, (const char *)tcm + NLMSG_ALIGN(hl),
			 (int)(nlh->nlmsg_len - NLMSG_LENGTH(NLMSG_ALIGN(hl)))))
		err = -EBADMSG;
	if (tb[TCA_KIND])
		get_str(tb[TCA_KIND], q.kind, sizeof(q.kind));
	else
		err = -EBADMSG;
	if (parse_qdisc_stats(tb, &q) < 0)
		err = -EBADMSG;
	e = qdisc_append(r, &q);
	if (e < 0)
		return e;
	return err ? err : 1;
}

int np_rtnl_parse_nsid(const struct nlmsghdr *nlh, size_t len, int *nsid)
{
	const size_t hl = sizeof(struct rtgenmsg);
	struct nlattr *tb[NETNSA_MAX + 1];
	uint32_t v;

	if (!msg_fits(nlh, len, hl) || nlh->nlmsg_type != RTM_NEWNSID)
		return -EINVAL;
	*nsid = -1;
	if (!parse_attrs(tb, NETNSA_MAX, (const char *)NLMSG_DATA(nlh) + NLMSG_ALIGN(hl),
			 (int)(nlh->nlmsg_len - NLMSG_LENGTH(NLMSG_ALIGN(hl)))))
		return -EBADMSG;
	if (!get_u32(tb[NETNSA_NSID], &v))
		return -EBADMSG;
	/* NETNSA_NSID_NOT_ASSIGNED (-1): the namespace has no number in ours. */
	*nsid = (int32_t)v < 0 ? -1 : (int32_t)v;
	return 0;
}

static int stream_fail(struct np_rtnl_stream *st, int err)
{
	/* Kernel errors stop at -4095 (MAX_ERRNO); INT_MIN would not survive strerror(-err). */
	if (err < -4095)
		err = -EPROTO;
	if (!st->err)
		st->err = err;
	return st->err;
}

int np_rtnl_parse_stream(const void *buf, size_t len, struct np_rtnl_stream *st,
			 struct np_rtnl *r)
{
	const unsigned char *p = buf;
	size_t off = 0;

	while (!st->done && len - off >= NLMSG_HDRLEN) {
		const struct nlmsghdr *nlh = (const void *)(p + off);
		size_t avail = len - off;
		int err = 0, ifindex;

		if (nlh->nlmsg_len < NLMSG_HDRLEN || nlh->nlmsg_len > avail)
			return stream_fail(st, -EBADMSG);
		off += NLMSG_ALIGN(nlh->nlmsg_len) < avail ? NLMSG_ALIGN(nlh->nlmsg_len) : avail;
		/* A reply to an earlier request on this socket, or not from the kernel. */
		if (nlh->nlmsg_seq != st->seq ||
		    (st->portid && nlh->nlmsg_pid && nlh->nlmsg_pid != st->portid)) {
			st->foreign++;
			continue;
		}
		if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
			st->intr = true;
		switch (nlh->nlmsg_type) {
		case NLMSG_NOOP:
			continue;
		case NLMSG_DONE:
			st->done = true;
			/* A dump that failed midway ends with DONE carrying -errno. */
			if (nlh->nlmsg_len >= NLMSG_LENGTH(sizeof(int))) {
				int e = rd32(NLMSG_DATA(nlh), 0);

				if (e < 0)
					stream_fail(st, e);
			}
			continue;
		case NLMSG_ERROR:	/* the end of a doit: an ACK (0) or the kernel's error */
			st->done = true;
			err = np_nl_error(nlh, st->msg, sizeof(st->msg));
			if (err)
				stream_fail(st, err);
			continue;
		case NLMSG_OVERRUN:
			return stream_fail(st, -ENOBUFS);
		case RTM_NEWLINK:
			err = np_rtnl_parse_link(nlh, avail, r, &ifindex);
			if (err != -EINVAL) {
				st->got_link = true;
				st->ifindex = ifindex;
			}
			break;
		case RTM_NEWNSID:
			err = np_rtnl_parse_nsid(nlh, avail, &st->nsid);
			st->got_nsid = err == 0;
			break;
		case RTM_NEWQDISC:
			err = np_rtnl_parse_qdisc(nlh, avail, r, st->ifindex);
			if (err == -E2BIG || err == -ENOMEM)
				return stream_fail(st, err);
			break;
		default:
			break;
		}
		if (err < 0)
			st->bad++;
		if (!(nlh->nlmsg_flags & NLM_F_MULTI))
			st->done = true;
	}
	if (!st->done && off < len)
		return stream_fail(st, -EBADMSG);
	return st->err;
}
