/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A bounded run for monitoring (doctor -t/--timeout, --nagios): when the time is up, or when
 * SIGTERM or SIGALRM arrives (a monitoring system's own timeout), the process writes one line
 * that says so, removes what np_cleanup_add() remembered (a -o temporary file, an unpacked
 * archive) and exits with 3, UNKNOWN. All of it happens in the handler, with async-signal-safe
 * calls only (write, unlink, rmdir, _exit): the run may be blocked in a read or a netlink
 * receive that no flag checked in a loop would interrupt.
 */
#ifndef NP_DEADLINE_H
#define NP_DEADLINE_H

#include <stdbool.h>
#include <stddef.h>

/* The exit code of a run that timed out or was terminated: UNKNOWN for a monitoring plugin. */
#define NP_DEADLINE_EXIT 3

struct np_deadline_msgs {
	char timeout[192];	/* written when the time is up (or on SIGALRM) */
	char term[192];		/* written on SIGTERM */
};

/*
 * The two lines, each ending in a newline: for Nagios (nagios true) "NETPATH UNKNOWN - timed
 * out after SEC s (--timeout)" / "NETPATH UNKNOWN - terminated by SIGTERM", otherwise
 * "netpath CMD: timed out after SEC s (--timeout)" / "netpath CMD: terminated by SIGTERM".
 * seconds <= 0: no timeout was given (SIGALRM then says "SIGALRM"). Pure: unit-tested.
 */
void np_deadline_format(struct np_deadline_msgs *m, const char *cmd, bool nagios,
			double seconds);

/*
 * Take over SIGTERM and SIGALRM: write the matching line of m to fd (1 for Nagios, which reads
 * stdout; 2 otherwise), clean up, _exit(NP_DEADLINE_EXIT). seconds > 0 also arms a real-time
 * timer that raises SIGALRM then. 0 or -errno.
 */
int np_deadline_arm(const struct np_deadline_msgs *m, int fd, double seconds);

#endif
