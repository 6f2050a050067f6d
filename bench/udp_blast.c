// SPDX-License-Identifier: GPL-2.0-only
/*
 * UDP flood and sink for the benchmarks: fast enough that the kernel's receive path, not the
 * program, sets the rate (sendmmsg/recvmmsg in batches of 64).
 *
 *   udp_blast send ADDR PORT SECONDS [SIZE [DPORT EVERY]]   prints datagrams sent
 *   udp_blast recv ADDR PORT SECONDS          prints datagrams received
 *   udp_blast hold ADDR PORT SECONDS          binds a socket of the smallest buffer and never
 *                                             reads it: every datagram to it is dropped
 *
 * With DPORT and EVERY, every EVERY-th datagram of the flood goes to DPORT instead (a held
 * port: a known share of the flood is dropped by the kernel, SOCKET_RCVBUFF).
 *
 * Bounded in time on both sides; ADDR is an IPv4 address of a benchmark namespace. Not part of
 * netpath: bench/trace_cost.sh compiles it into its scratch directory.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#define BATCH 64

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int usage(void)
{
	fprintf(stderr, "usage: udp_blast send|recv|hold ADDR PORT SECONDS [SIZE [DPORT EVERY]]\n");
	return 2;
}

int main(int argc, char **argv)
{
	static char bufs[BATCH][2048];
	struct mmsghdr msgs[BATCH];
	struct iovec iov[BATCH];
	struct sockaddr_in sin = { .sin_family = AF_INET }, drop;
	int every = 0;
	unsigned long long count = 0;
	size_t size = 200;
	double end;
	int fd, sending, rcvbuf = 4 << 20;
	struct timeval tick = { .tv_usec = 200000 };

	if (argc < 5)
		return usage();
	sending = !strcmp(argv[1], "send");
	if (!sending && strcmp(argv[1], "recv") && strcmp(argv[1], "hold"))
		return usage();
	if (inet_pton(AF_INET, argv[2], &sin.sin_addr) != 1)
		return usage();
	sin.sin_port = htons((unsigned short)atoi(argv[3]));
	end = now() + atof(argv[4]);
	if (argc > 5)
		size = (size_t)atoi(argv[5]);
	if (size < 1 || size > sizeof(bufs[0]))
		return usage();
	drop = sin;
	if (argc > 7) {
		drop.sin_port = htons((unsigned short)atoi(argv[6]));
		every = atoi(argv[7]);
		if (every < 1)
			return usage();
	}

	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0) {
		perror("socket");
		return 1;
	}
	memset(msgs, 0, sizeof(msgs));
	for (int i = 0; i < BATCH; i++) {
		memset(bufs[i], 'x', sizeof(bufs[i]));
		iov[i].iov_base = bufs[i];
		iov[i].iov_len = sending ? size : sizeof(bufs[i]);
		msgs[i].msg_hdr.msg_iov = &iov[i];
		msgs[i].msg_hdr.msg_iovlen = 1;
		/* A connected UDP socket still sends to an explicit address when given one. */
		if (every && i % every == every - 1) {
			msgs[i].msg_hdr.msg_name = &drop;
			msgs[i].msg_hdr.msg_namelen = sizeof(drop);
		}
	}
	if (!strcmp(argv[1], "hold")) {
		int one = 1;	/* the kernel's minimum: the first datagrams fill it */

		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &one, sizeof(one));
		if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)) < 0) {
			perror("bind");
			return 1;
		}
		while (now() < end) {
			struct timespec ts = { 0, 100000000 };

			nanosleep(&ts, NULL);
		}
		printf("0\n");
		return 0;
	}
	if (sending) {
		if (connect(fd, (struct sockaddr *)&sin, sizeof(sin)) < 0) {
			perror("connect");
			return 1;
		}
	} else {
		/* A short receive timeout so the deadline is checked even when nothing arrives. */
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tick, sizeof(tick));
		if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)) < 0) {
			perror("bind");
			return 1;
		}
	}
	while (now() < end) {
		int n = sending ? sendmmsg(fd, msgs, BATCH, 0)
				: recvmmsg(fd, msgs, BATCH, MSG_WAITFORONE, NULL);

		if (n > 0)
			count += (unsigned)n;
		else if (n < 0 && errno != EAGAIN && errno != EINTR && errno != ECONNREFUSED &&
			 errno != ENOBUFS) {
			perror(sending ? "sendmmsg" : "recvmmsg");
			return 1;
		}
	}
	printf("%llu\n", count);
	return 0;
}
