/* SPDX-License-Identifier: GPL-2.0-only */
/* Stage "socket" is split over socket.c, socket_mem.c and socket_bdp.c; this joins them. */
#ifndef NP_SOCKET_PRIV_H
#define NP_SOCKET_PRIV_H

#include "check.h"

#include <stdio.h>

/* socket_mem.c */
extern const struct np_check np_check_socket_tcp_mem, np_check_socket_udp_mem;
/* socket_bdp.c */
extern const struct np_check np_check_socket_tcp_rmem_bdp, np_check_socket_tcp_wmem_bdp,
	np_check_socket_rcvbuf_autotuning, np_check_socket_rmem_max,
	np_check_socket_buffer_limits;

/* RTTs from which buffer sizing is more than insurance. */
#define NP_SOCK_LONG_RTT_MS 10.0

/* Sum of the MIB counters named in a NULL-terminated list; absent ones are left out. */
static inline struct np_counter_view np_sock_mib_sum(const struct np_analysis *a,
						     const char *const *names)
{
	struct np_counter_view v = { 0 };

	for (size_t i = 0; names[i]; i++)
		v = np_view_sum(v, np_view_mib(a, names[i]));
	return v;
}

/* Evidence for each present counter of the list. */
static inline void np_sock_mib_evidence(struct np_finding *f, const struct np_analysis *a,
					const char *const *names, const char *unit)
{
	for (size_t i = 0; names[i]; i++) {
		struct np_counter_view v = np_view_mib(a, names[i]);

		if (v.present)
			np_ev_counter(f, names[i], unit, &v);
	}
}

/* Skip reason when the MIB files are unreadable or the kernel lacks the counters; NULL if ok. */
static inline const char *np_sock_mib_missing(const struct np_analysis *a,
					      const struct np_counter_view *v)
{
	if (!np_src_ok(a->cur, NP_SRC_SNMP) && !np_src_ok(a->cur, NP_SRC_NETSTAT))
		return "/proc/net/snmp and /proc/net/netstat not readable";
	if (!v->present)
		return "counters not reported by this kernel";
	return NULL;
}

/* "12.0/s (340 since boot)" or "340 since boot, none during the sample". */
static inline void np_sock_rate_text(const struct np_counter_view *v, char *buf, size_t size)
{
	if (v->sampled && v->delta)
		snprintf(buf, size, "%.1f/s (%llu since boot)", v->rate,
			 (unsigned long long)v->total);
	else
		snprintf(buf, size, "%llu since boot%s", (unsigned long long)v->total,
			 v->sampled ? ", none during the sample" : "");
}

/* A sysctl vector with at least n integers (tcp_rmem, tcp_mem, ...). */
static inline bool np_sock_vec(const struct np_snapshot *s, const char *key, int n, int64_t *v)
{
	const struct np_sysctl *e = np_sysctl_find(s, key);

	if (!e || e->err || e->nvals < n)
		return false;
	for (int i = 0; i < n; i++)
		v[i] = e->v[i];
	return true;
}

/* Round bytes up to a whole MiB (at least 1 MiB). */
static inline int64_t np_sock_round_mib(double bytes)
{
	int64_t mib = (int64_t)((bytes + (1 << 20) - 1) / (1 << 20));

	return (mib < 1 ? 1 : mib) << 20;
}

static inline enum np_severity np_sock_max_sev(enum np_severity x, enum np_severity y)
{
	return x > y ? x : y;
}

#endif
