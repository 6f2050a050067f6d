// SPDX-License-Identifier: GPL-2.0-only
/* sock_diag collector: TCP and UDP dumps of this network namespace, folded as they stream. */
#include "collect.h"
#include "log.h"
#include "sock_diag.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>

static const struct np_nl_bus sock_diag_bus = {
	.name = "sock_diag",
	.protocol = NETLINK_SOCK_DIAG,
	.tape_bus = NP_KT_SOCK_DIAG,
	.bufsize = NP_SOCK_DIAG_BUFSIZE,
	.timeout_ms = NP_SOCK_DIAG_TIMEOUT_MS,
	.deadline_s = NP_SOCK_DIAG_DEADLINE_S,
};

int np_sock_diag_open(struct np_nl *d)
{
	return np_nl_open(d, &sock_diag_bus, NULL);
}

int np_sock_diag_open_tape(struct np_nl *d, struct np_ktape *tape)
{
	return np_nl_open(d, &sock_diag_bus, tape);
}

/* The extensions asked for. A full walk: TCP's tcp_info, congestion control name and its
 * private info (VEGASINFO brings BBR's and DCTCP's), socket memory for every protocol. All fit
 * the 8 bits of the legacy request. A listeners walk needs socket memory only (a listener's
 * drops); the accept queue and its limit come in every message's rqueue/wqueue. */
static uint8_t exts(uint8_t protocol, enum np_sock_walk walk)
{
	if (protocol == IPPROTO_TCP && walk == NP_SOCK_WALK_FULL)
		return 1 << (INET_DIAG_INFO - 1) | 1 << (INET_DIAG_CONG - 1) |
		       1 << (INET_DIAG_SKMEMINFO - 1) | 1 << (INET_DIAG_VEGASINFO - 1);
	return 1 << (INET_DIAG_SKMEMINFO - 1);
}

/* Every state (the per-state counts need them all), or TCP's listeners only: inet_diag then
 * walks the listening hash and skips the established one, whose size is the host's. UDP's
 * dump has no such split; its sockets are few. */
static uint32_t states(uint8_t protocol, enum np_sock_walk walk)
{
	return protocol == IPPROTO_TCP && walk == NP_SOCK_WALK_LISTEN ? 1u << TCP_LISTEN : ~0u;
}

void np_sock_diag_put_request(struct nlmsghdr *nlh, uint8_t family, uint8_t protocol,
			      enum np_sock_walk walk)
{
	if (family == AF_UNSPEC) {
		/* Each SOCK_DIAG_BY_FAMILY dump walks the whole established hash (262,144
		 * buckets on a 16 GiB host) for one family; this one walks it once for both. */
		struct inet_diag_req *req = mnl_nlmsg_put_extra_header(nlh, sizeof(*req));

		nlh->nlmsg_type = TCPDIAG_GETSOCK;
		req->idiag_family = AF_UNSPEC;
		req->idiag_states = states(protocol, walk);
		req->idiag_ext = exts(protocol, walk);
	} else {
		struct inet_diag_req_v2 *req = mnl_nlmsg_put_extra_header(nlh, sizeof(*req));

		nlh->nlmsg_type = SOCK_DIAG_BY_FAMILY;
		req->sdiag_family = family;
		req->sdiag_protocol = protocol;
		req->idiag_states = states(protocol, walk);
		req->idiag_ext = exts(protocol, walk);
	}
}

static int feed(void *st, const void *buf, size_t len)
{
	return np_sock_diag_feed(st, buf, len);
}

int np_sock_diag_dump(struct np_nl *d, uint8_t family, uint8_t protocol,
		      enum np_sock_walk walk, struct np_sock_diag_stream *st)
{
	struct nlmsghdr *nlh;

	if (family == AF_UNSPEC && protocol != IPPROTO_TCP)
		return -EINVAL;		/* inet_diag's compatibility request is TCP's only */
	nlh = np_nl_request(d, 0, NLM_F_DUMP);
	np_sock_diag_put_request(nlh, family, protocol, walk);
	st->protocol = protocol;
	st->msg_type = nlh->nlmsg_type;
	st->seq = nlh->nlmsg_seq;
	st->errmsg[0] = '\0';
	return np_nl_exchange(d, nlh, feed, st);
}

