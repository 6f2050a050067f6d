/* SPDX-License-Identifier: GPL-2.0-only */
/* Stage "socket" is split over socket.c, socket_mem.c and socket_bdp.c; this joins them. */
#ifndef NP_SOCKET_PRIV_H
#define NP_SOCKET_PRIV_H

#include "check_util.h"
#include "sizing.h"

#include <stdio.h>

/* RTTs from which buffer sizing is more than insurance. */
#define NP_SOCK_LONG_RTT_MS 10.0

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

#endif
