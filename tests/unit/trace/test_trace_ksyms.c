// SPDX-License-Identifier: GPL-2.0-only
/* The kallsyms resolver on a fixture: unsorted input, data symbols ignored, module symbols,
 * offsets, addresses below the first symbol, and the all-zero file of an unprivileged reader. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "trace_ksyms.h"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void test_fixture(void **state)
{
	struct np_ksyms k;
	const struct np_ksym *s;
	uint64_t off = 0;
	char buf[128];
	size_t len;
	char *text = slurp(NP_FIXTURES "/kallsyms/kallsyms", &len);

	(void)state;
	assert_int_equal(np_ksyms_parse(text, len, &k), 0);
	free(text);
	/* 10 kernel text symbols + 2 module ones; the two D symbols are not text. */
	assert_int_equal(k.n, 12);
	for (size_t i = 1; i < k.n; i++)
		assert_true(k.s[i - 1].addr <= k.s[i].addr);

	s = np_ksyms_find(&k, 0xffffffff820454f0ull + 0x1a, &off);
	assert_non_null(s);
	assert_string_equal(s->name, "udp_queue_rcv_one_skb");
	assert_int_equal(off, 0x1a);
	/* Exactly at a symbol: offset 0. The last byte before the next one: still the first. */
	s = np_ksyms_find(&k, 0xffffffff81e5e970ull, &off);
	assert_string_equal(s->name, "enqueue_to_backlog");
	assert_int_equal(off, 0);
	s = np_ksyms_find(&k, 0xffffffff81e5edafull, &off);
	assert_string_equal(s->name, "enqueue_to_backlog");
	/* Module symbols keep their module, tab turned into a space. */
	s = np_ksyms_find(&k, 0xffffffffc0a01210ull, &off);
	assert_string_equal(s->name, "nf_conntrack_in [nf_conntrack]");
	assert_int_equal(off, 0x10);
	/* Below the first text symbol: nothing, and the formatter falls back to hex. */
	assert_null(np_ksyms_find(&k, 0xffffffff80000000ull, &off));
	assert_string_equal(np_ksyms_format(&k, 0xffffffff80000000ull, buf, sizeof(buf)),
			    "0xffffffff80000000");
	assert_string_equal(np_ksyms_format(&k, 0xffffffff820339c0ull + 0x44, buf, sizeof(buf)),
			    "tcp_v4_rcv+0x44");
	np_ksyms_free(&k);
}

static void test_restricted(void **state)
{
	/* kptr_restrict: an unprivileged reader sees every address as zero. */
	static const char text[] = "0000000000000000 T _stext\n0000000000000000 t ip_rcv_core\n";
	struct np_ksyms k;

	(void)state;
	assert_int_equal(np_ksyms_parse(text, sizeof(text) - 1, &k), -ENOENT);
	assert_int_equal(k.n, 0);
	assert_null(np_ksyms_find(&k, 0x1234, NULL));
}

static void test_garbage(void **state)
{
	/* Truncated and malformed lines are skipped, not misread; no trailing newline. */
	static const char text[] = "zz T x\nffffffff81000000\nffffffff81000000 T\n"
				   "ffffffff81000100 Tbad\nffffffff81000200 t good";
	struct np_ksyms k;

	(void)state;
	assert_int_equal(np_ksyms_parse(text, sizeof(text) - 1, &k), 0);
	assert_int_equal(k.n, 1);
	assert_string_equal(k.s[0].name, "good");
	np_ksyms_free(&k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture),
		cmocka_unit_test(test_restricted),
		cmocka_unit_test(test_garbage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