void np_sock_limits_from(const struct np_snapshot *s, struct np_sock_limits *lim)
{
	bool ok;

	for (int i = 0; i < 3; i++) {
		int64_t v = np_sysctl_int(s, NP_SYSCTL_TCP_RMEM, i, &ok);

		lim->tcp_rmem[i] = ok ? v : -1;
		v = np_sysctl_int(s, NP_SYSCTL_TCP_WMEM, i, &ok);
		lim->tcp_wmem[i] = ok ? v : -1;
	}
	lim->rmem_max = np_sysctl_int(s, NP_SYSCTL_RMEM_MAX, 0, &ok);
	if (!ok)
		lim->rmem_max = -1;
	lim->wmem_max = np_sysctl_int(s, NP_SYSCTL_WMEM_MAX, 0, &ok);
	if (!ok)
		lim->wmem_max = -1;
	lim->moderate_rcvbuf = (int)np_sysctl_int(s, NP_SYSCTL_TCP_MODERATE_RCVBUF, 0, &ok);
	if (!ok)
		lim->moderate_rcvbuf = -1;
}

static const char *part_name(uint8_t family, uint8_t protocol)
{
	if (protocol == IPPROTO_TCP)
		return family == AF_UNSPEC ? "TCP" : family == AF_INET ? "TCP/IPv4" : "TCP/IPv6";
	return family == AF_INET ? "UDP/IPv4" : "UDP/IPv6";
}

/* "UDP/IPv4: udp_diag not loaded", "TCP/IPv6: no reply within 2 s", the kernel's words... */
static void describe(char *buf, size_t size, uint8_t family, uint8_t protocol, int err,
		     const struct np_sock_diag_stream *st)
{
	const char *what = part_name(family, protocol);

	if (st->errmsg[0])
		snprintf(buf, size, "%s: kernel says: %.96s", what, st->errmsg);
	else if (err == -ENOENT)
		snprintf(buf, size, "%s: %s not available (module not loaded?)", what,
			 protocol == IPPROTO_TCP ? "tcp_diag" : "udp_diag");
	else if (err == -ETIMEDOUT)
		snprintf(buf, size, "%s: dump not finished in time (%llu sockets read)", what,
			 (unsigned long long)st->n);
	else if (err == -ENOBUFS)
		snprintf(buf, size, "%s: netlink socket overrun, messages lost", what);
	else if (err == -EBADMSG)
		snprintf(buf, size, "%s: truncated or malformed reply", what);
	else
		snprintf(buf, size, "%s: %s", what, strerror(-err));
}

/* The dumps of one collection: the socket, and the errors seen so far. */
struct dumps {
	struct np_nl d;
	bool open;
	const struct np_sock_limits *lim;
	np_sock_fold_fn *fold;
	enum np_sock_walk walk;
	struct np_sockets *socks;
	char detail[sizeof(((struct np_src *)0)->detail)];
	int first_err, nfail, nok;
};

/* What dump_part() returns when the kernel refused the request outright (nothing folded in)
 * and the caller may ask another way: not an errno, so a dump that failed halfway (sockets
 * already counted) can never be mistaken for it and repeated. */
#define DUMP_REFUSED 1

/* One dump into the totals: 0, DUMP_REFUSED (only when may_fall_back), or a recorded -errno. */
static int dump_part(struct dumps *x, uint8_t family, uint8_t protocol, bool may_fall_back)
{
	struct np_sock_diag_stream st = { .socks = x->socks, .lim = x->lim, .fold = x->fold };
	int err;

	if (!x->open)
		return -EBADF;
	err = np_sock_diag_dump(&x->d, family, protocol, x->walk, &st);
	x->socks->bad += st.bad;
	if (st.intr)
		np_dbg("sock_diag: %s dump interrupted by changes", part_name(family, protocol));
	if (!err) {
		x->nok++;
		return 0;
	}
	np_dbg("sock_diag: %s: %s", part_name(family, protocol), strerror(-err));
	if (may_fall_back && !st.n && (err == -EINVAL || err == -EOPNOTSUPP))
		return DUMP_REFUSED;
	x->nfail++;
	if (!x->first_err) {
		x->first_err = err;
		describe(x->detail, sizeof(x->detail), family, protocol, err, &st);
	}
	/* The broken dump may still be running on this socket (a new one gets EBUSY) and its
	 * rest would arrive later: start over on a fresh socket. */
	x->open = np_nl_reopen(&x->d) == 0;
	return err;
}

