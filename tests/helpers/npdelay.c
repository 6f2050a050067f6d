// SPDX-License-Identifier: GPL-2.0-only
/*
 * npdelay: a delay line between two TAP devices, for the `netpath path` integration tests
 * (netem and fq are not built into the test kernel). It opens TAP devices A and B; the test
 * moves each into a namespace (the descriptors stay attached) and addresses them in one subnet.
 * Every frame read from one TAP is written to the other after --delay-ms, optionally through a
 * serialising bottleneck (--rate-mbit, tail-drop queue of --queue-bytes) or a policer
 * (--police-mbit, bucket of --burst-bytes). The shaping arithmetic is npdelay_line.c.
 *
 * One thread, ppoll() with nanosecond timeouts until the next frame is due: no busy spinning.
 * Each direction is a ring of frames in release order. Bounded by --max-seconds; SIGTERM ends
 * it cleanly; the counters per direction are printed on stderr at exit.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "npdelay_line.h"

#define SLOT 2048		/* a frame of MTU 1500 plus its Ethernet header fits */
#define READ_BATCH 64		/* frames read from one TAP per wake-up */

struct frame {
	uint64_t due;
	uint32_t len;
	unsigned char data[SLOT];
};

struct dir {
	const char *name;	/* "a->b" */
	int in, out;
	struct np_line line;
	struct frame *ring;
	size_t cap, head, count;
	unsigned long long drop_write;	/* the other TAP refused it (down, gone) */
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = sig;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void die(const char *what)
{
	fprintf(stderr, "npdelay: %s: %s\n", what, strerror(errno));
	exit(1);
}

static double num(const char *s, const char *what, double lo, double hi)
{
	char *end;
	double v = strtod(s, &end);

	if (*s == '\0' || *end != '\0' || v < lo || v > hi) {
		fprintf(stderr, "npdelay: %s: %s is not a number in %g..%g\n", what, s, lo, hi);
		exit(2);
	}
	return v;
}

static int tap_open(const char *name)
{
	struct ifreq ifr = { .ifr_flags = IFF_TAP | IFF_NO_PI };
	int fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		die("/dev/net/tun");
	if (strlen(name) >= IFNAMSIZ) {
		fprintf(stderr, "npdelay: device name %s too long\n", name);
		exit(2);
	}
	strcpy(ifr.ifr_name, name);
	if (ioctl(fd, TUNSETIFF, &ifr) < 0)
		die(name);
	return fd;
}

/* Read what is waiting on d->in (at most a batch) and queue it for its release time. */
static void take(struct dir *d)
{
	static unsigned char spill[65536];	/* a frame with no ring slot, or too big */

	for (int i = 0; i < READ_BATCH; i++) {
		struct frame *f = d->count < d->cap ? &d->ring[(d->head + d->count) % d->cap] : NULL;
		ssize_t n = f ? read(d->in, f->data, SLOT) : read(d->in, spill, sizeof(spill));
		uint64_t due;

		if (n < 0) {
			if (errno != EAGAIN && errno != EINTR)
				die("read");
			return;
		}
		if (!f || n >= SLOT) {	/* ring full, or longer than a slot: dropped */
			d->line.drop_ring++;
			continue;
		}
		due = np_line_admit(&d->line, now_ns(), (unsigned int)n);
		if (!due)
			continue;
		f->due = due;
		f->len = (uint32_t)n;
		d->count++;
	}
}

/* Write out the frames that are due; return when the next one is (0: ring empty). */
static uint64_t give(struct dir *d, uint64_t now)
{
	while (d->count) {
		struct frame *f = &d->ring[d->head];

		if (f->due > now)
			return f->due;
		if (write(d->out, f->data, f->len) == (ssize_t)f->len)
			d->line.forwarded++;
		else
			d->drop_write++;	/* TAP down or gone: the frame is lost */
		d->head = (d->head + 1) % d->cap;
		d->count--;
	}
	return 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: npdelay [--delay-ms N] [--rate-mbit R --queue-bytes Q] [--police-mbit R\n"
		"               [--burst-bytes B]] [--ring FRAMES] [--max-seconds S] TAP_A TAP_B\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "delay-ms", required_argument, NULL, 'd' },
		{ "rate-mbit", required_argument, NULL, 'r' },
		{ "queue-bytes", required_argument, NULL, 'q' },
		{ "police-mbit", required_argument, NULL, 'p' },
		{ "burst-bytes", required_argument, NULL, 'b' },
		{ "ring", required_argument, NULL, 'n' },
		{ "max-seconds", required_argument, NULL, 'm' },
		{ NULL, 0, NULL, 0 },
	};
	double delay_ms = 0, rate = 0, queue = 0, police = 0, burst = 0, ring = 8192, max_s = 300;
	struct sigaction sa = { .sa_handler = on_signal };	/* no SA_RESTART */
	struct dir d[2];
	sigset_t block, none;
	uint64_t end;
	int c;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'd': delay_ms = num(optarg, "--delay-ms", 0, 10000); break;
		case 'r': rate = num(optarg, "--rate-mbit", 0.001, 100000); break;
		case 'q': queue = num(optarg, "--queue-bytes", 1514, 1 << 30); break;
		case 'p': police = num(optarg, "--police-mbit", 0.001, 100000); break;
		case 'b': burst = num(optarg, "--burst-bytes", 1514, 1 << 30); break;
		case 'n': ring = num(optarg, "--ring", 16, 1 << 20); break;
		case 'm': max_s = num(optarg, "--max-seconds", 1, 86400); break;
		default: usage();
		}
	}
	if (argc - optind != 2)
		usage();
	/* A bottleneck needs a queue: one 30 ms BDP at its rate unless told. */
	if (rate > 0 && queue == 0)
		queue = rate * 1e6 / 8 * 0.030;
	if (queue < 1514)
		queue = 1514;
	/* A policer's burst: 5 ms at its rate, at least two frames (a "small burst"). */
	if (police > 0 && burst == 0)
		burst = police * 1e6 / 8 * 0.005;
	if (burst < 3028)
		burst = 3028;

	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	prctl(PR_SET_PDEATHSIG, SIGTERM);	/* never outlive the test script */
	/* Signals arrive only inside ppoll(), so none is lost between the check and the wait. */
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &none);
	sigdelset(&none, SIGTERM);
	sigdelset(&none, SIGINT);
	sigdelset(&none, SIGHUP);

	int fa = tap_open(argv[optind]), fb = tap_open(argv[optind + 1]);

	for (int i = 0; i < 2; i++) {
		d[i] = (struct dir){ .name = i ? "b->a" : "a->b", .in = i ? fb : fa,
				     .out = i ? fa : fb, .cap = (size_t)ring };
		d[i].ring = malloc(d[i].cap * sizeof(struct frame));
		if (!d[i].ring)
			die("malloc");
		np_line_init(&d[i].line, (uint64_t)(delay_ms * 1e6), rate * 1e6, (uint64_t)queue,
			     police * 1e6, burst);
	}
	fprintf(stderr, "npdelay: ready\n");
	end = now_ns() + (uint64_t)(max_s * 1e9);

	while (!stop) {
		struct pollfd p[2] = { { .fd = fa, .events = POLLIN }, { .fd = fb, .events = POLLIN } };
		uint64_t now = now_ns(), next = end;
		struct timespec ts;

		if (now >= end)
			break;
		for (int i = 0; i < 2; i++) {
			uint64_t due = give(&d[i], now);

			if (due && due < next)
				next = due;
			/* A full ring stops reading: the TAP's own queue then holds or drops. */
			if (d[i].count == d[i].cap)
				p[i].events = 0;
		}
		ts.tv_sec = (time_t)((next - now) / 1000000000ull);
		ts.tv_nsec = (long)((next - now) % 1000000000ull);
		if (ppoll(p, 2, &ts, &none) < 0) {
			if (errno == EINTR)
				continue;
			die("ppoll");
		}
		for (int i = 0; i < 2; i++)
			if (p[i].revents & POLLIN)
				take(&d[i]);
			else if (p[i].revents & (POLLERR | POLLHUP))
				stop = -1;
	}
	for (int i = 0; i < 2; i++)
		fprintf(stderr,
			"npdelay %s: forwarded %llu, dropped queue %llu police %llu ring %llu "
			"write %llu, left %zu\n",
			d[i].name, (unsigned long long)d[i].line.forwarded,
			(unsigned long long)d[i].line.drop_queue,
			(unsigned long long)d[i].line.drop_police,
			(unsigned long long)d[i].line.drop_ring, d[i].drop_write, d[i].count);
	if (stop == 0)
		fprintf(stderr, "npdelay: stopped by --max-seconds %g\n", max_s);
	free(d[0].ring);
	free(d[1].ring);
	close(fa);	/* the TAP devices go with their last descriptor */
	close(fb);
	return 0;
}
