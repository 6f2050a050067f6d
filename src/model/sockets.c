// SPDX-License-Identifier: GPL-2.0-only
/* The sockets section's plain helpers: RTT histograms, addresses, lookups. The fold that fills
 * it while a dump streams in is the checks' (checks/socket_fold.c). */
#include "sockets.h"

#include <arpa/inet.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

void np_sockets_init(struct np_sockets *k)
{
	memset(k, 0, sizeof(*k));
	np_sockets_init_zeroed(k);
}

void np_sockets_init_zeroed(struct np_sockets *k)
{
	k->rtt_p50_ms = k->rtt_p90_ms = k->rtt_p99_ms = NAN;
	k->min_rtt_p50_ms = k->min_rtt_p90_ms = k->min_rtt_p99_ms = NAN;
	k->flows_t = NAN;
}

void np_sockets_carry_flows(struct np_sockets *cur, const struct np_sockets *walk)
{
	uint64_t walk_lis_v4 = walk->listeners - walk->listen_v6;

	if (cur->walk != NP_SOCK_WALK_LISTEN || walk->walk != NP_SOCK_WALK_FULL)
		return;
	/* Listeners are this collection's; every other TCP state is the walk's. */
	cur->tcp_total += walk->tcp_total - walk->listeners;
	cur->tcp_v4 += walk->tcp_v4 >= walk_lis_v4 ? walk->tcp_v4 - walk_lis_v4 : 0;
	cur->tcp_v6 += walk->tcp_v6 >= walk->listen_v6 ? walk->tcp_v6 - walk->listen_v6 : 0;
	for (int i = 0; i < NP_SOCK_TCP_STATES; i++)
		if (i != TCP_LISTEN)
			cur->tcp_state[i] = walk->tcp_state[i];
	cur->no_info = walk->no_info;
	cur->rtt_n = walk->rtt_n;
	cur->min_rtt_n = walk->min_rtt_n;
	memcpy(cur->rtt_hist, walk->rtt_hist, sizeof(cur->rtt_hist));
	memcpy(cur->min_rtt_hist, walk->min_rtt_hist, sizeof(cur->min_rtt_hist));
	cur->busy_us = walk->busy_us;
	cur->rwnd_limited_us = walk->rwnd_limited_us;
	cur->sndbuf_limited_us = walk->sndbuf_limited_us;
	cur->rcv_limited = walk->rcv_limited;
	cur->snd_limited = walk->snd_limited;
	cur->rwnd_limited = walk->rwnd_limited;
	cur->rcvbuf_max = walk->rcvbuf_max;
	cur->rcvbuf_pinned = walk->rcvbuf_pinned;
	cur->sndbuf_max = walk->sndbuf_max;
	cur->sndbuf_pinned = walk->sndbuf_pinned;
	cur->ncc = walk->ncc;
	memcpy(cur->cc, walk->cc, sizeof(cur->cc));
	memcpy(&cur->ceiling, &walk->ceiling, sizeof(cur->ceiling));
	memcpy(&cur->pinned, &walk->pinned, sizeof(cur->pinned));
	memcpy(&cur->lossy, &walk->lossy, sizeof(cur->lossy));
	cur->rtt_p50_ms = walk->rtt_p50_ms;
	cur->rtt_p90_ms = walk->rtt_p90_ms;
	cur->rtt_p99_ms = walk->rtt_p99_ms;
	cur->min_rtt_p50_ms = walk->min_rtt_p50_ms;
	cur->min_rtt_p90_ms = walk->min_rtt_p90_ms;
	cur->min_rtt_p99_ms = walk->min_rtt_p99_ms;
	memcpy(cur->rtt_source, walk->rtt_source, sizeof(cur->rtt_source));
	cur->flows_carried = true;
	cur->flows_t = walk->flows_t;
}

/* 2^(j/NP_SOCK_RTT_SUB), j = 0..3: the bucket edges inside one power of two. Integer
 * exponents and this table replace log2() and pow(), the only reasons netpath linked libm (a
 * shared library every run paid to map and relocate). */
_Static_assert(NP_SOCK_RTT_SUB == 4, "rtt_step lists four edges");
static const double rtt_step[NP_SOCK_RTT_SUB] = {
	1.0, 1.18920711500272106672, 1.41421356237309504880, 1.68179283050742908606,
};

unsigned np_sockets_rtt_bucket(uint32_t us)
{
	unsigned e, j = 0, b;
	double m;

	if (us <= 1)
		return 0;
	e = 31 - (unsigned)__builtin_clz(us);		/* floor(log2(us)) */
	m = (double)us / (double)(1ULL << e);		/* exact: a power-of-two division */
	while (j + 1 < NP_SOCK_RTT_SUB && m >= rtt_step[j + 1])
		j++;
	b = e * NP_SOCK_RTT_SUB + j;
	return b < NP_SOCK_RTT_BUCKETS ? b : NP_SOCK_RTT_BUCKETS - 1;
}

