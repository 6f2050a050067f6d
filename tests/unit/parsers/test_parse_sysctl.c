// SPDX-License-Identifier: GPL-2.0-only
/* np_parse_sysctl_value: collapsed raw text, integer vectors, strings, overflow. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

static void fresh(struct np_sysctl *s)
{
	memset(s, 0x5a, sizeof(*s));
	strcpy(s->key, "net.ipv4.tcp_rmem");
	s->err = 0;
}

static void test_vector(void **state)
{
	struct np_sysctl s;

	(void)state;
	fresh(&s);
	assert_int_equal(np_parse_sysctl_value("4096\t131072\t6291456\n", &s), 0);
	assert_string_equal(s.raw, "4096 131072 6291456");
	assert_int_equal(s.nvals, 3);
	assert_int_equal(s.v[0], 4096);
	assert_int_equal(s.v[1], 131072);
	assert_int_equal(s.v[2], 6291456);
	/* The key is the caller's. */
	assert_string_equal(s.key, "net.ipv4.tcp_rmem");
}

static void test_scalar_and_negative(void **state)
{
	struct np_sysctl s;

	(void)state;
	fresh(&s);
	assert_int_equal(np_parse_sysctl_value("  -1  \n", &s), 0);
	assert_string_equal(s.raw, "-1");
	assert_int_equal(s.nvals, 1);
	assert_int_equal(s.v[0], -1);
	assert_int_equal(np_parse_sysctl_value("9223372036854775807 -9223372036854775808", &s), 0);
	assert_int_equal(s.nvals, 2);
	assert_true(s.v[0] == INT64_MAX);
	assert_true(s.v[1] == INT64_MIN);
}

static void test_strings(void **state)
{
	static const char *const strs[] = { "cubic", "reno cubic bbr", "1 2 x", "-", "1e3",
					    "0x10", "+5", "fq_codel" };
	struct np_sysctl s;

	(void)state;
	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++) {
		fresh(&s);
		assert_int_equal(np_parse_sysctl_value(strs[i], &s), 0);
		assert_string_equal(s.raw, strs[i]);
		assert_int_equal(s.nvals, 0);
		assert_int_equal(s.v[0], 0);
	}
	fresh(&s);
	assert_int_equal(np_parse_sysctl_value("reno\n\n  cubic\t\tbbr \n", &s), 0);
	assert_string_equal(s.raw, "reno cubic bbr");
}

static void test_empty(void **state)
{
	struct np_sysctl s;

	(void)state;
	fresh(&s);
	assert_int_equal(np_parse_sysctl_value("", &s), 0);
	assert_string_equal(s.raw, "");
	assert_int_equal(s.nvals, 0);
	fresh(&s);
	assert_int_equal(np_parse_sysctl_value(" \n\t", &s), 0);
	assert_string_equal(s.raw, "");
	assert_int_equal(np_parse_sysctl_value(NULL, &s), -EINVAL);
}

static void test_more_than_max(void **state)
{
	struct np_sysctl s;

	(void)state;
	fresh(&s);
	assert_int_equal(np_parse_sysctl_value("1 2 3 4 5 6", &s), 0);
	assert_int_equal(s.nvals, NP_SYSCTL_VALS);
	assert_int_equal(s.v[3], 4);
	assert_string_equal(s.raw, "1 2 3 4 5 6");
	/* Still a string when a later token is not a number. */
	assert_int_equal(np_parse_sysctl_value("1 2 3 4 5 x", &s), 0);
	assert_int_equal(s.nvals, 0);
}

static void test_overflow(void **state)
{
	struct np_sysctl s;

	(void)state;
	fresh(&s);
	assert_int_equal(np_parse_sysctl_value("18446744073692774399", &s), -ERANGE);
	assert_int_equal(s.nvals, 0);
	assert_string_equal(s.raw, "18446744073692774399");
	assert_int_equal(np_parse_sysctl_value("1 -9223372036854775809", &s), -ERANGE);
	assert_int_equal(s.nvals, 0);
	assert_int_equal(s.v[0], 0);
	/* An overflowing number inside a string is just text. */
	assert_int_equal(np_parse_sysctl_value("x 99999999999999999999", &s), 0);
	assert_int_equal(s.nvals, 0);
}

static void test_truncated_raw(void **state)
{
	struct np_sysctl s;
	char text[1000];

	(void)state;
	/*
	 * "abcdef" then 200 x "\tab": after 40 of them raw holds 126 characters, so the next
	 * separator takes the last byte and must be trimmed away again.
	 */
	memcpy(text, "abcdef", 6);
	for (int i = 0; i < 200; i++)
		memcpy(text + 6 + i * 3, "\tab", 3);
	text[606] = '\0';
	fresh(&s);
	assert_int_equal(np_parse_sysctl_value(text, &s), 0);
	assert_int_equal(strlen(s.raw), 126);
	assert_true(s.raw[125] == 'b');
	assert_memory_equal(s.raw, "abcdef ab ab", 12);
	/* Integers are judged on the full text, not the truncated copy. */
	for (int i = 0; i < 200; i++)
		memcpy(text + i * 3, "12 ", 3);
	text[600] = '\0';
	assert_int_equal(np_parse_sysctl_value(text, &s), 0);
	assert_int_equal(s.nvals, NP_SYSCTL_VALS);
	/* A word far past what raw holds still makes the whole value a string. */
	memcpy(text + 600, "x", 2);
	assert_int_equal(np_parse_sysctl_value(text, &s), 0);
	assert_int_equal(s.nvals, 0);
}

