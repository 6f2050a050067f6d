// SPDX-License-Identifier: GPL-2.0-only
/* Appending to a fixed text buffer without ever leaving half a word. */
#include "textcut.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

static unsigned long cuts;

void np_textcut_lost(void)
{
	cuts++;
}

unsigned long np_textcut_count(void)
{
	return cuts;
}

/* dst[0..len) holds a text that did not fit: end it at the last whole word that leaves room
 * for "...", at most at min (what was there before this append, which stays whole). */
static void cut_at_word(char *dst, size_t size, size_t min)
{
	size_t end = size - 4;	/* vsnprintf filled the buffer; "..." and its NUL end it */

	if (size < min + 8) {
		dst[min] = '\0';
		return;
	}
	/* The text before end is kept if end is a space (the next word starts after it). */
	while (end > min && dst[end] != ' ')
		end--;
	while (end > min && (dst[end - 1] == ' ' || dst[end - 1] == ',' || dst[end - 1] == ';' ||
			     dst[end - 1] == ':'))
		end--;
	if (end == min) {
		dst[min] = '\0';
		return;
	}
	memcpy(dst + end, "...", 4);
}

/* The conversion at fmt (just after a '%') when it is one simple_fmt() writes itself: its
 * length, else 0. */
static size_t simple_conv(const char *fmt)
{
	if (*fmt == 's' || *fmt == 'd' || *fmt == 'u' || *fmt == '%')
		return 1;
	if ((fmt[0] == 'l' || fmt[0] == 'z') && (fmt[1] == 'd' || fmt[1] == 'u'))
		return fmt[0] == 'z' && fmt[1] == 'd' ? 0 : 2;
	if (fmt[0] == 'l' && fmt[1] == 'l' && (fmt[2] == 'd' || fmt[2] == 'u'))
		return 3;
	return 0;
}

struct piece_out {
	char *dst;
	size_t room;	/* bytes dst may take, its NUL included */
	size_t n;	/* what the whole text takes, as vsnprintf counts it */
};

static void piece(struct piece_out *o, const char *s, size_t n)
{
	if (o->n + 1 < o->room) {
		size_t k = o->room - 1 - o->n;

		memcpy(o->dst + o->n, s, n < k ? n : k);
	}
	o->n += n;
}

static void piece_num(struct piece_out *o, unsigned long long v, bool neg)
{
	char d[21];
	size_t i = sizeof(d);

	do {
		d[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (neg)
		d[--i] = '-';
	piece(o, d + i, sizeof(d) - i);
}

/* Whether fmt holds no conversion but %s, %d, %u, %ld, %lu, %lld, %llu, %zu and %%: those
 * simple_fmt() writes itself. */
static bool simple_only(const char *fmt)
{
	for (const char *p = strchr(fmt, '%'); p; p = strchr(p + 1 + simple_conv(p + 1), '%'))
		if (!simple_conv(p + 1))
			return false;
	return true;
}

/* vsnprintf(dst, room, fmt, ap) for a format simple_only() accepts, without its set-up (most
 * of the checks' texts): what the whole text takes, or -1 past INT_MAX. */
static int simple_fmt(char *dst, size_t room, const char *fmt, va_list ap)
{
	struct piece_out o = { dst, room, 0 };

	for (const char *p = fmt, *pc; *p; p = pc + 1 + simple_conv(pc + 1)) {
		char conv;
		long long v;

		pc = strchr(p, '%');
		if (!pc) {
			piece(&o, p, strlen(p));
			break;
		}
		piece(&o, p, (size_t)(pc - p));
		conv = pc[simple_conv(pc + 1)];	/* the conversion's last letter */
		if (conv == '%') {
			piece(&o, "%", 1);
		} else if (conv == 's') {
			const char *s = va_arg(ap, const char *);

			if (!s)
				s = "(null)";	/* as glibc prints it */
			piece(&o, s, strlen(s));
		} else if (conv == 'u') {
			piece_num(&o, pc[1] == 'z' ? va_arg(ap, size_t) :
				  pc[1] == 'l' && pc[2] == 'l' ? va_arg(ap, unsigned long long) :
				  pc[1] == 'l' ? va_arg(ap, unsigned long) : va_arg(ap, unsigned int),
				  false);
		} else {	/* 'd' */
			v = pc[1] == 'l' && pc[2] == 'l' ? va_arg(ap, long long) :
			    pc[1] == 'l' ? va_arg(ap, long) : va_arg(ap, int);
			piece_num(&o, v < 0 ? -(unsigned long long)v : (unsigned long long)v, v < 0);
		}
	}
	if (room)
		dst[o.n < room ? o.n : room - 1] = '\0';
	return o.n > INT_MAX ? -1 : (int)o.n;
}

bool np_textcut_vappend(char *dst, size_t size, const char *fmt, va_list ap)
{
	const char *lit;
	size_t len;
	int n;

	if (!size)
		return false;
	len = strnlen(dst, size);
	if (len + 1 >= size) {
		cuts++;
		return false;
	}
	lit = !strchr(fmt, '%') ? fmt : NULL;
	if (!lit && strcmp(fmt, "%s") == 0) {
		lit = va_arg(ap, const char *);
		if (!lit)
			lit = "(null)";	/* as glibc prints it */
	}
	if (lit) {
		/* A fixed text, or "%s" of one: copied as vsnprintf would (cut, terminated),
		 * without its set-up (a third of the checks' summaries are such). */
		size_t l = strlen(lit), k = l < size - len - 1 ? l : size - len - 1;

		memcpy(dst + len, lit, k);
		dst[len + k] = '\0';
		n = l > INT_MAX ? -1 : (int)l;
	} else {
		n = simple_only(fmt) ? simple_fmt(dst + len, size - len, fmt, ap) :
				       vsnprintf(dst + len, size - len, fmt, ap);
	}
	if (n < 0) {
		dst[len] = '\0';
		cuts++;
		return false;
	}
	if ((size_t)n < size - len)
		return true;
	cuts++;
	cut_at_word(dst, size, len);
	return false;
}

bool np_textcut_append(char *dst, size_t size, const char *fmt, ...)
{
	va_list ap;
	bool ok;

	va_start(ap, fmt);
	ok = np_textcut_vappend(dst, size, fmt, ap);
	va_end(ap);
	return ok;
}
