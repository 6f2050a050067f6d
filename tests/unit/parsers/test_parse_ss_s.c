// SPDX-License-Identifier: GPL-2.0-only
/*
 * np_parse_ss_s: iproute2 `ss -s` on real outputs published in issue threads:
 *   ss_s_netdata743_old.txt  netdata/netdata issue #743 (the old layout: synrecv, timewait N/M,
 *                            ports; pasted beside that box's /proc/net/sockstat)
 *   ss_s_i2pd825_old.txt     PurpleI2P/i2pd issue #825 (Debian Jessie, orphaned 40 with
 *                            tcp_max_orphans 1024)
 * and the iproute2 >= 4.x layout as its format string prints it (misc/ss.c print_summary,
 * v5.5: "TCP:   %d (estab %d, closed %d, orphaned %d, timewait %d)"), labelled hand-made.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>

#include "fixture.h"
#include "parse.h"

static int parse_file(const char *name, struct np_sockstat *st)
{
	size_t len;
	char *buf = load_fixture(name, &len), *p;
	int err;

	assert_non_null(buf);
	p = exact_copy(buf, len);
	free(buf);
	err = np_parse_ss_s(p, len, st);
	free(p);
	return err;
}

static int parse_str(const char *s, struct np_sockstat *st)
{
	size_t len = strlen(s);
	char *p = exact_copy(s, len);
	int err = np_parse_ss_s(p, len, st);

	free(p);
	return err;
}

static void test_old_layout(void **state)
{
	struct np_sockstat st;

	(void)state;
	assert_int_equal(parse_file("ss_s_netdata743_old.txt", &st), 0);
	assert_int_equal(st.sockets_used, 4311);
	assert_int_equal(st.tcp_orphan, 8);
	assert_int_equal(st.tcp_tw, 954);
	assert_int_equal(st.tcp_alloc, 4595 - 954 - 0);
	assert_int_equal(st.tcp_inuse, 1859);
	assert_int_equal(st.udp_inuse, 281);
	assert_int_equal(st.frag_inuse, 0);
	assert_true(st.tcp_mem == NP_NA && st.udp_mem == NP_NA && st.frag_memory == NP_NA);

	assert_int_equal(parse_file("ss_s_i2pd825_old.txt", &st), 0);
	assert_int_equal(st.tcp_orphan, 40);
	assert_int_equal(st.tcp_tw, 39);
	assert_int_equal(st.tcp_alloc, 1655 - 39);
	assert_int_equal(st.tcp_inuse, 1612);
}

static void test_new_layout(void **state)
{
	struct np_sockstat st;

	(void)state;
	assert_int_equal(parse_str("Total: 182\n"
				   "TCP:   16 (estab 3, closed 1, orphaned 0, timewait 2)\n\n"
				   "Transport Total     IP        IPv6\n"
				   "RAW\t  0         0         0        \n"
				   "UDP\t  11        8         3        \n"
				   "TCP\t  15        12        3        \n"
				   "INET\t  26        20        6        \n"
				   "FRAG\t  0         0         0        \n", &st), 0);
	assert_int_equal(st.sockets_used, 182);
	assert_int_equal(st.tcp_orphan, 0);
	assert_int_equal(st.tcp_tw, 2);
	assert_int_equal(st.tcp_alloc, 14);
	assert_int_equal(st.tcp_inuse, 12);
	assert_int_equal(st.udp_inuse, 8);
}

static void test_malformed(void **state)
{
	struct np_sockstat st;

	(void)state;
	assert_int_equal(parse_str("", &st), -EINVAL);
	assert_int_equal(parse_str("State Recv-Q Send-Q\nESTAB 0 0 1.2.3.4:22\n", &st), -EINVAL);
	/* a total smaller than its timewait: the orphans are kept, alloc is not guessed */
	assert_int_equal(parse_str("TCP:   3 (estab 1, closed 0, orphaned 2, timewait 9)\n", &st),
			 -EBADMSG);
	assert_int_equal(st.tcp_orphan, 2);
	assert_true(st.tcp_alloc == NP_NA);
	/* cut mid-line */
	assert_int_equal(parse_str("Total: 5\nTCP:   16 (estab 3, closed 1, orph", &st), -EBADMSG);
	assert_int_equal(st.sockets_used, 5);
	assert_true(st.tcp_orphan == NP_NA);
	/* a TCP row outside the transport table is not inuse */
	assert_int_equal(parse_str("Total: 5\nTCP 7 7 0\n", &st), 0);
	assert_true(st.tcp_inuse == NP_NA);
	/* "orphaned 8x" is not a number */
	assert_int_equal(parse_str("TCP:   9 (estab 1, orphaned 8x, timewait 1)\n", &st), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_old_layout),
		cmocka_unit_test(test_new_layout),
		cmocka_unit_test(test_malformed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
