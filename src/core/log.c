// SPDX-License-Identifier: GPL-2.0-only
/* Leveled logging: errors always, warnings by default, info with -v, debug with -vv. */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>

static enum np_log_level np_level = NP_LOG_WARN;

void np_log_set_level(enum np_log_level lvl)
{
	np_level = lvl;
}

enum np_log_level np_log_get_level(void)
{
	return np_level;
}

void np_log(enum np_log_level lvl, const char *fmt, ...)
{
	va_list ap;

	if (lvl > np_level)
		return;
	fputs("netpath: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void np_log_set_verbosity(int verbose)
{
	if (verbose >= 2)
		np_log_set_level(NP_LOG_DEBUG);
	else if (verbose)
		np_log_set_level(NP_LOG_INFO);
}
