// SPDX-License-Identifier: GPL-2.0-only
/* sock_diag collector: TCP and UDP dumps of this network namespace, folded as they stream. */
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

static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int np_sock_diag_open(struct np_sock_diag *d)
{
	int err;

	memset(d, 0, sizeof(*d));
	d->buf = malloc(NP_SOCK_DIAG_BUFSIZE + REQ_SIZE);
	if (!d->buf)
		return -ENOMEM;
	/* Somewhere arbitrary, so a previous process's stale replies cannot match. */
	d->seq = (uint32_t)time(NULL);
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

static ssize_t recv_some(struct np_sock_diag *d)
{
	ssize_t n;

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

int np_sock_diag_dump(struct np_sock_diag *d, uint8_t family, uint8_t protocol,
		      struct np_sock_diag_stream *st)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(d->buf + NP_SOCK_DIAG_BUFSIZE);
	struct inet_diag_req_v2 *req;
	double deadline = mono_now() + NP_SOCK_DIAG_DEADLINE_S;
	ssize_t n;
	int ret;

	nlh->nlmsg_type = SOCK_DIAG_BY_FAMILY;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = ++d->seq;
	req = mnl_nlmsg_put_extra_header(nlh, sizeof(*req));
	req->sdiag_family = family;
	req->sdiag_protocol = protocol;
	req->idiag_states = ~0u;	/* every state: the per-state counts need them all */
	if (protocol == IPPROTO_TCP)
		req->idiag_ext = 1 << (INET_DIAG_INFO - 1) | 1 << (INET_DIAG_CONG - 1) |
				 1 << (INET_DIAG_SKMEMINFO - 1) |
				 1 << (INET_DIAG_VEGASINFO - 1);	/* brings BBR/DCTCP info */
	else
		req->idiag_ext = 1 << (INET_DIAG_SKMEMINFO - 1);
	st->protocol = protocol;
	st->seq = nlh->nlmsg_seq;
	st->errmsg[0] = '\0';
	if (mnl_socket_sendto(d->nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	do {
		if (mono_now() > deadline)
			return -ETIMEDOUT;
		n = recv_some(d);
		if (n < 0)
			return (int)n;
		if (d->tap)
			d->tap(d->tap_arg, d->buf, (size_t)n);
		ret = np_sock_diag_feed(st, d->buf, (size_t)n);
	} while (ret > 0);
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
		return family == AF_INET ? "TCP/IPv4" : "TCP/IPv6";
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

void np_collect_sockets(const struct np_ctx *ctx, struct np_snapshot *s)
{
	static const struct { uint8_t family, protocol; } parts[] = {
		{ AF_INET, IPPROTO_TCP }, { AF_INET6, IPPROTO_TCP },
		{ AF_INET, IPPROTO_UDP }, { AF_INET6, IPPROTO_UDP },
	};
	struct np_sock_limits lim;
	struct np_sock_diag d;
	char detail[sizeof(s->src[0].detail)] = "";
	int err, first_err = 0, nfail = 0, nok = 0;

	np_sockets_init(&s->socks);
	if (!ctx->live) {
		s->src[NP_SRC_SOCK_DIAG].status = NP_SRC_SKIPPED;
		snprintf(s->src[NP_SRC_SOCK_DIAG].detail, sizeof(detail),
			 "needs sock_diag netlink on a live system (--root)");
		return;
	}
	np_sock_limits_from(s, &lim);
	err = np_sock_diag_open(&d);
	if (err < 0) {
		snprintf(detail, sizeof(detail), "sock_diag socket: %s", strerror(-err));
		np_src_set(s, NP_SRC_SOCK_DIAG, err, detail);
		return;
	}
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		struct np_sock_diag_stream st = { .socks = &s->socks, .lim = &lim };

		err = np_sock_diag_dump(&d, parts[i].family, parts[i].protocol, &st);
		s->socks.bad += st.bad;
		if (st.intr)
			np_dbg("sock_diag: %s dump interrupted by changes",
			       part_name(parts[i].family, parts[i].protocol));
		if (!err) {
			nok++;
			continue;
		}
		nfail++;
		if (!first_err) {
			first_err = err;
			describe(detail, sizeof(detail), parts[i].family, parts[i].protocol, err,
				 &st);
		}
		np_dbg("sock_diag: %s: %s", part_name(parts[i].family, parts[i].protocol),
		       strerror(-err));
		/* The broken dump may still be running on this socket (a new one gets EBUSY)
		 * and its rest would arrive later: start over on a fresh socket. */
		np_sock_diag_close(&d);
		if (np_sock_diag_open(&d) < 0)
			break;
	}
	np_sock_diag_close(&d);
	np_sockets_finish(&s->socks);
	if (!nfail && !s->socks.bad) {
		np_src_set(s, NP_SRC_SOCK_DIAG, 0, NULL);
	} else if (nok) {
		if (!nfail)
			snprintf(detail, sizeof(detail), "%u malformed messages ignored",
				 s->socks.bad);
		np_src_set(s, NP_SRC_SOCK_DIAG, -EBADMSG, detail);	/* partial */
	} else {
		np_src_set(s, NP_SRC_SOCK_DIAG, first_err, detail);
	}
}
