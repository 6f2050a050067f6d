// SPDX-License-Identifier: GPL-2.0-only
/* Human text and the user's locale: digit grouping from LC_NUMERIC, ASCII under a codeset that is
 * not UTF-8 (textenc.h says why the process locale is left alone). */
#include "textenc.h"
#include "npfloor.h"
#include "check_util.h"

#include <langinfo.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Every non-ASCII character netpath's text may hold (tables, summaries, arrows in diff,
 * sparklines and boxes should a renderer draw them), with the ASCII it becomes. A character
 * missing here prints as "?": tests/integration/locale.sh fails on it under LC_ALL=C. */
static const struct {
	const char *utf8, *ascii;
} glyphs[] = {
	{ "\u2192", "->" }, { "\u2190", "<-" }, { "\u2194", "<->" }, { "\u21d2", "=>" },
	{ "\u00d7", "x" }, { "\u00f7", "/" }, { "\u00b1", "+/-" },
	{ "\u2265", ">=" }, { "\u2264", "<=" }, { "\u2260", "!=" }, { "\u2248", "~" },
	{ "\u2286", "<=" }, { "\u221e", "inf" },
	{ "\u00b5", "u" }, { "\u03bc", "u" }, { "\u00b0", " deg" },
	{ "\u2014", "-" }, { "\u2013", "-" }, { "\u2212", "-" }, { "\u2026", "..." },
	{ "\u2018", "'" }, { "\u2019", "'" }, { "\u201c", "\"" }, { "\u201d", "\"" },
	{ "\u00a0", " " }, { "\u202f", " " }, { "\u2009", " " },
	{ "\u00b7", "." }, { "\u2022", "*" }, { "\u2713", "ok" }, { "\u2717", "x" },
	/* box drawing */
	{ "\u2500", "-" }, { "\u2502", "|" }, { "\u250c", "+" }, { "\u2510", "+" },
	{ "\u2514", "+" }, { "\u2518", "+" }, { "\u251c", "+" }, { "\u2524", "+" },
	{ "\u252c", "+" }, { "\u2534", "+" }, { "\u253c", "+" },
	/* sparklines: eight heights, low to high */
	{ "\u2581", "_" }, { "\u2582", "." }, { "\u2583", "-" }, { "\u2584", "=" },
	{ "\u2585", "+" }, { "\u2586", "*" }, { "\u2587", "#" }, { "\u2588", "#" },
};

static struct np_text_locale cur;	/* C until np_text_locale_init */
static bool ascii_cols;			/* np_text_cols_ascii() */

void np_text_cols_ascii(bool on)
{
	ascii_cols = on;
}

bool np_text_cols_ascii_on(void)
{
	return ascii_cols;
}

static size_t seq_len(unsigned char lead)
{
	if (lead >= 0xc2 && lead <= 0xdf)
		return 2;
	if (lead >= 0xe0 && lead <= 0xef)
		return 3;
	if (lead >= 0xf0 && lead <= 0xf4)
		return 4;
	return 1;	/* a stray continuation byte or an invalid lead: one byte, "?" */
}

const char *np_glyph_ascii(const char *s, size_t n, size_t *len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t need;

	*len = n ? 1 : 0;
	if (!n || u[0] < 0x80)
		return NULL;
	need = seq_len(u[0]);
	for (size_t i = 1; i < need; i++) {
		if (i >= n) {
			*len = 0;	/* incomplete: more bytes may follow */
			return NULL;
		}
		if ((u[i] & 0xc0) != 0x80)
			return "?";	/* broken sequence: replace its lead, go on from there */
	}
	*len = need;
	for (size_t i = 0; i < sizeof(glyphs) / sizeof(glyphs[0]); i++)
		if (strlen(glyphs[i].utf8) == need && !memcmp(glyphs[i].utf8, s, need))
			return glyphs[i].ascii;
	return "?";
}

char *np_text_ascii(const char *in, char *out, size_t size)
{
	size_t o = 0, n = strlen(in);

	if (!size)
		return out;
	for (size_t i = 0; i < n;) {
		size_t len;
		const char *a = np_glyph_ascii(in + i, n - i, &len);

		if (!a && !len)
			a = "?", len = n - i;	/* incomplete at the end */
		if (!a) {
			if (o + 1 >= size)
				break;
			out[o++] = in[i++];
			continue;
		}
		if (o + strlen(a) >= size)
			break;
		memcpy(out + o, a, strlen(a));
		o += strlen(a);
		i += len;
	}
	out[o] = '\0';
	return out;
}

void np_text_locale_from(const char *codeset, const char *thousands_sep,
			 struct np_text_locale *out)
{
	const char *s = thousands_sep ? thousands_sep : "";
	bool ascii = true, space = false;

	out->utf8 = codeset && (!strcasecmp(codeset, "UTF-8") || !strcasecmp(codeset, "utf8"));
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		ascii &= *p < 0x80;
		space |= *p == ' ' || *p == '\t';
	}
	out->sep[0] = '\0';
	if (!*s || !strcmp(s, ".") || space || (!ascii && !out->utf8) || strlen(s) >= sizeof(out->sep))
		return;
	snprintf(out->sep, sizeof(out->sep), "%s", s);
}

/* The locale name a category takes from the environment, as setlocale(cat, "") reads it. */
static const char *env_locale(const char *category)
{
	const char *v = getenv("LC_ALL");

	if (!v || !*v)
		v = getenv(category);
	if (!v || !*v)
		v = getenv("LANG");
	return v && *v ? v : "C";
}

/* The built-in locales, whose answers are known without newlocale() (which reads the locale
 * alias file: 3% of a doctor pass). False for any other name. */
