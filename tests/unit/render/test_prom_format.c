// SPDX-License-Identifier: GPL-2.0-only
/*
 * The Prometheus writer's pieces against the printf-based writer they replaced, on random and
 * edge inputs: label escaping (fast path for plain ASCII, truncation at every size), numbers
 * ("%" PRIu64, "%.0f" for whole doubles, "%.15g" otherwise) and whole sample lines.
 */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "render_prom_priv.h"

/* ---- the replaced implementation, as it was ---- */

static size_t ref_utf8_len(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		lo = s[0] == 0xe0 ? 0xa0 : 0x80;
		hi = s[0] == 0xed ? 0x9f : 0xbf;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		lo = s[0] == 0xf0 ? 0x90 : 0x80;
		hi = s[0] == 0xf4 ? 0x8f : 0xbf;
	} else {
		return 0;
	}
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

static void ref_escape(const char *in, bool quote, char *out, size_t size)
{
	const unsigned char *s = (const unsigned char *)in;
	size_t o = 0;

	while (*s) {
		const char *rep = NULL;
		size_t n = 1, len;

		if (*s == '\\')
			rep = "\\\\";
		else if (*s == '\n')
			rep = "\\n";
		else if (*s == '"' && quote)
			rep = "\\\"";
		else if (*s < 0x20 || *s == 0x7f || !(n = ref_utf8_len(s)))
			rep = "?", n = 1;
		len = rep ? strlen(rep) : n;
		if (o + len >= size)
			break;
		memcpy(out + o, rep ? rep : (const char *)s, len);
		o += len;
		s += n;
	}
	out[o] = '\0';
}

static void ref_line(FILE *out, const char *name, const char *value, const char *dev,
		     const char *k1, const char *v1)
{
	char esc[NP_PROM_LABEL_MAX];

	if (!dev && !k1) {
		fprintf(out, "%s %s\n", name, value);
		return;
	}
	fprintf(out, "%s{", name);
	if (dev) {
		ref_escape(dev, true, esc, sizeof(esc));
		fprintf(out, "interface=\"%s\"", esc);
	}
	if (k1) {
		ref_escape(v1, true, esc, sizeof(esc));
		fprintf(out, "%s%s=\"%s\"", dev ? "," : "", k1, esc);
	}
	fprintf(out, "} %s\n", value);
}

static void ref_dbl(char *num, size_t size, double v)
{
	v += 0.0;
	if (v == floor(v) && fabs(v) < 1e15)
		snprintf(num, size, "%.0f", v);
	else
		snprintf(num, size, "%.15g", v);
}

/* ---- helpers ---- */

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* A random string biased towards what matters: plain ASCII, the escaped characters, control
 * bytes, valid and broken UTF-8. */
static void random_string(char *s, size_t max)
{
	static const char *const pieces[] = {
		"a", "Z", "_", "0", " ", "\\", "\"", "\n", "\t", "\x7f", "\x01",
		"\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xc3", "\xe0\x80\x80", "\xed\xa0\x80",
		"\xf4\x90\x80\x80", "\xff", "\x80", "rx_queue_0_packets",
	};
	size_t n = next() % 24, o = 0;

	for (size_t i = 0; i < n; i++) {
		const char *p = pieces[next() % (sizeof(pieces) / sizeof(pieces[0]))];
		size_t l = strlen(p);

		if (o + l >= max)
			break;
		memcpy(s + o, p, l);
		o += l;
	}
	s[o] = '\0';
}

static void test_escape_matches(void **state)
{
	(void)state;
	for (int it = 0; it < 200000; it++) {
		char in[200], want[256], got[256];
		size_t size = 1 + next() % 80;
		bool quote = next() & 1;

		random_string(in, sizeof(in));
		memset(want, 'x', sizeof(want));
		memset(got, 'x', sizeof(got));
		ref_escape(in, quote, want, size);
		np_prom_escape(in, quote, got, size);
		if (memcmp(want, got, sizeof(want)))
			fail_msg("escape of \"%s\" (size %zu, quote %d): \"%s\", expected \"%s\"",
				 in, size, quote, got, want);
	}
}

/* Plain strings at and around every truncation point. */
static void test_escape_truncation(void **state)
{
	const char *in = "abcdefghijklmnop";

	(void)state;
	for (size_t size = 1; size < 24; size++) {
		char want[32], got[32];

		ref_escape(in, true, want, size);
		np_prom_escape(in, true, got, size);
		assert_string_equal(got, want);
		ref_escape("abc\"def", true, want, size);
		np_prom_escape("abc\"def", true, got, size);
		assert_string_equal(got, want);
	}
}

static char *render(void (*fn)(struct np_prom *, void *), void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct np_prom p = { .out = f };

	assert_non_null(f);
	fn(&p, arg);
	fclose(f);
	return buf;
}

