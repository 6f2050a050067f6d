// SPDX-License-Identifier: GPL-2.0-only
/* The Prometheus text exposition writer (prom_writer.h). */
#include "prom_writer.h"
#include "npfloor.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>

#include "counters.h"

/* Length of the well-formed UTF-8 sequence at s (RFC 3629), 0 if it is not one. Stops at the
 * terminating NUL, which is never a continuation byte. */
static size_t utf8_len(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		lo = s[0] == 0xe0 ? 0xa0 : 0x80;	/* no overlong forms */
		hi = s[0] == 0xed ? 0x9f : 0xbf;	/* no surrogates */
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		lo = s[0] == 0xf0 ? 0x90 : 0x80;
		hi = s[0] == 0xf4 ? 0x8f : 0xbf;	/* nothing past U+10FFFF */
	} else {
		return 0;
	}
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

/*
 * The text between the quotes of a label value (quote = true) or of a HELP line: backslash,
 * newline and (in labels) the double quote escaped as the format requires. Names come from
 * drivers and the kernel, so bytes that are not UTF-8 and other control characters become '?':
 * a parser must never see a broken line. Truncates at a whole character.
 */
void np_prom_escape(const char *in, bool quote, char *out, size_t size)
{
	const unsigned char *s = (const unsigned char *)in;
	size_t o = 0;

	/* Most names are printable ASCII without a quote or backslash: copied as they are, with
	 * the same truncation as the loop below (size - 1 bytes and the NUL). */
	while (s[o] >= 0x20 && s[o] < 0x7f && s[o] != '\\' && s[o] != '"')
		o++;
	if (!s[o] || o + 1 >= size) {
		if (o >= size)
			o = size - 1;
		memcpy(out, in, o);
		out[o] = '\0';
		return;
	}
	memcpy(out, in, o);
	s += o;
	while (*s) {
		const char *rep = NULL;
		size_t n = 1, len;

		if (*s == '\\')
			rep = "\\\\";
		else if (*s == '\n')
			rep = "\\n";
		else if (*s == '"' && quote)
			rep = "\\\"";
		else if (*s < 0x20 || *s == 0x7f || !(n = utf8_len(s)))
			rep = "?", n = 1;
		len = rep ? strlen(rep) : n;
		if (o + len >= size)
			break;
		memcpy(out + o, rep ? rep : (const char *)s, len);
		o += len;
		s += n;
	}
	out[o] = '\0';
}

void np_prom_family(struct np_prom *p, enum np_prom_scope sc, const char *name,
		    const char *type, const char *help)
{
	p->name = name;
	p->type = type;
	p->help = help;
	p->header_done = false;
	p->dev = NULL;
	p->netns_label = sc != NP_PROM_HOST && p->netns;
	p->skip = sc == NP_PROM_HOST && p->netns;
	p->device_family = sc == NP_PROM_DEVICE;
}

/*
 * A sample line is put together in a buffer and written with one fwrite: fprintf's format
 * parsing, and the stream lock each stdio call takes, were a quarter of the user-space
 * instructions of a `doctor --format prometheus` run, for lines that are only strings put one
 * after the other. A line longer than the buffer is written in pieces.
 */
struct line {
	FILE *out;
	size_t n;
	char buf[1024];
};

static void put_n(struct line *l, const char *s, size_t len)
{
	if (l->n + len > sizeof(l->buf)) {
		fwrite(l->buf, 1, l->n, l->out);
		l->n = 0;
		if (len > sizeof(l->buf)) {
			fwrite(s, 1, len, l->out);
			return;
		}
	}
	memcpy(l->buf + l->n, s, len);
	l->n += len;
}

static void put(struct line *l, const char *s)
{
	put_n(l, s, strlen(s));
}

static void put_label(struct line *l, const char *sep, const char *name, const char *raw)
{
	char esc[NP_PROM_LABEL_MAX];

	np_prom_escape(raw, true, esc, sizeof(esc));
	put(l, sep);
	put(l, name);
	put_n(l, "=\"", 2);
	put(l, esc);
	put_n(l, "\"", 1);
}

/* The labels a sample starts with (interface, netns: see enum np_prom_scope), written after
 * "name{"; returns the separator the next label needs. */
static const char *scope_labels(const struct np_prom *p, struct line *l)
{
	const char *sep = "";

	if (p->device_family) {
		put_label(l, sep, "interface", p->dev ? p->dev : "");
		sep = ",";
	}
	if (p->netns_label) {
		put_label(l, sep, "netns", p->netns);
		sep = ",";
	}
	return sep;
}

/* One sample of the current family: value, then NULL-terminated label name/value pairs (raw
 * values; escaped here), after the family's scope labels. */
static void vsample(struct np_prom *p, const char *value, va_list ap)
{
	struct line l = { .out = p->out };
	const char *k, *sep;
	va_list peek;
	bool bare;

	if (p->skip)
		return;
	if (!p->header_done) {
		char help[512];

		np_prom_escape(p->help, false, help, sizeof(help));
		put_n(&l, "# HELP ", 7);
		put(&l, p->name);
		put_n(&l, " ", 1);
		put(&l, help);
		put_n(&l, "\n# TYPE ", 8);
		put(&l, p->name);
		put_n(&l, " ", 1);
		put(&l, p->type);
		put_n(&l, "\n", 1);
		p->header_done = true;
	}
	/* A sample without labels is written bare ("name 1"), not "name{} 1". */
	va_copy(peek, ap);
	bare = !p->device_family && !p->netns_label && !va_arg(peek, const char *);
	va_end(peek);
	put(&l, p->name);
	if (!bare) {
		put_n(&l, "{", 1);
		sep = scope_labels(p, &l);
		while ((k = va_arg(ap, const char *))) {
			put_label(&l, sep, k, va_arg(ap, const char *));
			sep = ",";
		}
		put_n(&l, "}", 1);
	}
	put_n(&l, " ", 1);
	put(&l, value);
	put_n(&l, "\n", 1);
	fwrite(l.buf, 1, l.n, l.out);
}

/* v in decimal, as "%" PRIu64 writes it, ending at end (exclusive); returns the first digit. */
static char *u64_digits(uint64_t v, char *end)
{
	*--end = '\0';
	do
		*--end = (char)('0' + v % 10);
	while (v /= 10);
	return end;
}

/* Not reported (NP_NA) leaves the series out: absent is not zero. */
void np_prom_u64(struct np_prom *p, uint64_t v, ...)
{
	char num[32];
	va_list ap;

	if (!np_has(v))
		return;
	va_start(ap, v);
	vsample(p, u64_digits(v, num + sizeof(num)), ap);
	va_end(ap);
}

void np_prom_dbl(struct np_prom *p, double v, ...)
{
	char num[48];
	const char *text = num;
	va_list ap;

	if (!isfinite(v))
		return;
	v += 0.0;	/* no "-0" */
	if (v == np_floor(v) && fabs(v) < 1e15) {
		/* What "%.0f" writes for a whole number below 2^53, without printf's
		 * multiple-precision path. */
		char *d = u64_digits((uint64_t)fabs(v), num + sizeof(num));

		if (v < 0)
			*--d = '-';
		text = d;
	} else {
		snprintf(num, sizeof(num), "%.15g", v);
	}
	va_start(ap, v);
	vsample(p, text, ap);
	va_end(ap);
}
