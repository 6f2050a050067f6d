// SPDX-License-Identifier: GPL-2.0-only
/* Moments, spans and sizes as admins write them (when.h). */
#include "when.h"
#include "npfloor.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int fail(char *err, size_t errlen, const char *what, const char *s)
{
	snprintf(err, errlen, "'%.40s': %s", s, what);
	return -EINVAL;
}

/* Exactly 'n' digits at *p into *v, advancing *p. */
static bool digits(const char **p, int n, int *v)
{
	*v = 0;
	for (int i = 0; i < n; i++, (*p)++) {
		if (!isdigit((unsigned char)**p))
			return false;
		*v = *v * 10 + (**p - '0');
	}
	return true;
}

static const struct {
	const char *name;
	double secs;
} units[] = {
	{ "s", 1 }, { "sec", 1 }, { "secs", 1 }, { "second", 1 }, { "seconds", 1 },
	{ "m", 60 }, { "min", 60 }, { "mins", 60 }, { "minute", 60 }, { "minutes", 60 },
	{ "h", 3600 }, { "hr", 3600 }, { "hour", 3600 }, { "hours", 3600 },
	{ "d", 86400 }, { "day", 86400 }, { "days", 86400 },
	{ "w", 604800 }, { "week", 604800 }, { "weeks", 604800 },
};

/* "1h30min", "90", "2 h 5 min": the sum; the end of what was read in *end. */
static int span_sum(const char *s, double *out, const char **end)
{
	const char *p = s;
	double sum = 0;
	int parts = 0;

	for (;;) {
		char *q;
		double v;
		size_t n = 0, i;

		while (*p == ' ')
			p++;
		if (!isdigit((unsigned char)*p))
			break;
		v = strtod(p, &q);
		p = q;
		while (*p == ' ')
			p++;
		while (isalpha((unsigned char)p[n]))
			n++;
		if (n == 0) {
			i = 0;	/* a bare number: seconds */
		} else {
			for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
				if (strlen(units[i].name) == n && strncasecmp(p, units[i].name, n) == 0)
					break;
			if (i == sizeof(units) / sizeof(units[0]))
				break;
		}
		sum += v * units[i].secs;
		p += n;
		parts++;
	}
	*end = p;
	*out = sum;
	return parts > 0 && isfinite(sum) ? 0 : -EINVAL;
}

int np_parse_span(const char *s, double *out, char *err, size_t errlen)
{
	const char *end;

	if (span_sum(s, out, &end) < 0 || *end != '\0' || *out <= 0)
		return fail(err, errlen, "not a duration (e.g. 90s, 10min, 2h, 7d, 1h30min)", s);
	return 0;
}

int np_parse_size(const char *s, uint64_t *out, char *err, size_t errlen)
{
	static const char suffix[] = "KMGT";
	const char *bad = "not a size (e.g. 500M, 2G, 4096: bytes, K/M/G/T in powers of 1024)";
	char *end;
	unsigned long long v;
	unsigned shift = 0;

	if (!isdigit((unsigned char)*s))
		return fail(err, errlen, bad, s);
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return fail(err, errlen, bad, s);
	if (*end) {
		const char *k = strchr(suffix, toupper((unsigned char)*end));

		if (!k)
			return fail(err, errlen, bad, s);
		shift = 10 * (unsigned)(k - suffix + 1);
		end++;
		if (*end == 'i' || *end == 'I')
			end++;
		if (*end == 'B' || *end == 'b')
			end++;
		if (*end)
			return fail(err, errlen, bad, s);
	}
	if (v == 0 || (shift && v > (UINT64_MAX >> shift)))
		return fail(err, errlen, v ? "too large" : "must be more than 0", s);
	*out = (uint64_t)v << shift;
	return 0;
}

/* Local midnight of now's day, 'back' days before. */
static double midnight(double now, int back)
{
	time_t t = (time_t)now;
	struct tm tm;

	localtime_r(&t, &tm);
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	tm.tm_mday -= back;
	tm.tm_isdst = -1;
	return (double)mktime(&tm);
}

/* ":SS[.frac]" after HH:MM, optional. */
static bool seconds_part(const char **p, struct tm *tm, double *frac)
{
	*frac = 0;
	if (**p != ':')
		return true;
	(*p)++;
	if (!digits(p, 2, &tm->tm_sec) || tm->tm_sec > 60)
		return false;
	if (**p == '.' || **p == ',') {
		double scale = 0.1;

		(*p)++;
		if (!isdigit((unsigned char)**p))
			return false;
		for (; isdigit((unsigned char)**p); (*p)++, scale /= 10)
			*frac += (**p - '0') * scale;
	}
	return true;
}

