/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Text that fits the terminal: every text renderer writes its lines as usual, into a stream
 * opened by np_wrap_open() that writes them out wrapped at the width the command measured
 * (cmd/termwidth.h), np_wrap_close() the rest. Pure: no terminal is asked anything here.
 *
 * Why not libsmartcols: its tables are built cell by cell, so every renderer would be
 * rewritten around it for the few tables we print, our JSON writer already exists, and the
 * prose (findings, explain, plan) is most of what overflowed; a line wrapper that knows our
 * layouts fixes all of it with no new run-time dependency.
 */
#ifndef NP_TEXT_WRAP_H
#define NP_TEXT_WRAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "outbuf.h"

/* The width when nothing says otherwise (pipes, files) and the narrowest honoured. */
#define NP_WIDTH_DEFAULT 80
#define NP_WIDTH_MIN 40
#define NP_WIDTH_MAX 1000

/* Columns that s[0..n) takes: one per UTF-8 character (continuation bytes take none), none for
 * an ANSI escape sequence (colour). After np_text_cols_ascii(true) (textenc.h), a non-ASCII character
 * takes the columns of the ASCII form the text stream writes for it (textenc.h: "->" for the
 * arrow is two), so text wrapped first and transliterated after still fits. */
size_t np_text_cols(const char *s, size_t n);

/*
 * The column that continuation lines of 'line' start at: after a list marker ("- ", "* "),
 * else under the last column of a table row (the text after the last run of two or more
 * blanks) or after a "label: ", else under the line's own indent. A hang that would leave
 * fewer than a third of the width for the text falls back to the line's indent (plus 2).
 */
size_t np_wrap_hang(const char *line, size_t len, int width);

/*
 * Write one line (without its newline) wrapped at 'width' columns, breaking at blanks only;
 * continuation lines start at np_wrap_hang(). A word longer than the room left (a long path or
 * command) is never cut: it goes whole on a line of its own. Ends with a newline. width <= 0:
 * the line as it is.
 */
void np_wrap_line(FILE *out, const char *line, size_t len, int width);
/* Every line of text (NUL-terminated) through np_wrap_line(). */
void np_wrap_text(FILE *out, const char *text, int width);

/* Only the comment lines ("#" first) of text through np_wrap_line(): the others, a
 * configuration file's settings and commands, go out whole, since a broken one would mean
 * something else. */
void np_wrap_comments(FILE *out, const char *text, int width);

/* Prose with an explicit hanging indent: the first line continues from column 'col' (what the
 * caller already printed), further lines start at 'indent'. A line broken after a lone "#"
 * (a command's comment) goes on as "# ...". A "\n" in text starts a new line at 'indent'.
 * Ends with a newline. */
void np_wrap_prose(FILE *out, const char *text, int col, int indent, int width);
/* The same into a renderer's buffer (outbuf.h). */
struct np_ob;
void np_wrap_prose_ob(struct np_ob *out, const char *text, int col, int indent, int width);

/* A stream standing in for 'out' while a renderer writes: each line is wrapped into 'out' as
 * it ends (the line begun waits in buf), the last one, unended, at closing. A NUL written ends
 * the text, as a string's would. */
struct np_wrap_stream {
	FILE *out, *mem;
	char *buf;
	size_t len, cap;
	int width;
	bool ended;
	bool sunk;		/* np_wrap_ob_open's, wrapping what an np_ob flushes */
	struct np_ob ob;	/* the wrapped text on its way to 'out' */
	char io[4096];		/* stdio's buffer for the stream (no allocation) */
};
/* The FILE to write into: the stream, or 'out' itself when width <= 0 or no stream could be
 * had (the text then comes out unwrapped rather than not at all). */
FILE *np_wrap_open(struct np_wrap_stream *w, FILE *out, int width);
void np_wrap_close(struct np_wrap_stream *w);

/* The same for a renderer that writes through an np_ob (outbuf.h): what 'ob' flushes is
 * wrapped into 'out' with no stdio stream between (a cookie FILE cost a renderer's every
 * flush a trip through stdio and a copy). width <= 0: 'ob' writes to 'out' as it is.
 * np_wrap_ob_close() flushes 'ob' and ends the text as np_wrap_close() does. */
void np_wrap_ob_open(struct np_wrap_stream *w, struct np_ob *ob, FILE *out, int width);
void np_wrap_ob_close(struct np_wrap_stream *w, struct np_ob *ob);

#endif
