// SPDX-License-Identifier: GPL-2.0-only
/*
 * Human text and the locale (render/textenc.c, checks/format.c): which separator a locale's
 * LC_NUMERIC gives, the ASCII form of every glyph netpath prints, the ASCII stream (a character
 * split across writes), and digit grouping with any separator, "" for none.
 */
#include <math.h>
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

/* What np_fmt_count() has always written, from printf's own digits: "n/a" for NaN, "%.0f" below
 * 1000 and for what is not a whole number ("%.2f" below 10, "%.1f" above), "%.0f" grouped in
 * threes from the right otherwise (at most 63 digits of it), cut at size - 1 without splitting
 * a separator. */
static void ref_count(double v, const char *sep, char *buf, size_t size)
{
	char raw[64];	/* as np_fmt_count's: beyond 63 digits (1e300) the digits are cut */
	size_t len, sl = strlen(sep), o = 0, lead;

	if (isnan(v)) {
		snprintf(buf, size, "n/a");
		return;
	}
	if (v != floor(v) || fabs(v) < 1000) {
		snprintf(buf, size, v == floor(v) ? "%.0f" : (fabs(v) < 10 ? "%.2f" : "%.1f"), v);
		return;
	}
	snprintf(raw, sizeof(raw), "%.0f", v);
	len = strlen(raw);
	lead = raw[0] == '-';
	for (size_t i = 0; i < len && o + 1 < size; i++) {
		if (i > lead && (len - i) % 3 == 0 && sl) {
			if (o + sl + 1 >= size)
				break;
			memcpy(buf + o, sep, sl);
			o += sl;
		}
		buf[o++] = raw[i];
	}
	buf[o] = '\0';
}

/* The whole-number fast path (#35) against printf: every separator, every buffer size, counts
 * of every length, around 1000 and 2^53, negative, -0, fractions, NaN and infinities. */
static void test_count_equals_printf(void **state)
{
	static const char *seps[] = { ",", "", ".", "'", "\u202f", "\u00a0" };
	static const double fixed[] = { 0.0, -0.0, 1, 9, 10, 999, 999.5, 1000, 1001, 999999,
					1000000, -1, -999, -1000, -1234567, 0.25, 9.999, 12.34,
					1e15, 9007199254740991.0, 9007199254740992.0,
					9007199254740994.0, 1e19, 1.8446744073709552e19, 1e300,
					-1e300, 4503599627370495.5 };
	unsigned long r = 11;
	char got[48], want[48];

	(void)state;
	for (size_t si = 0; si < sizeof(seps) / sizeof(*seps); si++) {
		np_fmt_set_group_sep(seps[si]);
		for (int k = 0; k < 4000 + (int)(sizeof(fixed) / sizeof(*fixed)) + 3; k++) {
			double v;

			if (k < (int)(sizeof(fixed) / sizeof(*fixed))) {
				v = fixed[k];
			} else if (k == (int)(sizeof(fixed) / sizeof(*fixed))) {
				v = NAN;
			} else if (k == (int)(sizeof(fixed) / sizeof(*fixed)) + 1) {
				v = INFINITY;
			} else if (k == (int)(sizeof(fixed) / sizeof(*fixed)) + 2) {
				v = -INFINITY;
			} else {
				uint64_t u;

				r = r * 6364136223846793005UL + 1442695040888963407UL;
				u = (uint64_t)r >> (r % 64);
				v = (double)u;
				if (k % 5 == 1)
					v = -v;
				if (k % 7 == 2)
					v += 0.5;
			}
			for (size_t size = 1; size <= sizeof(got); size++) {
				ref_count(v, seps[si], want, size);
				np_fmt_count(v, got, size);
				if (strcmp(got, want))
					fail_msg("%.17g sep '%s' size %zu: got [%s] want [%s]", v,
						 seps[si], size, got, want);
			}
		}
	}
	np_fmt_set_group_sep(",");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_locale_rule),
		cmocka_unit_test(test_grouping),
		cmocka_unit_test(test_glyphs),
		cmocka_unit_test(test_stream),
		cmocka_unit_test(test_count_equals_printf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
