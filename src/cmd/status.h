/* SPDX-License-Identifier: GPL-2.0-only */
/* How a step of a command ends: go on, stop with an exit code, or fail with a one-line reason. */
#ifndef NP_STATUS_H
#define NP_STATUS_H

#include <stdbool.h>

/*
 * A step returns 0 to go on or -1 to stop; on -1 the status says how. One shape for every
 * command: a failure carries its reason (exit 3), which the command reports once, in its own
 * forms (stderr, and a JSON or Nagios error where asked); a plain stop (--help, a usage error
 * already printed) carries only the exit code.
 */
struct np_status {
	int code;		/* the exit code, once stopped */
	char msg[512];		/* a failure's reason; empty for a plain stop */
	bool usage;		/* the failure is the command line's: np_finish() adds the hint */
};

/* A failure: the reason, exit 3 (NP_EXIT_UNKNOWN). Returns -1. */
int np_fail(struct np_status *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * A usage error (an unknown option, a missing or invalid value, an extra operand): a failure
 * whose report adds "Try 'netpath CMD --help'." rather than the whole usage (as coreutils and
 * iproute2 do), so the reason stays the line one reads. Returns -1.
 */
int np_usage(struct np_status *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A stop without a reason to report: exit with code. Returns -1. */
int np_stop(struct np_status *st, int code);
/* Has the step failed (rather than stopped)? */
static inline bool np_failed(const struct np_status *st)
{
	return st->msg[0] != '\0';
}

/*
 * A failure's reason on stderr as "netpath CMD: reason", and for a usage error the line
 * "Try 'netpath CMD --help'." under it. Nothing for a plain stop.
 */
void np_report(const struct np_status *st, const char *cmd);
/*
 * The one way out of a command: np_report(), and with json the failure as the netpath/error
 * object on stdout; then the exit code to return.
 */
int np_finish(const struct np_status *st, const char *cmd, bool json);

#endif
