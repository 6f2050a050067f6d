// SPDX-License-Identifier: GPL-2.0-only
/*
 * UDP flood and sink for the benchmarks: fast enough that the kernel's receive path, not the
 * program, sets the rate (sendmmsg/recvmmsg in batches of 64).
 *
 *   udp_blast send ADDR PORT SECONDS [SIZE]   prints datagrams sent
 *   udp_blast recv ADDR PORT SECONDS          prints datagrams received
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
	fprintf(stderr, "usage: udp_blast send|recv ADDR PORT SECONDS [SIZE]\n");
	return 2;
}

int main(int argc, char **argv)
{
	static char bufs[BATCH][2048];
	struct mmsghdr msgs[BATCH];
	struct iovec iov[BATCH];
	struct sockaddr_in sin = { .sin_family = AF_INET };
	unsigned long long count = 0;
	size_t size = 200;
	double end;
	int fd, sending, rcvbuf = 4 << 20;
	struct timeval tick = { .tv_usec = 200000 };

	if (argc < 5)
		return usage();
	sending = !strcmp(argv[1], "send");
	if (!sending && strcmp(argv[1], "recv"))
		return usage();
	if (inet_pton(AF_INET, argv[2], &sin.sin_addr) != 1)
		return usage();
	sin.sin_port = htons((unsigned short)atoi(argv[3]));
	end = now() + atof(argv[4]);
	if (argc > 5)
		size = (size_t)atoi(argv[5]);
	if (size < 1 || size > sizeof(bufs[0]))
		return usage();

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
