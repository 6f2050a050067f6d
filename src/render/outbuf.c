// SPDX-License-Identifier: GPL-2.0-only
/* A write buffer in front of a FILE: see outbuf.h. */
#include "outbuf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>

static int write_err;

int np_ob_write_errno(void)
{
	return write_err;
}

/* fwrite(), remembering why the first one to standard output that failed did. */
static void put(struct np_ob *b, const char *s, size_t n)
{
	if (b->sink) {
		b->sink(b->ctx, s, n);
		return;
	}
	errno = 0;
	if (fwrite(s, 1, n, b->out) != n && b->out == stdout && !write_err)
		write_err = errno;
}

void np_ob_flush(struct np_ob *b)
{
	if (b->len)
		put(b, b->buf, b->len);
	b->len = 0;
}

void np_ob_write_slow(struct np_ob *b, const char *s, size_t n)
{
	np_ob_flush(b);
	if (n >= sizeof(b->buf)) {
		put(b, s, n);
		return;
	}
	memcpy(b->buf, s, n);
	b->len = n;
}

void np_ob_cat(struct np_ob *b, ...)
{
	va_list ap;

	va_start(ap, b);
	for (const char *s; (s = va_arg(ap, const char *));)
		np_ob_puts(b, s);
	va_end(ap);
}

void np_ob_blanks(struct np_ob *b, long n)
{
	static const char sp[32] = "                                ";

	for (; n > 0; n -= 32) {
		size_t k = n < 32 ? (size_t)n : 32;

		/* With room for 32, all 32 are copied (a fixed-size copy is a few moves rather
		 * than a call) and the buffer takes k: what lies past len is not written out. */
		if (sizeof(b->buf) - b->len >= sizeof(sp)) {
			memcpy(b->buf + b->len, sp, sizeof(sp));
			b->len += k;
		} else {
			np_ob_write(b, sp, k);
		}
	}
}

void np_ob_pad(struct np_ob *b, const char *s, int width)
{
	size_t len = strlen(s ? s : "(null)");
	long w = width < 0 ? -(long)width : width;
	long fill = w > (long)len ? w - (long)len : 0;

	if (width > 0)
		np_ob_blanks(b, fill);
	np_ob_write(b, s ? s : "(null)", len);
	if (width < 0)
		np_ob_blanks(b, fill);
}

void np_ob_u64(struct np_ob *b, uint64_t v)
{
	char d[20];
	size_t i = sizeof(d);

	do {
		d[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	np_ob_write(b, d + i, sizeof(d) - i);
}

void np_ob_i64(struct np_ob *b, int64_t v)
{
	if (v < 0) {
		np_ob_putc(b, '-');
		np_ob_u64(b, -(uint64_t)v);
	} else {
		np_ob_u64(b, (uint64_t)v);
	}
}

void np_ob_printf(struct np_ob *b, const char *fmt, ...)
{
	size_t room = sizeof(b->buf) - b->len;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b->buf + b->len, room, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < room) {
		b->len += (size_t)n;
		return;
	}
	/* It did not fit: what is buffered goes first, then the text as stdio writes it. */
	np_ob_flush(b);
	va_start(ap, fmt);
	if ((size_t)n < sizeof(b->buf)) {
		b->len = (size_t)vsnprintf(b->buf, sizeof(b->buf), fmt, ap);
	} else if (!b->sink) {
		vfprintf(b->out, fmt, ap);
	} else {
		/* A sink has no stream to print into: the text is made whole first (lost,
		 * as a failed write's would be, when there is no memory for it). */
		char *t = malloc((size_t)n + 1);

		if (t) {
			vsnprintf(t, (size_t)n + 1, fmt, ap);
			put(b, t, (size_t)n);
			free(t);
		}
	}
	va_end(ap);
}
