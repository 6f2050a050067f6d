// SPDX-License-Identifier: GPL-2.0-only
/*
 * The hand-made formatting of issue #35 against the printf forms it replaced, byte for byte:
 * the renderers' buffer (render/outbuf.c: padding, integers, strings, chunks larger than the
 * buffer), snprintf("%s") and ("%.*s") copies (model/strcopy.h), "%.0f" of whole numbers
 * (np_fmt_integral), MIB names joined in place (np_counters_push_join); and that a write to
 * standard output that fails in a buffer flush still gives the exit its reason.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>
#include <signal.h>
#include <cmocka.h>

#include "check_util.h"
#include "counters.h"
#include "outbuf.h"
#include "strcopy.h"

/* What the calls in fn write through an np_ob, and what fprintf writes for the same. */
struct pair {
	char *a, *b;
	size_t al, bl;
};

static void open_pair(struct pair *p, FILE **fa, FILE **fb)
{
	memset(p, 0, sizeof(*p));
	*fa = open_memstream(&p->a, &p->al);
	*fb = open_memstream(&p->b, &p->bl);
	assert_non_null(*fa);
	assert_non_null(*fb);
}

static void close_pair(struct pair *p, FILE *fa, FILE *fb)
{
	fclose(fa);
	fclose(fb);
	assert_int_equal(p->al, p->bl);
	assert_memory_equal(p->a, p->b, p->al);
	free(p->a);
	free(p->b);
}

static void test_pad_numbers_strings(void **state)
{
	static const char *const s[] = { "", "a", "softnet", "exactly-twenty-eight-bytes-x",
					 "a string longer than any width used here, by far", NULL };
	static const int w[] = { 0, 1, 7, 8, 11, 18, 28, 30, 40, 64, 100 };
	static const uint64_t u[] = { 0, 1, 9, 10, 99, 100, 4096, 15515996, UINT32_MAX,
				      UINT64_MAX / 3, UINT64_MAX };
	static const int64_t d[] = { 0, -1, 1, -42, INT64_MIN, INT64_MAX, -9999999999LL };
	struct pair p;
	FILE *fa, *fb;
	struct np_ob ob;

	(void)state;
	open_pair(&p, &fa, &fb);
	np_ob_init(&ob, fa);
	for (size_t i = 0; s[i]; i++)
		for (size_t k = 0; k < sizeof(w) / sizeof(w[0]); k++) {
			np_ob_pad(&ob, s[i], w[k]);
			np_ob_pad(&ob, s[i], -w[k]);
			np_ob_putc(&ob, '|');
			fprintf(fb, "%*s%-*s|", w[k], s[i], w[k], s[i]);
		}
	for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
		np_ob_u64(&ob, u[i]);
		np_ob_putc(&ob, ' ');
		fprintf(fb, "%llu ", (unsigned long long)u[i]);
	}
	for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++) {
		np_ob_i64(&ob, d[i]);
		np_ob_putc(&ob, ' ');
		fprintf(fb, "%lld ", (long long)d[i]);
	}
	np_ob_cat(&ob, "a", "", "bc", (const char *)NULL);
	fprintf(fb, "%s%s%s", "a", "", "bc");
	np_ob_puts(&ob, NULL);	/* as glibc's printf("%s", NULL) */
	fprintf(fb, "%s", "(null)");
	np_ob_blanks(&ob, 70);
	fprintf(fb, "%70s", "");
	np_ob_printf(&ob, "%.1f s, %.3g ms", 1.25, 0.12345);
	fprintf(fb, "%.1f s, %.3g ms", 1.25, 0.12345);
	np_ob_flush(&ob);
	close_pair(&p, fa, fb);
}

/* Pieces across the 4 KiB buffer's end and larger than it, in order. */
static void test_chunks(void **state)
{
	char big[10000];
	volatile size_t bigsize = sizeof(big);
	struct pair p;
	FILE *fa, *fb;
	struct np_ob ob;

	(void)state;
	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (char)('a' + i % 26);
	open_pair(&p, &fa, &fb);
	np_ob_init(&ob, fa);
	for (size_t n = 1; n < 700; n += 37) {
		np_ob_write(&ob, big, n);
		fwrite(big, 1, n, fb);
		np_ob_printf(&ob, "<%zu:%.*s>", n, (int)(n % 50), big);
		fprintf(fb, "<%zu:%.*s>", n, (int)(n % 50), big);
	}
	np_ob_write(&ob, big, bigsize);	/* not a constant: gcc's bounds warning is for one */
	fwrite(big, 1, sizeof(big), fb);
	np_ob_printf(&ob, "%.*s", 5000, big);	/* longer than the buffer */
	fprintf(fb, "%.*s", 5000, big);
	np_ob_flush(&ob);
	close_pair(&p, fa, fb);
}

static void test_strcopy(void **state)
{
	static const char *const s[] = { "", "x", "net.core.netdev_max_backlog",
					 "0123456789abcdef0123456789abcdef", NULL };
	static const size_t sizes[] = { 1, 2, 5, 16, 32, 33, 64 };

	(void)state;
	for (size_t i = 0; s[i]; i++)
		for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
			char a[64], b[64];

			memset(a, 'Z', sizeof(a));
			memset(b, 'Z', sizeof(b));
			np_strcopy(a, sizes[k], s[i]);
			snprintf(b, sizes[k], "%s", s[i]);
			assert_memory_equal(a, b, sizeof(a));
			for (size_t n = 0; n < 40; n += 3) {
				memset(a, 'Z', sizeof(a));
				memset(b, 'Z', sizeof(b));
				np_strcopy_n(a, sizes[k], s[i], n);
				snprintf(b, sizes[k], "%.*s", (int)n, s[i]);
				assert_memory_equal(a, b, sizeof(a));
			}
		}
}

