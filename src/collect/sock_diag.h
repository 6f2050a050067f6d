/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sock_diag (NETLINK_SOCK_DIAG, inet_diag) on the netlink transport (nl_transport.h): TCP and
 * UDP dumps streamed into the snapshot's sockets section one message at a time. The message
 * parser and the stream walker are pure, so unit tests feed them recorded or hand-built dumps.
 */
#ifndef NP_SOCK_DIAG_H
#define NP_SOCK_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <libmnl/libmnl.h>

#include "nl_msg.h"
#include "nl_transport.h"

#include "sockets.h"

#define NP_SOCK_DIAG_TIMEOUT_MS 2000	/* per recv(): a kernel that does not answer */
#define NP_SOCK_DIAG_DEADLINE_S 5.0	/* per dump, however many sockets it holds */
/* Dump skbs are at most 32 KiB (netlink's max_recvmsg_len cap); twice that is headroom. */
#define NP_SOCK_DIAG_BUFSIZE (64u * 1024)
#define NP_SOCK_DIAG_ERRMSG NP_NL_ERRMSG

/*
 * struct tcp_info as of Linux 6.10 (248 bytes), our own copy: the system header may be older
 * or newer than the running kernel. The kernel sends its own struct, whatever its size: the
 * parser copies min(payload, sizeof) and zeroes the rest, so a field the kernel did not send
 * reads 0 and info_len tells which fields were sent.
 */
struct np_tcp_info {
	uint8_t state, ca_state, retransmits, probes, backoff, options, wscale, flags;
	uint32_t rto, ato, snd_mss, rcv_mss;
	uint32_t unacked, sacked, lost, retrans, fackets;
	uint32_t last_data_sent, last_ack_sent, last_data_recv, last_ack_recv;
	uint32_t pmtu, rcv_ssthresh, rtt, rttvar, snd_ssthresh, snd_cwnd, advmss, reordering;
	uint32_t rcv_rtt, rcv_space;
	uint32_t total_retrans;					/* 104 bytes: 2.6 .. 4.1 */
	uint64_t pacing_rate, max_pacing_rate;			/* 3.15 */
	uint64_t bytes_acked, bytes_received;			/* 4.1 */
	uint32_t segs_out, segs_in;				/* 4.2 */
	uint32_t notsent_bytes, min_rtt, data_segs_in, data_segs_out;	/* 4.6 */
	uint64_t delivery_rate;					/* 4.9 */
	uint64_t busy_time, rwnd_limited, sndbuf_limited;	/* 4.10 */
	uint32_t delivered, delivered_ce;			/* 4.18 */
	uint64_t bytes_sent, bytes_retrans;			/* 4.19 */
	uint32_t dsack_dups, reord_seen;
	uint32_t rcv_ooopack;					/* 5.4 */
	uint32_t snd_wnd;					/* 5.4: 232 bytes */
	uint32_t rcv_wnd;					/* 6.2 */
	uint32_t rehash;					/* 6.2 */
	uint16_t total_rto, total_rto_recoveries;		/* 6.10 */
	uint32_t total_rto_time;				/* 6.10: 248 bytes */
};

/* The state of one dump as it streams through. */
struct np_sock_diag_stream {
	struct np_sockets *socks;
	const struct np_sock_limits *lim;
	np_sock_fold_fn *fold;		/* each record goes through it (the checks' judgement) */
	uint8_t protocol;		/* IPPROTO_TCP or IPPROTO_UDP: the request's */
	/* The request's message type, which its replies carry: 0 or SOCK_DIAG_BY_FAMILY, or
	 * TCPDIAG_GETSOCK for the one-walk TCP dump of both families. */
	uint16_t msg_type;
	uint32_t seq;
	uint64_t n;			/* sockets folded in */
	unsigned bad;			/* messages that did not parse */
	bool intr;			/* NLM_F_DUMP_INTR seen: the table changed under the dump */
	char errmsg[NP_SOCK_DIAG_ERRMSG];	/* the kernel's extack text of a failed request */
};

/* Parse one SOCK_DIAG_BY_FAMILY reply (inet_diag_msg + attributes) into r. 0, or -EBADMSG when
 * the message is too short or an attribute runs past its end (r keeps what parsed). */
int np_sock_diag_parse(const struct nlmsghdr *nlh, uint8_t protocol, struct np_sock_rec *r);
/* Copy a tcp_info payload of any length into t (min(len, sizeof), the rest zeroed). */
void np_sock_diag_tcp_info(const void *payload, size_t len, struct np_tcp_info *t);
/*
 * Walk len bytes of a dump reply: messages of other sequence numbers are skipped, every
 * inet_diag message is parsed and folded into st->socks by st->fold, NLMSG_DONE ends the dump and
 * NLMSG_ERROR fails it (extack text in st->errmsg). Returns 1 when more is expected, 0 at the
 * end of the dump, or a negative errno (-EBADMSG for a truncated stream).
 */
int np_sock_diag_feed(struct np_sock_diag_stream *st, const void *buf, size_t len);

/* The transport: a NETLINK_SOCK_DIAG np_nl (np_nl_close() closes it), recording into tape (a
 * live tape) or answered by it (a capture's) when tape is not NULL. */
int np_sock_diag_open(struct np_nl *d);
int np_sock_diag_open_tape(struct np_nl *d, struct np_ktape *tape);
/* One dump (family AF_INET/AF_INET6, protocol IPPROTO_TCP/UDP; every state, or TCP listeners
 * only for NP_SOCK_WALK_LISTEN) streamed into st.
 * AF_UNSPEC with IPPROTO_TCP asks for both families in one walk of the kernel's hash tables
 * (the TCPDIAG_GETSOCK request, which inet_diag keeps for compatibility); -EINVAL or
 * -EOPNOTSUPP then mean a kernel without it.
 * 0, or a negative errno: the kernel's error, -ETIMEDOUT (silence, or the dump outlived
 * NP_SOCK_DIAG_DEADLINE_S), -ENOBUFS, -EMSGSIZE, -EBADMSG. */
int np_sock_diag_dump(struct np_nl *d, uint8_t family, uint8_t protocol,
		      enum np_sock_walk walk, struct np_sock_diag_stream *st);
/* The request np_sock_diag_dump() sends, after nlh's header (pure, for the tests): the message
 * type, family, protocol, idiag_states and idiag_ext of that walk (sock_diag.c says why). */
void np_sock_diag_put_request(struct nlmsghdr *nlh, uint8_t family, uint8_t protocol,
			      enum np_sock_walk walk);

/* Fill *lim from the snapshot's sysctls (-1 where unknown). */
struct np_snapshot;
void np_sock_limits_from(const struct np_snapshot *s, struct np_sock_limits *lim);

/*
 * Optional, opt-in: find the processes owning the sockets of the top lists by scanning
 * /proc/PID/fd (bounded: at most max_fds descriptors and deadline_s seconds). Fills id.pid and
 * id.comm where found. Returns how many were mapped, or a negative errno; never required.
 */
struct np_ctx;
int np_sockets_map_owners(const struct np_ctx *ctx, struct np_snapshot *s, unsigned max_fds,
			  double deadline_s);

#endif
