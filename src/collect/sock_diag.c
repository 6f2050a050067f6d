// SPDX-License-Identifier: GPL-2.0-only
/* sock_diag collector: TCP and UDP dumps of this network namespace, folded as they stream. */
#include "clock.h"
#include "collect.h"
#include "log.h"
#include "nl_socket.h"
#include "sock_diag.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>

/* Request size: the header and an inet_diag_req_v2, nothing more. */
#define REQ_SIZE 256

int np_sock_diag_open(struct np_sock_diag *d)
{
	return np_sock_diag_open_tape(d, NULL);
}

int np_sock_diag_open_tape(struct np_sock_diag *d, struct np_ktape *tape)
{
	int err;

	memset(d, 0, sizeof(*d));
	d->buf = malloc(NP_SOCK_DIAG_BUFSIZE + REQ_SIZE);
	if (!d->buf)
		return -ENOMEM;
	/* Somewhere arbitrary, so a previous process's stale replies cannot match. */
	d->seq = (uint32_t)time(NULL);
	d->tape = tape;
	if (tape && !tape->recording)
		return 0;
	d->nl = np_nl_socket_open(NETLINK_SOCK_DIAG, NP_SOCK_DIAG_TIMEOUT_MS, "sock_diag", &err);
	if (!d->nl) {
		np_sock_diag_close(d);
		return err;
	}
	return 0;
}

void np_sock_diag_close(struct np_sock_diag *d)
{
	if (d->nl)
		mnl_socket_close(d->nl);
	free(d->buf);
	d->nl = NULL;
	d->buf = NULL;
}

static ssize_t recv_some(struct np_sock_diag *d, uint32_t seq)
{
	ssize_t n;

	if (d->tape && !d->tape->recording)
		return np_ktape_next(&d->play, d->buf, NP_SOCK_DIAG_BUFSIZE, seq);
	do {
		n = mnl_socket_recvfrom(d->nl, d->buf, NP_SOCK_DIAG_BUFSIZE);
	} while (n < 0 && errno == EINTR);
	if (n >= 0)
		return n;
	switch (errno) {
	case EAGAIN:
#if EWOULDBLOCK != EAGAIN
	case EWOULDBLOCK:
#endif
		return -ETIMEDOUT;
	case ENOSPC:		/* libmnl's word for MSG_TRUNC */
		return -EMSGSIZE;
	default:
		return -errno;
	}
}

/* The extensions asked for: TCP's tcp_info, congestion control name and its private info
 * (VEGASINFO brings BBR's and DCTCP's), socket memory for every protocol. All fit the 8 bits
 * of the legacy request. */
static uint8_t exts(uint8_t protocol)
{
	if (protocol == IPPROTO_TCP)
		return 1 << (INET_DIAG_INFO - 1) | 1 << (INET_DIAG_CONG - 1) |
		       1 << (INET_DIAG_SKMEMINFO - 1) | 1 << (INET_DIAG_VEGASINFO - 1);
	return 1 << (INET_DIAG_SKMEMINFO - 1);
}

static void put_request(struct nlmsghdr *nlh, uint8_t family, uint8_t protocol)
{
	if (family == AF_UNSPEC) {
		/* Each SOCK_DIAG_BY_FAMILY dump walks the whole established hash (262,144
		 * buckets on a 16 GiB host) for one family; this one walks it once for both. */
		struct inet_diag_req *req = mnl_nlmsg_put_extra_header(nlh, sizeof(*req));

		nlh->nlmsg_type = TCPDIAG_GETSOCK;
		req->idiag_family = AF_UNSPEC;
		req->idiag_states = ~0u;
		req->idiag_ext = exts(protocol);
	} else {
		struct inet_diag_req_v2 *req = mnl_nlmsg_put_extra_header(nlh, sizeof(*req));

		nlh->nlmsg_type = SOCK_DIAG_BY_FAMILY;
		req->sdiag_family = family;
		req->sdiag_protocol = protocol;
		req->idiag_states = ~0u;	/* every state: the per-state counts need them all */
		req->idiag_ext = exts(protocol);
	}
}

