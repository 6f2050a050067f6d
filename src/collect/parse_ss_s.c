// SPDX-License-Identifier: GPL-2.0-only
/*
 * iproute2's `ss -s` summary (sos 4.9.2+: sos_commands/networking/ss_-s; pasted) into the
 * /proc/net/sockstat fields it was computed from, for trees without that file. ss reads
 * sockstat (misc/ss.c get_sockstat_line: inuse, orphan, tw, alloc) and prints, in its two
 * layouts:
 *   iproute2 >= 4.x: "TCP:   N (estab E, closed C, orphaned O, timewait W)", N = alloc + tw
 *   older (2.6-3.x): "TCP:   N (estab E, closed C, orphaned O, synrecv S, timewait W/W2),
 *                     ports P", N = alloc + S + W (S and W2 from slabinfo)
 * then "Transport Total IP IPv6" rows whose IP column is sockstat's inuse (TCP, UDP, FRAG).
 * "Total: N" is sockets used. What ss never prints stays NP_NA: TCP/UDP mem pages, FRAG memory
 * (tcp_mem and udp_mem checks cannot be judged from it).
 */
#include "parse.h"
#include "parse_util.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

/* "orphaned 8," / "timewait 954/0)," -> the leading number of the token after KEY. */
static bool after(const char *l, size_t ll, const char *key, uint64_t *v)
{
	size_t i = 0, tl;
	const char *t;

	while (np_tok_next(l, ll, &i, &t, &tl)) {
		size_t n = 0;

		if (!np_tok_eq(t, tl, key))
			continue;
		if (!np_tok_next(l, ll, &i, &t, &tl))
			return false;
		while (n < tl && t[n] >= '0' && t[n] <= '9')
			n++;
		/* what follows the digits: ",", ")", "),", "/N" */
		if (n < tl && t[n] != ',' && t[n] != ')' && t[n] != '/')
			return false;
		return np_tok_u64(t, n, v);
	}
	return false;
}

/* "TCP\t  3639  1859  1780": the IP column. */
static bool transport_ip(const char *l, size_t ll, size_t i, uint64_t *v)
{
	const char *t;
	size_t tl;
	uint64_t total;

	return np_tok_next(l, ll, &i, &t, &tl) && np_tok_u64(t, tl, &total) &&
	       np_tok_next(l, ll, &i, &t, &tl) && np_tok_u64(t, tl, v) && *v <= total;
}

int np_parse_ss_s(const char *buf, size_t len, struct np_sockstat *out)
{
	const char *l, *t;
	size_t ll, tl, pos = 0;
	bool found = false, table = false;
	int ret = 0;

	*out = (struct np_sockstat){ NP_NA, NP_NA, NP_NA, NP_NA, NP_NA, NP_NA,
				     NP_NA, NP_NA, NP_NA, NP_NA };
	if (!buf)
		return -EINVAL;
	while (np_line_next(buf, len, &pos, &l, &ll)) {
		size_t i = 0;
		uint64_t v, total, orphan, tw, syn = 0;

		if (!np_tok_next(l, ll, &i, &t, &tl))
			continue;
		if (np_tok_eq(t, tl, "Total:")) {
			if (np_tok_next(l, ll, &i, &t, &tl) && np_tok_u64(t, tl, &v)) {
				out->sockets_used = v;
				found = true;
			} else {
				ret = -EBADMSG;
			}
		} else if (np_tok_eq(t, tl, "TCP:")) {
			if (!np_tok_next(l, ll, &i, &t, &tl) || !np_tok_u64(t, tl, &total) ||
			    !after(l, ll, "orphaned", &orphan) || !after(l, ll, "timewait", &tw)) {
				ret = -EBADMSG;
				continue;
			}
			if (after(l, ll, "synrecv", &v))
				syn = v;
			out->tcp_orphan = orphan;
			out->tcp_tw = tw;
			/* alloc = total - tw (- synrecv): refuse a total that cannot hold them */
			if (total >= tw + syn)
				out->tcp_alloc = total - tw - syn;
			else
				ret = -EBADMSG;
			found = true;
		} else if (np_tok_eq(t, tl, "Transport")) {
			table = true;
		} else if (table && (np_tok_eq(t, tl, "TCP") || np_tok_eq(t, tl, "UDP") ||
				     np_tok_eq(t, tl, "FRAG"))) {
			uint64_t *f = t[0] == 'T' ? &out->tcp_inuse :
				      t[0] == 'U' ? &out->udp_inuse : &out->frag_inuse;

			if (transport_ip(l, ll, i, &v)) {
				*f = v;
				found = true;
			} else {
				ret = -EBADMSG;
			}
		}
	}
	return found ? ret : -EINVAL;
}
