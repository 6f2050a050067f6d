/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one netlink transport of netpath (libmnl), for every bus it speaks: generic netlink
 * (genl.h), sock_diag (sock_diag.h) and rtnetlink (rtnl.c). One conversation at a time: a socket
 * with extended acks and a receive timeout, requests numbered in sequence, and a bounded receive
 * loop that hands each received buffer to the caller's walker (np_nl_run, or rtnetlink's own).
 *
 * The same loop is where every exchange is recorded into a kernel tape (`netpath capture`) or
 * answered from one (`doctor --root CAPTURE`), where unit tests answer through a replay
 * function instead of a socket, and where the fixture recorders (tools/) tap the raw replies.
 */
#ifndef NP_NL_TRANSPORT_H
#define NP_NL_TRANSPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <libmnl/libmnl.h>

#include "ktape.h"
#include "nl_msg.h"

/* Requests are a header, a fixed family header and a few attributes. */
#define NP_NL_REQSIZE 1024

/* How one bus is spoken: constant, one per bus, defined by its collector. */
struct np_nl_bus {
	const char *name;		/* "genl", "sock_diag", "rtnl": debug messages */
	int protocol;			/* NETLINK_GENERIC, NETLINK_SOCK_DIAG, NETLINK_ROUTE */
	enum np_ktape_bus tape_bus;	/* what its exchanges are filed under on a tape */
	size_t bufsize;			/* replies: more than any one recv() of this bus brings */
	int timeout_ms;			/* per recv(): a kernel that does not answer */
	double deadline_s;		/* per exchange, however many recv() it takes; 0: none */
};

/*
 * Test seam: a replay function answers each receive instead of a socket. It gets the request
 * and a buffer; it returns the number of bytes written, or 0 or -EAGAIN for silence (a receive
 * timeout), or another negative errno (a receive error).
 */
typedef ssize_t (*np_nl_replay_fn)(void *arg, const struct nlmsghdr *req, void *buf,
				   size_t size);
/* Recording seam (tools/nlrecord.c, tools/npsock.c): every received buffer, raw, with its
 * request. */
typedef void (*np_nl_tap_fn)(void *arg, const struct nlmsghdr *req, const void *buf,
			     size_t len);
/* The walker of one received buffer: 1 when more is expected, 0 when the reply is complete, or
 * a negative errno (which ends the exchange). */
typedef int (*np_nl_feed_fn)(void *arg, const void *buf, size_t len);

struct np_nl {
	const struct np_nl_bus *bus;
	struct mnl_socket *nl;		/* NULL when a replay function or a capture's tape answers */
	struct np_ktape *tape;		/* ctx->tape: record to it, or replay from it */
	struct np_ktape_play play;
	np_nl_replay_fn replay;
	void *replay_arg;
	np_nl_tap_fn tap;
	void *tap_arg;
	uint32_t seq;			/* of the last request */
	char *buf;			/* bus->bufsize for replies, then NP_NL_REQSIZE for the request */
	size_t bufcap;			/* what buf holds: at least bus->bufsize + NP_NL_REQSIZE */
	/* The kernel's error message of the last failed request, "" if none: written by walkers
	 * that are given it (genl's). */
	char errmsg[NP_NL_ERRMSG];
	/* The last exchange's reply had a message of its request flagged NLM_F_DUMP_INTR: the
	 * kernel's table changed while the dump walked it, so the dump may miss or repeat
	 * entries. Set by np_nl_exchange() whatever the walker does with the flag. */
	bool dump_intr;
};

/* Open a transport on bus: a socket (recording into tape when tape is a live one), or none at
 * all when tape is a capture's, which then answers. 0 or a negative errno. */
int np_nl_open(struct np_nl *t, const struct np_nl_bus *bus, struct np_ktape *tape);
/* The same answered by a replay function (unit tests). */
int np_nl_open_replay(struct np_nl *t, const struct np_nl_bus *bus, np_nl_replay_fn fn,
		      void *arg);
/* Start over on a fresh socket with the same bus, tape and seams: after a broken dump, whose
 * rest may still arrive on the old socket (and which makes the kernel refuse a new dump with
 * EBUSY while it runs). On failure t is closed. */
int np_nl_reopen(struct np_nl *t);
void np_nl_close(struct np_nl *t);

/* The port id replies from the kernel are addressed to; 0 without a socket. */
uint32_t np_nl_portid(const struct np_nl *t);

/* Start a request in t's request area: nlmsghdr (type, NLM_F_REQUEST | flags, the next sequence
 * number), zeroed room after it for the family header (mnl_nlmsg_put_extra_header) and
 * attributes (mnl_attr_put*). libmnl leaves attribute padding as it was: the zeroing keeps stale
 * heap bytes from going to the kernel. */
struct nlmsghdr *np_nl_request(struct np_nl *t, uint16_t type, uint16_t flags);

/*
 * Send req and hand every received buffer to feed until it says the reply is complete (0) or
 * fails (< 0). Returns that, or a negative errno of the transport: -ETIMEDOUT after the bus's
 * timeout of silence or past its deadline, -ENOBUFS when the socket overran, -EMSGSIZE for a
 * reply larger than the buffer, -ENODATA when a capture did not ask this request, or the send's
 * or receive's error. Buffers not sent by the kernel (another process's) are skipped.
 */
int np_nl_exchange(struct np_nl *t, struct nlmsghdr *req, np_nl_feed_fn feed, void *arg);

/* How many times a dump is asked for in all before its failure is reported. */
#define NP_NL_DUMP_TRIES 4

/* Undo what a walker kept of a dump that is started again; req is the new request (its
 * sequence number is the one the replies will carry). */
typedef void (*np_nl_reset_fn)(void *arg, const struct nlmsghdr *req);

/*
 * A dump (req has NLM_F_DUMP) through np_nl_exchange(), started again from scratch on a fresh
 * socket while it was inconsistent (t->dump_intr: the table changed under it) or the socket
 * overran (-ENOBUFS, messages lost), up to NP_NL_DUMP_TRIES in all, calling reset(arg, new
 * request) before each new start. Load on the host (interfaces, routes, rules changing) makes
 * both; neither says anything about what was asked. Returns 0 for a complete and consistent
 * dump; -EAGAIN when every try was interrupted (the walker's data is then the last try's and
 * must not be taken as the table); -ENOBUFS when every try overran; else np_nl_exchange()'s
 * error. req is not valid afterwards (the socket's request area is new).
 */
int np_nl_dump(struct np_nl *t, struct nlmsghdr *req, np_nl_feed_fn feed, np_nl_reset_fn reset,
	       void *arg);

#endif
