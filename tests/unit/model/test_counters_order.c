// SPDX-License-Identifier: GPL-2.0-only
/*
 * The order of a sorted counter table (#35: np_counters_sort is no longer glibc's qsort, the MIB
 * files are pushed unindexed and merged): names in strcmp order, equal names in the order they
 * were added (the stable order qsort's merge sort gave), and a merge of two sorted tables the
 * same as sorting one table holding both. Against a reference insertion sort, over random names
 * that share long prefixes ("TcpExtTCP...") as the MIB's do, with repeats.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "counters.h"

static unsigned long rnd = 12345;

static unsigned next(void)
{
	rnd = rnd * 6364136223846793005UL + 1442695040888963407UL;
	return (unsigned)(rnd >> 33);
}

static void random_name(char *nm)
{
	static const char *const prefix[] = { "", "TcpExtTCP", "Ip6In", "IcmpMsgOutType" };
	const char *p = prefix[next() % 4];
	size_t n = strlen(p), tail = next() % 12;

	memcpy(nm, p, n);
	for (size_t k = 0; k < tail; k++)
		nm[n++] = "ABab_9"[next() % 6];
	nm[n] = '\0';
}

/* Stable by construction: an entry moves left only past strictly greater names. */
static void reference_sort(struct np_counter *e, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct np_counter x = e[i];
		size_t j = i;

		while (j > 0 && strcmp(e[j - 1].name, x.name) > 0) {
			e[j] = e[j - 1];
			j--;
		}
		e[j] = x;
	}
}

static void assert_same(const struct np_counters *c, const struct np_counter *ref, size_t n)
{
	assert_int_equal(c->n, n);
	assert_true(c->sorted);
	for (size_t i = 0; i < n; i++) {
		assert_string_equal(c->e[i].name, ref[i].name);
		assert_true(c->e[i].value == ref[i].value);	/* the values say which repeat */
	}
}

static void test_sort_stable(void **state)
{
	(void)state;
	for (int round = 0; round < 300; round++) {
		struct np_counters c = { 0 };
		size_t n = next() % 500;
		struct np_counter *ref = calloc(n + 1, sizeof(*ref));

		assert_non_null(ref);
		for (size_t i = 0; i < n; i++) {
			random_name(ref[i].name);
			ref[i].value = i;
			assert_int_equal(np_counters_push(&c, ref[i].name, i), 0);
		}
		np_counters_sort(&c);
		reference_sort(ref, n);
		assert_same(&c, ref, n);
		/* Lookups on the sorted table find the first of repeated names. */
		for (size_t i = 0; i < n; i++)
			assert_true(np_counters_get(&c, ref[i].name) != NP_NA);
		np_counters_free(&c);
		free(ref);
	}
}

static void test_merge(void **state)
{
	(void)state;
	for (int round = 0; round < 300; round++) {
		struct np_counters out = { 0 }, add = { 0 };
		size_t n = next() % 300, m = next() % 300, k = 0;
		struct np_counter *ref = calloc(n + m + 1, sizeof(*ref));

		assert_non_null(ref);
		/* out built in two steps: empty + first table (taken over), then the second. */
		for (int step = 0; step < 2; step++) {
			size_t count = step ? m : n;

			for (size_t i = 0; i < count; i++, k++) {
				random_name(ref[k].name);
				ref[k].value = k;
				assert_int_equal(np_counters_push(&add, ref[k].name, k), 0);
			}
			assert_int_equal(np_counters_merge(&out, &add), 0);
			assert_int_equal(add.n, 0);
			assert_null(add.e);
		}
		reference_sort(ref, n + m);
		if (n + m)
			assert_same(&out, ref, n + m);
		np_counters_free(&out);
		free(ref);
	}
}

/* The sort compares the first 16 bytes of two names as numbers (#35): bytes above 0x7f order
 * after ASCII as strcmp's unsigned bytes do, whatever follows a name's NUL in its array is
 * ignored, and names alike in all 16 bytes are told apart by the rest. */
static void test_sort_bytes(void **state)
{
	static const char *const prefix[] = { "", "TcpExt.", "TcpExt.T", "TcpExt.TCPSACKR",
					      "TcpExt.TCPSACKRe", "TcpExt.TCPSACKRe\xff" };
	static const char alpha[] = "\x01" "Aa\x7f\x80\xff";

	(void)state;
	for (int round = 0; round < 300; round++) {
		struct np_counters c = { 0 };
		size_t n = next() % 200;
		struct np_counter *ref = calloc(n + 1, sizeof(*ref));

		assert_non_null(ref);
		for (size_t i = 0; i < n; i++) {
			const char *p = prefix[next() % 6];
			size_t len = strlen(p), tail = next() % 4;

			memcpy(ref[i].name, p, len);
			while (tail--)
				ref[i].name[len++] = alpha[next() % 6];
			ref[i].name[len] = '\0';
			ref[i].value = i;
			assert_int_equal(np_counters_push(&c, ref[i].name, i), 0);
			/* Bytes after the NUL that a longer name left behind. */
			memset(c.e[i].name + len + 1, (int)(next() & 0xff),
			       NP_COUNTER_NAME_MAX - len - 1);
		}
		np_counters_sort(&c);
		reference_sort(ref, n);
		assert_same(&c, ref, n);
		np_counters_free(&c);
		free(ref);
	}
}

/* A push onto an indexed table drops the index: lookups still answer (by a scan). */
static void test_push_after_append(void **state)
{
	struct np_counters c = { 0 };
	char nm[NP_COUNTER_NAME_MAX];

	(void)state;
	for (size_t i = 0; i < 100; i++) {
		snprintf(nm, sizeof(nm), "n%zu", i);
		assert_int_equal(np_counters_append(&c, nm, i), 0);
	}
	assert_non_null(c.slot);
	assert_int_equal(np_counters_push(&c, "last", 7), 0);
	assert_null(c.slot);
	assert_true(np_counters_get(&c, "n42") == 42);
	assert_true(np_counters_get(&c, "last") == 7);
	assert_true(np_counters_get(&c, "none") == NP_NA);
	np_counters_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sort_stable),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_sort_bytes),
		cmocka_unit_test(test_push_after_append),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
