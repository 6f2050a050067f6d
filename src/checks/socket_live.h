/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared by the checks that read live sockets (socket_live*.c, congestion_live.c). */
#ifndef NP_SOCKET_LIVE_H
#define NP_SOCKET_LIVE_H

#include "check_util.h"

#include <stdio.h>
#include <string.h>

/* The live sockets section, or NULL after skipping the check (--root, sock_diag failed). */
static inline const struct np_sockets *np_live_socks(const struct np_analysis *a,
						      struct np_report *r)
{
	const struct np_src *src = np_srcp(a->cur, NP_SRC_SOCK_DIAG);

	if (np_src_ok(a->cur, NP_SRC_SOCK_DIAG))
		return &a->cur->socks;
	np_skip(r, "live sockets not read (sock_diag %s%s%s)", np_src_status_name(src->status),
		src->detail[0] ? ": " : "", src->detail);
	return NULL;
}

/* Sockets read from ss text (collect/sos_ss.c), not asked of sock_diag: each finding says so. */
static inline void np_live_from(struct np_finding *f, const struct np_analysis *a)
{
	const char *d = np_srcp(a->cur, NP_SRC_SOCK_DIAG)->detail;

	if (f && strncmp(d, "from ss text ", 13) == 0)
		np_ev_text(f, "from", "ss text (%.*s)", (int)strcspn(d + 13, ":"), d + 13);
}

/* The previous snapshot's sockets when it has them. */
static inline const struct np_sockets *np_live_prev(const struct np_analysis *a)
{
	return a->prev && a->dt > 0 && np_src_ok(a->prev, NP_SRC_SOCK_DIAG) ? &a->prev->socks :
	       NULL;
}

/* " (nginx, pid 812)" when the owner was mapped, else "". */
static inline const char *np_live_owner(const struct np_sock_id *id, char *buf, size_t size)
{
	if (id->pid >= 0)
		snprintf(buf, size, " (%s, pid %d)", id->comm, id->pid);
	else if (size)
		buf[0] = '\0';
	return buf;
}

/*
 * A per-socket counter (drops) as a counter view. Sampled when prev listed the same socket, or
 * when prev's list was complete (every qualifying socket kept): then a socket it did not list
 * had no drops yet, or did not exist.
 */
static inline struct np_counter_view np_live_view(const struct np_analysis *a, uint64_t cur,
						  bool in_prev, uint64_t prev_val,
						  bool prev_complete)
{
	struct np_counter_view v = { .present = true, .total = cur };

	if (!np_live_prev(a) || !(in_prev || prev_complete))
		return v;
	v.sampled = true;
	v.delta = in_prev ? (cur >= prev_val ? cur - prev_val : 0) : cur;
	v.rate = (double)v.delta / a->dt;
	return v;
}

#endif
