/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Netlink messages as bytes, for every bus netpath speaks: the walker of one received buffer
 * (sequence numbers, NLMSG_ERROR with its extack text, NLMSG_DONE) and attribute helpers that
 * never read past what arrived. Pure: unit tests and fuzzers feed them recorded or hand-built
 * byte streams; the transport (nl_transport.h) feeds them what the kernel sent.
 */
#ifndef NP_NL_MSG_H
#define NP_NL_MSG_H

#include <stddef.h>
#include <stdint.h>

#include <libmnl/libmnl.h>

/* Room for the kernel's error message (NLMSGERR_ATTR_MSG) of a failed request. */
#define NP_NL_ERRMSG 160

/* Per-message callback: MNL_CB_OK (1) to go on, MNL_CB_STOP (0) to stop early, or a negative
 * errno to fail (returned as is; so not MNL_CB_ERROR, which would read as -EPERM). */
typedef int (*np_nl_cb)(const struct nlmsghdr *nlh, void *data);

/*
 * Walk len bytes of netlink messages: messages whose sequence number is not seq are skipped
 * (stale replies of an earlier request that timed out); NLMSG_ERROR ends the run with its error
 * (0 for an ACK) and copies the extack message to errmsg; NLMSG_DONE ends a dump (with the error
 * it may carry); anything else goes to cb. Returns 1 when more is expected, 0 when the request
 * is complete, or a negative errno (-EBADMSG for a truncated message).
 */
int np_nl_run(const void *buf, size_t len, uint32_t seq, np_nl_cb cb, void *data, char *errmsg,
	      size_t errlen);

/* The errno of one NLMSG_ERROR (framed: nlmsg_len >= NLMSG_HDRLEN and within what arrived, as
 * the walkers check first): 0 for an ACK, the kernel's -errno (-EPROTO for a value no kernel
 * sends), -EBADMSG when too short. A failure's extack message goes to errmsg (up to errlen - 1
 * bytes and a NUL; left alone when the kernel gave none). Every bus's walker uses it. */
int np_nl_error(const struct nlmsghdr *nlh, char *errmsg, size_t errlen);

/*
 * Index the attributes of a payload into tb[0..maxtype] (the last of a repeated type wins;
 * types above maxtype are ignored; type 0 is kept: ethtool's STATS nests use it). Returns 0, or
 * -EBADMSG when an attribute runs past the end (what came before it is still indexed).
 */
int np_nl_attrs(const void *payload, size_t len, const struct nlattr **tb, unsigned maxtype);
/* The same for a nest's payload. */
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
