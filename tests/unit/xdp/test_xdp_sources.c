// SPDX-License-Identifier: GPL-2.0-only
/* trace --xdp per-source counts: per-CPU sums, merging, top N, "other", unkeyed, non-IP. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <arpa/inet.h>

#include <cmocka.h>

#include "xdp_sources.h"

#define NCPU 2

static struct np_xdp_src_key v4(const char *s)
{
	struct np_xdp_src_key k = { .family = 4 };

	assert_int_equal(inet_pton(AF_INET, s, k.addr), 1);
	return k;
}

static struct np_xdp_src_key v6(const char *s)
{
	struct np_xdp_src_key k = { .family = 6 };

	assert_int_equal(inet_pton(AF_INET6, s, k.addr), 1);
	return k;
}

static const char *addr(const struct np_xdp_sources *s, size_t i)
{
	static char buf[64];

	return np_xdp_source_addr(&s->top[i], buf, sizeof(buf));
}

/* Five sources over two CPUs (one repeated, one empty, one of no known family), the map's
 * unkeyed and non-IP slots: the top 2 by packets, the rest in other, nothing lost. */
static void test_fold(void **state)
{
	struct np_xdp_src_key keys[7];
	struct np_xdp_slot vals[7 * NCPU] = {
		{ 10, 1000 }, { 5, 500 },	/* 198.18.0.1: 15 */
		{ 0, 0 }, { 40, 4000 },		/* 2001:db8::1: 40 */
		{ 3, 300 }, { 0, 0 },		/* 198.18.0.3: 3 + 20 below */
		{ 0, 0 }, { 0, 0 },		/* 198.18.0.9: nothing counted */
		{ 1, 60 }, { 1, 60 },		/* family 0: non-IP */
		{ 20, 2000 }, { 0, 0 },		/* 198.18.0.3 again: merged */
		{ 15, 900 }, { 0, 0 },		/* 198.18.0.4: 15 packets, fewer bytes */
	};
	struct np_xdp_slot misc[NP_XDP_SRC__COUNT * NCPU] = {
		[NP_XDP_SRC_UNKEYED * NCPU] = { 7, 700 },
		[NP_XDP_SRC_NON_IP * NCPU + 1] = { 2, 120 },
	};
	struct np_xdp_sources s;
	uint64_t packets = 0, all = 0;

	(void)state;
	keys[0] = v4("198.18.0.1");
	keys[1] = v6("2001:db8::1");
	keys[2] = v4("198.18.0.3");
	keys[3] = v4("198.18.0.9");
	memset(&keys[4], 0, sizeof(keys[4]));
	keys[5] = v4("198.18.0.3");
	keys[6] = v4("198.18.0.4");
	for (size_t i = 0; i < 7 * NCPU; i++)
		all += vals[i].packets;
	all += 7 + 2;

	assert_int_equal(np_xdp_sources_fold(keys, vals, 7, NCPU, misc, 2, &s), 0);
	assert_true(s.on);
	assert_int_equal(s.cap, NP_XDP_MAX_SOURCES);
	assert_int_equal(s.keys, 7);
	assert_int_equal(s.n, 2);
	assert_string_equal(addr(&s, 0), "2001:db8::1");
	assert_int_equal(s.top[0].packets, 40);
	assert_int_equal(s.top[0].bytes, 4000);
	assert_string_equal(addr(&s, 1), "198.18.0.3");
	assert_int_equal(s.top[1].packets, 23);
	assert_int_equal(s.top[1].bytes, 2300);
	/* 198.18.0.1 (15) and 198.18.0.4 (15) and the 7 unkeyed. */
	assert_int_equal(s.other.packets, 15 + 15 + 7);
	assert_int_equal(s.other.bytes, 1500 + 900 + 700);
	assert_int_equal(s.unkeyed.packets, 7);
	assert_int_equal(s.non_ip.packets, 2 + 2);
	assert_int_equal(s.non_ip.bytes, 120 + 120);
	for (size_t i = 0; i < s.n; i++)
		packets += s.top[i].packets;
	assert_int_equal(packets + s.other.packets + s.non_ip.packets, all);
	np_xdp_sources_free(&s);

	/* A top larger than the sources: all four, ties by bytes (198.18.0.1 before .4). */
	assert_int_equal(np_xdp_sources_fold(keys, vals, 7, NCPU, misc, 10, &s), 0);
	assert_int_equal(s.n, 4);
	assert_string_equal(addr(&s, 2), "198.18.0.1");
	assert_string_equal(addr(&s, 3), "198.18.0.4");
	assert_int_equal(s.other.packets, 7);
	np_xdp_sources_free(&s);

	/* top 0: everything in other. */
	assert_int_equal(np_xdp_sources_fold(keys, vals, 7, NCPU, NULL, 0, &s), 0);
	assert_int_equal(s.n, 0);
	assert_int_equal(s.other.packets, 40 + 23 + 15 + 15);
	assert_int_equal(s.unkeyed.packets, 0);
	np_xdp_sources_free(&s);
}

static void test_empty_and_bad(void **state)
{
	struct np_xdp_sources s;

	(void)state;
	assert_int_equal(np_xdp_sources_fold(NULL, NULL, 0, NCPU, NULL, 5, &s), 0);
	assert_true(s.on);
	assert_int_equal(s.n, 0);
	assert_int_equal(s.other.packets, 0);
	np_xdp_sources_free(&s);
	assert_int_equal(np_xdp_sources_fold(NULL, NULL, 3, NCPU, NULL, 5, &s), -EINVAL);
	assert_false(s.on);
}

static void test_addr(void **state)
{
	struct np_xdp_source s = { .family = 4, .addr = { 198, 18, 0, 1 } };
	char buf[64];

	(void)state;
	assert_string_equal(np_xdp_source_addr(&s, buf, sizeof(buf)), "198.18.0.1");
	s.family = 6;
	memset(s.addr, 0, sizeof(s.addr));
	s.addr[0] = 0x20;
	s.addr[1] = 0x01;
	s.addr[2] = 0x0d;
	s.addr[3] = 0xb8;
	s.addr[15] = 2;
	assert_string_equal(np_xdp_source_addr(&s, buf, sizeof(buf)), "2001:db8::2");
	/* Too small a buffer: empty, never a cut address. */
	assert_string_equal(np_xdp_source_addr(&s, buf, 4), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fold),
		cmocka_unit_test(test_empty_and_bad),
		cmocka_unit_test(test_addr),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
