// SPDX-License-Identifier: GPL-2.0-only
/* Pure inet_diag parsing: a reply message into a socket record, a dump into the section. */
#include "nl_msg.h"
#include "sock_diag.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <linux/tcp.h>

/* Our copy of tcp_info must keep the kernel's layout: offsets from include/uapi/linux/tcp.h. */
_Static_assert(offsetof(struct np_tcp_info, total_retrans) == 100, "tcp_info layout");
_Static_assert(offsetof(struct np_tcp_info, min_rtt) == 148, "tcp_info layout");
_Static_assert(offsetof(struct np_tcp_info, busy_time) == 168, "tcp_info layout");
_Static_assert(offsetof(struct np_tcp_info, bytes_retrans) == 208, "tcp_info layout");
_Static_assert(offsetof(struct np_tcp_info, snd_wnd) == 228, "tcp_info layout");
_Static_assert(sizeof(struct np_tcp_info) == 248, "tcp_info layout");

/* The size at which each field we read first appeared (a shorter struct did not have it). */
#define HAS(t, len, field) ((len) >= offsetof(struct np_tcp_info, field) + sizeof((t)->field))

void np_sock_diag_tcp_info(const void *payload, size_t len, struct np_tcp_info *t)
{
	/* A kernel's tcp_info is usually at least ours: one copy of a constant size, no clear.
	 * A variable length is a byte-counted copy (rep movsb), and per socket of a dump. */
	if (len >= sizeof(*t)) {
		memcpy(t, payload, sizeof(*t));
		return;
	}
	memset(t, 0, sizeof(*t));
	memcpy(t, payload, len);
}

static void take_info(struct np_sock_rec *r, const struct nlattr *a)
{
	size_t len = mnl_attr_get_payload_len(a);
	struct np_tcp_info t;

	np_sock_diag_tcp_info(mnl_attr_get_payload(a), len, &t);
	r->has_info = true;
	r->info_len = len;
	r->ca_state = t.ca_state;
	r->rtt = t.rtt;
	r->rttvar = t.rttvar;
	r->rcv_rtt = t.rcv_rtt;
	r->snd_cwnd = t.snd_cwnd;
	r->snd_mss = t.snd_mss;
	r->rcv_mss = t.rcv_mss;
	r->rcv_ssthresh = t.rcv_ssthresh;
	r->rcv_space = t.rcv_space;
	r->lost = t.lost;
	r->last_data_recv = t.last_data_recv;
	r->total_retrans = t.total_retrans;
	r->pacing_rate = t.pacing_rate;
	r->bytes_acked = t.bytes_acked;
	r->bytes_received = t.bytes_received;
	r->segs_out = t.segs_out;
	r->segs_in = t.segs_in;
	/* The kernel reports ~0U before the first sample; absent (pre-4.6) reads as 0. */
	r->min_rtt = HAS(&t, len, min_rtt) ? t.min_rtt : 0;
	r->delivery_rate = t.delivery_rate;
	r->busy_time = t.busy_time;
	r->rwnd_limited = t.rwnd_limited;
	r->sndbuf_limited = t.sndbuf_limited;
	r->bytes_sent = t.bytes_sent;
	r->bytes_retrans = t.bytes_retrans;
	r->snd_wnd = t.snd_wnd;
	r->rcv_wnd = t.rcv_wnd;
}

static void take_mem(struct np_sock_rec *r, const struct nlattr *a)
{
	size_t n = mnl_attr_get_payload_len(a) / sizeof(uint32_t);

	r->has_mem = true;
	r->nmem = (unsigned)(n < NP_SKMEM__COUNT ? n : NP_SKMEM__COUNT);
	/* r was cleared by np_sock_diag_parse: a shorter array leaves the rest 0. The full
	 * array (every kernel since 4.x) as one copy of a constant size, as in tcp_info. */
	if (r->nmem == NP_SKMEM__COUNT)
		memcpy(r->mem, mnl_attr_get_payload(a), sizeof(r->mem));
	else
		memcpy(r->mem, mnl_attr_get_payload(a), r->nmem * sizeof(uint32_t));
}

