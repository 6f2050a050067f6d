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
		n = vsnprintf(dst + len, size - len, fmt, ap);
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