static bool builtin_locale(const char *name, const char **codeset)
{
	if (!strcmp(name, "C") || !strcmp(name, "POSIX")) {
		*codeset = "ANSI_X3.4-1968";
		return true;
	}
	if (!strcmp(name, "C.UTF-8") || !strcmp(name, "C.utf8")) {
		*codeset = "UTF-8";
		return true;
	}
	return false;
}

void np_text_locale_init(void)
{
	const char *codeset, *numset;
	locale_t ct, num;

	/* Both categories built in (C, POSIX, C.UTF-8: no thousands separator): no lookup. */
	if (builtin_locale(env_locale("LC_CTYPE"), &codeset) &&
	    builtin_locale(env_locale("LC_NUMERIC"), &numset)) {
		np_text_locale_from(codeset, "", &cur);
		np_fmt_set_group_sep("");
		np_text_cols_ascii(!cur.utf8);
		return;
	}
	/* Only the categories that matter, so a broken LC_TIME does not turn the rest into C. */
	ct = newlocale(LC_CTYPE_MASK, "", (locale_t)0);
	num = newlocale(LC_NUMERIC_MASK, "", (locale_t)0);

	np_text_locale_from(ct ? nl_langinfo_l(CODESET, ct) : "ANSI_X3.4-1968",
			    num ? nl_langinfo_l(THOUSANDS_SEP, num) : "", &cur);
	if (ct)
		freelocale(ct);
	if (num)
		freelocale(num);
	np_fmt_set_group_sep("");
	/* Text is wrapped before it is transliterated: the wrapper counts the ASCII forms. */
	np_text_cols_ascii(!cur.utf8);
}

const struct np_text_locale *np_text_locale(void)
{
	return &cur;
}

void np_text_grouping(bool human)
{
	np_fmt_set_group_sep(human ? cur.sep : "");
}

/* The ASCII stream: a character split across two writes waits in pend. */
struct ascii_cookie {
	FILE *under;
	char pend[4];
	size_t npend;
};

static void put_byte(struct ascii_cookie *c, char b)
{
	size_t len;
	const char *a;

	if (!c->npend && !((unsigned char)b & 0x80)) {
		fputc(b, c->under);
		return;
	}
	c->pend[c->npend++] = b;
	a = np_glyph_ascii(c->pend, c->npend, &len);
	if (!a && !len && c->npend < sizeof(c->pend))
		return;		/* wait for the rest */
	fputs(a ? a : "?", c->under);
	if (len && len < c->npend) {
		/* A broken sequence: its lead became "?", the bytes after it start afresh. */
		char rest[4];
		size_t nrest = c->npend - 1;

		memcpy(rest, c->pend + 1, nrest);
		c->npend = 0;
		for (size_t i = 0; i < nrest; i++)
			put_byte(c, rest[i]);
		return;
	}
	c->npend = 0;
}

static ssize_t ascii_write(void *cookie, const char *buf, size_t n)
{
	struct ascii_cookie *c = cookie;

	for (size_t i = 0; i < n; i++)
		put_byte(c, buf[i]);
	return ferror(c->under) ? -1 : (ssize_t)n;
}

static int ascii_close(void *cookie)
{
	struct ascii_cookie *c = cookie;

	if (c->npend)
		fputc('?', c->under);
	free(c);
	return 0;
}

FILE *np_text_stream(FILE *out)
{
	cookie_io_functions_t io = { .write = ascii_write, .close = ascii_close };
	struct ascii_cookie *c;
	FILE *f;

	if (cur.utf8 || !out)
		return out;
	c = calloc(1, sizeof(*c));
	if (!c)
		return out;
	c->under = out;
	f = fopencookie(c, "w", io);
	if (!f) {
		free(c);
		return out;
	}
	setvbuf(f, NULL, _IONBF, 0);
	return f;
}

void np_text_stream_done(FILE *s, FILE *out)
{
	if (s && s != out)
		fclose(s);
}

/* A whole number from 0 up to 2^53 (what "%.0f" prints as digits, no sign), its groups
 * joined by the separator, written at once: the digits, then np_fmt_group()'s rescan of
 * them, were most of a count's cost (#35). False when buf cannot hold it all; the caller
 * then takes the slow path, which cuts as it always did. */
static bool count_whole(uint64_t u, char *buf, size_t size)
{
	const char *sep = np_fmt_group_sep();
	size_t sl = strlen(sep), n = 0, len, o;
	char d[20];

	do {
		d[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	len = n + (n - 1) / 3 * sl;
	if (len + 1 > size)
		return false;
	buf[len] = '\0';
	o = len;
	for (size_t i = 0; i < n; i++) {
		if (i && i % 3 == 0) {
			o -= sl;
			memcpy(buf + o, sep, sl);
		}
		buf[--o] = d[i];
	}
	return true;
}

const char *np_fmt_count(double v, char *buf, size_t size)
{
	char raw[64];

	/* Whole and not negative (nor -0, which "%.0f" prints as "-0"), below 2^53 where a
	 * double holds every whole number: most counts. */
	if (v >= 0 && v < 9007199254740992.0 && !signbit(v) && v == (double)(uint64_t)v &&
	    count_whole((uint64_t)v, buf, size))
		return buf;
	if (isnan(v)) {
		snprintf(buf, size, "n/a");
		return buf;
	}
	if (fabs(v) < 1000 && np_fmt_integral(v, buf, size))
		return buf;
	if (v != np_floor(v) || fabs(v) < 1000) {
		snprintf(buf, size, v == np_floor(v) ? "%.0f" : (fabs(v) < 10 ? "%.2f" : "%.1f"), v);
		return buf;
	}
	if (!np_fmt_integral(v, raw, sizeof(raw)))
		snprintf(raw, sizeof(raw), "%.0f", v);
	return np_fmt_group(raw, buf, size);
}
