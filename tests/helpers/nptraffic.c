// SPDX-License-Identifier: GPL-2.0-only
/*
 * nptraffic: traffic and socket populations for the integration and scenario tests.
 *
 *   nptraffic [OPTIONS] udp-sink ADDR PORT        bind; never read (default) or read all (--drain)
 *   nptraffic [OPTIONS] udp-flood ADDR PORT       datagrams as fast as possible, or in bursts
 *   nptraffic [OPTIONS] tcp-sink ADDR PORT        accept and read (--slow: 4 KiB every 10 ms)
 *   nptraffic [OPTIONS] tcp-send ADDR PORT        --conns connections sending as fast as they can
 *   nptraffic [OPTIONS] listen ADDR PORT BACKLOG  a listener that never accepts
 *   nptraffic [OPTIONS] connect-burst ADDR PORT COUNT   COUNT non-blocking connects, held open
 *   nptraffic [OPTIONS] pairs ADDR PORT COUNT     COUNT established connections, both ends here
 *
 * Options: --rcvbuf B, --drain, --slow, --size N (200), --burst N (256), --gap-ms MS (0),
 * --conns N (1), --src ADDR, --count N (udp-flood: stop after N datagrams), --cpu N (pin),
 * --ready FILE, --max-seconds S (60).
 *
 * Why a C program: the tests used to start Python helpers and sleep a fixed time, hoping the
 * traffic had begun; under load (or behind a slow pyenv shim) it had not. This starts in
 * milliseconds and says when it is ready: --ready FILE is written atomically (rename) once the
 * socket is bound/listening, the connections are up, or the first burst went out. It runs until
 * SIGTERM/SIGINT (the tests kill it when done), never longer than --max-seconds, and never
 * outlives the shell that started it (PR_SET_PDEATHSIG). It only ever talks to ADDR (a numeric
 * address; --src only chooses the source). On exit it prints one summary line on stdout, which
 * the tests show when a wait fails.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_CONNS 1024

static struct {
	int rcvbuf, drain, slow, size, burst, gap_ms, conns, cpu, max_seconds;
	long count;
	const char *src, *ready;
} opt = { .size = 200, .burst = 256, .conns = 1, .cpu = -1, .max_seconds = 60 };

static volatile sig_atomic_t stop;
static const char *mode = "nptraffic";

static void on_signal(int sig)
{
	if (stop)		/* a second signal (or the grace alarm): no more waiting */
		_exit(128 + sig);
	stop = sig;
	alarm(2);		/* the summary must not hold the exit up */
}

static void die(const char *fmt, ...)
{
	va_list ap;
	int e = errno;

	fprintf(stderr, "nptraffic %s: ", mode);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, e ? ": %s\n" : "\n", strerror(e));
	exit(1);
}

static long num(const char *s, const char *what, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max) {
		errno = 0;
		die("bad %s '%s' (%ld..%ld)", what, s, min, max);
	}
	return v;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);	/* EINTR: a signal ends the nap early, as it should */
}

/* ADDR must be numeric: no name lookup can send anything anywhere else. */
static void resolve(const char *addr, const char *port, struct sockaddr_storage *ss,
		    socklen_t *len)
{
	struct addrinfo hints = { .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV }, *ai;
	int rc = getaddrinfo(addr, port, &hints, &ai);

	if (rc) {
		errno = 0;
		die("address %s port %s: %s", addr, port, gai_strerror(rc));
	}
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	*len = ai->ai_addrlen;
	freeaddrinfo(ai);
}

static int sock(const struct sockaddr_storage *ss, int type)
{
	int fd = socket(ss->ss_family, type | SOCK_CLOEXEC, 0);

	if (fd < 0)
		die("socket");
	if (opt.rcvbuf &&
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &opt.rcvbuf, sizeof(opt.rcvbuf)) < 0)
		die("SO_RCVBUF %d", opt.rcvbuf);
	return fd;
}

