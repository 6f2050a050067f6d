// SPDX-License-Identifier: GPL-2.0-only
/*
 * doctor -t/--timeout and SIGTERM (core/deadline.c): the lines for Nagios and for the other
 * formats, and in a child process the real thing: the timer firing, SIGTERM, SIGALRM, each one
 * line on the chosen descriptor, the remembered temporary file removed, exit 3.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "cleanup.h"
#include "deadline.h"

static void test_format(void **state)
{
	struct np_deadline_msgs m;

	(void)state;
	np_deadline_format(&m, "doctor", true, 10);
	assert_string_equal(m.timeout, "NETPATH UNKNOWN - timed out after 10 s (--timeout)\n");
	assert_string_equal(m.term, "NETPATH UNKNOWN - terminated by SIGTERM\n");
	np_deadline_format(&m, "doctor", false, 2.5);
	assert_string_equal(m.timeout, "netpath doctor: timed out after 2.5 s (--timeout)\n");
	assert_string_equal(m.term, "netpath doctor: terminated by SIGTERM\n");
	np_deadline_format(&m, "doctor", true, 0);
	assert_string_equal(m.timeout, "NETPATH UNKNOWN - stopped by SIGALRM\n");
}

/*
 * A child arms the deadline (seconds; sig: a signal it sends itself instead, 0 for none) with a
 * temporary file remembered, then waits far longer than the deadline. Its output and status.
 */
static void run_child(double seconds, int sig, char *out, size_t size, int *status,
		      const char *tmpfile)
{
	int fds[2];
	pid_t pid;
	ssize_t n;
	size_t got = 0;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct np_deadline_msgs m;
		struct timespec ts = { 5, 0 };
		int fd = open(tmpfile, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		close(fds[0]);
		if (fd < 0 || np_cleanup_add(tmpfile, NP_CLEANUP_FILE) < 0)
			_exit(99);
		close(fd);
		np_deadline_format(&m, "doctor", true, seconds);
		if (np_deadline_arm(&m, fds[1], seconds) < 0)
			_exit(98);
		if (sig)
			raise(sig);
		nanosleep(&ts, NULL);	/* a run blocked in a call: the handler must end it */
		_exit(0);
	}
	close(fds[1]);
	while (got + 1 < size && (n = read(fds[0], out + got, size - 1 - got)) > 0)
		got += (size_t)n;
	out[got] = '\0';
	close(fds[0]);
	assert_int_equal(waitpid(pid, status, 0), pid);
}

static void test_expiry_and_signals(void **state)
{
	char tmpl[] = "/tmp/np-deadline-XXXXXX", path[64], out[256];
	struct stat st;
	int status;

	(void)state;
	assert_non_null(mkdtemp(tmpl));
	snprintf(path, sizeof(path), "%s/x.prom.tmp", tmpl);

	run_child(0.05, 0, out, sizeof(out), &status, path);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), NP_DEADLINE_EXIT);
	assert_string_equal(out, "NETPATH UNKNOWN - timed out after 0.05 s (--timeout)\n");
	assert_int_not_equal(stat(path, &st), 0);	/* the temporary file is gone */

	run_child(0, SIGTERM, out, sizeof(out), &status, path);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), NP_DEADLINE_EXIT);
	assert_string_equal(out, "NETPATH UNKNOWN - terminated by SIGTERM\n");
	assert_int_not_equal(stat(path, &st), 0);

	run_child(0, SIGALRM, out, sizeof(out), &status, path);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), NP_DEADLINE_EXIT);
	assert_string_equal(out, "NETPATH UNKNOWN - stopped by SIGALRM\n");
	assert_int_equal(rmdir(tmpl), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_expiry_and_signals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
