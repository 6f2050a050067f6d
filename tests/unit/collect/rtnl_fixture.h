/* SPDX-License-Identifier: GPL-2.0-only */
/* The rtnetlink tests' fixture: recorded dumps (tests/fixtures/netlink) loaded and parsed
 * through a stream that accepts the recorder's seq and port. Include after cmocka.h. */
#ifndef NP_TEST_RTNL_FIXTURE_H
#define NP_TEST_RTNL_FIXTURE_H

#include <stdint.h>
#include "fixture_load.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/gen_stats.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include "rtnl.h"
#include "snapshot.h"

/* tests/fixtures/netlink/NAME (fixture_load.h). */
static inline unsigned char *load(const char *name, size_t *len)
{
	return fixture_load("netlink", name, len);
}

/* A stream state that accepts the recorded messages: their seq and port are the recorder's. */
static inline struct np_rtnl_stream stream_for(const void *buf, size_t len, int ifindex)
{
	const struct nlmsghdr *h = buf;
	struct np_rtnl_stream st = { .ifindex = ifindex };

	if (len >= sizeof(*h)) {
		st.seq = h->nlmsg_seq;
		st.portid = h->nlmsg_pid;
	}
	return st;
}

static inline int parse_file(const char *name, int ifindex, struct np_rtnl *r,
			     struct np_rtnl_stream *st)
{
	size_t len;
	unsigned char *b = load(name, &len);
	int err;

	*st = stream_for(b, len, ifindex);
	np_rtnl_init(r);
	err = np_rtnl_parse_stream(b, len, st, r);
	free(b);
	return err;
}

/* ---- small hand-built messages: the stream's control paths, the qdisc list's bound ---- */

static inline size_t put_msg(unsigned char *buf, size_t off, struct nl_msg *m, uint16_t flags)
{
	struct nlmsghdr *h = nlmsg_hdr(m);

	h->nlmsg_seq = 9;
	h->nlmsg_flags |= flags;
	memcpy(buf + off, h, h->nlmsg_len);
	off += NLMSG_ALIGN(h->nlmsg_len);
	nlmsg_free(m);
	return off;
}

static inline struct nl_msg *qdisc_msg(int ifindex, const char *kind)
{
	struct tcmsg tcm = { .tcm_ifindex = ifindex, .tcm_parent = TC_H_ROOT };
	struct nl_msg *m = nlmsg_alloc_simple(RTM_NEWQDISC, 0);

	nlmsg_append(m, &tcm, sizeof(tcm), NLMSG_ALIGNTO);
	nla_put_string(m, TCA_KIND, kind);
	return m;
}

#endif