static void test_integral(void **state)
{
	static const double v[] = { 0, 1, -1, 7, 999, 1000, 1e15, -1e15, 9007199254740991.0,
				    4294967296.0, 123456789012.0 };
	static const double not[] = { 0.5, -0.5, 1.5, 2.5, 9007199254740992.0, 1e300 };

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		char a[32], b[32];

		assert_true(np_fmt_integral(v[i], a, sizeof(a)));
		snprintf(b, sizeof(b), "%.0f", v[i]);
		assert_string_equal(a, b);
	}
	for (size_t i = 0; i < sizeof(not) / sizeof(not[0]); i++) {
		char a[32];

		assert_false(np_fmt_integral(not[i], a, sizeof(a)));
	}
	{
		char a[32];

		assert_false(np_fmt_integral(-0.0, a, sizeof(a)));	/* "%.0f" says "-0" */
		assert_false(np_fmt_integral(12345, a, 5));		/* does not fit */
	}
}

static void test_push_join(void **state)
{
	static const char *const pre[] = { "", "Tcp", "TcpExt",
					   "AVeryLongPrefixOfThirtyTwoBytes!", NULL };
	static const char *const name[] = { "", "ListenOverflows",
					    "AnotherNameOfMoreThanThirtyTwoBytesLong", NULL };
	struct np_counters t = { 0 };

	(void)state;
	for (size_t i = 0; pre[i]; i++)
		for (size_t k = 0; name[k]; k++)
			for (size_t cut = 0; cut < 48; cut += 5) {
				char want[NP_COUNTER_NAME_MAX];

				snprintf(want, sizeof(want), "%.*s%.*s", (int)strlen(pre[i]), pre[i],
					 (int)cut, name[k]);
				assert_int_equal(np_counters_push_join(&t, pre[i], strlen(pre[i]),
								       name[k], cut, 7), 0);
				assert_string_equal(t.e[t.n - 1].name, want);
			}
	np_counters_free(&t);
}

/* A closed pipe: the flush fails with EPIPE, and np_ob_write_errno() says so afterwards
 * although stdio's own error flag is all that remains on the stream. */
static void test_write_errno(void **state)
{
	char line[6000];
	volatile size_t linesize = sizeof(line);
	int fds[2], saved;
	struct np_ob ob;

	(void)state;
	signal(SIGPIPE, SIG_IGN);
	assert_int_equal(pipe(fds), 0);
	close(fds[0]);
	fflush(stdout);
	saved = dup(1);
	assert_true(saved >= 0);
	assert_int_equal(dup2(fds[1], 1), 1);
	close(fds[1]);
	memset(line, 'x', sizeof(line));
	np_ob_init(&ob, stdout);
	np_ob_write(&ob, line, linesize);
	np_ob_flush(&ob);
	errno = 0;
	fflush(stdout);
	assert_true(ferror(stdout));
	assert_int_equal(np_ob_write_errno(), EPIPE);
	clearerr(stdout);
	assert_int_equal(dup2(saved, 1), 1);
	close(saved);
}

/* A sink's flushes, kept in order, and how many there were. */
struct sunk {
	char text[20000];
	size_t len, calls;
};

static void keep(void *ctx, const char *s, size_t n)
{
	struct sunk *k = ctx;

	assert_true(k->len + n <= sizeof(k->text));
	memcpy(k->text + k->len, s, n);
	k->len += n;
	k->calls++;
}

/* An np_ob with a sink hands it exactly what fprintf would have written, in order: small
 * pieces, a printf larger than the buffer (no FILE to print into), a write larger too. */
static void test_sink(void **state)
{
	static struct sunk k;
	static char big[6000], want[20000];
	/* volatile: a constant 5000 lets GCC's -Warray-bounds (release) flag the memcpy of
	 * np_ob_write()'s fast branch, which that size never takes. */
	volatile size_t large = 5000;
	struct np_ob ob;
	int n;

	(void)state;
	memset(big, 'b', sizeof(big) - 1);
	np_ob_init_sink(&ob, keep, &k);
	np_ob_puts(&ob, "head ");
	np_ob_u64(&ob, 42);
	np_ob_printf(&ob, " [%s] %d\n", big, 7);
	np_ob_pad(&ob, "x", -5);
	np_ob_write(&ob, big, large);
	assert_int_equal(k.len + ob.len, 5 + 2 + 2 + 5999 + 4 + 5 + 5000);
	np_ob_flush(&ob);
	n = snprintf(want, sizeof(want), "head 42 [%s] 7\nx    %.5000s", big, big);
	assert_int_equal(k.len, (size_t)n);
	assert_memory_equal(k.text, want, k.len);
	assert_true(k.calls >= 3);
	np_ob_flush(&ob);	/* nothing buffered: no call */
	assert_int_equal(k.len, (size_t)n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pad_numbers_strings),
		cmocka_unit_test(test_chunks),
		cmocka_unit_test(test_strcopy),
		cmocka_unit_test(test_integral),
		cmocka_unit_test(test_push_join),
		cmocka_unit_test(test_write_errno),
		cmocka_unit_test(test_sink),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
