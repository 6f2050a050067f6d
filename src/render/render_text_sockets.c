// SPDX-License-Identifier: GPL-2.0-only
/* Text "Sockets" block: the sock_diag summary and, with --sockets N, the top N per problem. */
#include "check.h"
#include "render.h"
#include "render_sockets.h"
#include "outbuf.h"

#include <math.h>
#include <stdio.h>

static const char *count(uint64_t v, char *b, size_t n)
{
	return np_fmt_count((double)v, b, n);
}

static void owner(struct np_ob *out, const struct np_sock_id *id)
{
	if (id->pid >= 0) {
		np_ob_puts(out, "  pid ");
		np_ob_i64(out, id->pid);
		np_ob_cat(out, " (", id->comm, ")", NULL);
	}
	np_ob_putc(out, '\n');
}

static void flows(struct np_ob *out, const char *title, uint64_t total,
		  const struct np_sock_flow *e, uint32_t n, int top_n)
{
	char l[64], r[64], b1[32], b2[32], c[32];

	np_ob_puts(out, "  ");
	np_ob_puts(out, title);
	np_ob_cat(out, ": ", count(total, c, sizeof(c)), "\n", NULL);
	for (uint32_t i = 0; i < n && (int)i < top_n; i++) {
		const struct np_sock_flow *f = &e[i];

		char rtt[24] = "?";

		/* 0 and ~0U are "no sample", as in the JSON. */
		if (f->rtt_us && f->rtt_us != UINT32_MAX)
			snprintf(rtt, sizeof(rtt), "%.3g", f->rtt_us / 1000.0);
		np_ob_printf(out, "    %s %s %s  %s  rtt %s ms  rcvbuf %s  sndbuf %s  retrans %.2f%%",
			np_sock_addr_str(f->id.family, f->id.saddr, f->id.sport, l, sizeof(l)),
			f->flags & NP_SOCKF_RCV_LIMITED ? "<-" : "->",
			np_sock_addr_str(f->id.family, f->id.daddr, f->id.dport, r, sizeof(r)),
			f->cc[0] ? f->cc : "?", rtt,
			np_fmt_bytes(f->rcvbuf, b1, sizeof(b1)), np_fmt_bytes(f->sndbuf, b2,
									     sizeof(b2)),
			f->segs_out ? 100.0 * f->total_retrans / f->segs_out : 0.0);
		owner(out, &f->id);
	}
}

static void top(struct np_ob *out, const struct np_sockets *k, int top_n)
{
	char a[64], b1[32], b2[32], c[32];

	np_ob_cat(out, "  listeners with a full or near-full accept queue, or drops: ",
		  count(k->listen.total, c, sizeof(c)), "\n", NULL);
	for (uint32_t i = 0; i < k->listen.n && (int)i < top_n; i++) {
		const struct np_sock_listener *l = &k->listen.e[i];

		np_ob_printf(out, "    %s  accept queue %u/%u",
			np_sock_addr_str(l->id.family, l->id.saddr, l->id.sport, a, sizeof(a)),
			l->queued, l->limit);
		if (l->drops != UINT64_MAX)
			np_ob_cat(out, "  drops ", count(l->drops, c, sizeof(c)), NULL);
		owner(out, &l->id);
	}
	np_ob_cat(out, "  UDP sockets dropping or full: ", count(k->udp.total, c, sizeof(c)),
		  "\n", NULL);
	for (uint32_t i = 0; i < k->udp.n && (int)i < top_n; i++) {
		const struct np_sock_udp *u = &k->udp.e[i];

		np_ob_printf(out, "    %s  drops %s  queue %s of rcvbuf %s",
			np_sock_addr_str(u->id.family, u->id.saddr, u->id.sport, a, sizeof(a)),
			count(u->drops, c, sizeof(c)), np_fmt_bytes(u->rmem_alloc, b1, sizeof(b1)),
			np_fmt_bytes(u->rcvbuf, b2, sizeof(b2)));
		owner(out, &u->id);
	}
	flows(out, "TCP flows limited at tcp_rmem/tcp_wmem max", k->ceiling.total, k->ceiling.e,
	      k->ceiling.n, top_n);
	flows(out, "TCP flows limited by an SO_RCVBUF/SO_SNDBUF size", k->pinned.total,
	      k->pinned.e, k->pinned.n, top_n);
	flows(out, "long-RTT TCP flows retransmitting >= 1%", k->lossy.total, k->lossy.e,
	      k->lossy.n, top_n);
}

void np_render_sockets_ob(struct np_ob *out, const struct np_snapshot *s, int top_n)
{
	const struct np_sockets *k = &s->socks;
	char c1[32], c2[32], c3[32], c4[32], c5[32];
	bool any = false;

	if (!np_src_ok(s, NP_SRC_SOCK_DIAG))
		return;
	np_ob_cat(out, "Sockets: TCP ", count(k->tcp_total, c1, sizeof(c1)), " (",
		  count(k->tcp_state[1], c2, sizeof(c2)), " established, ",
		  count(k->tcp_state[10], c3, sizeof(c3)), " listening, ",
		  count(k->tcp_state[6], c4, sizeof(c4)), " time-wait), UDP ",
		  count(k->udp_total, c5, sizeof(c5)), NULL);
	if (k->udp_with_drops)
		np_ob_cat(out, " (", count(k->udp_with_drops, c2, sizeof(c2)), " dropping, ",
			  count(k->udp_drops, c3, sizeof(c3)), " drops)", NULL);
	np_ob_putc(out, '\n');
	if (k->min_rtt_n)
		np_ob_printf(out, "  min RTT of %s sockets (loopback excluded): p50 %.3g ms, "
			"p90 %.3g ms, p99 %.3g ms\n", count(k->min_rtt_n, c1, sizeof(c1)),
			k->min_rtt_p50_ms, k->min_rtt_p90_ms, k->min_rtt_p99_ms);
	np_ob_puts(out, "  congestion control:");
	for (uint32_t i = 0; i <= NP_SOCK_MAX_CC; i++) {
		const struct np_sock_cc *c = &k->cc[i];

		if ((i >= k->ncc && i != NP_SOCK_MAX_CC) || !c->sockets)
			continue;
		np_ob_puts(out, any ? ", " : " ");
		np_ob_puts(out, i == NP_SOCK_MAX_CC ? "other" : c->name);
		np_ob_putc(out, ' ');
		np_ob_puts(out, count(c->sockets, c1, sizeof(c1)));
		if (c->segs_out >= NP_SOCK_MIN_SEGS)
			np_ob_printf(out, " (%.2f%% retransmitted)", 100.0 * c->retrans / c->segs_out);
		any = true;
	}
	np_ob_puts(out, any ? "\n" : " none established\n");
	if (k->listen_full || k->listen_near)
		np_ob_cat(out, "  listeners: ", count(k->listen_full, c1, sizeof(c1)),
			  " with a full accept queue, ", count(k->listen_near, c2, sizeof(c2)),
			  " near full\n", NULL);
	if (top_n > 0)
		top(out, k, top_n);
	np_ob_putc(out, '\n');
}

void np_render_sockets_text(FILE *out, const struct np_snapshot *s, int top_n)
{
	struct np_ob ob;

	np_ob_init(&ob, out);
	np_render_sockets_ob(&ob, s, top_n);
	np_ob_flush(&ob);
}
