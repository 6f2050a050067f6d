// SPDX-License-Identifier: GPL-2.0-only
/*
 * The transfer of a path test. The sender writes as fast as each stream takes it and samples
 * tcp_info on a 100 ms grid; when the time is up it half-closes, and the receiver, which reads
 * to the end of each stream, closes back: the transfer's duration ends there, so the bytes the
 * receiver counted over it are the throughput, drained queues included.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "path_host.h"
#include "path_xfer.h"
#include "npfloor.h"

#define CHUNK (128 * 1024)

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void np_xfer_refuse(int lfd)
{
	int c = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	static const char busy[] = "BUSY netpath serve: a test is running, try again later\n";

	if (c < 0)
		return;
	(void)!send(c, busy, sizeof(busy) - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
	close(c);
}

static void sample(const int *fds, size_t n, double t, struct np_path_result *r)
{
	if (r->nsamples < NP_PATH_MAX_SAMPLES &&
	    np_tcp_sample(fds, n, t, &r->samples[r->nsamples]) == 0)
		r->nsamples++;
}

int np_xfer_send(const int *fds, size_t n, double duration, double grace, int lfd,
		 struct np_path_result *r)
{
	static char buf[CHUNK];
	struct pollfd p[NP_PATH_MAX_STREAMS + 1];
	bool live[NP_PATH_MAX_STREAMS];
	double t0 = mono(), next = 0.1, now, end_wait;
	size_t alive = n, open_n;

	memset(buf, 'n', sizeof(buf));
	for (size_t i = 0; i < n; i++) {
		fcntl(fds[i], F_SETFL, fcntl(fds[i], F_GETFL) | O_NONBLOCK);
		live[i] = true;
	}
	sample(fds, n, 0, r);
	while ((now = mono() - t0) < duration && alive > 0) {
		int wait = (int)ceil((np_fmin(next, duration) - now) * 1000);

		for (size_t i = 0; i < n; i++)
			p[i] = (struct pollfd){ .fd = live[i] ? fds[i] : -1, .events = POLLOUT };
		p[n] = (struct pollfd){ .fd = lfd, .events = POLLIN };
		if (poll(p, n + 1, wait > 0 ? wait : 0) < 0 && errno != EINTR)
			break;
		for (size_t i = 0; i < n; i++) {
			if (!live[i] || !(p[i].revents & (POLLOUT | POLLERR | POLLHUP)))
				continue;
			if (send(fds[i], buf, sizeof(buf), MSG_NOSIGNAL | MSG_DONTWAIT) < 0 &&
			    errno != EAGAIN && errno != EINTR) {
				live[i] = false;
				alive--;
			}
		}
		if (lfd >= 0 && (p[n].revents & POLLIN))
			np_xfer_refuse(lfd);
		if (mono() - t0 >= next) {
			sample(fds, n, mono() - t0, r);
			next += 0.1;
		}
	}
	if (alive == 0) {
		errno = ECONNRESET;
		return -1;
	}
	/* Time's up: no more data; the receiver reads the rest and closes. */
	for (size_t i = 0; i < n; i++)
		shutdown(fds[i], SHUT_WR);
	end_wait = mono() + grace;
	open_n = n;
	while (open_n > 0 && mono() < end_wait) {
		char sink[4096];

		for (size_t i = 0; i < n; i++)
			p[i] = (struct pollfd){ .fd = live[i] ? fds[i] : -1, .events = POLLIN };
		p[n] = (struct pollfd){ .fd = lfd, .events = POLLIN };
		if (poll(p, n + 1, 100) < 0 && errno != EINTR)
			break;
		for (size_t i = 0; i < n; i++) {
			ssize_t got;

			if (!live[i] || !(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			got = recv(fds[i], sink, sizeof(sink), MSG_DONTWAIT);
			if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR)) {
				live[i] = false;
				open_n--;
			}
		}
		if (lfd >= 0 && (p[n].revents & POLLIN))
			np_xfer_refuse(lfd);
	}
	r->duration_s = mono() - t0;
	sample(fds, n, r->duration_s, r);
	r->sender_bytes = r->nsamples ? r->samples[r->nsamples - 1].bytes_acked : 0;
	return 0;
}

uint64_t np_xfer_recv(const int *fds, size_t n, double deadline, int lfd)
{
	static char buf[CHUNK];
	struct pollfd p[NP_PATH_MAX_STREAMS + 1];
	bool live[NP_PATH_MAX_STREAMS];
	double end = mono() + deadline;
	size_t open_n = n;
	uint64_t total = 0;

	for (size_t i = 0; i < n; i++)
		live[i] = true;
	while (open_n > 0 && mono() < end) {
		for (size_t i = 0; i < n; i++)
			p[i] = (struct pollfd){ .fd = live[i] ? fds[i] : -1, .events = POLLIN };
		p[n] = (struct pollfd){ .fd = lfd, .events = POLLIN };
		if (poll(p, n + 1, 200) < 0 && errno != EINTR)
			break;
		for (size_t i = 0; i < n; i++) {
			ssize_t got;

			if (!live[i] || !(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			got = recv(fds[i], buf, sizeof(buf), MSG_DONTWAIT);
			if (got > 0) {
				total += (uint64_t)got;
			} else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
				live[i] = false;
				open_n--;
				shutdown(fds[i], SHUT_WR);	/* tells the sender all is read */
			}
		}
		if (lfd >= 0 && (p[n].revents & POLLIN))
			np_xfer_refuse(lfd);
	}
	return total;
}