int np_sock_diag_dump(struct np_sock_diag *d, uint8_t family, uint8_t protocol,
		      struct np_sock_diag_stream *st)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(d->buf + NP_SOCK_DIAG_BUFSIZE);
	double deadline = np_mono_now() + NP_SOCK_DIAG_DEADLINE_S;
	ssize_t n;
	int ret;

	if (family == AF_UNSPEC && protocol != IPPROTO_TCP)
		return -EINVAL;		/* inet_diag's compatibility request is TCP's only */
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = ++d->seq;
	put_request(nlh, family, protocol);
	st->protocol = protocol;
	st->msg_type = nlh->nlmsg_type;
	st->seq = nlh->nlmsg_seq;
	st->errmsg[0] = '\0';
	if (d->tape && !d->tape->recording) {
		if (np_ktape_find(d->tape, NP_KT_SOCK_DIAG, nlh, nlh->nlmsg_len, &d->play) < 0)
			return -ENODATA;	/* the capture did not ask this */
	} else if (mnl_socket_sendto(d->nl, nlh, nlh->nlmsg_len) < 0) {
		return -errno;
	}
	if (d->tape && d->tape->recording)
		np_ktape_begin(d->tape, NP_KT_SOCK_DIAG, nlh, nlh->nlmsg_len);
	do {
		if (np_mono_now() > deadline) {
			ret = -ETIMEDOUT;
			break;
		}
		n = recv_some(d, st->seq);
		if (n < 0) {
			ret = (int)n;
			break;
		}
		if (d->tap)
			d->tap(d->tap_arg, d->buf, (size_t)n);
		if (d->tape && d->tape->recording)
			np_ktape_chunk(d->tape, d->buf, (size_t)n);
		ret = np_sock_diag_feed(st, d->buf, (size_t)n);
	} while (ret > 0);
	if (d->tape && d->tape->recording)
		np_ktape_end(d->tape, ret < 0 ? ret : 0);
	return ret;
}

void np_sock_limits_from(const struct np_snapshot *s, struct np_sock_limits *lim)
{
	bool ok;

	for (int i = 0; i < 3; i++) {
		int64_t v = np_sysctl_int(s, "net.ipv4.tcp_rmem", i, &ok);

		lim->tcp_rmem[i] = ok ? v : -1;
		v = np_sysctl_int(s, "net.ipv4.tcp_wmem", i, &ok);
		lim->tcp_wmem[i] = ok ? v : -1;
	}
	lim->rmem_max = np_sysctl_int(s, "net.core.rmem_max", 0, &ok);
	if (!ok)
		lim->rmem_max = -1;
	lim->wmem_max = np_sysctl_int(s, "net.core.wmem_max", 0, &ok);
	if (!ok)
		lim->wmem_max = -1;
	lim->moderate_rcvbuf = (int)np_sysctl_int(s, "net.ipv4.tcp_moderate_rcvbuf", 0, &ok);
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
	struct np_sock_diag d;
	bool open;
	const struct np_sock_limits *lim;
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
	struct np_sock_diag_stream st = { .socks = x->socks, .lim = x->lim };
	int err;

	if (!x->open)
		return -EBADF;
	err = np_sock_diag_dump(&x->d, family, protocol, &st);
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
	{
		struct np_ktape *tape = x->d.tape;

		np_sock_diag_close(&x->d);
		x->open = np_sock_diag_open_tape(&x->d, tape) == 0;
	}
	return err;
}

void np_collect_sockets(const struct np_ctx *ctx, struct np_snapshot *s)
{
	struct np_sock_limits lim;
	struct dumps x = { .lim = &lim, .socks = &s->socks };
	int err;

	np_sockets_init(&s->socks);
	if (!ctx->live && !ctx->tape) {
		s->src[NP_SRC_SOCK_DIAG].status = NP_SRC_SKIPPED;
		snprintf(s->src[NP_SRC_SOCK_DIAG].detail, sizeof(x.detail),
			 "needs sock_diag netlink on a live system (--root)");
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
	if (dump_part(&x, AF_UNSPEC, IPPROTO_TCP, true) == DUMP_REFUSED) {
		dump_part(&x, AF_INET, IPPROTO_TCP, false);
		dump_part(&x, AF_INET6, IPPROTO_TCP, false);
	}
	dump_part(&x, AF_INET, IPPROTO_UDP, false);
	dump_part(&x, AF_INET6, IPPROTO_UDP, false);
	if (x.open)
		np_sock_diag_close(&x.d);
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
