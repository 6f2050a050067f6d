// SPDX-License-Identifier: GPL-2.0-only
/* Option value parsing with strict validation: a typo must be an error, not a zero. */
#include <getopt.h>
#include "opts.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* strtod() also takes leading blanks, hex ("0x10" = 16 s), "inf" and "nan": a command line
 * means plain decimal, so anything else in what it consumed is a typo, not a number. */
static bool plain_decimal(const char *s, const char *end)
{
	for (; s < end; s++)
		if (!strchr("0123456789.eE+-", *s))
			return false;
	return true;
}

int np_parse_number(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end != '\0' || !plain_decimal(s, end) || isnan(v) || v < min ||
	    v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

int np_parse_bandwidth(const char *s, double *bps)
{
	static const char *const units[] = { "", "bit", "bps", "b/s", "bit/s", NULL };
	double v, mult = 1;
	char *end;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !plain_decimal(s, end) || isnan(v) || v <= 0)
		return -EINVAL;
	switch (*end) {
	case 'k': case 'K': mult = 1e3; end++; break;
	case 'm': case 'M': mult = 1e6; end++; break;
	case 'g': case 'G': mult = 1e9; end++; break;
	case 't': case 'T': mult = 1e12; end++; break;
	default: break;
	}
	for (size_t i = 0; units[i]; i++) {
		if (strcasecmp(end, units[i]) == 0) {
			v *= mult;
			if (v < 1e3 || v > 1e13)	/* 1 kbit/s .. 10 Tbit/s */
				return -EINVAL;
			*bps = v;
			return 0;
		}
	}
	return -EINVAL;
}

int np_parse_color(const char *s, enum np_color *out)
{
	if (strcmp(s, "auto") == 0)
		*out = NP_COLOR_AUTO;
	else if (strcmp(s, "always") == 0)
		*out = NP_COLOR_ALWAYS;
	else if (strcmp(s, "never") == 0)
		*out = NP_COLOR_NEVER;
	else
		return -EINVAL;
	return 0;
}

bool np_color_enabled(enum np_color c, FILE *out)
{
	const char *no = getenv("NO_COLOR"), *term = getenv("TERM");

	if (c == NP_COLOR_ALWAYS)
		return true;
	if (c == NP_COLOR_NEVER || (no && *no))
		return false;
	/* A dumb terminal (Emacs' shell, a serial console) shows escapes as junk. */
	if (term && !strcmp(term, "dumb"))
		return false;
	return isatty(fileno(out));
}

const char *np_opts_inexact(int argc, char **argv, const char *shortopts,
			    const struct option *longopts)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *sp;
		const struct option *hit = NULL;
		size_t len;

		if (!strcmp(a, "--"))
			break;
		/* "-o FILE": the value is no option, whatever it looks like. */
		if (a[0] == '-' && a[1] && a[1] != '-' && !a[2] && (sp = strchr(shortopts, a[1])) &&
		    sp[1] == ':') {
			i++;
			continue;
		}
		if (strncmp(a, "--", 2) || !a[2])
			continue;
		len = strcspn(a + 2, "=");
		for (const struct option *o = longopts; o->name && !hit; o++)
			if (strlen(o->name) == len && !strncmp(o->name, a + 2, len))
				hit = o;
		if (!hit)
			return a;
		if (hit->has_arg == required_argument && !a[2 + len])
			i++;
	}
	return NULL;
}
