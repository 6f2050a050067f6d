// SPDX-License-Identifier: GPL-2.0-only
/*
 * The name -> u64 table (model/counters.h): what a repeated name does through each entry point
 * (append keeps both and lookups find the first, add sums, set replaces), the same answers
 * below and above the size where the hash index takes over, through growth, sorting, an
 * append after sorting and a truncation; and that lookups cost O(1) name comparisons each
 * (np_counters_seam), counted rather than timed.
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

static void name_of(char *buf, size_t n, size_t i)
{
	snprintf(buf, n, "rx_queue_%zu_packets", i);
}

static void test_duplicates(void **state)
{
	struct np_counters c = { 0 };

	(void)state;
	assert_true(np_counters_get(&c, "x") == NP_NA);
	/* Small (scanned) and large (indexed): the same answers. */
	for (size_t fill = 0; fill < 2; fill++) {
		char name[32];

		for (size_t i = 0; i < fill * 1000; i++) {
			name_of(name, sizeof(name), i);
			assert_int_equal(np_counters_append(&c, name, i), 0);
		}
		assert_int_equal(np_counters_append(&c, "dup", 1), 0);
		assert_int_equal(np_counters_append(&c, "dup", 2), 0);
		assert_int_equal(np_counters_get(&c, "dup"), 1);	/* the first */
		assert_int_equal(np_counters_add(&c, "dup", 10), 0);
		assert_int_equal(np_counters_get(&c, "dup"), 11);	/* summed into the first */
		assert_int_equal(np_counters_set(&c, "dup", 5), 0);
		assert_int_equal(np_counters_get(&c, "dup"), 5);	/* the first replaced */
		assert_int_equal(np_counters_add(&c, "sum", 3), 0);
		assert_int_equal(np_counters_add(&c, "sum", 4), 0);
		assert_int_equal(np_counters_get(&c, "sum"), 7);
		assert_int_equal(np_counters_set(&c, "last", 3), 0);
		assert_int_equal(np_counters_set(&c, "last", 4), 0);
		assert_int_equal(np_counters_get(&c, "last"), 4);
		assert_int_equal(c.n, fill * 1000 + 4);
		/* The second "dup" is still there with its own value. */
		assert_int_equal(c.e[fill * 1000 + 1].value, 2);
		np_counters_free(&c);
		assert_null(c.e);
		assert_null(c.slot);
	}
}

static void test_many_names(void **state)
{
	struct np_counters c = { 0 };
	char name[32];
	const size_t n = 100000;

	(void)state;
	for (size_t i = 0; i < n; i++) {
		name_of(name, sizeof(name), i);
		assert_int_equal(np_counters_add(&c, name, i), 0);
	}
	for (size_t i = 0; i < n; i++) {
		name_of(name, sizeof(name), i);
		assert_int_equal(np_counters_add(&c, name, 1), 0);
	}
	assert_int_equal(c.n, n);
	assert_true(c.nslot >= 2 * c.n);	/* at most half full */
	for (size_t i = 0; i < n; i += 997) {
		name_of(name, sizeof(name), i);
		assert_int_equal(np_counters_get(&c, name), i + 1);
	}
	assert_true(np_counters_get(&c, "rx_queue_100000_packets") == NP_NA);
	np_counters_sort(&c);
	assert_null(c.slot);	/* sorted tables use bsearch */
	assert_string_equal(c.e[0].name, "rx_queue_0_packets");
	name_of(name, sizeof(name), 4242);
	assert_int_equal(np_counters_get(&c, name), 4243);
	/* An append unsorts the table: lookups go back to the index, rebuilt for all. */
	assert_int_equal(np_counters_set(&c, "zz_new", 9), 0);
	assert_false(c.sorted);
	assert_non_null(c.slot);
	assert_int_equal(np_counters_get(&c, "zz_new"), 9);
	assert_int_equal(np_counters_get(&c, name), 4243);
	/* Cutting the tail forgets its names. */
	np_counters_truncate(&c, n, 0);
	assert_true(np_counters_get(&c, "zz_new") == NP_NA);
	assert_int_equal(np_counters_get(&c, name), 4243);
	assert_int_equal(np_counters_append(&c, "after", 1), 0);
	assert_int_equal(np_counters_get(&c, "after"), 1);
	np_counters_free(&c);
}

/* Names are kept to NP_COUNTER_NAME_MAX - 1 bytes and found by that prefix in either mode. */
static void test_long_names(void **state)
{
	struct np_counters c = { 0 };
	char a[100], b[100];

	(void)state;
	memset(a, 'a', sizeof(a) - 1);
	a[sizeof(a) - 1] = '\0';
	memcpy(b, a, sizeof(b));
	b[80] = 'b';	/* differs beyond what is kept */
	for (int big = 0; big < 2; big++) {
		for (int i = 0; big && i < 100; i++) {
			char name[16];

			snprintf(name, sizeof(name), "n%d", i);
			assert_int_equal(np_counters_append(&c, name, 1), 0);
		}
		assert_int_equal(np_counters_add(&c, a, 1), 0);
		assert_int_equal(np_counters_add(&c, b, 2), 0);
		assert_int_equal(c.n, big * 100 + 1);
		assert_int_equal(np_counters_get(&c, a), 3);
		assert_int_equal(strlen(c.e[c.n - 1].name), NP_COUNTER_NAME_MAX - 1);
		np_counters_free(&c);
	}
}