/* 2^x for 0 <= x <= 1/NP_SOCK_RTT_SUB: the Taylor series of e^(x ln 2), whose terms fall below
 * 1e-19 by the 13th. */
static double exp2_small(double x)
{
	double t = x * 0.69314718055994530942, term = 1.0, sum = 1.0;

	for (int n = 1; n <= 13; n++) {
		term *= t / n;
		sum += term;
	}
	return sum;
}

/* 2^(k / NP_SOCK_RTT_SUB) for a real k >= 0, in ms per µs. */
static double rtt_edge_ms(double k)
{
	unsigned i = (unsigned)k;
	double frac = k - (double)i;

	return (double)(1ULL << (i / NP_SOCK_RTT_SUB)) * rtt_step[i % NP_SOCK_RTT_SUB] *
	       exp2_small(frac / NP_SOCK_RTT_SUB) / 1000.0;
}

double np_sockets_quantile_ms(const uint32_t *hist, uint64_t n, double q)
{
	double target = q * (double)n, cum = 0;

	if (!n)
		return NAN;
	for (unsigned i = 0; i < NP_SOCK_RTT_BUCKETS; i++) {
		double c = hist[i];

		if (c > 0 && cum + c >= target) {
			/* Geometric interpolation inside the bucket. */
			return rtt_edge_ms((double)i + (target - cum) / c);
		}
		cum += c;
	}
	return rtt_edge_ms(NP_SOCK_RTT_BUCKETS);
}

void np_sockets_finish(struct np_sockets *k)
{
	k->rtt_p50_ms = np_sockets_quantile_ms(k->rtt_hist, k->rtt_n, 0.50);
	k->rtt_p90_ms = np_sockets_quantile_ms(k->rtt_hist, k->rtt_n, 0.90);
	k->rtt_p99_ms = np_sockets_quantile_ms(k->rtt_hist, k->rtt_n, 0.99);
	k->min_rtt_p50_ms = np_sockets_quantile_ms(k->min_rtt_hist, k->min_rtt_n, 0.50);
	k->min_rtt_p90_ms = np_sockets_quantile_ms(k->min_rtt_hist, k->min_rtt_n, 0.90);
	k->min_rtt_p99_ms = np_sockets_quantile_ms(k->min_rtt_hist, k->min_rtt_n, 0.99);
	snprintf(k->rtt_source, sizeof(k->rtt_source),
		 "measured (p90 of %llu TCP sockets' min RTT)", (unsigned long long)k->min_rtt_n);
}

bool np_sock_is_local(uint8_t family, const uint8_t *saddr, const uint8_t *daddr)
{
	static const uint8_t v6_lo[16] = { [15] = 1 };
	static const uint8_t mapped[12] = { [10] = 0xff, [11] = 0xff };

	if (family == AF_INET)
		return saddr[0] == 127 || daddr[0] == 127 || !memcmp(saddr, daddr, 4);
	if (!memcmp(saddr, v6_lo, 16) || !memcmp(daddr, v6_lo, 16) || !memcmp(saddr, daddr, 16))
		return true;
	return (!memcmp(saddr, mapped, 12) && saddr[12] == 127) ||
	       (!memcmp(daddr, mapped, 12) && daddr[12] == 127);
}

const char *np_sock_addr_str(uint8_t family, const uint8_t *addr, uint16_t port, char *buf,
			     unsigned size)
{
	char a[INET6_ADDRSTRLEN];

	if (!inet_ntop(family == AF_INET6 ? AF_INET6 : AF_INET, addr, a, sizeof(a)))
		snprintf(a, sizeof(a), "?");
	if (family == AF_INET6)
		snprintf(buf, size, "[%s]:%u", a, port);
	else
		snprintf(buf, size, "%s:%u", a, port);
	return buf;
}

const struct np_sock_udp *np_sockets_find_udp(const struct np_sockets *k, uint32_t inode,
					      uint16_t port)
{
	for (uint32_t i = 0; i < k->udp.n; i++)
		if (k->udp.e[i].id.inode == inode && k->udp.e[i].id.sport == port)
			return &k->udp.e[i];
	return NULL;
}

const struct np_sock_listener *np_sockets_find_listener(const struct np_sockets *k,
							uint32_t inode, uint16_t port)
{
	for (uint32_t i = 0; i < k->listen.n; i++)
		if (k->listen.e[i].id.inode == inode && k->listen.e[i].id.sport == port)
			return &k->listen.e[i];
	return NULL;
}