static int listener(const struct sockaddr_storage *ss, socklen_t len, int backlog)
{
	int one = 1, fd = sock(ss, SOCK_STREAM);

	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (const struct sockaddr *)ss, len) < 0)
		die("bind");
	if (listen(fd, backlog) < 0)
		die("listen");
	return fd;
}

static void set_nonblock(int fd)
{
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

/* Atomically: FILE.tmp then rename, so a waiter never reads half a line. */
static void ready(const char *what)
{
	char tmp[4096];
	FILE *f;

	if (!opt.ready)
		return;
	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", opt.ready, (int)getpid());
	f = fopen(tmp, "w");
	if (!f)
		die("ready file %s", tmp);
	fprintf(f, "%d %s %s\n", (int)getpid(), mode, what);
	if (fclose(f) || rename(tmp, opt.ready) < 0)
		die("ready file %s", opt.ready);
}

/* Until killed (or --max-seconds). */
static void hold(void)
{
	while (!stop)
		sleep_ms(200);
}

static void udp_sink(const struct sockaddr_storage *ss, socklen_t len)
{
	static char buf[65536];
	int fd = sock(ss, SOCK_DGRAM);
	long got = 0;

	if (bind(fd, (const struct sockaddr *)ss, len) < 0)
		die("bind");
	ready("bound");
	if (!opt.drain) {
		hold();
		printf("nptraffic udp-sink: never read\n");
		return;
	}
	set_nonblock(fd);
	while (!stop) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		poll(&p, 1, 200);
		while (recv(fd, buf, sizeof(buf), 0) >= 0)
			got++;
	}
	printf("nptraffic udp-sink: received %ld\n", got);
}

static void udp_flood(const struct sockaddr_storage *ss, socklen_t len)
{
	char *payload = calloc(1, (size_t)opt.size);
	long sent = 0, failed = 0;
	int fd = sock(ss, SOCK_DGRAM), last_err = 0, first = 1;

	if (!payload)
		die("out of memory");
	memset(payload, 'x', (size_t)opt.size);
	if (opt.src) {
		struct sockaddr_storage src;
		socklen_t slen;

		resolve(opt.src, "0", &src, &slen);
		if (bind(fd, (struct sockaddr *)&src, slen) < 0)
			die("bind --src %s", opt.src);
	}
	while (!stop && (!opt.count || sent < opt.count)) {
		for (int i = 0; i < opt.burst && !stop && (!opt.count || sent < opt.count); i++) {
			if (sendto(fd, payload, (size_t)opt.size, 0,
				   (const struct sockaddr *)ss, len) >= 0) {
				sent++;
			} else {
				failed++;
				last_err = errno;
				/* --count wants exactly N on the wire: wait out a full queue. */
				if (opt.count)
					sleep_ms(1);
			}
		}
		if (first) {
			ready("first burst sent");
			first = 0;
		}
		if (opt.gap_ms)
			sleep_ms(opt.gap_ms);
	}
	printf("nptraffic udp-flood: sent %ld, failed %ld (last error: %s)\n", sent, failed,
	       last_err ? strerror(last_err) : "none");
	free(payload);
	if (opt.count && sent < opt.count)
		exit(1);
}

