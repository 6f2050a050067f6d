// SPDX-License-Identifier: GPL-2.0-only
/* JSON "sockets" object: the sock_diag summary and, with --sockets N, the top N per problem. */
#include "json_writer.h"
#include "render_sockets.h"

#include <math.h>
#include <stdio.h>

static const char *const state_names[NP_SOCK_TCP_STATES] = {
	[1] = "established", [2] = "syn_sent", [3] = "syn_recv", [4] = "fin_wait1",
	[5] = "fin_wait2", [6] = "time_wait", [7] = "close", [8] = "close_wait",
	[9] = "last_ack", [10] = "listen", [11] = "closing", [12] = "new_syn_recv",
};

/* µs -> ms, null for "no sample" (0 or ~0U). */
static void kv_us_ms(struct np_json *j, const char *key, uint32_t us)
{
	np_json_kv_double(j, key, us && us != UINT32_MAX ? us / 1000.0 : NAN);
}

static void id_fields(struct np_json *j, const struct np_sock_id *id, bool remote)
{
	char b[64];

	np_json_kv_str(j, "local", np_sock_addr_str(id->family, id->saddr, id->sport, b,
						     sizeof(b)));
	np_json_kv_str(j, "remote", remote ? np_sock_addr_str(id->family, id->daddr, id->dport,
							      b, sizeof(b)) : NULL);
	np_json_kv_u64(j, "port", id->sport);
	np_json_kv_u64(j, "inode", id->inode);
	np_json_key(j, "pid");
	if (id->pid >= 0)
		np_json_int(j, id->pid);
	else
		np_json_null(j);
	np_json_kv_str(j, "process", id->pid >= 0 ? id->comm : NULL);
}

static void list_open(struct np_json *j, const char *key, uint64_t total)
{
	np_json_key_obj_open(j, key);
	np_json_kv_u64(j, "total", total);
	np_json_key_arr_open(j, "sockets");
}

static void list_close(struct np_json *j)
{
	np_json_arr_close(j);
	np_json_obj_close(j);
}

static void flow(struct np_json *j, const struct np_sock_flow *f)
{
	static const char *const flag_names[] = {
		"receive-window", "sndbuf", "peer-window", "rcvbuf-at-max", "sndbuf-at-max",
		"rcvbuf-pinned", "sndbuf-pinned",
	};

	np_json_obj_open(j);
	id_fields(j, &f->id, true);
	np_json_kv_str(j, "cc", f->cc[0] ? f->cc : NULL);
	kv_us_ms(j, "rtt_ms", f->rtt_us);
	kv_us_ms(j, "min_rtt_ms", f->min_rtt_us);
	np_json_kv_u64(j, "rcvbuf", f->rcvbuf);
	np_json_kv_u64(j, "sndbuf", f->sndbuf);
	np_json_kv_u64(j, "rcv_space", f->rcv_space);
	np_json_kv_u64(j, "rmem_alloc", f->rmem_alloc);
	np_json_kv_u64(j, "retrans", f->total_retrans);
	np_json_kv_u64(j, "segs_out", f->segs_out);
	np_json_kv_double(j, "retrans_pct",
			  f->segs_out ? 100.0 * f->total_retrans / f->segs_out : NAN);
	np_json_kv_u64(j, "bytes_received", f->bytes_received);
	np_json_kv_u64(j, "bytes_acked", f->bytes_acked);
	np_json_kv_double(j, "delivery_rate_bps", (double)f->delivery_rate * 8.0);
	np_json_kv_double(j, "busy_s", f->busy_us / 1e6);
	np_json_kv_double(j, "rwnd_limited_s", f->rwnd_limited_us / 1e6);
	np_json_kv_double(j, "sndbuf_limited_s", f->sndbuf_limited_us / 1e6);
	np_json_key_arr_open(j, "limits");
	for (unsigned i = 0; i < sizeof(flag_names) / sizeof(flag_names[0]); i++)
		if (f->flags & (1u << i))
			np_json_str(j, flag_names[i]);
	np_json_arr_close(j);
	np_json_obj_close(j);
}

static void flows(struct np_json *j, const char *key, uint64_t total,
		  const struct np_sock_flow *e, uint32_t n, int top_n)
{
	list_open(j, key, total);
	for (uint32_t i = 0; i < n && (int)i < top_n; i++)
		flow(j, &e[i]);
	list_close(j);
}

static void top_lists(struct np_json *j, const struct np_sockets *k, int top_n)
{
	np_json_key_obj_open(j, "top");
	np_json_kv_bool(j, "owners_mapped", k->owners_mapped);
	list_open(j, "listen_queue", k->listen.total);
	for (uint32_t i = 0; i < k->listen.n && (int)i < top_n; i++) {
		const struct np_sock_listener *l = &k->listen.e[i];

		np_json_obj_open(j);
		id_fields(j, &l->id, false);
		np_json_kv_u64(j, "queued", l->queued);
		np_json_kv_u64(j, "limit", l->limit);
		np_json_key(j, "drops");
		if (l->drops != UINT64_MAX)
			np_json_u64(j, l->drops);
		else
			np_json_null(j);
		np_json_obj_close(j);
	}
	list_close(j);
	list_open(j, "udp_drops", k->udp.total);
	for (uint32_t i = 0; i < k->udp.n && (int)i < top_n; i++) {
		const struct np_sock_udp *u = &k->udp.e[i];

		np_json_obj_open(j);
		id_fields(j, &u->id, u->id.dport != 0);
		np_json_kv_u64(j, "drops", u->drops);
		np_json_kv_u64(j, "rmem_alloc", u->rmem_alloc);
		np_json_kv_u64(j, "rcvbuf", u->rcvbuf);
		np_json_obj_close(j);
	}
	list_close(j);
	flows(j, "buffer_ceiling", k->ceiling.total, k->ceiling.e, k->ceiling.n, top_n);
	flows(j, "buffer_pinned", k->pinned.total, k->pinned.e, k->pinned.n, top_n);
	flows(j, "lossy_long_rtt", k->lossy.total, k->lossy.e, k->lossy.n, top_n);
	np_json_obj_close(j);
}

