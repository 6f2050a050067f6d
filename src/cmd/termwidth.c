// SPDX-License-Identifier: GPL-2.0-only
/* The width text output follows: see termwidth.h. */
#include "termwidth.h"
#include "text_wrap.h"

#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

static int clamp(long w)
{
	return w < NP_WIDTH_MIN ? NP_WIDTH_MIN : w > NP_WIDTH_MAX ? NP_WIDTH_MAX : (int)w;
}

int np_term_width(FILE *out)
{
	struct winsize ws;
	const char *env = getenv("COLUMNS");
	char *end;
	long w;

	if (isatty(fileno(out)) && ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return clamp(ws.ws_col);
	/* A typo or an empty COLUMNS is as good as none. */
	if (env && *env) {
		w = strtol(env, &end, 10);
		if (*end == '\0' && w > 0)
			return clamp(w);
	}
	return NP_WIDTH_DEFAULT;
}
