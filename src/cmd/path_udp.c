// SPDX-License-Identifier: GPL-2.0-only
/*
 * --udp-steps (path_udp.h): path offers fixed rates of UDP for a second each and serve counts
 * what arrives. A policer shows as a delivered rate that stops rising while the offered one
 * keeps rising, with the difference lost; the verdict reads that from r->steps.
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "path_udp.h"
#include "path_xfer.h"

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One step's datagrams at rate for NP_UDP_STEP_S: how many were sent. */
static uint64_t blast(int fd, const uint8_t *tag, uint32_t step, double rate)
{
	uint8_t dg[NP_UDP_PAYLOAD] = { 0 };
	double t0 = mono(), owed = 0, last = t0, now;
	uint64_t sent = 0;

	memcpy(dg, tag, NP_UDP_TAG);
	memcpy(dg + NP_UDP_TAG, &step, sizeof(step));
	while ((now = mono()) - t0 < NP_UDP_STEP_S) {
		struct timespec ms = { 0, 500000 };

		owed += (now - last) * rate / 8 / NP_UDP_PAYLOAD;
		last = now;
		while (owed >= 1) {
			uint32_t seq = (uint32_t)sent;

			memcpy(dg + NP_UDP_TAG + 4, &seq, sizeof(seq));
			if (send(fd, dg, sizeof(dg), MSG_DONTWAIT) < 0 && errno != EAGAIN &&
			    errno != ENOBUFS && errno != ECONNREFUSED)
				return sent;
			sent++;	/* offered, whether or not the local queue took it */
			owed -= 1;
		}
		nanosleep(&ms, NULL);
	}
	return sent;
}

int np_udp_steps_send(struct np_conn *ctrl, const struct sockaddr_storage *peer,
		      socklen_t plen, const uint8_t *tag, double tcp_bps,
		      struct np_path_result *r, char *err, size_t errlen)
{
	double rates[NP_PATH_MAX_STEPS];
	size_t n = np_udp_ladder(tcp_bps, rates);
	char line[NP_WIRE_LINE_MAX];
	int fd = socket(peer->ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || connect(fd, (const struct sockaddr *)peer, plen) < 0) {
		snprintf(err, errlen, "UDP steps: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	r->nsteps = 0;
	for (size_t k = 0; k < n; k++) {
		unsigned long long got_k, dgs, bytes;
		uint64_t sent;

		if (np_proto_sendf(ctrl->fd, "STEP %zu %.0f", k, rates[k]) < 0 ||
		    np_conn_line(ctrl, line, sizeof(line), NP_PROTO_TIMEOUT_MS) <= 0 ||
		    strncmp(line, "READY", 5) != 0)
			break;
		sent = blast(fd, tag, (uint32_t)k, rates[k]);
		if (np_proto_sendf(ctrl->fd, "COUNT %zu", k) < 0 ||
		    np_conn_line(ctrl, line, sizeof(line), NP_PROTO_TIMEOUT_MS) <= 0 ||
		    sscanf(line, "GOT %llu %llu %llu", &got_k, &dgs, &bytes) != 3 || got_k != k)
			break;
		if (dgs > sent)
			dgs = sent;	/* a duplicate is not a delivery */
		r->steps[r->nsteps++] = (struct np_path_step){
			.offered_bps = (double)sent * NP_UDP_PAYLOAD * 8 / NP_UDP_STEP_S,
			.delivered_bps = (double)bytes * 8 / NP_UDP_STEP_S,
			.loss = sent ? 1 - (double)dgs / (double)sent : NAN,
		};
	}
	close(fd);
	if (r->nsteps == 0) {
		snprintf(err, errlen, "UDP steps: the peer did not count any step");
		return -1;
	}
	return 0;
}

/* Count step's datagrams until the control line arrives (then 200 ms more for the queue). */
static void count(struct np_conn *ctrl, int ufd, int lfd, const uint8_t *tag, uint32_t step,
		  unsigned long long *dgs, unsigned long long *bytes, char *line, size_t cap)
{
	double deadline = mono() + NP_UDP_STEP_S + NP_PROTO_TIMEOUT_MS / 1000.0, drain = 0;

	line[0] = '\0';
	while (mono() < deadline && (drain == 0 || mono() < drain)) {
		struct pollfd p[3] = { { .fd = ufd, .events = POLLIN },
				       { .fd = drain ? -1 : ctrl->fd, .events = POLLIN },
				       { .fd = lfd, .events = POLLIN } };
		uint8_t dg[2048];
		ssize_t n;

		if (poll(p, 3, 50) < 0 && errno != EINTR)
			return;
		while ((n = recv(ufd, dg, sizeof(dg), MSG_DONTWAIT)) > 0)
			if ((size_t)n >= NP_UDP_TAG + 8 && memcmp(dg, tag, NP_UDP_TAG) == 0 &&
			    memcmp(dg + NP_UDP_TAG, &step, 4) == 0) {
				(*dgs)++;
				*bytes += (unsigned long long)n;
			}
		if (p[2].revents & POLLIN)
			np_xfer_refuse(lfd);
		if (!drain && (p[1].revents & (POLLIN | POLLHUP))) {
			if (np_conn_line(ctrl, line, cap, 100) <= 0)
				return;
			drain = mono() + 0.2;
		}
	}
}

int np_udp_steps_serve(struct np_conn *ctrl, const struct sockaddr_storage *local,
		       socklen_t llen, const uint8_t *tag, int lfd)
{
	char line[NP_WIRE_LINE_MAX];
	int ufd = socket(local->ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0), rcv = 4 << 20;

	if (ufd < 0)
		return -1;
	setsockopt(ufd, SOL_SOCKET, SO_RCVBUF, &rcv, sizeof(rcv));
	if (bind(ufd, (const struct sockaddr *)local, llen) < 0) {
		close(ufd);
		return -1;
	}
	for (size_t k = 0; k < NP_PATH_MAX_STEPS; k++) {
		unsigned long long step, dgs = 0, bytes = 0, cstep;
		double rate;

		if (np_conn_line(ctrl, line, sizeof(line), NP_PROTO_TIMEOUT_MS) <= 0 ||
		    sscanf(line, "STEP %llu %lf", &step, &rate) != 2 || step != k)
			break;
		if (np_proto_sendf(ctrl->fd, "READY %llu", step) < 0)
			break;
		count(ctrl, ufd, lfd, tag, (uint32_t)step, &dgs, &bytes, line, sizeof(line));
		if (sscanf(line, "COUNT %llu", &cstep) != 1 || cstep != step ||
		    np_proto_sendf(ctrl->fd, "GOT %llu %llu %llu", step, dgs, bytes) < 0)
			break;
	}
	close(ufd);
	return 0;
}
