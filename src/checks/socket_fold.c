// SPDX-License-Identifier: GPL-2.0-only
/*
 * Folding sock_diag records into the fixed-size sockets section while the dump streams in:
 * counts and RTT histograms, and the judgement of which sockets belong in the top lists (a
 * listener near its limit, a UDP socket dropping, a flow limited by a buffer at its ceiling or
 * pinned by the application, a lossy long flow). Judgement is the checks' business, so it lives
 * here; the collector streams each record into the fold the command hands it (np_collect())
 * and never stores the records: 200k sockets cost one np_sockets, not 200k rows.
 */
#include "socket_fold.h"

#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

static void set_id(struct np_sock_id *id, const struct np_sock_rec *r)
{
	memset(id, 0, sizeof(*id));
	id->family = r->family;
	id->state = r->state;
	id->sport = r->sport;
	id->dport = r->dport;
	memcpy(id->saddr, r->saddr, 16);
	memcpy(id->daddr, r->daddr, 16);
	id->inode = r->inode;
	id->cookie = r->cookie;
	id->pid = -1;
}

/*
 * Make room for an entry of rank 'key' in a list sorted worst (highest key) first. Returns the
 * slot to fill, or NULL when the list is full of entries that rank higher. rank() reads an
 * entry's key back, so the entries need not store it.
 */
static void *top_slot(void *base, uint32_t *n, size_t sz, double key, double (*rank)(const void *))
{
	char *b = base;
	uint32_t i = *n, last;

	while (i > 0 && rank(b + (size_t)(i - 1) * sz) < key)
		i--;
	if (i >= NP_SOCK_TOP)
		return NULL;
	last = *n < NP_SOCK_TOP ? *n : NP_SOCK_TOP - 1;
	memmove(b + (size_t)(i + 1) * sz, b + (size_t)i * sz, (size_t)(last - i) * sz);
	if (*n < NP_SOCK_TOP)
		(*n)++;
	return b + (size_t)i * sz;
}

/* Listeners: full queues first, then near-full, then by drops since creation. */
static double listener_rank(const void *p)
{
	const struct np_sock_listener *l = p;
	double tier = l->limit && l->queued >= l->limit ? 2 : l->limit && 4ull * l->queued >=
		      3ull * l->limit ? 1 : 0;

	return tier * 1e15 + (l->drops == UINT64_MAX ? 0 : ((double)l->drops < 1e14 ? (double)l->drops : 1e14));
}

static double udp_rank(const void *p)
{
	const struct np_sock_udp *u = p;

	/* A socket without drops but with a full queue ranks below every dropping one. */
	return u->drops ? (double)u->drops : 0.5;
}

/* Limited flows: the ones that moved the most data first. */
static double flow_rank(const void *p)
{
	const struct np_sock_flow *f = p;

	return (double)f->bytes_received + (double)f->bytes_acked;
}

static double lossy_rank(const void *p)
{
	const struct np_sock_flow *f = p;

	return f->segs_out ? (double)f->total_retrans / f->segs_out : 0;
}

static void add_listener(struct np_sockets *k, const struct np_sock_rec *r)
{
	struct np_sock_listener l = { .queued = r->rqueue, .limit = r->wqueue };
	bool full = r->wqueue && r->rqueue >= r->wqueue;
	bool near = r->wqueue && 4ull * r->rqueue >= 3ull * r->wqueue;
	void *slot;

	k->listeners++;
	k->listen_v6 += r->family == AF_INET6;
	l.drops = r->has_mem && r->nmem > NP_SKMEM_DROPS ? r->mem[NP_SKMEM_DROPS] : UINT64_MAX;
	if (l.drops != UINT64_MAX)
		k->listen_drops += l.drops;
	k->listen_full += full;
	k->listen_near += near && !full;
	if (!full && !near && (l.drops == UINT64_MAX || !l.drops))
		return;
	k->listen.total++;
	set_id(&l.id, r);
	slot = top_slot(k->listen.e, &k->listen.n, sizeof(l), listener_rank(&l), listener_rank);
	if (slot)
		memcpy(slot, &l, sizeof(l));
}

static void add_udp(struct np_sockets *k, const struct np_sock_rec *r)
{
	struct np_sock_udp u = { 0 };
	void *slot;

	k->udp_total++;
	if (r->family == AF_INET6)
		k->udp_v6++;
	else
		k->udp_v4++;
	if (!r->has_mem)
		return;
	u.drops = r->nmem > NP_SKMEM_DROPS ? r->mem[NP_SKMEM_DROPS] : 0;
	u.rmem_alloc = r->mem[NP_SKMEM_RMEM_ALLOC];
	u.rcvbuf = r->mem[NP_SKMEM_RCVBUF];
	k->udp_drops += u.drops;
	k->udp_with_drops += u.drops > 0;
	/* Truesize accounting lets rmem_alloc pass rcvbuf by one datagram. */
	if (!u.drops && !(u.rcvbuf && (uint64_t)u.rmem_alloc * 8 >= (uint64_t)u.rcvbuf * 7))
		return;
	k->udp.total++;
	set_id(&u.id, r);
	slot = top_slot(k->udp.e, &k->udp.n, sizeof(u), udp_rank(&u), udp_rank);
	if (slot)
		memcpy(slot, &u, sizeof(u));
}

