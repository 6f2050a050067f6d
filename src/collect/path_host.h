/* SPDX-License-Identifier: GPL-2.0-only */
/* netpath path/serve's kernel reads: tcp_info of the test's streams, a socket's congestion
 * control and interface, and /proc/stat's per-CPU times (tcp_info.c, cpu_stat.c). */
#ifndef NP_PATH_HOST_H
#define NP_PATH_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "path_test.h"

/* tcp_info (and SO_SNDBUF) of the n streams folded into one sample at t_s: sums, the largest
 * RTT, the smallest min RTT; a field the kernel's tcp_info is too short to hold stays NAN or
 * unset (have_chrono). 0, or -errno when no stream could be read. */
int np_tcp_sample(const int *fds, size_t n, double t_s, struct np_path_sample *s);
/* The socket's congestion control ("cubic") into buf: 0 or -errno. */
int np_sock_cc(int fd, char *buf, size_t len);
/* The interface holding the socket's local address ("" when none matches): 0 or -errno. */
int np_sock_ifname(int fd, char *buf, size_t len);

/* One CPU's /proc/stat times (USER_HZ ticks). */
struct np_cpu_times {
	uint64_t total, idle, irq;	/* idle: idle + iowait; irq: irq + softirq */
};
#define NP_CPU_TIMES_MAX 1024
/* Every "cpuN" row, by N (rows beyond max are left out): the count of slots filled (the
 * highest N + 1), or -errno. */
int np_cpu_times_read(struct np_cpu_times *t, size_t max);
/* Over the window between a and b (n CPUs): the busiest CPU's non-idle share, and the
 * largest irq+softirq share of any CPU (NAN when nothing elapsed). */
void np_cpu_busiest(const struct np_cpu_times *a, const struct np_cpu_times *b, size_t n,
		    double *busy_share, double *irq_share);

#endif
