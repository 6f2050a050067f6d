// SPDX-License-Identifier: GPL-2.0-only
/*
 * tcp_info of netpath path's own streams. The struct grew over the years (delivery_rate 4.9,
 * busy/rwnd/sndbuf_limited 4.10, snd_wnd 5.4): the kernel copies only as much as it has and
 * says how much, so each field is taken only when the returned length covers it.
 */
#include <errno.h>
#include <ifaddrs.h>
#include <math.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/tcp.h>

#include "path_host.h"

#define HAS(len, f) ((size_t)(len) >= offsetof(struct tcp_info, f) + \
		     sizeof(((struct tcp_info *)0)->f))

int np_tcp_sample(const int *fds, size_t n, double t_s, struct np_path_sample *s)
{
	size_t ok = 0;

	*s = (struct np_path_sample){
		.t_s = t_s, .rtt_ms = NAN, .min_rtt_ms = NAN, .delivery_rate_bps = NAN,
		.pacing_rate_bps = NAN, .snd_wnd_bytes = NAN, .notsent_bytes = NAN,
		.have_chrono = true,
	};
	for (size_t i = 0; i < n; i++) {
		struct tcp_info ti;
		socklen_t len = sizeof(ti), il = sizeof(int);
		int sndbuf = 0;

		memset(&ti, 0, sizeof(ti));
		if (fds[i] < 0 || getsockopt(fds[i], IPPROTO_TCP, TCP_INFO, &ti, &len) < 0)
			continue;
		ok++;
		if (!(s->rtt_ms >= ti.tcpi_rtt / 1000.0))
			s->rtt_ms = ti.tcpi_rtt / 1000.0;
		s->cwnd_bytes += (double)ti.tcpi_snd_cwnd * ti.tcpi_snd_mss;
		s->total_retrans += ti.tcpi_total_retrans;
		if (getsockopt(fds[i], SOL_SOCKET, SO_SNDBUF, &sndbuf, &il) == 0)
			s->sndbuf_bytes += sndbuf;
		if (HAS(len, tcpi_min_rtt) && ti.tcpi_min_rtt != ~0u &&
		    !(s->min_rtt_ms <= ti.tcpi_min_rtt / 1000.0))
			s->min_rtt_ms = ti.tcpi_min_rtt / 1000.0;
		if (HAS(len, tcpi_pacing_rate))
			s->pacing_rate_bps = (isnan(s->pacing_rate_bps) ? 0 : s->pacing_rate_bps) +
					     (double)ti.tcpi_pacing_rate * 8;
		if (HAS(len, tcpi_bytes_acked))
			s->bytes_acked += ti.tcpi_bytes_acked;
		if (HAS(len, tcpi_segs_out))
			s->segs_out += ti.tcpi_segs_out;
		if (HAS(len, tcpi_notsent_bytes))
			s->notsent_bytes = (isnan(s->notsent_bytes) ? 0 : s->notsent_bytes) +
					   ti.tcpi_notsent_bytes;
		if (HAS(len, tcpi_delivery_rate)) {
			s->delivery_rate_bps = (isnan(s->delivery_rate_bps) ? 0 :
						s->delivery_rate_bps) + (double)ti.tcpi_delivery_rate * 8;
			s->app_limited_streams += ti.tcpi_delivery_rate_app_limited;
		}
		if (HAS(len, tcpi_sndbuf_limited)) {
			s->busy_us += ti.tcpi_busy_time;
			s->rwnd_limited_us += ti.tcpi_rwnd_limited;
			s->sndbuf_limited_us += ti.tcpi_sndbuf_limited;
		} else {
			s->have_chrono = false;
		}
		if (HAS(len, tcpi_snd_wnd))
			s->snd_wnd_bytes = (isnan(s->snd_wnd_bytes) ? 0 : s->snd_wnd_bytes) +
					   ti.tcpi_snd_wnd;
	}
	if (ok == 0) {
		s->have_chrono = false;
		return -EBADF;
	}
	return 0;
}

int np_sock_cc(int fd, char *buf, size_t len)
{
	char cc[32] = "";
	socklen_t l = sizeof(cc) - 1;

	if (getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, cc, &l) < 0)
		return -errno;
	cc[l < sizeof(cc) ? l : sizeof(cc) - 1] = '\0';
	snprintf(buf, len, "%s", cc);
	return 0;
}

static bool same_addr(const struct sockaddr *a, const struct sockaddr_storage *b)
{
	if (!a || a->sa_family != b->ss_family)
		return false;
	if (a->sa_family == AF_INET)
		return ((const struct sockaddr_in *)(const void *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)(const void *)b)->sin_addr.s_addr;
	if (a->sa_family == AF_INET6)
		return memcmp(&((const struct sockaddr_in6 *)(const void *)a)->sin6_addr,
			      &((const struct sockaddr_in6 *)(const void *)b)->sin6_addr, 16) == 0;
	return false;
}

int np_sock_ifname(int fd, char *buf, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	struct ifaddrs *ifa, *i;

	buf[0] = '\0';
	if (getsockname(fd, (struct sockaddr *)&ss, &sl) < 0)
		return -errno;
	if (getifaddrs(&ifa) < 0)
		return -errno;
	for (i = ifa; i; i = i->ifa_next)
		if (same_addr(i->ifa_addr, &ss)) {
			snprintf(buf, len, "%s", i->ifa_name);
			break;
		}
	freeifaddrs(ifa);
	return 0;
}
