/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rtnetlink replies into struct np_rtnl: pure parsers (rtnl_parse.c) that the collector (rtnl.c)
 * feeds with what recv() returned and the unit tests feed with recorded replies. Nothing here
 * does I/O. Every function takes the number of bytes really available, so a message whose
 * nlmsg_len claims more than arrived is rejected instead of read past.
 */
#ifndef NP_RTNL_H
#define NP_RTNL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/netlink.h>

#include "nic.h"

/* A bound on s->rtnl.qdiscs: a host with thousands of mq children is real, a million is a bug. */
#define NP_RTNL_MAX_QDISCS 4096

/* IFLA_STATS64 payload sizes: up to tx_compressed, + rx_nohandler (4.6), + rx_otherhost_dropped
 * (5.19). */
#define NP_RTNL_STATS64_BASE 184
#define NP_RTNL_STATS64_NOHANDLER 192
#define NP_RTNL_STATS64_OTHERHOST 200

/* One RTM_NEWLINK: stats64 (fields beyond the payload length stay NP_NA), MTU, txqlen,
 * operstate text, XDP mode and program id. *ifindex (may be NULL) gets ifi_index.
 * 0 on success, -EINVAL when it is no RTM_NEWLINK or is shorter than its header says,
 * -EBADMSG when some attribute was malformed (the rest is kept). */
int np_rtnl_parse_link(const struct nlmsghdr *nlh, size_t len, struct np_rtnl *r, int *ifindex);

/* One RTM_NEWQDISC, appended to r->qdiscs when its tcm_ifindex is ifindex (0 = any).
 * Stats the kernel did not send stay NP_NA (requeues with only the legacy TCA_STATS). Note for
 * readers of the list: an mq/mqprio root reports the sum of its children's counters.
 * 1 appended, 0 skipped (another interface), -EBADMSG appended but some attribute was
 * malformed or the kind missing, -E2BIG at NP_RTNL_MAX_QDISCS, -ENOMEM, -EINVAL when it is no
 * RTM_NEWQDISC or is shorter than its header says (nothing appended). */
int np_rtnl_parse_qdisc(const struct nlmsghdr *nlh, size_t len, struct np_rtnl *r, int ifindex);

/* One RTM_NEWNSID (the reply to RTM_GETNSID): *nsid gets NETNSA_NSID, -1 for "not assigned".
 * 0, -EINVAL when it is no RTM_NEWNSID or is shorter than its header says, -EBADMSG when the
 * attribute is missing or malformed. */
int np_rtnl_parse_nsid(const struct nlmsghdr *nlh, size_t len, int *nsid);

/* The state of one request's reply stream across recv() buffers. */
struct np_rtnl_stream {
	uint32_t seq, portid;	/* ours: messages with another seq (or a port other than 0 and
				 * ours) are skipped and counted */
	int ifindex;		/* qdisc filter, 0 = any; set by a RTM_NEWLINK */
	bool done;		/* NLMSG_DONE, an ACK/error, or a single (non-multi) reply seen */
	bool intr;		/* NLM_F_DUMP_INTR: the kernel's list changed during the dump */
	bool got_link;		/* a RTM_NEWLINK was parsed */
	bool got_nsid;		/* a RTM_NEWNSID was parsed into nsid */
	int nsid;		/* its NETNSA_NSID, -1 when not assigned */
	int err;		/* first error: the kernel's (NLMSG_ERROR) or a parse error */
	char msg[96];		/* the kernel's extended ack message, "" if none */
	unsigned foreign;	/* messages for another request */
	unsigned bad;		/* messages a parser rejected */
};

/* Walk one recv() buffer of messages, dispatching RTM_NEWLINK, RTM_NEWNSID and RTM_NEWQDISC. Stops at the
 * end of the reply (st->done) or at a truncated message (-EBADMSG). Returns 0 or the first
 * negative errno (also left in st->err); a NLMSG_ERROR with an ack (error 0) is no error. */
int np_rtnl_parse_stream(const void *buf, size_t len, struct np_rtnl_stream *st,
			 struct np_rtnl *r);

/* "up", "down", "lowerlayerdown", ... as sysfs spells IF_OPER_*; "0x%x" for unknown values. */
void np_rtnl_operstate_str(uint8_t state, char *buf, size_t size);

#endif