/* Each lookup of an indexed table costs a few comparisons, however big the table. */
static void test_linear_work(void **state)
{
	struct np_counters c = { 0 };
	char name[32];
	const size_t n = 50000;
	unsigned long long before = np_counters_seam.compares;

	(void)state;
	for (size_t i = 0; i < n; i++) {
		name_of(name, sizeof(name), i % (n / 2));	/* every name twice */
		assert_int_equal(np_counters_add(&c, name, 1), 0);
		assert_int_equal(np_counters_get(&c, name), i < n / 2 ? 1 : 2);
	}
	/* A scan would make about n^2/4 = 625 M comparisons; the index makes about 2 per call. */
	assert_true(np_counters_seam.compares - before < 8 * n);
	np_counters_free(&c);
}

/* The same entries sorted and indexed (np_counters_index) answer every lookup alike: names
 * of every length around the hash's 8-byte words and the 63 bytes kept, one too long, and
 * names absent. The indexed table keeps the entries' order; a repeated name, or a small
 * table, is sorted instead. */
static void test_index_instead_of_sort(void **state)
{
	struct np_counters sorted = { 0 }, indexed = { 0 };
	char name[NP_COUNTER_NAME_MAX + 8], probe_name[NP_COUNTER_NAME_MAX + 8];

	(void)state;
	for (size_t len = 1; len < sizeof(name) - 1; len++) {
		memset(name, 'a' + (char)(len % 26), len);
		name[len] = '\0';
		name[0] = (char)('A' + len % 26);
		assert_int_equal(np_counters_append(&sorted, name, len), 0);
		assert_int_equal(np_counters_push(&indexed, name, len), 0);
	}
	np_counters_sort(&sorted);
	np_counters_index(&indexed);
	assert_false(indexed.sorted);
	assert_true(strlen(indexed.e[0].name) == 1 && strlen(indexed.e[1].name) == 2);
	for (size_t len = 1; len < sizeof(probe_name) - 1; len++) {
		for (int absent = 0; absent < 2; absent++) {
			memset(probe_name, 'a' + (char)(len % 26), len);
			probe_name[len] = '\0';
			probe_name[0] = (char)(absent ? '#' : 'A' + len % 26);
			assert_int_equal(np_counters_get(&indexed, probe_name),
					 np_counters_get(&sorted, probe_name));
		}
	}
	/* A longer name is found by the 63 bytes kept of it. */
	name[sizeof(name) - 2] = 'z';
	name[sizeof(name) - 1] = '\0';
	assert_int_equal(np_counters_get(&indexed, name), sizeof(name) - 2);

	/* A repeated name: sorted, as its lookups were. */
	snprintf(name, sizeof(name), "%s", indexed.e[5].name);
	assert_int_equal(np_counters_push(&indexed, name, 1), 0);
	assert_false(indexed.sorted);
	np_counters_index(&indexed);
	assert_true(indexed.sorted);
	np_counters_free(&indexed);
	assert_int_equal(np_counters_push(&indexed, "Few", 1), 0);
	np_counters_index(&indexed);
	assert_true(indexed.sorted);
	assert_int_equal(np_counters_get(&indexed, "Few"), 1);
	np_counters_free(&indexed);
	np_counters_free(&sorted);
}

/* A query exactly as long as its heap copy (so that a read past its NUL is an ASan error), for
 * the indexed lookup that compares and hashes whole words, the last one ending at the query's
 * end. */
static uint64_t get_exact(const struct np_counters *c, const char *name, size_t len)
{
	char *q = malloc(len + 1);
	uint64_t v;

	assert_non_null(q);
	memcpy(q, name, len);
	q[len] = '\0';
	v = np_counters_get(c, q);
	free(q);
	return v;
}

/* Indexed and sorted tables answer alike for a query that differs from a stored name in any
 * one byte, or is one byte shorter or longer, at every length up to the 63 bytes kept: the
 * word-at-a-time comparison and the hash of the query's last bytes miss no byte. */
static void test_index_every_byte(void **state)
{
	struct np_counters sorted = { 0 }, indexed = { 0 };
	char name[NP_COUNTER_NAME_MAX + 2];
	uint32_t x = 12345;

	(void)state;
	for (size_t len = 1; len < NP_COUNTER_NAME_MAX; len++) {
		for (size_t i = 0; i < len; i++) {
			x = x * 1103515245u + 12345u;
			name[i] = (char)('A' + (x >> 16) % 52);
		}
		name[len] = '\0';
		assert_int_equal(np_counters_append(&sorted, name, len), 0);
		assert_int_equal(np_counters_push(&indexed, name, len), 0);
	}
	np_counters_sort(&sorted);
	np_counters_index(&indexed);
	assert_false(indexed.sorted);
	for (size_t k = 0; k < indexed.n; k++) {
		size_t len = strlen(indexed.e[k].name);

		memcpy(name, indexed.e[k].name, len + 1);
		assert_int_equal(get_exact(&indexed, name, len), len);
		for (size_t i = 0; i < len; i++) {
			char was = name[i];

			name[i] = was == 'z' ? 'y' : 'z';
			assert_int_equal(get_exact(&indexed, name, len), get_exact(&sorted, name, len));
			name[i] = was;
		}
		assert_int_equal(get_exact(&indexed, name, len - 1),
				 get_exact(&sorted, name, len - 1));
		name[len] = 'q';
		assert_int_equal(get_exact(&indexed, name, len + 1),
				 get_exact(&sorted, name, len + 1));
	}
	np_counters_free(&indexed);
	np_counters_free(&sorted);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_duplicates),
		cmocka_unit_test(test_many_names),
		cmocka_unit_test(test_long_names),
		cmocka_unit_test(test_linear_work),
		cmocka_unit_test(test_index_instead_of_sort),
		cmocka_unit_test(test_index_every_byte),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