static void tcp_sink(const struct sockaddr_storage *ss, socklen_t len)
{
	static char buf[1 << 20];
	struct pollfd p[MAX_CONNS + 1];
	int n = 1;
	long long got = 0;

	p[0].fd = listener(ss, len, 64);
	p[0].events = POLLIN;
	set_nonblock(p[0].fd);
	ready("listening");
	while (!stop) {
		if (poll(p, (nfds_t)n, 200) <= 0)
			continue;
		if (p[0].revents & POLLIN) {
			int c = accept4(p[0].fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

			if (c >= 0 && n <= MAX_CONNS)
				p[n++] = (struct pollfd){ .fd = c, .events = POLLIN };
			else if (c >= 0)
				close(c);
		}
		for (int i = 1; i < n; i++) {
			ssize_t r;

			if (!p[i].revents)
				continue;
			r = recv(p[i].fd, buf, opt.slow ? 4096 : sizeof(buf), 0);
			if (r > 0) {
				got += r;
			} else if (r == 0 || errno != EAGAIN) {	/* peer gone: forget it */
				close(p[i].fd);
				p[i--] = p[--n];
			}
		}
		if (opt.slow)
			sleep_ms(10);
	}
	printf("nptraffic tcp-sink: %d connections, received %lld bytes\n", n - 1, got);
}

/* Non-blocking connect; wait (until killed) for it to complete. */
static int connect_wait(const struct sockaddr_storage *ss, socklen_t len)
{
	int fd = sock(ss, SOCK_STREAM), err = 0;
	socklen_t elen = sizeof(err);
	struct pollfd p = { .fd = fd, .events = POLLOUT };

	set_nonblock(fd);
	if (connect(fd, (const struct sockaddr *)ss, len) < 0 && errno != EINPROGRESS)
		die("connect");
	while (!stop && poll(&p, 1, 200) <= 0)
		;
	if (stop)
		exit(1);
	getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &elen);
	if (err) {
		errno = err;
		die("connect");
	}
	return fd;
}

static void tcp_send(const struct sockaddr_storage *ss, socklen_t len)
{
	static char buf[1 << 16];
	struct pollfd p[MAX_CONNS];
	long long sent = 0;
	int first = 1;

	memset(buf, 'y', sizeof(buf));
	for (int i = 0; i < opt.conns; i++)
		p[i] = (struct pollfd){ .fd = connect_wait(ss, len), .events = POLLOUT };
	while (!stop) {
		if (poll(p, (nfds_t)opt.conns, 200) <= 0)
			continue;
		for (int i = 0; i < opt.conns; i++) {
			ssize_t w;

			if (!(p[i].revents & POLLOUT))
				continue;
			w = send(p[i].fd, buf, sizeof(buf), MSG_NOSIGNAL);
			if (w < 0 && errno != EAGAIN)
				die("send");
			if (w > 0)
				sent += w;
		}
		if (first && sent > 0) {
			ready("connected and sending");
			first = 0;
		}
	}
	printf("nptraffic tcp-send: %d connections, sent %lld bytes\n", opt.conns, sent);
}

static void listen_only(const struct sockaddr_storage *ss, socklen_t len, int backlog)
{
	listener(ss, len, backlog);
	ready("listening");
	hold();
	printf("nptraffic listen: backlog %d, never accepted\n", backlog);
}

static void connect_burst(const struct sockaddr_storage *ss, socklen_t len, int count)
{
	int refused = 0;

	for (int i = 0; i < count; i++) {
		int fd = sock(ss, SOCK_STREAM);

		set_nonblock(fd);
		if (connect(fd, (const struct sockaddr *)ss, len) < 0 && errno != EINPROGRESS)
			refused++;	/* held open anyway, as the scenario wants */
	}
	ready("connects issued");
	hold();
	printf("nptraffic connect-burst: %d connects, %d failed at once\n", count, refused);
}