/*
 * A full walk of a live namespace that would find nothing: sockstat counts no TCP socket of it
 * in the listening or established hash (TCP and TCP6 inuse) and none in TIME_WAIT (tw: this
 * namespace's since 4.14, the host's before, which is stricter); request sockets hang off
 * listeners, which inuse counts. The walk would still visit every bucket of the established
 * hash, which all namespaces share: beside 200,000 sockets of another namespace, 45 ms for
 * nothing. One exception, said in netpath(8): since 6.6 a dump of every state also lists
 * sockets that are only bound (neither listening nor connected, shown as "close"), which inuse
 * does not count and no check judges. Not while recording a capture nor replaying one: a
 * capture always holds the dump, so that its replay, which cannot read the live sockstat the
 * recording decided on (nor sockstat6 in captures older than this), shows what it held.
 */
static bool no_tcp_socket(const struct np_ctx *ctx, enum np_sock_walk walk)
{
	uint64_t inuse, tw;

	return walk == NP_SOCK_WALK_FULL && ctx->live && !ctx->tape &&
	       np_collect_tcp_inuse(ctx, &inuse, &tw) == 0 && inuse == 0 && tw == 0;
}

void np_collect_sockets(const struct np_ctx *ctx, np_sock_fold_fn *fold, struct np_snapshot *s)
{
	np_collect_sockets_walk(ctx, fold, s, NP_SOCK_WALK_FULL);
}

void np_collect_sockets_walk(const struct np_ctx *ctx, np_sock_fold_fn *fold,
			     struct np_snapshot *s, enum np_sock_walk walk)
{
	np_sockets_init(&s->socks);
	np_collect_sockets_walk_fresh(ctx, fold, s, walk);
}

void np_collect_sockets_walk_fresh(const struct np_ctx *ctx, np_sock_fold_fn *fold,
				   struct np_snapshot *s, enum np_sock_walk walk)
{
	struct np_sock_limits lim;
	struct dumps x = { .lim = &lim, .fold = fold, .walk = walk,
			   .socks = &s->socks };
	int err;

	s->socks.walk = walk;
	if (walk == NP_SOCK_WALK_FULL)
		s->socks.flows_t = s->t;
	if (!ctx->live && !ctx->tape) {
		np_srcp(s, NP_SRC_SOCK_DIAG)->status = NP_SRC_SKIPPED;
		snprintf(np_srcp(s, NP_SRC_SOCK_DIAG)->detail, sizeof(x.detail),
			 "needs sock_diag netlink on a live system (--root)");
		return;
	}
	if (!x.fold) {
		np_srcp(s, NP_SRC_SOCK_DIAG)->status = NP_SRC_SKIPPED;
		snprintf(np_srcp(s, NP_SRC_SOCK_DIAG)->detail, sizeof(x.detail),
			 "not asked for by this command");
		return;
	}
	np_sock_limits_from(s, &lim);
	err = np_sock_diag_open_tape(&x.d, ctx->tape);
	if (err < 0) {
		snprintf(x.detail, sizeof(x.detail), "sock_diag socket: %s", strerror(-err));
		np_src_set(s, NP_SRC_SOCK_DIAG, err, x.detail);
		return;
	}
	x.open = true;
	/* TCP in one walk of the hash tables where the kernel still takes the compatibility
	 * request (every kernel so far), else one dump per family. */
	if (no_tcp_socket(ctx, walk)) {
		np_dbg("sock_diag: no TCP socket in this namespace (sockstat): no TCP dump");
	} else if (dump_part(&x, AF_UNSPEC, IPPROTO_TCP, true) == DUMP_REFUSED) {
		dump_part(&x, AF_INET, IPPROTO_TCP, false);
		dump_part(&x, AF_INET6, IPPROTO_TCP, false);
	}
	dump_part(&x, AF_INET, IPPROTO_UDP, false);
	dump_part(&x, AF_INET6, IPPROTO_UDP, false);
	if (x.open)
		np_nl_close(&x.d);
	np_sockets_finish(&s->socks);
	if (!x.nfail && !s->socks.bad) {
		np_src_set(s, NP_SRC_SOCK_DIAG, 0, NULL);
	} else if (x.nok) {
		if (!x.nfail)
			snprintf(x.detail, sizeof(x.detail), "%u malformed messages ignored",
				 s->socks.bad);
		np_src_set(s, NP_SRC_SOCK_DIAG, -EBADMSG, x.detail);	/* partial */
	} else {
		np_src_set(s, NP_SRC_SOCK_DIAG, x.first_err, x.detail);
	}
}
