// SPDX-License-Identifier: GPL-2.0-only
/* The end of a command's step: a failure with its reason, or a plain stop. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "log.h"
#include "opts.h"
#include "outbuf.h"
#include "render.h"
#include "status.h"

static int vfail(struct np_status *st, bool usage, const char *fmt, va_list ap)
{
	char raw[sizeof(st->msg)];

	vsnprintf(raw, sizeof(raw), fmt, ap);
	/* Reasons quote names from files, captures and the command line: no byte of them may
	 * reach a terminal as a control sequence, or break the one line. */
	np_sanitize(raw, st->msg, sizeof(st->msg));
	/* An empty reason would read as a plain stop: a failure always says something. */
	if (!st->msg[0])
		snprintf(st->msg, sizeof(st->msg), "failed");
	st->code = NP_EXIT_UNKNOWN;
	st->usage = usage;
	return -1;
}

int np_fail(struct np_status *st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(st, false, fmt, ap);
	va_end(ap);
	return -1;
}

int np_usage(struct np_status *st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(st, true, fmt, ap);
	va_end(ap);
	return -1;
}

int np_stop(struct np_status *st, int code)
{
	st->msg[0] = '\0';
	st->code = code;
	st->usage = false;
	return -1;
}

void np_report(const struct np_status *st, const char *cmd)
{
	if (!np_failed(st))
		return;
	fprintf(stderr, "netpath %s: %s\n", cmd, st->msg);
	if (st->usage)
		fprintf(stderr, "Try 'netpath %s --help'.\n", cmd);
}

int np_finish(const struct np_status *st, const char *cmd, bool json)
{
	np_report(st, cmd);
	if (np_failed(st) && json)
		np_render_error_json(stdout, cmd, st->msg, NP_EXIT_UNKNOWN);
	/* A report that did not reach standard output (a full disk, a closed stdout, a reader
	 * gone while SIGPIPE is ignored) is no verdict: said once, exit 3. stdio defers write
	 * errors: fflush reports them, ferror remembers earlier ones. */
	errno = 0;
	if (fflush(stdout) == EOF || ferror(stdout)) {
		int e = errno ? errno : np_ob_write_errno();	/* an earlier write's reason */

		fprintf(stderr, "netpath %s: cannot write to standard output%s%s\n", cmd,
			e ? ": " : "", e ? strerror(e) : "");
		return NP_EXIT_UNKNOWN;
	}
	return st->code;
}