static struct np_sock_cc *cc_row(struct np_sockets *k, const char *name)
{
	for (uint32_t i = 0; i < k->ncc; i++)
		if (!strcmp(k->cc[i].name, name))
			return &k->cc[i];
	if (!name[0] || k->ncc >= NP_SOCK_MAX_CC)
		return &k->cc[NP_SOCK_MAX_CC];
	snprintf(k->cc[k->ncc].name, sizeof(k->cc[0].name), "%s", name);
	return &k->cc[k->ncc++];
}

/* Within 1/64 below the ceiling: autotuning clamps to it exactly, allow for rounding. */
static bool at_ceiling(uint32_t buf, int64_t max)
{
	return max > 0 && (int64_t)buf <= max && (int64_t)buf >= max - max / 64;
}

/*
 * Whether a buffer looks fixed by SO_RCVBUF/SO_SNDBUF (SOCK_*BUF_LOCK, which sock_diag does not
 * export). Autotuning starts a TCP socket at tcp_{r,w}mem[1] and only grows it, clamped at
 * tcp_{r,w}mem[2]; setsockopt stores min(value, {r,w}mem_max) × 2. So a buffer below [1], above
 * [2], or exactly 2 × {r,w}mem_max (a request that hit the cap) was set by the application. A
 * request that lands inside [1]..[2] is indistinguishable from autotuning and is missed.
 */
static bool looks_pinned(uint32_t buf, const int64_t *range, int64_t sys_max)
{
	if (range[1] <= 0 || range[2] <= 0)
		return false;
	if ((int64_t)buf < range[1] || (int64_t)buf > range[2])
		return true;
	return sys_max > 0 && (int64_t)buf == 2 * sys_max && !at_ceiling(buf, range[2]);
}

static unsigned flow_flags(const struct np_sock_rec *r, const struct np_sock_limits *lim)
{
	uint32_t rcvbuf = r->mem[NP_SKMEM_RCVBUF], sndbuf = r->mem[NP_SKMEM_SNDBUF];
	bool busy = r->busy_time >= 100000;	/* 100 ms of sending: enough to judge shares */
	unsigned f = 0;

	/* rcv_space is the most the application read in one RTT: a full window (half the buffer
	 * with tcp_adv_win_scale=1, up to ~0.9 with 6.6+ scaling_ratio) means the window is
	 * what holds the sender back. 40% of the buffer catches both; the flow must have moved
	 * several buffers and received within the last minute. */
	if (r->has_mem && rcvbuf && (uint64_t)r->rcv_space * 10 >= (uint64_t)rcvbuf * 4 &&
	    r->bytes_received >= 4ull * rcvbuf && r->last_data_recv < 60000)
		f |= NP_SOCKF_RCV_LIMITED;
	if (busy && r->sndbuf_limited * 100 >= r->busy_time * NP_SOCK_LIMITED_PCT)
		f |= NP_SOCKF_SND_LIMITED;
	if (busy && r->rwnd_limited * 100 >= r->busy_time * NP_SOCK_LIMITED_PCT)
		f |= NP_SOCKF_RWND_LIMITED;
	if (!r->has_mem)
		return f;
	if (at_ceiling(rcvbuf, lim->tcp_rmem[2]))
		f |= NP_SOCKF_RCVBUF_MAX;
	else if (lim->moderate_rcvbuf != 0 && looks_pinned(rcvbuf, lim->tcp_rmem, lim->rmem_max))
		f |= NP_SOCKF_RCVBUF_PINNED;	/* with autotuning off globally, all would be */
	if (at_ceiling(sndbuf, lim->tcp_wmem[2]))
		f |= NP_SOCKF_SNDBUF_MAX;
	else if (looks_pinned(sndbuf, lim->tcp_wmem, lim->wmem_max))
		f |= NP_SOCKF_SNDBUF_PINNED;
	return f;
}

static void set_flow(struct np_sock_flow *fl, const struct np_sock_rec *r, unsigned flags)
{
	memset(fl, 0, sizeof(*fl));
	set_id(&fl->id, r);
	fl->flags = flags;
	snprintf(fl->cc, sizeof(fl->cc), "%s", r->cc);
	fl->rtt_us = r->rtt;
	fl->min_rtt_us = r->min_rtt;
	fl->rcvbuf = r->mem[NP_SKMEM_RCVBUF];
	fl->sndbuf = r->mem[NP_SKMEM_SNDBUF];
	fl->rmem_alloc = r->mem[NP_SKMEM_RMEM_ALLOC];
	fl->rcv_space = r->rcv_space;
	fl->total_retrans = r->total_retrans;
	fl->segs_out = r->segs_out;
	fl->bytes_received = r->bytes_received;
	fl->bytes_acked = r->bytes_acked;
	fl->bytes_retrans = r->bytes_retrans;
	fl->delivery_rate = r->delivery_rate;
	fl->busy_us = r->busy_time;
	fl->rwnd_limited_us = r->rwnd_limited;
	fl->sndbuf_limited_us = r->sndbuf_limited;
}

