// SPDX-License-Identifier: GPL-2.0-only
/* -t/--timeout and SIGTERM for monitoring runs: one line, the cleanup, exit 3. */
#include "deadline.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "cleanup.h"

/* Read by the handler only after np_deadline_arm() filled it and before it installed it. */
static struct np_deadline_msgs msgs;
static int msg_fd = 2;

void np_deadline_format(struct np_deadline_msgs *m, const char *cmd, bool nagios,
			double seconds)
{
	char prefix[64], why[64];

	if (nagios)
		snprintf(prefix, sizeof(prefix), "NETPATH UNKNOWN - ");
	else
		snprintf(prefix, sizeof(prefix), "netpath %s: ", cmd);
	if (seconds > 0)
		snprintf(why, sizeof(why), "timed out after %g s (--timeout)", seconds);
	else
		snprintf(why, sizeof(why), "stopped by SIGALRM");
	snprintf(m->timeout, sizeof(m->timeout), "%s%s\n", prefix, why);
	snprintf(m->term, sizeof(m->term), "%sterminated by SIGTERM\n", prefix);
}

static void write_all(int fd, const char *s)
{
	size_t len = strlen(s);

	while (len) {
		ssize_t n = write(fd, s, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		s += n;
		len -= (size_t)n;
	}
}

/* Async-signal-safe: write, np_cleanup_now (unlink, rmdir, getdents), _exit. stdio buffers are
 * not flushed, so half a report never reaches the reader before the UNKNOWN line. */
static void on_deadline(int sig)
{
	write_all(msg_fd, sig == SIGTERM ? msgs.term : msgs.timeout);
	np_cleanup_now();
	_exit(NP_DEADLINE_EXIT);
}

int np_deadline_arm(const struct np_deadline_msgs *m, int fd, double seconds)
{
	struct sigaction sa = { .sa_handler = on_deadline };

	msgs = *m;
	msg_fd = fd;
	/* One of the two at a time: the second waits while the first writes and exits. */
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGTERM);
	sigaddset(&sa.sa_mask, SIGALRM);
	if (sigaction(SIGTERM, &sa, NULL) < 0 || sigaction(SIGALRM, &sa, NULL) < 0)
		return -errno;
	if (seconds > 0) {
		struct itimerval it = { 0 };

		it.it_value.tv_sec = (time_t)seconds;
		it.it_value.tv_usec = (suseconds_t)((seconds - floor(seconds)) * 1e6);
		if (!it.it_value.tv_sec && !it.it_value.tv_usec)
			it.it_value.tv_usec = 1;
		if (setitimer(ITIMER_REAL, &it, NULL) < 0)
			return -errno;
	}
	return 0;
}
