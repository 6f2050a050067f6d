/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A small write buffer in front of a FILE, for the text renderers' hot paths (issue #35).
 * Through stdio, a report of ~200 lines was ~2,000 fprintf/fwrite/fputc calls, each going
 * through the stream's locking and vtable (the memstream's byte-wise copy for short strings),
 * a quarter of a doctor pass. Here a piece is a memcpy into the buffer, numbers and padding
 * are formatted by hand, and the FILE sees one fwrite per 4 KiB or per np_ob_flush().
 *
 * What reaches the FILE, and in which order, is exactly what the same calls on the FILE would
 * have written: errors stay the FILE's (ferror/fflush at exit, as before). A caller that
 * writes to the FILE directly flushes first.
 */
#ifndef NP_OUTBUF_H
#define NP_OUTBUF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct np_ob {
	FILE *out;
	/* When set, what is flushed goes to sink(ctx, ...) instead of the FILE: a consumer in
	 * this process (the line wrapper) takes the bytes without a stdio stream between. */
	void (*sink)(void *ctx, const char *s, size_t n);
	void *ctx;
	size_t len;
	char buf[4096];
};

static inline void np_ob_init(struct np_ob *b, FILE *out)
{
	b->out = out;
	b->sink = NULL;
	b->len = 0;
}

/* A buffer whose flushes go to sink(ctx, ...) (in order, each byte once). */
static inline void np_ob_init_sink(struct np_ob *b, void (*sink)(void *, const char *, size_t),
				   void *ctx)
{
	b->out = NULL;
	b->sink = sink;
	b->ctx = ctx;
	b->len = 0;
}

/* The errno of the first fwrite of a buffer to stdout that failed, else 0: a large write fails in the
 * renderer, not at the final fflush() that stdio's small writes left it to, and the exit's
 * "cannot write to standard output: REASON" still names the reason (cmd/status.c). */
int np_ob_write_errno(void);
/* Hands what is buffered to the FILE (one fwrite) or the sink. */
void np_ob_flush(struct np_ob *b);
/* s[0..n): a memcpy, or through np_ob_flush() when the buffer is full. */
void np_ob_write_slow(struct np_ob *b, const char *s, size_t n);

static inline void np_ob_write(struct np_ob *b, const char *s, size_t n)
{
	if (n <= sizeof(b->buf) - b->len) {
		memcpy(b->buf + b->len, s, n);
		b->len += n;
	} else {
		np_ob_write_slow(b, s, n);
	}
}

/* As fputs(), or printf's "%s": NULL writes "(null)" as glibc's printf does. */
static inline void np_ob_puts(struct np_ob *b, const char *s)
{
	if (!s)
		s = "(null)";
	np_ob_write(b, s, strlen(s));
}

static inline void np_ob_putc(struct np_ob *b, char c)
{
	if (b->len == sizeof(b->buf))
		np_ob_flush(b);
	b->buf[b->len++] = c;
}

/* The strings up to a NULL, one after the other: fprintf(out, "%s%s...", ...). */
void np_ob_cat(struct np_ob *b, ...) __attribute__((sentinel));
/* n blanks (none when n <= 0). */
void np_ob_blanks(struct np_ob *b, long n);
/* printf's "%-*s" (width < 0: s, then blanks up to -width) and "%*s" (blanks first); the
 * width is in bytes, as printf's is. */
void np_ob_pad(struct np_ob *b, const char *s, int width);
/* printf's "%llu" and "%lld". */
void np_ob_u64(struct np_ob *b, uint64_t v);
void np_ob_i64(struct np_ob *b, int64_t v);
/* Anything else: vsnprintf into the buffer. */
void np_ob_printf(struct np_ob *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
