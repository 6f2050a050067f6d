/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Human text and the user's locale. netpath never calls setlocale(LC_ALL, ""): its parsers
 * (strtod, strtoull, isspace on /proc and capture text) must read the kernel's C-locale text
 * whatever the user's locale. The locale is only queried, through a locale_t of its own:
 *  - LC_NUMERIC's thousands separator groups digits in human text (never in JSON, Prometheus,
 *    the Nagios line, plan files or capture metadata); none in C/POSIX/C.UTF-8;
 *  - LC_CTYPE's character set: when it is not UTF-8, human text is written in ASCII ("->" for
 *    the arrow, "x" for the multiplication sign, ...), through the one glyph table below.
 */
#ifndef NP_TEXTENC_H
#define NP_TEXTENC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct np_text_locale {
	bool utf8;		/* LC_CTYPE's codeset is UTF-8: glyphs may be printed as they are */
	char sep[8];		/* the digit group separator for human text; "" for none */
};

/* The rule, from nl_langinfo's CODESET and THOUSANDS_SEP (either may be NULL): group with the
 * locale's separator unless it is empty, "." (netpath's text always writes "." as the decimal
 * point, so "1.234" would read as a fraction), whitespace (the text wraps at spaces), or not
 * ASCII under a codeset that is not UTF-8. */
void np_text_locale_from(const char *codeset, const char *thousands_sep,
			 struct np_text_locale *out);

/* Reads the environment's locale (LC_ALL, LC_CTYPE, LC_NUMERIC, LANG) into the state below and
 * leaves grouping off (np_fmt_set_group_sep("")) until a command asks for human text. An
 * unknown or missing locale is C: ASCII, no grouping. Called first thing by main(). */
void np_text_locale_init(void);
const struct np_text_locale *np_text_locale(void);

/* Digit grouping for the numbers formatted from now on: the locale's separator when the output
 * is human text, none when it is for machines. Commands call it once they know which, before
 * the analysis formats its summaries. */
void np_text_grouping(bool human);
/* out itself under a UTF-8 codeset; else a stream that writes to out with every non-ASCII
 * character replaced by its ASCII form (np_glyph_ascii). Unbuffered: nothing is held in it, so
 * it needs no flushing; its bytes sit in out's buffer. out itself on failure (text then as is). */
FILE *np_text_stream(FILE *out);
/* Frees what np_text_stream(out) returned as s (nothing when s is out). */
void np_text_stream_done(FILE *s, FILE *out);

/* The ASCII form of the UTF-8 character that starts s ("\u2192" -> "->"): *len is set to its
 * length in bytes (1 for a stray byte); "?" for a character the table does not know. NULL for
 * an ASCII byte or an incomplete sequence at the end of s (*len then 0). */
const char *np_glyph_ascii(const char *s, size_t n, size_t *len);

/* Whether text is measured in the ASCII forms np_glyph_ascii() gives (a codeset that is not
 * UTF-8): set by np_text_locale_init(), read by the wrapper (text_wrap.c), which wraps before
 * the stream transliterates. Off until set: UTF-8 columns. */
void np_text_cols_ascii(bool on);
bool np_text_cols_ascii_on(void);

/* A count for human text: integers digit-grouped by the locale's rule (np_fmt_group), small or
 * fractional values as plain decimals, "n/a" for NAN. */
const char *np_fmt_count(double v, char *buf, size_t size);
/* in with every non-ASCII character replaced by its ASCII form, into out (truncated, always
 * terminated); returns out. */
char *np_text_ascii(const char *in, char *out, size_t size);

#endif
