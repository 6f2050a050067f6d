// SPDX-License-Identifier: GPL-2.0-only
/*
 * Human text and the locale (render/textenc.c, checks/format.c): which separator a locale's
 * LC_NUMERIC gives, the ASCII form of every glyph netpath prints, the ASCII stream (a character
 * split across writes), and digit grouping with any separator, "" for none.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "check_util.h"
#include "textenc.h"

static void test_locale_rule(void **state)
{
	struct np_text_locale l;

	(void)state;
	np_text_locale_from("ANSI_X3.4-1968", "", &l);		/* C, POSIX */
	assert_false(l.utf8);
	assert_string_equal(l.sep, "");
	np_text_locale_from("UTF-8", "", &l);			/* C.UTF-8 */
	assert_true(l.utf8);
	assert_string_equal(l.sep, "");
	np_text_locale_from("UTF-8", ",", &l);			/* en_US.UTF-8 */
	assert_string_equal(l.sep, ",");
	np_text_locale_from("ISO-8859-1", "'", &l);		/* de_CH */
	assert_false(l.utf8);
	assert_string_equal(l.sep, "'");
	/* de_DE: "." is netpath's decimal point, so "1.234" would read as a fraction. */
	np_text_locale_from("UTF-8", ".", &l);
	assert_string_equal(l.sep, "");
	/* fr_FR.UTF-8: a narrow no-break space, kept in UTF-8, never in an 8-bit codeset. */
	np_text_locale_from("UTF-8", "\u202f", &l);
	assert_string_equal(l.sep, "\u202f");
	np_text_locale_from("ISO-8859-1", "\xa0", &l);
	assert_string_equal(l.sep, "");
	/* A plain space would let the text wrap inside a number. */
	np_text_locale_from("UTF-8", " ", &l);
	assert_string_equal(l.sep, "");
	np_text_locale_from(NULL, NULL, &l);
	assert_false(l.utf8);
	assert_string_equal(l.sep, "");
	np_text_locale_from("utf8", ",", &l);
	assert_true(l.utf8);
}

static void test_grouping(void **state)
{
	char buf[64];

	(void)state;
	np_fmt_set_group_sep(",");
	assert_string_equal(np_fmt_num(468106, buf, sizeof(buf)), "468,106");
	assert_string_equal(np_fmt_group("-1234567", buf, sizeof(buf)), "-1,234,567");
	assert_string_equal(np_fmt_group("123", buf, sizeof(buf)), "123");
	np_fmt_set_group_sep("");
	assert_string_equal(np_fmt_num(468106, buf, sizeof(buf)), "468106");
	assert_string_equal(np_fmt_rate(116482.1), "116482");
	assert_string_equal(np_fmt_rate(0.5), "0.5");
	assert_string_equal(np_fmt_rate(9000.0), "9000");
	np_fmt_set_group_sep("\u202f");
	assert_string_equal(np_fmt_num(1234567, buf, sizeof(buf)), "1\u202f234\u202f567");
	/* Never past the buffer, never half a separator. */
	assert_string_equal(np_fmt_num(1234567, buf, 6), "1\u202f2");
	np_fmt_set_group_sep("'");
	assert_string_equal(np_fmt_num(1000, buf, sizeof(buf)), "1'000");
	/* Eight rates in one argument list stay distinct. */
	{
		const char *r[8];

		for (int i = 0; i < 8; i++)
			r[i] = np_fmt_rate(1000 * (i + 1));
		assert_string_equal(r[0], "1'000");
		assert_string_equal(r[7], "8'000");
	}
	np_fmt_set_group_sep(",");
}

static void test_glyphs(void **state)
{
	static const char *const pairs[][2] = {
		{ "a \u2192 b", "a -> b" }, { "2 \u00d7 BDP", "2 x BDP" },
		{ "\u2265 20 ms", ">= 20 ms" }, { "\u2264 1", "<= 1" }, { "\u2248 half", "~ half" },
		{ "id \u2014 title", "id - title" }, { "1 \u00b5s", "1 us" }, { "\u00b11", "+/-1" },
		{ "wait\u2026", "wait..." }, { "\u2581\u2584\u2588", "_=#" },
		{ "\u250c\u2500\u2510\u2502", "+-+|" }, { "1\u202f000", "1 000" },
		{ "\u4e2d", "?" },				/* unknown: one "?" per character */
		{ "bad \xe2\x86 x", "bad ?? x" },		/* broken sequence */
		{ "end \xe2\x86", "end ?" },			/* cut at the end */
		{ "plain ASCII", "plain ASCII" },
	};
	char out[64];
	size_t len;

	(void)state;
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
		assert_string_equal(np_text_ascii(pairs[i][0], out, sizeof(out)), pairs[i][1]);
	assert_null(np_glyph_ascii("a", 1, &len));
	assert_int_equal(len, 1);
	assert_null(np_glyph_ascii("\xe2\x86", 2, &len));
	assert_int_equal(len, 0);
	assert_string_equal(np_glyph_ascii("\u2192x", 4, &len), "->");
	assert_int_equal(len, 3);
	/* Truncation keeps whole replacements. */
	assert_string_equal(np_text_ascii("a\u2192b", out, 3), "a");
}

/* The stream writes ASCII even when a character arrives in pieces. Without a UTF-8 codeset
 * (the test runs in the C locale, np_text_locale_init not called: C). */
static void test_stream(void **state)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *mem = open_memstream(&buf, &size);
	FILE *s;

	(void)state;
	assert_non_null(mem);
	assert_false(np_text_locale()->utf8);
	s = np_text_stream(mem);
	assert_ptr_not_equal(s, mem);
	fputs("x \xe2", s);
	fputs("\x86", s);
	fputs("\x92 y; ", s);
	fprintf(s, "%d %s BDP\n", 2, "\u00d7");
	np_text_stream_done(s, mem);
	fclose(mem);
	assert_string_equal(buf, "x -> y; 2 x BDP\n");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_locale_rule),
		cmocka_unit_test(test_grouping),
		cmocka_unit_test(test_glyphs),
		cmocka_unit_test(test_stream),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
