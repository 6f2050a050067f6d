/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Generic netlink on the netlink transport (nl_transport.h): family resolution (id and ops
 * list), genl request headers and request/reply runs that call back once per reply message.
 * The family parser is pure, so unit tests feed it recorded or hand-built messages.
 */
#ifndef NP_GENL_H
#define NP_GENL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include "nl_msg.h"
#include "nl_transport.h"

/* Every wait on the kernel is bounded: a hung driver callback must not hang doctor. */
#define NP_GENL_TIMEOUT_MS 2000
/* Larger than any doit reply we ask for (non-compact feature bitsets are the biggest, ~10 KiB)
 * and than a dump skb (at most 32 KiB on 4 KiB pages). */
#define NP_GENL_BUFSIZE (128u * 1024)
#define NP_GENL_MAX_OPS 128

struct np_genl_family {
	uint16_t id;
	uint32_t version;
	uint32_t maxattr;
	size_t nops;
	uint32_t ops[NP_GENL_MAX_OPS];	/* command numbers the family accepts */
};

struct np_ctx;

/* A NETLINK_GENERIC transport (extended acks, NP_GENL_TIMEOUT_MS per receive, no deadline:
 * every request is one small doit or dump). */
int np_genl_open(struct np_nl *g);
/* For a collector: a socket, recorded into ctx->tape when capturing, or no socket at all when
 * ctx is a capture whose tape answers. */
int np_genl_open_ctx(struct np_nl *g, const struct np_ctx *ctx);
/* The same object backed by a replay function (unit tests). */
int np_genl_open_replay(struct np_nl *g, np_nl_replay_fn fn, void *arg);

/* Start a request: nlmsghdr (NLM_F_REQUEST | flags, next sequence number) and genlmsghdr. Add
 * attributes with mnl_attr_put*(), then call np_genl_call(). */
struct nlmsghdr *np_genl_msg(struct np_nl *g, uint16_t family, uint8_t cmd, uint8_t version,
			     uint16_t flags);

/* Send the request and run cb on each reply message with its sequence number until the final
 * ACK (doit; NLM_F_ACK is added) or NLMSG_DONE (dumps). Returns 0 or a negative errno: the
 * kernel's error (its extack message in g->errmsg), -ETIMEDOUT after NP_GENL_TIMEOUT_MS of
 * silence, -ENOBUFS when the socket overran, -EMSGSIZE for a reply larger than the buffer,
 * -EBADMSG for a truncated or malformed stream, or what cb returned. A dump flagged
 * inconsistent or overrun is asked again (np_genl_dump() below): give it a reset when cb keeps
 * what it sees. */
int np_genl_call(struct np_nl *g, struct nlmsghdr *req, np_nl_cb cb, void *data);
/* The same, for a dump whose callbacks keep what they see: a dump the kernel flags
 * inconsistent (NLM_F_DUMP_INTR) or that overruns the socket is asked again from scratch
 * (np_nl_dump(), up to NP_NL_DUMP_TRIES in all), reset(data) first undoing what cb kept of the
 * broken one. -EAGAIN when it was inconsistent every time. np_genl_call() is np_genl_dump()
 * with no reset. For a doit, reset is never called. */
int np_genl_dump(struct np_nl *g, struct nlmsghdr *req, np_nl_cb cb, void (*reset)(void *data),
		 void *data);

/* Resolve a family by name (CTRL_CMD_GETFAMILY): 0, -ENOENT when the kernel has none. */
int np_genl_family(struct np_nl *g, const char *name, struct np_genl_family *fam);
bool np_genl_has_op(const struct np_genl_family *fam, uint32_t cmd);

/* Fill fam from a CTRL_CMD_NEWFAMILY message. -EBADMSG when it is malformed or has no id. */
int np_genl_parse_family(const struct nlmsghdr *nlh, struct np_genl_family *fam);

/* np_nl_attrs() for a genl message (after the genlmsghdr). */
int np_genl_attrs(const struct nlmsghdr *nlh, const struct nlattr **tb, unsigned maxtype);

#endif
