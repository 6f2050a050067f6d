// SPDX-License-Identifier: GPL-2.0-only
/* The width module every text renderer shares: columns of UTF-8 and colour, hanging indents,
 * breaks at blanks only, long words kept whole. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "text_wrap.h"
#include "textenc.h"

static char *buf;

/* What np_wrap_text() makes of text at width. */
static const char *wrapped(const char *text, int width)
{
	size_t len = 0;
	FILE *f;

	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	np_wrap_text(f, text, width);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static const char *prose(const char *text, int col, int indent, int width)
{
	size_t len = 0;
	FILE *f;

	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	np_wrap_prose(f, text, col, indent, width);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void test_columns(void **state)
{
	(void)state;
	assert_int_equal(np_text_cols("abc", 3), 3);
	/* "→", "×", "≈": one column each, whatever their bytes. */
	assert_int_equal(np_text_cols("a \u2192 b", strlen("a \u2192 b")), 5);
	assert_int_equal(np_text_cols("2 \u00d7 4", strlen("2 \u00d7 4")), 5);
	/* Colour takes none. */
	assert_int_equal(np_text_cols("\033[1;31mCRIT\033[0m", strlen("\033[1;31mCRIT\033[0m")), 4);
}

/* The width eight bytes at a time (#35) against one byte at a time: every length, offset and
 * mix of ASCII, UTF-8 leads, continuation and invalid bytes. */
static void test_columns_any_length(void **state)
{
	static const unsigned char pick[] = { 'a', ' ', 0x80, 0xbf, 0xc3, 0xe2, 0xf0, 0xff, '#' };
	unsigned long r = 1;
	char bytes[80];

	(void)state;
	np_text_cols_ascii(false);
	for (int round = 0; round < 2000; round++) {
		for (size_t i = 0; i < sizeof(bytes); i++) {
			r = r * 6364136223846793005UL + 1442695040888963407UL;
			bytes[i] = (char)pick[(r >> 33) % sizeof(pick)];
		}
		for (size_t off = 0; off < 8; off++) {
			size_t want = 0;

			for (size_t n = 0; off + n <= sizeof(bytes); n++) {
				assert_int_equal(np_text_cols(bytes + off, n), want);
				if (off + n < sizeof(bytes))
					want += ((unsigned char)bytes[off + n] & 0xc0) != 0x80;
			}
		}
	}
}

/* All-ASCII text is measured a byte a column from one pass (#35): the same as byte by byte for
 * every length and offset, with no high byte or one anywhere (a lead or a continuation byte,
 * in the overlapping last word or before it). */
static void test_columns_ascii_or_one_high(void **state)
{
	static const unsigned char high[] = { 0x80, 0xbf, 0xc3, 0xe2, 0xff };
	unsigned long r = 3;
	char bytes[72];

	(void)state;
	np_text_cols_ascii(false);
	for (int round = 0; round < 300; round++) {
		for (size_t i = 0; i < sizeof(bytes); i++) {
			r = r * 6364136223846793005UL + 1442695040888963407UL;
			bytes[i] = (char)(0x01 + (r >> 33) % 0x7f);
		}
		for (int put = -1; put < (int)sizeof(bytes); put += round % 2 ? 1 : 9) {
			char b[sizeof(bytes)];

			memcpy(b, bytes, sizeof(b));
			if (put >= 0)
				b[put] = (char)high[(size_t)put % sizeof(high)];
			for (size_t off = 0; off < 8; off++)
				for (size_t n = 0; off + n <= sizeof(b); n++) {
					size_t want = 0;

					for (size_t k = off; k < off + n; k++)
						want += ((unsigned char)b[k] & 0xc0) != 0x80;
					if (memchr(b + off, '\033', n))
						continue;	/* escapes: not this test's */
					assert_int_equal(np_text_cols(b + off, n), want);
				}
		}
	}
}

static void test_short_lines_untouched(void **state)
{
	(void)state;
	assert_string_equal(wrapped("  a  b   c\n\nlast", 20), "  a  b   c\n\nlast");
	/* No limit: as written. */
	assert_string_equal(wrapped("a very long line indeed", 0), "a very long line indeed");
}

static void test_word_boundaries(void **state)
{
	(void)state;
	assert_string_equal(wrapped("one two three four five six seven eight nine ten eleven "
				    "twelve thirteen fourteen\n", 40),
			    "one two three four five six seven eight\n"
			    "nine ten eleven twelve thirteen fourteen\n");
	/* Continuation lines keep the line's own indent. */
	assert_string_equal(wrapped("    one two three four five six seven eight nine ten\n", 40),
			    "    one two three four five six seven\n    eight nine ten\n");
}

static void test_hanging_indent(void **state)
{
	(void)state;
	/* A table row: under its last column. */
	assert_string_equal(wrapped("  skipped  nic.ring  ring sizes not available: needs "
				    "netlink on a live system\n", 51),
			    "  skipped  nic.ring  ring sizes not available:\n"
			    "                     needs netlink on a live system\n");
	/* A label. */
	assert_string_equal(wrapped("stages judged: link, pcie, nic, irq, softnet, ip, transport, "
				    "socket\n", 40),
			    "stages judged: link, pcie, nic, irq,\n"
			    "               softnet, ip, transport,\n"
			    "               socket\n");
	/* A list item. */
	assert_string_equal(wrapped("  - alpha beta gamma delta epsilon zeta eta theta\n", 30),
			    "  - alpha beta gamma delta\n    epsilon zeta eta theta\n");
	/* A comment stays one. */
	assert_string_equal(wrapped("# alpha beta gamma delta epsilon zeta eta theta\n", 30),
			    "# alpha beta gamma delta\n# epsilon zeta eta theta\n");
	/* A column too far right for the room left: a little in from the row instead. */
	assert_string_equal(wrapped("  x                                 alpha beta gamma delta\n",
				    40),
			    "  x                                 alpha\n      beta gamma delta\n");
	assert_int_equal(np_wrap_hang("  a   b c", 9, 40), 6);
}

static void test_utf8_counts_one_column(void **state)
{
	(void)state;
	/* 19 columns, 25 bytes: fits 20. */
	assert_string_equal(wrapped("\u2192\u2192\u2192 abc \u00d7\u00d7\u00d7 def ghij\n", 20),
			    "\u2192\u2192\u2192 abc \u00d7\u00d7\u00d7 def ghij\n");
	assert_string_equal(wrapped("a \u2192 b \u2192 c \u2192 d \u2192 e \u2192 f\n", 10),
			    "a \u2192 b \u2192 c\n\u2192 d \u2192 e \u2192\nf\n");
	assert_string_equal(prose("\u00e9t\u00e9 \u00e9t\u00e9 \u00e9t\u00e9", 0, 2, 8),
			    "\u00e9t\u00e9 \u00e9t\u00e9\n  \u00e9t\u00e9\n");
}

static void test_long_words_whole(void **state)
{
	(void)state;
	/* Never cut: alone on a line of its own, past the width. */
	assert_string_equal(wrapped("see /sys/bus/pci/devices/0000:3b:00.0/current_link_speed now\n",
				    20),
			    "see\n/sys/bus/pci/devices/0000:3b:00.0/current_link_speed\nnow\n");
	assert_string_equal(prose("a 123456789012345 b", 0, 4, 10),
			    "a\n    123456789012345\n    b\n");
}

static void test_prose(void **state)
{
	(void)state;
	/* Continues from column 9 ("    why: "), then under it; "\n" starts a new line. */
	assert_string_equal(prose("alpha beta gamma delta\nepsilon", 9, 9, 25),
			    "alpha beta gamma\n         delta\n         epsilon\n");
	/* A command's comment broken: the rest stays a comment. */
	assert_string_equal(prose("sysctl -w a=1 # only after every hop allows it", 0, 2, 24),
			    "sysctl -w a=1 # only\n  # after every hop\n  # allows it\n");
}

/* np_wrap_prose() as it was word by word, before plain words were taken a line at a time
 * (#35): the rules of text_wrap.h, written out plainly, as the reference. */
static void ref_prose(char *o, const char *p, int col, int indent, int width)
{
	int fresh = 1, comment = 0;

	if (col < 0)
		col = 0;
	if (width > 0 && indent > width - width / 3)
		indent = width / 3;
	while (*p) {
		size_t len = strcspn(p, " \n"), cols;

		if (*p == ' ') {
			p++;
			continue;
		}
		if (*p == '\n') {
			o += sprintf(o, "\n%*s", indent, "");
			col = indent, fresh = 1, comment = 0, p++;
			continue;
		}
		cols = np_text_cols(p, len);
		if (!fresh && width > 0 && (size_t)col + 1 + cols > (size_t)width) {
			o += sprintf(o, "\n%*s%s", indent, "", comment ? "#" : "");
			col = indent + comment;
			fresh = !comment;
		}
		if (!fresh) {
			*o++ = ' ';
			col++;
		}
		memcpy(o, p, len);
		o += len;
		col += (int)cols, fresh = 0;
		comment |= len == 1 && *p == '#';
		p += len;
	}
	strcpy(o, "\n");
}

/* The same bytes as the reference for random texts of every kind of piece the line-at-a-time
 * scan stops at or must count right: double blanks, "#" alone and inside words, newlines,
 * UTF-8, colour, DEL, tabs, words longer than the line; at every width, column and indent. */
static void test_prose_equals_word_by_word(void **state)
{
	static const char *piece[] = { "a", "bc", "word", "longerwords", "x#y", "#", "\u2192",
				       "\u00e9t\u00e9", "\033[1mB\033[0m", "\x7f", "a\tb", "~!",
				       "0123456789012345678901234567890123456789" };
	static const char *sep[] = { " ", " ", " ", " ", "  ", "\n", " \n ", "" };
	unsigned long r = 7;
	char text[4096], want[16384];

	(void)state;
	for (int ascii = 0; ascii < 2; ascii++) {
		np_text_cols_ascii(ascii);
		for (int round = 0; round < 3000; round++) {
			size_t n = 0;
			int width, col, indent;

			r = r * 6364136223846793005UL + 1442695040888963407UL;
			for (int k = (int)((r >> 33) % 60); k-- > 0;) {
				r = r * 6364136223846793005UL + 1442695040888963407UL;
				n += (size_t)sprintf(text + n, "%s%s",
						     piece[(r >> 20) % (sizeof(piece) / sizeof(*piece))],
						     sep[(r >> 40) % (sizeof(sep) / sizeof(*sep))]);
			}
			text[n] = '\0';
			width = (int)((r >> 8) % 90) - 2;
			col = (int)((r >> 16) % 30);
			indent = (int)((r >> 24) % 20);
			ref_prose(want, text, col, indent, width);
			if (strcmp(prose(text, col, indent, width), want))
				fail_msg("ascii %d col %d indent %d width %d: [%s]\ngot  [%s]\nwant [%s]",
					 ascii, col, indent, width, text, buf, want);
		}
	}
	np_text_cols_ascii(false);
}

static void test_stream(void **state)
{
	struct np_wrap_stream w;
	size_t len = 0;
	char *out = NULL;
	FILE *f = open_memstream(&out, &len), *m;

	(void)state;
	assert_non_null(f);
	m = np_wrap_open(&w, f, 20);
	assert_ptr_not_equal(m, f);
	fputs("  alpha beta gamma delta epsilon\nok\n", m);
	np_wrap_close(&w);
	/* Width 0: the stream itself, nothing buffered. */
	assert_ptr_equal(np_wrap_open(&w, f, 0), f);
	np_wrap_close(&w);
	assert_int_equal(fclose(f), 0);
	assert_string_equal(out, "  alpha beta gamma\n  delta epsilon\nok\n");
	free(out);
}

/* What np_wrap_ob_open wraps of text written in pieces of 1..max bytes through an np_ob. */
static char *via_ob(const char *text, size_t n, int width, unsigned seed, size_t max)
{
	struct np_wrap_stream w;
	struct np_ob ob;
	size_t len = 0;
	char *out = NULL;
	FILE *f = open_memstream(&out, &len);

	assert_non_null(f);
	np_wrap_ob_open(&w, &ob, f, width);
	for (size_t i = 0; i < n;) {
		size_t k = 1 + (seed = seed * 1103515245u + 12345u) % max;

		k = k < n - i ? k : n - i;
		np_ob_write(&ob, text + i, k);
		i += k;
	}
	np_wrap_ob_close(&w, &ob);
	assert_int_equal(fclose(f), 0);
	return out;
}

/* The same text through the cookie stream of np_wrap_open, in one fwrite. */
static char *via_stream(const char *text, size_t n, int width)
{
	struct np_wrap_stream w;
	size_t len = 0;
	char *out = NULL;
	FILE *f = open_memstream(&out, &len), *m;

	assert_non_null(f);
	m = np_wrap_open(&w, f, width);
	assert_int_equal(fwrite(text, 1, n, m), n);
	np_wrap_close(&w);
	assert_int_equal(fclose(f), 0);
	return out;
}

/* A renderer's buffer wrapped as it flushes (np_wrap_ob_open) gives the bytes the stream
 * gave: lines that fit and lines that do not, lines longer than the buffer, lines split
 * across flushes, escapes, UTF-8, an unended last line, a NUL that ends the text. */
static void test_ob_equals_stream(void **state)
{
	static const char *const piece[] = {
		"short\n", "  - a list item that goes on and on past any width we use here\n",
		"  key                  value that is long enough to wrap at forty cols\n",
		"label: some words that follow a label and need wrapping too\n",
		"\033[1mbold\033[0m text with an escape that runs past the width of it\n",
		"caf\u00e9 \u2192 na\u00efve words \u2192 more words \u2192 and more words\n",
		"# a comment line that is long enough to be wrapped as a comment\n", "\n",
		"nonewline at the end of a piece ",
	};
	size_t cap = 20000, n = 0;
	char *text = malloc(cap);
	unsigned seed = 7;

	(void)state;
	assert_non_null(text);
	while (n < 15000) {
		const char *p = piece[(seed = seed * 1103515245u + 12345u) % 9];

		memcpy(text + n, p, strlen(p));
		n += strlen(p);
		if (seed % 97 == 0) {	/* a line longer than the np_ob's buffer */
			for (size_t i = 0; i < 5000; i++)
				text[n++] = i % 9 ? 'x' : ' ';
		}
	}
	for (int width = 0; width <= 100; width += 20) {
		for (size_t max = 1; max <= 9000; max *= 7) {
			char *a = via_stream(text, n, width), *b = via_ob(text, n, width, 3, max);

			assert_string_equal(a, b);
			free(a);
			free(b);
		}
	}
	/* A NUL ends the text, in either. */
	text[n / 2] = '\0';
	{
		char *a = via_stream(text, n, 40), *b = via_ob(text, n, 40, 5, 300);
		char *c = via_stream(text, n / 2, 40);	/* the text before it alone */

		assert_string_equal(a, b);
		assert_string_equal(c, b);
		free(a);
		free(b);
		free(c);
	}
	free(text);
}

/* Under a non-UTF-8 locale text is wrapped first and transliterated after (textenc.h): the
 * wrapper counts "->" for the arrow as the two columns it becomes, so no line of the final
 * bytes is wider than the width. */
static void test_ascii_columns(void **state)
{
	static const char text[] = "\u2192\u2192\u2192 abc \u00d7\u00d7\u00d7 def ghij\n"
				   "  rx \u2192 backlog \u2192 socket \u2192 app \u2265 1 \u2192 done\n";
	size_t len = 0;
	char *out = NULL;
	FILE *f = open_memstream(&out, &len), *h;

	(void)state;
	assert_non_null(f);
	np_text_cols_ascii(true);
	assert_int_equal(np_text_cols("a \u2192 b", strlen("a \u2192 b")), 6);
	assert_int_equal(np_text_cols("2 \u00d7 4", strlen("2 \u00d7 4")), 5);
	/* The locale is C here (np_text_locale_init not called): h transliterates. */
	h = np_text_stream(f);
	assert_ptr_not_equal(h, f);
	np_wrap_text(h, text, 20);
	np_text_stream_done(h, f);
	np_text_cols_ascii(false);
	assert_int_equal(fclose(f), 0);
	for (const char *p = out; *p;) {
		size_t n = strcspn(p, "\n");

		for (size_t i = 0; i < n; i++)
			assert_true((unsigned char)p[i] < 0x80);
		if (n > 20)
			fail_msg("%zu columns: %.*s", n, (int)n, p);
		p += n + (p[n] == '\n');
	}
	assert_string_equal(out, "->->-> abc xxx def\nghij\n"
			    "  rx -> backlog ->\n  socket -> app >= 1\n  -> done\n");
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_columns),
		cmocka_unit_test(test_columns_any_length),
		cmocka_unit_test(test_columns_ascii_or_one_high),
		cmocka_unit_test(test_short_lines_untouched),
		cmocka_unit_test(test_word_boundaries),
		cmocka_unit_test(test_hanging_indent),
		cmocka_unit_test(test_utf8_counts_one_column),
		cmocka_unit_test(test_long_words_whole),
		cmocka_unit_test(test_prose),
		cmocka_unit_test(test_prose_equals_word_by_word),
		cmocka_unit_test(test_stream),
		cmocka_unit_test(test_ob_equals_stream),
		cmocka_unit_test(test_ascii_columns),
	};
	int r = cmocka_run_group_tests(tests, NULL, NULL);

	free(buf);
	return r;
}
