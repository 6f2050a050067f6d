/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A small generic netlink transport over libmnl: one socket with extended ACKs and a bounded
 * wait, family resolution (id and ops list), and request/reply runs that call back once per
 * reply message. The reply walker (np_genl_run) and the attribute helpers are pure, so unit tests
 * feed them recorded or hand-built byte streams.
 */
#ifndef NP_GENL_H
#define NP_GENL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include "ktape.h"

/* Every wait on the kernel is bounded: a hung driver callback must not hang doctor. */
#define NP_GENL_TIMEOUT_MS 2000
/* Larger than any doit reply we ask for (non-compact feature bitsets are the biggest, ~10 KiB)
 * and than a dump skb (at most 32 KiB on 4 KiB pages). */
#define NP_GENL_BUFSIZE (128u * 1024)
#define NP_GENL_MAX_OPS 128

/* The kernel's error message (NLMSGERR_ATTR_MSG) of the last failed request, "" if none. */
#define NP_GENL_ERRMSG 160

struct np_genl_family {
	uint16_t id;
	uint32_t version;
	uint32_t maxattr;
	size_t nops;
	uint32_t ops[NP_GENL_MAX_OPS];	/* command numbers the family accepts */
};

/*
 * Test seam: a replay transport answers each receive instead of a socket. It gets the last
 * request and a buffer; it returns the number of bytes written, or 0 or -EAGAIN for silence
 * (a receive timeout), or another negative errno (a receive error).
 */
typedef ssize_t (*np_genl_replay_fn)(void *arg, const struct nlmsghdr *req, void *buf,
				     size_t size);

/* Recording seam (tools/nlrecord.c): sees every received buffer, raw, with its request. */
typedef void (*np_genl_tap_fn)(void *arg, const struct nlmsghdr *req, const void *buf,
			       size_t len);

struct np_ctx;

struct np_genl {
	struct mnl_socket *nl;		/* NULL with a replay transport */
	struct np_ktape *tape;		/* ctx->tape: record to it, or replay from it */
	struct np_ktape_play play;
	np_genl_replay_fn replay;
	void *replay_arg;
	np_genl_tap_fn tap;
	void *tap_arg;
	uint32_t seq;
	char *buf;			/* NP_GENL_BUFSIZE for replies, then the request */
	char errmsg[NP_GENL_ERRMSG];
};

/* Reply callback: MNL_CB_OK (1) to go on, MNL_CB_STOP (0) to stop early, or a negative errno
 * to fail (returned as is; so not MNL_CB_ERROR, which would read as -EPERM). */
typedef int (*np_genl_cb)(const struct nlmsghdr *nlh, void *data);

/* Open a NETLINK_GENERIC socket with NETLINK_EXT_ACK, NETLINK_CAP_ACK and SO_RCVTIMEO. */
int np_genl_open(struct np_genl *g);
/* For a collector: a socket, recorded into ctx->tape when capturing, or no socket at all when
 * ctx is a capture whose tape answers. */
int np_genl_open_ctx(struct np_genl *g, const struct np_ctx *ctx);
/* The same object backed by a replay function (unit tests). */
int np_genl_open_replay(struct np_genl *g, np_genl_replay_fn fn, void *arg);
void np_genl_close(struct np_genl *g);

/* Start a request in g->buf: nlmsghdr (NLM_F_REQUEST | flags, next sequence number) and
 * genlmsghdr. Add attributes with mnl_attr_put*(), then call np_genl_call(). */
struct nlmsghdr *np_genl_msg(struct np_genl *g, uint16_t family, uint8_t cmd, uint8_t version,
			     uint16_t flags);

/* Send the request and run cb on each reply message with its sequence number until the final
 * ACK (doit; NLM_F_ACK is added) or NLMSG_DONE (dumps). Returns 0 or a negative errno: the
 * kernel's error (its extack message in g->errmsg), -ETIMEDOUT after NP_GENL_TIMEOUT_MS of
 * silence, -ENOBUFS when the socket overran, -EMSGSIZE for a reply larger than the buffer,
 * -EBADMSG for a truncated or malformed stream, or what cb returned. */
int np_genl_call(struct np_genl *g, struct nlmsghdr *req, np_genl_cb cb, void *data);

/* Resolve a family by name (CTRL_CMD_GETFAMILY): 0, -ENOENT when the kernel has none. */
int np_genl_family(struct np_genl *g, const char *name, struct np_genl_family *fam);
bool np_genl_has_op(const struct np_genl_family *fam, uint32_t cmd);

/*
 * Pure pieces.
 *
 * np_genl_run walks len bytes of netlink messages: messages whose sequence number is not seq
 * are skipped (stale replies of an earlier request that timed out); NLMSG_ERROR ends the run
 * with its error (0 for an ACK) and copies the extack message to errmsg; NLMSG_DONE ends a dump
 * (with the error it may carry); anything else goes to cb. Returns 1 when more is expected,
 * 0 when the request is complete, or a negative errno (-EBADMSG for a truncated message).
 */
int np_genl_run(const void *buf, size_t len, uint32_t seq, np_genl_cb cb, void *data,
		char *errmsg, size_t errlen);

/* Fill fam from a CTRL_CMD_NEWFAMILY message. -EBADMSG when it is malformed or has no id. */
int np_genl_parse_family(const struct nlmsghdr *nlh, struct np_genl_family *fam);

/*
 * Index the attributes of a payload into tb[0..maxtype] (the last of a repeated type wins;
 * types above maxtype are ignored; type 0 is kept: ethtool's STATS nests use it). Returns 0, or
 * -EBADMSG when an attribute runs past the end (what came before it is still indexed).
 */
int np_nl_attrs(const void *payload, size_t len, const struct nlattr **tb, unsigned maxtype);
/* The same for a genl message (after the genlmsghdr) and for a nest's payload. */
int np_genl_attrs(const struct nlmsghdr *nlh, const struct nlattr **tb, unsigned maxtype);
int np_nest_attrs(const struct nlattr *nest, const struct nlattr **tb, unsigned maxtype);
/* 0 when the nest's attributes tile its payload, -EBADMSG when one runs past the end. For
 * nests walked with mnl_attr_for_each_nested(), which stops silently at a damaged attribute. */
int np_nest_check(const struct nlattr *nest);
/* The payload of a string attribute if it is NUL-terminated within its length, else NULL. */
const char *np_attr_str(const struct nlattr *a);

/* Unsigned values by their exact size: -EBADMSG on a length mismatch. np_attr_uint accepts 1, 2,
 * 4 or 8 bytes (the netlink "uint" type that netdev qstats use). */
int np_attr_u8(const struct nlattr *a, uint8_t *v);
int np_attr_u32(const struct nlattr *a, uint32_t *v);
int np_attr_u64(const struct nlattr *a, uint64_t *v);
int np_attr_uint(const struct nlattr *a, uint64_t *v);

#endif
