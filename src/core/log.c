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

/* The length of the valid UTF-8 sequence at s that is no C1 control, or 0. */
static size_t utf8_printable(const unsigned char *s)
{
	unsigned char c = s[0];
	size_t len;

	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0;	/* a continuation byte alone, C0/C1 overlong leads, > U+10FFFF */
	for (size_t i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;	/* the NUL terminator stops here too */
	if (c == 0xc2 && s[1] < 0xa0)
		return 0;	/* U+0080..U+009F: C1 controls (CSI is U+009B) */
	if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xf0 && s[1] < 0x90))
		return 0;	/* overlong */
	if ((c == 0xed && s[1] >= 0xa0) || (c == 0xf4 && s[1] >= 0x90))
		return 0;	/* surrogates, beyond U+10FFFF */
	return len;
}

char *np_sanitize(const char *s, char *out, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t o = 0;

	if (!n)
		return out;
	while (*p) {
		size_t len = *p >= 0x20 && *p < 0x7f ? 1 : utf8_printable(p);

		if (len) {
			if (o + len >= n)
				break;
			for (size_t i = 0; i < len; i++)
				out[o++] = (char)*p++;
			continue;
		}
		if (o + 4 >= n)
			break;
		out[o++] = '\\';
		out[o++] = 'x';
		out[o++] = hex[*p >> 4];
		out[o++] = hex[*p & 0xf];
		p++;
	}
	out[o] = '\0';
	return out;
}

static void vsay(const char *prefix, const char *fmt, va_list ap)
{
	char raw[1024], safe[NP_SANITIZED_SIZE(sizeof(raw))];

	vsnprintf(raw, sizeof(raw), fmt, ap);
	fprintf(stderr, "%s%s\n", prefix, np_sanitize(raw, safe, sizeof(safe)));
}

void np_log(enum np_log_level lvl, const char *fmt, ...)
{
	va_list ap;

	if (lvl > np_level)
		return;
	/* Log lines quote names read from the system, files and captures. */
	va_start(ap, fmt);
	vsay("netpath: ", fmt, ap);
	va_end(ap);
}

void np_say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay("", fmt, ap);
	va_end(ap);
}

void np_log_set_verbosity(int verbose)
{
	if (verbose >= 2)
		np_log_set_level(NP_LOG_DEBUG);
	else if (verbose)
		np_log_set_level(NP_LOG_INFO);
}
