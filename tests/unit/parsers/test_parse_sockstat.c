// SPDX-License-Identifier: GPL-2.0-only
/* np_parse_sockstat: known fields, NP_NA for the missing ones, malformed lines. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>

#include "fixture.h"
#include "parse.h"

static int parse_str(const char *s, struct np_sockstat *st)
{
	size_t len = strlen(s);
	char *p = exact_copy(s, len);
	int err = np_parse_sockstat(p, len, st);

	free(p);
	return err;
}

static void assert_all_na(const struct np_sockstat *st)
{
	const uint64_t *v = (const uint64_t *)st;

	for (size_t i = 0; i < sizeof(*st) / sizeof(*v); i++)
		assert_true(v[i] == NP_NA);
}

static void test_real_capture(void **state)
{
	struct np_sockstat st;
	size_t len;
	char *buf = load_fixture("sockstat.real.txt", &len);
	char *p;

	(void)state;
	assert_non_null(buf);
	p = exact_copy(buf, len);
	assert_int_equal(np_parse_sockstat(p, len, &st), 0);
	assert_int_equal(st.sockets_used, 10);
	assert_int_equal(st.tcp_inuse, 1);
	assert_int_equal(st.tcp_orphan, 0);
	assert_int_equal(st.tcp_tw, 0);
	assert_int_equal(st.tcp_alloc, 1);
	assert_int_equal(st.tcp_mem, 370);
	assert_int_equal(st.udp_inuse, 0);
	assert_int_equal(st.udp_mem, 0);
	assert_int_equal(st.frag_inuse, 0);
	assert_int_equal(st.frag_memory, 0);
	free(p);
	free(buf);
}

static void test_partial_file(void **state)
{
	struct np_sockstat st;

	(void)state;
	/* No FRAG line, no trailing newline, unknown protocols and keys ignored. */
	assert_int_equal(parse_str("sockets: used 283\nTCP6: inuse 9\nRAW: inuse 1\n"
				   "TCP: inuse 6 orphan 2 tw 3 alloc 8 mem 1 newkey 5\n"
				   "UDP: inuse 3 mem 4",
				   &st), 0);
	assert_int_equal(st.sockets_used, 283);
	assert_int_equal(st.tcp_inuse, 6);
	assert_int_equal(st.tcp_orphan, 2);
	assert_int_equal(st.tcp_tw, 3);
	assert_int_equal(st.tcp_alloc, 8);
	assert_int_equal(st.udp_inuse, 3);
	assert_int_equal(st.udp_mem, 4);
	assert_true(st.frag_inuse == NP_NA);
	assert_true(st.frag_memory == NP_NA);
}

static void test_bad_values(void **state)
{
	struct np_sockstat st;

	(void)state;
	/* A bad value leaves its field NP_NA and the good ones set. */
	assert_int_equal(parse_str("sockets: used 1\nTCP: inuse x orphan 2\n", &st), -EBADMSG);
	assert_int_equal(st.sockets_used, 1);
	assert_true(st.tcp_inuse == NP_NA);
	assert_int_equal(st.tcp_orphan, 2);
	/* A truncated line: key without its value. */
	assert_int_equal(parse_str("sockets: used 1\nTCP: inuse 5 orphan", &st), -EBADMSG);
	assert_int_equal(st.tcp_inuse, 5);
	assert_true(st.tcp_orphan == NP_NA);
	assert_int_equal(parse_str("sockets: used -1\nUDP: inuse 1\n", &st), -EBADMSG);
	assert_true(st.sockets_used == NP_NA);
}

static void test_malformed(void **state)
{
	static const char *const bad[] = {
		"", "\n", "garbage\n", "sockets: used\n", "sockets: used 99999999999999999999\n",
		"tcp: inuse 1\n", "TCP inuse 1\n",
	};
	struct np_sockstat st;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&st, 0, sizeof(st));
		assert_int_equal(parse_str(bad[i], &st), -EINVAL);
		assert_all_na(&st);
	}
	assert_int_equal(np_parse_sockstat(NULL, 0, &st), -EINVAL);
	assert_all_na(&st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_capture),
		cmocka_unit_test(test_partial_file),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