static void pairs(const struct sockaddr_storage *ss, socklen_t len, int count)
{
	struct rlimit rl;
	rlim_t want = 2 * (rlim_t)count + 64;
	int srv, made = 0;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || want > rl.rlim_max) {
		errno = 0;
		die("need %llu open files, hard limit %llu", (unsigned long long)want,
		    (unsigned long long)rl.rlim_max);
	}
	rl.rlim_cur = want;
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
		die("RLIMIT_NOFILE %llu", (unsigned long long)want);
	srv = listener(ss, len, 4096);
	while (made < count && !stop) {
		int batch = count - made < 512 ? count - made : 512;

		for (int i = 0; i < batch; i++) {
			int c = sock(ss, SOCK_STREAM);

			if (connect(c, (const struct sockaddr *)ss, len) < 0)
				die("connect %d", made + i);
		}
		for (int i = 0; i < batch; i++)
			if (accept4(srv, NULL, NULL, SOCK_CLOEXEC) < 0)
				die("accept");
		made += batch;
	}
	ready("connections established");
	hold();
	printf("nptraffic pairs: %d connections held\n", made);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: nptraffic [OPTIONS] udp-sink|udp-flood|tcp-sink|tcp-send ADDR PORT\n"
		"       nptraffic [OPTIONS] listen ADDR PORT BACKLOG\n"
		"       nptraffic [OPTIONS] connect-burst|pairs ADDR PORT COUNT\n"
		"options: --rcvbuf B --drain --slow --size N --burst N --gap-ms MS --conns N\n"
		"         --src ADDR --count N --cpu N --ready FILE --max-seconds S\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "rcvbuf", required_argument, NULL, 'r' }, { "drain", no_argument, NULL, 'd' },
		{ "slow", no_argument, NULL, 'w' },	    { "size", required_argument, NULL, 's' },
		{ "burst", required_argument, NULL, 'b' },  { "gap-ms", required_argument, NULL, 'g' },
		{ "conns", required_argument, NULL, 'c' },  { "src", required_argument, NULL, 'S' },
		{ "count", required_argument, NULL, 'n' },  { "cpu", required_argument, NULL, 'C' },
		{ "ready", required_argument, NULL, 'R' },
		{ "max-seconds", required_argument, NULL, 'm' }, { NULL, 0, NULL, 0 },
	};
	struct sigaction sa = { .sa_handler = on_signal };	/* no SA_RESTART: calls end early */
	struct sockaddr_storage ss;
	socklen_t len;
	int c, nargs;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'r': opt.rcvbuf = (int)num(optarg, "--rcvbuf", 1, 1L << 30); break;
		case 'd': opt.drain = 1; break;
		case 'w': opt.slow = 1; break;
		case 's': opt.size = (int)num(optarg, "--size", 1, 65507); break;
		case 'b': opt.burst = (int)num(optarg, "--burst", 1, 1 << 20); break;
		case 'g': opt.gap_ms = (int)num(optarg, "--gap-ms", 0, 10000); break;
		case 'c': opt.conns = (int)num(optarg, "--conns", 1, MAX_CONNS); break;
		case 'S': opt.src = optarg; break;
		case 'n': opt.count = num(optarg, "--count", 1, 1L << 30); break;
		case 'C': opt.cpu = (int)num(optarg, "--cpu", 0, CPU_SETSIZE - 1); break;
		case 'R': opt.ready = optarg; break;
		case 'm': opt.max_seconds = (int)num(optarg, "--max-seconds", 1, 3600); break;
		default: usage();
		}
	}
	nargs = argc - optind;
	if (nargs < 3)
		usage();
	mode = argv[optind];

	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGALRM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	/* Never outlive the test script, never run past the bound. */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() == 1)
		return 1;
	alarm((unsigned)opt.max_seconds);
	setvbuf(stdout, NULL, _IOLBF, 0);

	if (opt.cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(opt.cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set) < 0)
			die("--cpu %d", opt.cpu);
	}
	resolve(argv[optind + 1], argv[optind + 2], &ss, &len);

	if (!strcmp(mode, "udp-sink") && nargs == 3)
		udp_sink(&ss, len);
	else if (!strcmp(mode, "udp-flood") && nargs == 3)
		udp_flood(&ss, len);
	else if (!strcmp(mode, "tcp-sink") && nargs == 3)
		tcp_sink(&ss, len);
	else if (!strcmp(mode, "tcp-send") && nargs == 3)
		tcp_send(&ss, len);
	else if (!strcmp(mode, "listen") && nargs == 4)
		listen_only(&ss, len, (int)num(argv[optind + 3], "BACKLOG", 1, 65535));
	else if (!strcmp(mode, "connect-burst") && nargs == 4)
		connect_burst(&ss, len, (int)num(argv[optind + 3], "COUNT", 1, 100000));
	else if (!strcmp(mode, "pairs") && nargs == 4)
		pairs(&ss, len, (int)num(argv[optind + 3], "COUNT", 1, 1000000));
	else
		usage();
	if (stop == SIGALRM)
		fprintf(stderr, "nptraffic %s: stopped by --max-seconds %d\n", mode,
			opt.max_seconds);
	return 0;
}