/* The parser before its one-pass rewrite (issue #35), kept as the reference the fast path must
 * equal: tokens split on isspace, each judged by a checked decimal conversion. */
static bool ref_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Decimal by strtoll() (independent of the parser's own conversion): 1, 0 when not all
 * digits after an optional '-', -ERANGE beyond int64. Leading zeros are dropped first, so a
 * long run of them still converts. */
static int ref_dec(const char *t, size_t tl, int64_t *v)
{
	size_t i = tl && t[0] == '-', k;
	char buf[32];
	long long x;

	if (i == tl)
		return 0;
	for (k = i; k < tl; k++)
		if (t[k] < '0' || t[k] > '9')
			return 0;
	for (k = i; k + 1 < tl && t[k] == '0'; k++)
		;
	if (tl - k > 20)
		return -ERANGE;
	snprintf(buf, sizeof(buf), "%s%.*s", i ? "-" : "", (int)(tl - k), t + k);
	errno = 0;
	x = strtoll(buf, NULL, 10);
	if (errno == ERANGE)
		return -ERANGE;
	*v = x;
	return 1;
}

static int ref_parse(const char *p, struct np_sysctl *out)
{
	size_t n = 0;
	int nvals = 0;
	bool numeric = true, overflow = false;

	out->raw[0] = '\0';
	out->nvals = 0;
	memset(out->v, 0, sizeof(out->v));
	while (*p) {
		const char *t;
		size_t tl;
		int64_t v = 0;
		int r;

		while (ref_blank(*p))
			p++;
		if (!*p)
			break;
		for (t = p; *p && !ref_blank(*p); p++)
			;
		tl = (size_t)(p - t);
		if (n && n < sizeof(out->raw) - 1)
			out->raw[n++] = ' ';
		for (size_t i = 0; i < tl && n < sizeof(out->raw) - 1; i++)
			out->raw[n++] = t[i];
		r = ref_dec(t, tl, &v);
		if (r == 0)
			numeric = false;
		else if (r < 0)
			overflow = true;
		else if (nvals < NP_SYSCTL_VALS)
			out->v[nvals++] = v;
	}
	while (n && out->raw[n - 1] == ' ')
		n--;
	out->raw[n] = '\0';
	if (!numeric || overflow) {
		memset(out->v, 0, sizeof(out->v));
		return numeric ? -ERANGE : 0;
	}
	out->nvals = nvals;
	return 0;
}

/* Tokens around every boundary of the one-pass parser (18/19/20 digits, INT64 limits, leading
 * zeros, signs, other blanks, NUL right after a digit) combined in threes: the result equals the
 * reference's field by field. */
static void test_matches_reference(void **state)
{
	static const char *const toks[] = {
		"0", "-0", "7", "-", "+1", "--1", "12a", "a12", "1-2", "999999999999999999",
		"-999999999999999999", "1000000000000000000", "9223372036854775807",
		"9223372036854775808", "-9223372036854775808", "-9223372036854775809",
		"18446744073709551615", "18446744073709551616", "99999999999999999999999",
		"00000000000000000000000000042", "-0000000000000000000009223372036854775808",
		"cubic", "4096", "\v\f\r", "\x01", "\x80",
	};
	static const char *const seps[] = { " ", "\t", "\n\n", "\r\v\f " };
	const size_t nt = sizeof(toks) / sizeof(toks[0]);
	char text[256];

	(void)state;
	for (size_t a = 0; a < nt; a++)
		for (size_t b = 0; b < nt; b++)
			for (size_t c = 0; c < nt; c += 3) {
				struct np_sysctl got, want;
				const char *sep = seps[(a + b + c) % 4];

				snprintf(text, sizeof(text), "%s%s%s%s%s%s", toks[a], sep, toks[b], sep,
					 toks[c], (a & 1) ? "\n" : "");
				fresh(&got);
				fresh(&want);
				assert_int_equal(np_parse_sysctl_value(text, &got), ref_parse(text, &want));
				assert_string_equal(got.raw, want.raw);
				assert_int_equal(got.nvals, want.nvals);
				assert_memory_equal(got.v, want.v, sizeof(got.v));
			}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vector),
		cmocka_unit_test(test_scalar_and_negative),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_more_than_max),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_truncated_raw),
		cmocka_unit_test(test_matches_reference),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