static void take_bbr(struct np_sock_rec *r, const struct nlattr *a)
{
	struct tcp_bbr_info b;

	if (mnl_attr_get_payload_len(a) < sizeof(b))
		return;
	memcpy(&b, mnl_attr_get_payload(a), sizeof(b));
	r->has_bbr = true;
	r->bbr_bw = (uint64_t)b.bbr_bw_hi << 32 | b.bbr_bw_lo;
	r->bbr_min_rtt = b.bbr_min_rtt;
}

int np_sock_diag_parse(const struct nlmsghdr *nlh, uint8_t protocol, struct np_sock_rec *r)
{
	const struct nlattr *tb[INET_DIAG_MAX + 1];
	struct inet_diag_msg m;
	const char *cc;
	size_t hdr = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(m));
	int err;

	memset(r, 0, sizeof(*r));
	r->protocol = protocol;
	if (nlh->nlmsg_len < NLMSG_HDRLEN + sizeof(m))
		return -EBADMSG;
	memcpy(&m, mnl_nlmsg_get_payload(nlh), sizeof(m));
	if (m.idiag_family != AF_INET && m.idiag_family != AF_INET6)
		return -EBADMSG;
	r->family = m.idiag_family;
	r->state = m.idiag_state;
	r->sport = ntohs(m.id.idiag_sport);
	r->dport = ntohs(m.id.idiag_dport);
	memcpy(r->saddr, m.id.idiag_src, r->family == AF_INET ? 4 : 16);
	memcpy(r->daddr, m.id.idiag_dst, r->family == AF_INET ? 4 : 16);
	r->cookie = (uint64_t)m.id.idiag_cookie[1] << 32 | m.id.idiag_cookie[0];
	r->inode = m.idiag_inode;
	r->uid = m.idiag_uid;
	r->rqueue = m.idiag_rqueue;
	r->wqueue = m.idiag_wqueue;
	if (nlh->nlmsg_len <= hdr)
		return 0;	/* timewait and request sockets carry no attributes */
	err = np_nl_attrs((const char *)nlh + hdr, nlh->nlmsg_len - hdr, tb, INET_DIAG_MAX);
	if (tb[INET_DIAG_INFO] && protocol == IPPROTO_TCP)
		take_info(r, tb[INET_DIAG_INFO]);
	if (tb[INET_DIAG_SKMEMINFO])
		take_mem(r, tb[INET_DIAG_SKMEMINFO]);
	if (tb[INET_DIAG_CONG]) {
		/* np_attr_str() and snprintf("%s") in one scan: they were a third of a dump's
		 * instructions per socket. The name only when NUL-terminated in its attribute
		 * (np_nl_attrs checked nla_len >= its header), cut to the field. */
		size_t n = tb[INET_DIAG_CONG]->nla_len - NLA_HDRLEN, k;

		cc = (const char *)tb[INET_DIAG_CONG] + NLA_HDRLEN;
		k = n ? strnlen(cc, n) : 0;
		if (k < n) {
			k = k < sizeof(r->cc) - 1 ? k : sizeof(r->cc) - 1;
			memcpy(r->cc, cc, k);
			r->cc[k] = '\0';
		}
	}
	if (tb[INET_DIAG_BBRINFO])
		take_bbr(r, tb[INET_DIAG_BBRINFO]);
	return err;
}

static int feed_cb(const struct nlmsghdr *nlh, void *data)
{
	struct np_sock_diag_stream *st = data;
	struct np_sock_rec r;

	if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
		st->intr = true;
	if (nlh->nlmsg_type != (st->msg_type ? st->msg_type : SOCK_DIAG_BY_FAMILY)) {
		st->bad++;
		return MNL_CB_OK;
	}
	if (np_sock_diag_parse(nlh, st->protocol, &r) < 0) {
		st->bad++;
		/* A damaged attribute still leaves a socket to count; a short header does not. */
		if (nlh->nlmsg_len < NLMSG_HDRLEN + sizeof(struct inet_diag_msg) || !r.family)
			return MNL_CB_OK;
	}
	st->fold(st->socks, &r, st->lim);
	st->n++;
	return MNL_CB_OK;
}

int np_sock_diag_feed(struct np_sock_diag_stream *st, const void *buf, size_t len)
{
	return np_nl_run(buf, len, st->seq, feed_cb, st, st->errmsg, sizeof(st->errmsg));
}