static void one_dbl(struct np_prom *p, void *arg)
{
	np_prom_family(p, NP_PROM_NETNS, "x", "gauge", "h");
	p->header_done = true;
	np_prom_dbl(p, *(double *)arg, NULL);
}

static void one_u64(struct np_prom *p, void *arg)
{
	np_prom_family(p, NP_PROM_NETNS, "x", "counter", "h");
	p->header_done = true;
	np_prom_u64(p, *(uint64_t *)arg, NULL);
}

static void check_dbl(double v)
{
	char num[64], want[80];
	char *got;

	if (!isfinite(v))
		return;
	ref_dbl(num, sizeof(num), v);
	snprintf(want, sizeof(want), "x %s\n", num);
	got = render(one_dbl, &v);
	if (strcmp(got, want))
		fail_msg("%.17g: \"%s\", expected \"%s\"", v, got, want);
	free(got);
}

static void test_numbers_match(void **state)
{
	static const double edges[] = {
		0.0, -0.0, 1, -1, 0.5, -0.5, 1e15, -1e15, 1e15 - 1, -(1e15 - 1), 999999999999999.5,
		1e16, 4294967295.0, 9007199254740992.0, 1e-6, 2.5e-7, 123456.789, DBL_MAX, -DBL_MAX,
		DBL_MIN, 0.1 + 0.2,
	};
	static const uint64_t uedges[] = { 0, 1, 9, 10, 99, 100, UINT32_MAX, UINT64_MAX - 1 };

	(void)state;
	for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
		check_dbl(edges[i]);
	for (int it = 0; it < 100000; it++) {
		uint64_t bits = next();
		double v;

		memcpy(&v, &bits, sizeof(v));
		check_dbl(v);					/* any bit pattern */
		check_dbl((double)(int64_t)(next() % 2000000000000000ull) - 1e15);	/* whole */
		check_dbl((double)(next() % 100000) / 8);	/* halves, quarters, eighths */
	}
	for (int it = 0; it < 100000 + (int)(sizeof(uedges) / sizeof(uedges[0])); it++) {
		uint64_t v = it < (int)(sizeof(uedges) / sizeof(uedges[0])) ? uedges[it] :
			     next() >> (next() % 64);
		char want[64];
		char *got;

		if (!np_has(v))
			continue;
		snprintf(want, sizeof(want), "x %" PRIu64 "\n", v);
		got = render(one_u64, &v);
		assert_string_equal(got, want);
		free(got);
	}
}

struct line_case {
	const char *dev, *k1, *v1;
	double v;
};

static void one_line(struct np_prom *p, void *arg)
{
	const struct line_case *c = arg;

	np_prom_family(p, c->dev ? NP_PROM_DEVICE : NP_PROM_NETNS, "netpath_x", "gauge",
		       "help \\ with\nnewline");
	if (c->dev)
		np_prom_device(p, c->dev);
	p->header_done = true;
	if (c->k1)
		np_prom_dbl(p, c->v, c->k1, c->v1, NULL);
	else
		np_prom_dbl(p, c->v, NULL);
}

/* Whole lines: bare, with scope labels, with labels, with both; and the header once. */
static void test_lines_match(void **state)
{
	(void)state;
	for (int it = 0; it < 20000; it++) {
		char dev[200], val[200], num[64];
		struct line_case c = { .v = (double)(next() % 1000) / 4 };
		char *got, *want = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&want, &len);

		random_string(dev, sizeof(dev));
		random_string(val, sizeof(val));
		c.dev = next() & 1 ? dev : NULL;
		c.k1 = next() & 1 ? "check" : NULL;
		c.v1 = val;
		ref_dbl(num, sizeof(num), c.v);
		ref_line(f, "netpath_x", num, c.dev, c.k1, c.v1);
		fclose(f);
		got = render(one_line, &c);
		assert_string_equal(got, want);
		free(got);
		free(want);
	}
}

static void with_header(struct np_prom *p, void *arg)
{
	(void)arg;
	np_prom_family(p, NP_PROM_NETNS, "netpath_x", "gauge", "a \\ b\nc \"d\"");
	np_prom_u64(p, 7, "k", "v", NULL);
	np_prom_u64(p, 8, "k", "w", NULL);
}

static void test_header(void **state)
{
	char *got = render(with_header, NULL);

	(void)state;
	assert_string_equal(got, "# HELP netpath_x a \\\\ b\\nc \"d\"\n# TYPE netpath_x gauge\n"
				 "netpath_x{k=\"v\"} 7\nnetpath_x{k=\"w\"} 8\n");
	free(got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape_matches),
		cmocka_unit_test(test_escape_truncation),
		cmocka_unit_test(test_numbers_match),
		cmocka_unit_test(test_lines_match),
		cmocka_unit_test(test_header),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