static bool clock_part(const char **p, struct tm *tm, double *frac)
{
	if (!digits(p, 2, &tm->tm_hour) || tm->tm_hour > 23 || *(*p)++ != ':' ||
	    !digits(p, 2, &tm->tm_min) || tm->tm_min > 59)
		return false;
	return seconds_part(p, tm, frac);
}

/* "Z", "+01:00", "-0530", "+01" into seconds east of UTC; false if none or malformed. */
static int offset_part(const char *p, long *east)
{
	int sign, hh, mm = 0;

	if (*p == 'Z' || *p == 'z') {
		*east = 0;
		return p[1] ? -1 : 1;
	}
	if (*p != '+' && *p != '-')
		return *p ? -1 : 0;
	sign = *p++ == '-' ? -1 : 1;
	if (!digits(&p, 2, &hh) || hh > 23)
		return -1;
	if (*p == ':')
		p++;
	if (*p && (!digits(&p, 2, &mm) || mm > 59))
		return -1;
	if (*p)
		return -1;
	*east = sign * (hh * 3600L + mm * 60L);
	return 1;
}

/* Calendar forms: "YYYY-MM-DD[( |T)HH:MM[:SS[.f]][offset]]" and "HH:MM[:SS]" (today). */
static int calendar(const char *s, double now, double *out)
{
	struct tm tm = { .tm_isdst = -1 }, want;
	const char *p = s;
	double frac = 0;
	long east = 0;
	int off = 0;
	time_t t;

	if (strlen(s) >= 5 && s[2] == ':') {
		time_t n = (time_t)now;

		localtime_r(&n, &tm);
		tm.tm_sec = 0;
		tm.tm_isdst = -1;
		if (!clock_part(&p, &tm, &frac) || *p)
			return -EINVAL;
	} else {
		if (!digits(&p, 4, &tm.tm_year) || *p++ != '-' || !digits(&p, 2, &tm.tm_mon) ||
		    *p++ != '-' || !digits(&p, 2, &tm.tm_mday))
			return -EINVAL;
		if (tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 || tm.tm_mday > 31)
			return -EINVAL;
		tm.tm_year -= 1900;
		tm.tm_mon -= 1;
		if (*p == ' ' || *p == 'T' || *p == 't') {
			p++;
			if (!clock_part(&p, &tm, &frac))
				return -EINVAL;
			off = offset_part(p, &east);
			if (off < 0)
				return -EINVAL;
		} else if (*p) {
			return -EINVAL;
		}
	}
	want = tm;
	t = off ? timegm(&tm) - east : mktime(&tm);
	/* mktime/timegm move 2026-02-31 to March: a date that does not exist is refused. */
	if (t == (time_t)-1 || tm.tm_mday != want.tm_mday || tm.tm_mon != want.tm_mon)
		return -EINVAL;
	*out = (double)t + frac;
	return 0;
}

int np_parse_when(const char *s, double now, double *out, char *err, size_t errlen)
{
	const char *end;
	double span;

	while (isspace((unsigned char)*s))
		s++;
	if (strcasecmp(s, "now") == 0) {
		*out = now;
		return 0;
	}
	if (strcasecmp(s, "today") == 0 || strcasecmp(s, "yesterday") == 0) {
		*out = midnight(now, s[0] == 'y' || s[0] == 'Y');
		return 0;
	}
	if (*s == '@') {
		char *q;

		errno = 0;
		*out = strtod(s + 1, &q);
		if (errno || q == s + 1 || *q || !isfinite(*out) || *out < 0 ||
		    !isdigit((unsigned char)s[1]))
			return fail(err, errlen, "not @SECONDS since the epoch", s);
		return 0;
	}
	if (*s == '-' && span_sum(s + 1, &span, &end) == 0 && *end == '\0') {
		*out = now - span;
		return 0;
	}
	if (span_sum(s, &span, &end) == 0 && strcmp(end, "ago") == 0) {
		*out = now - span;
		return 0;
	}
	if (calendar(s, now, out) == 0)
		return 0;
	return fail(err, errlen,
		    "not a time (YYYY-MM-DD HH:MM[:SS] local, ISO 8601, @SECONDS, -10min, now)", s);
}

void np_when_format(double t, char *buf, size_t size)
{
	time_t tt = (time_t)np_floor(t);
	struct tm tm;

	if (!localtime_r(&tt, &tm) || !strftime(buf, size, "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(buf, size, "@%.0f", t);
}
