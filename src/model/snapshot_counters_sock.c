// SPDX-License-Identifier: GPL-2.0-only
/*
 * The socket summary's part of a frame into a snapshot (snapshot_counters_apply.c): the
 * population counts, and the UDP and listener problem lists rebuilt in the frame's order,
 * each socket keyed by inode and local port. A socket the configuration's summary also listed
 * keeps who it is (addresses, owner); one it did not list gets what the frame says (family,
 * local address) and an unknown owner.
 */
#include "snapshot_counters.h"
#include "snapshot_counters_priv.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#define SK_UDP_UNCONNECTED 7	/* TCP_CLOSE: how sock_diag numbers an unconnected UDP socket */
#define SK_LISTEN 10		/* TCP_LISTEN */

/* "INODE:PORT/" at *p; false if malformed or out of range. */
static bool parse_key(const char **p, uint32_t *inode, uint16_t *port)
{
	unsigned long long x[2] = { 0, 0 };
	const char *q = *p;
	char stop[2] = { ':', '/' };
	unsigned long long max[2] = { UINT32_MAX, UINT16_MAX };

	for (int k = 0; k < 2; k++) {
		if (*q < '0' || *q > '9')
			return false;
		for (; *q >= '0' && *q <= '9'; q++) {
			x[k] = x[k] * 10 + (unsigned)(*q - '0');
			if (x[k] > max[k])
				return false;
		}
		if (*q++ != stop[k])
			return false;
	}
	*inode = (uint32_t)x[0];
	*port = (uint16_t)x[1];
	*p = q;
	return true;
}

static void new_id(struct np_sock_id *id, const struct np_sock_id *old, uint32_t inode,
		   uint16_t port, uint8_t state)
{
	if (old) {
		*id = *old;
		return;
	}
	memset(id, 0, sizeof(*id));
	id->state = state;
	id->inode = inode;
	id->sport = port;
	id->pid = -1;
}

/* The identity fields a frame carries: family and the local address's two words. */
static bool set_id(struct np_sock_id *id, const char *f, uint64_t v)
{
	if (strcmp(f, "af") == 0) {
		if (v == AF_INET || v == AF_INET6)
			id->family = (uint8_t)v;
		return true;
	}
	if ((f[0] == 'a') && (f[1] == '0' || f[1] == '1') && !f[2]) {
		memcpy(id->saddr + (f[1] - '0') * 8, &v, 8);
		return true;
	}
	return false;
}

static uint32_t u32(uint64_t v)
{
	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

static void udp(struct np_sockets *k, const struct np_snapcnt_sock_ids *old, const char *r,
		uint64_t v)
{
	struct np_sock_udp *u = NULL;
	const struct np_sock_id *was = NULL;
	uint32_t inode;
	uint16_t port;

	if (strcmp(r, "total") == 0) {
		k->udp.total = v;
		return;
	}
	if (!parse_key(&r, &inode, &port))
		return;
	for (uint32_t i = 0; i < k->udp.n && !u; i++)
		if (k->udp.e[i].id.inode == inode && k->udp.e[i].id.sport == port)
			u = &k->udp.e[i];
	if (!u) {
		if (k->udp.n >= NP_SOCK_TOP)
			return;
		for (uint32_t i = 0; i < old->nudp && !was; i++)
			if (old->udp[i].inode == inode && old->udp[i].sport == port)
				was = &old->udp[i];
		u = &k->udp.e[k->udp.n++];
		new_id(&u->id, was, inode, port, SK_UDP_UNCONNECTED);
		u->drops = NP_NA;
		u->rmem_alloc = u->rcvbuf = 0;
	}
	if (strcmp(r, "drops") == 0)
		u->drops = v;
	else if (strcmp(r, "rmem") == 0)
		u->rmem_alloc = u32(v);
	else if (strcmp(r, "rcvbuf") == 0)
		u->rcvbuf = u32(v);
	else
		set_id(&u->id, r, v);
}

static void listener(struct np_sockets *k, const struct np_snapcnt_sock_ids *old, const char *r,
		     uint64_t v)
{
	struct np_sock_listener *l = NULL;
	const struct np_sock_id *was = NULL;
	uint32_t inode;
	uint16_t port;

	if (strcmp(r, "total") == 0) {
		k->listen.total = v;
		return;
	}
	if (!parse_key(&r, &inode, &port))
		return;
	for (uint32_t i = 0; i < k->listen.n && !l; i++)
		if (k->listen.e[i].id.inode == inode && k->listen.e[i].id.sport == port)
			l = &k->listen.e[i];
	if (!l) {
		if (k->listen.n >= NP_SOCK_TOP)
			return;
		for (uint32_t i = 0; i < old->nlisten && !was; i++)
			if (old->listen[i].inode == inode && old->listen[i].sport == port)
				was = &old->listen[i];
		l = &k->listen.e[k->listen.n++];
		new_id(&l->id, was, inode, port, SK_LISTEN);
		l->drops = NP_NA;
		l->queued = l->limit = 0;
	}
	if (strcmp(r, "drops") == 0)
		l->drops = v;
	else if (strcmp(r, "queued") == 0)
		l->queued = u32(v);
	else if (strcmp(r, "limit") == 0)
		l->limit = u32(v);
	else
		set_id(&l->id, r, v);
}

int np_snapcnt_apply_sock(struct np_sockets *k, const struct np_snapcnt_sock_ids *old,
			  const char *r, uint64_t v)
{
	const struct np_snapcnt_field *f;

	if (strncmp(r, "u/", 2) == 0) {
		udp(k, old, r + 2, v);
		return 0;
	}
	if (strncmp(r, "l/", 2) == 0) {
		listener(k, old, r + 2, v);
		return 0;
	}
	if (strncmp(r, "st/", 3) == 0) {
		const char *q = r + 3;
		unsigned x = 0;

		/* One or two digits, below NP_SOCK_TCP_STATES. */
		if (q[0] < '0' || q[0] > '9' || (q[1] && (q[1] < '0' || q[1] > '9' || q[2])))
			return 0;
		x = (unsigned)(q[0] - '0');
		if (q[1])
			x = x * 10 + (unsigned)(q[1] - '0');
		if (x < NP_SOCK_TCP_STATES)
			k->tcp_state[x] = v;
		return 0;
	}
	for (f = np_snapcnt_socks; f->name; f++)
		if (strcmp(f->name, r) == 0)
			np_snapcnt_field_set(k, f, v);
	return 0;
}