void np_render_sockets_json(struct np_json *j, const struct np_snapshot *s, int top_n)
{
	const struct np_sockets *k = &s->socks;

	if (!np_src_ok(s, NP_SRC_SOCK_DIAG)) {
		np_json_null(j);	/* the reason is in "unavailable" */
		return;
	}
	np_json_obj_open(j);
	np_json_key_obj_open(j, "tcp");
	np_json_kv_u64(j, "total", k->tcp_total);
	np_json_kv_u64(j, "ipv4", k->tcp_v4);
	np_json_kv_u64(j, "ipv6", k->tcp_v6);
	np_json_key_obj_open(j, "states");
	for (int i = 1; i < NP_SOCK_TCP_STATES; i++)
		np_json_kv_u64(j, state_names[i], k->tcp_state[i]);
	np_json_obj_close(j);
	np_json_kv_u64(j, "without_info", k->no_info);
	np_json_obj_close(j);

	np_json_key_obj_open(j, "udp");
	np_json_kv_u64(j, "total", k->udp_total);
	np_json_kv_u64(j, "ipv4", k->udp_v4);
	np_json_kv_u64(j, "ipv6", k->udp_v6);
	np_json_kv_u64(j, "with_drops", k->udp_with_drops);
	np_json_kv_u64(j, "drops", k->udp_drops);
	np_json_obj_close(j);

	np_json_key_obj_open(j, "listeners");
	np_json_kv_u64(j, "total", k->listeners);
	np_json_kv_u64(j, "full", k->listen_full);
	np_json_kv_u64(j, "near_full", k->listen_near);
	np_json_kv_u64(j, "drops", k->listen_drops);
	np_json_obj_close(j);

	np_json_key_obj_open(j, "rtt");
	np_json_kv_u64(j, "samples", k->rtt_n);
	np_json_kv_double(j, "p50_ms", k->rtt_p50_ms);
	np_json_kv_double(j, "p90_ms", k->rtt_p90_ms);
	np_json_kv_double(j, "p99_ms", k->rtt_p99_ms);
	np_json_kv_u64(j, "min_rtt_samples", k->min_rtt_n);
	np_json_kv_double(j, "min_rtt_p50_ms", k->min_rtt_p50_ms);
	np_json_kv_double(j, "min_rtt_p90_ms", k->min_rtt_p90_ms);
	np_json_kv_double(j, "min_rtt_p99_ms", k->min_rtt_p99_ms);
	np_json_obj_close(j);

	np_json_key_obj_open(j, "limited");
	np_json_kv_double(j, "busy_s", k->busy_us / 1e6);
	np_json_kv_double(j, "rwnd_limited_s", k->rwnd_limited_us / 1e6);
	np_json_kv_double(j, "sndbuf_limited_s", k->sndbuf_limited_us / 1e6);
	np_json_kv_u64(j, "receive_window_limited", k->rcv_limited);
	np_json_kv_u64(j, "sndbuf_limited", k->snd_limited);
	np_json_kv_u64(j, "peer_window_limited", k->rwnd_limited);
	np_json_kv_u64(j, "at_tcp_rmem_max", k->rcvbuf_max);
	np_json_kv_u64(j, "at_tcp_wmem_max", k->sndbuf_max);
	np_json_kv_u64(j, "rcvbuf_pinned", k->rcvbuf_pinned);
	np_json_kv_u64(j, "sndbuf_pinned", k->sndbuf_pinned);
	np_json_obj_close(j);

	np_json_key_arr_open(j, "congestion_control");
	for (uint32_t i = 0; i <= NP_SOCK_MAX_CC; i++) {
		const struct np_sock_cc *c = &k->cc[i];

		if (i >= k->ncc && i != NP_SOCK_MAX_CC)
			continue;
		if (i == NP_SOCK_MAX_CC && !c->sockets)
			continue;
		np_json_obj_open(j);
		np_json_kv_str(j, "name", i == NP_SOCK_MAX_CC ? "other" : c->name);
		np_json_kv_u64(j, "sockets", c->sockets);
		np_json_kv_u64(j, "long_rtt", c->long_rtt);
		np_json_kv_u64(j, "segs_out", c->segs_out);
		np_json_kv_u64(j, "retrans", c->retrans);
		np_json_kv_double(j, "retrans_pct",
				  c->segs_out ? 100.0 * c->retrans / c->segs_out : NAN);
		np_json_kv_u64(j, "bytes_sent", c->bytes_sent);
		np_json_kv_u64(j, "bytes_retrans", c->bytes_retrans);
		np_json_obj_close(j);
	}
	np_json_arr_close(j);
	if (top_n > 0)
		top_lists(j, k, top_n);
	np_json_obj_close(j);
}