#define PUT_FLOW(k, list, r, flags) do {						\
	struct np_sock_flow fl_;							\
	void *slot_;									\
	set_flow(&fl_, (r), (flags));							\
	(k)->list.total++;								\
	slot_ = top_slot((k)->list.e, &(k)->list.n, sizeof(fl_), list##_key(&fl_),	\
			 list##_key);							\
	if (slot_)									\
		memcpy(slot_, &fl_, sizeof(fl_));					\
} while (0)
#define ceiling_key flow_rank
#define pinned_key flow_rank
#define lossy_key lossy_rank

static void add_established(struct np_sockets *k, const struct np_sock_rec *r,
			    const struct np_sock_limits *lim)
{
	bool local = np_sock_is_local(r->family, r->saddr, r->daddr);
	uint32_t base_rtt = r->min_rtt && r->min_rtt != UINT32_MAX ? r->min_rtt : r->rtt;
	struct np_sock_cc *cc;
	unsigned f;

	if (!r->has_info) {
		k->no_info++;
		return;
	}
	if (!local && r->rtt) {
		k->rtt_hist[np_sockets_rtt_bucket(r->rtt)]++;
		k->rtt_n++;
	}
	if (!local && r->min_rtt && r->min_rtt != UINT32_MAX) {
		k->min_rtt_hist[np_sockets_rtt_bucket(r->min_rtt)]++;
		k->min_rtt_n++;
	}
	cc = cc_row(k, r->cc);
	cc->sockets++;
	cc->retrans += r->total_retrans;
	cc->segs_out += r->segs_out;
	cc->bytes_sent += r->bytes_sent;
	cc->bytes_retrans += r->bytes_retrans;
	cc->long_rtt += !local && base_rtt >= NP_SOCK_LONG_RTT_US;
	k->busy_us += r->busy_time;
	k->rwnd_limited_us += r->rwnd_limited;
	k->sndbuf_limited_us += r->sndbuf_limited;

	f = flow_flags(r, lim);
	k->rcv_limited += !!(f & NP_SOCKF_RCV_LIMITED);
	k->snd_limited += !!(f & NP_SOCKF_SND_LIMITED);
	k->rwnd_limited += !!(f & NP_SOCKF_RWND_LIMITED);
	if (((f & NP_SOCKF_RCV_LIMITED) && (f & NP_SOCKF_RCVBUF_MAX)) ||
	    ((f & NP_SOCKF_SND_LIMITED) && (f & NP_SOCKF_SNDBUF_MAX))) {
		k->rcvbuf_max += (f & NP_SOCKF_RCV_LIMITED) && (f & NP_SOCKF_RCVBUF_MAX);
		k->sndbuf_max += (f & NP_SOCKF_SND_LIMITED) && (f & NP_SOCKF_SNDBUF_MAX);
		PUT_FLOW(k, ceiling, r, f);
	}
	if (((f & NP_SOCKF_RCV_LIMITED) && (f & NP_SOCKF_RCVBUF_PINNED)) ||
	    ((f & NP_SOCKF_SND_LIMITED) && (f & NP_SOCKF_SNDBUF_PINNED))) {
		k->rcvbuf_pinned += (f & NP_SOCKF_RCV_LIMITED) && (f & NP_SOCKF_RCVBUF_PINNED);
		k->sndbuf_pinned += (f & NP_SOCKF_SND_LIMITED) && (f & NP_SOCKF_SNDBUF_PINNED);
		PUT_FLOW(k, pinned, r, f);
	}
	if (!local && base_rtt >= NP_SOCK_LONG_RTT_US && r->segs_out >= NP_SOCK_MIN_SEGS &&
	    (uint64_t)r->total_retrans * 1000 >= (uint64_t)r->segs_out * NP_SOCK_LOSSY_PERMILLE)
		PUT_FLOW(k, lossy, r, f);
}

void np_socket_fold(struct np_sockets *k, const struct np_sock_rec *r,
		    const struct np_sock_limits *lim)
{
	if (r->protocol == IPPROTO_UDP) {
		add_udp(k, r);
		return;
	}
	k->tcp_total++;
	if (r->family == AF_INET6)
		k->tcp_v6++;
	else
		k->tcp_v4++;
	if (r->state < NP_SOCK_TCP_STATES)
		k->tcp_state[r->state]++;
	if (r->state == TCP_LISTEN)
		add_listener(k, r);
	else if (r->state == TCP_ESTABLISHED)
		add_established(k, r, lim);
}
