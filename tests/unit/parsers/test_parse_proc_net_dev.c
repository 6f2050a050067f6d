// SPDX-License-Identifier: GPL-2.0-only
/* np_parse_proc_net_dev: each interface's rx_packets, from a real file and damaged ones. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>

#include "fixture.h"
#include "parse.h"

static int parse_str(const char *s, struct np_ifrx *x)
{
	size_t len = strlen(s);
	char *p = exact_copy(s, len);
	int err = np_parse_proc_net_dev(p, len, x);

	free(p);
	return err;
}

/* The sosreport's copy of a Debian 12 VM (tests/fixtures/sos/README.md). */
static void test_real(void **state)
{
	char path[1024], *buf;
	struct np_ifrx x;
	size_t len = 0;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/sos/sos4.0-debian12-virtio/proc/net/dev", NP_FIXTURES);
	f = fopen(path, "rb");
	assert_non_null(f);
	buf = calloc(1, 8192);
	assert_non_null(buf);
	len = fread(buf, 1, 8191, f);
	fclose(f);
	assert_int_equal(np_parse_proc_net_dev(buf, len, &x), 0);
	free(buf);
	assert_true(x.read);
	assert_int_equal(x.n, 4);
	assert_string_equal(x.e[0].name, "lo");
	assert_int_equal(x.e[0].rx_packets, 58);
	assert_string_equal(x.e[3].name, "eth0");
	assert_int_equal(x.e[3].rx_packets, 11850);
}

static void test_layouts(void **state)
{
	struct np_ifrx x;

	(void)state;
	/* Old kernels: no blank after the colon. */
	assert_int_equal(parse_str("Inter-|   Receive\n face |bytes packets\n  eth0:123 45 0 0\n",
				   &x), 0);
	assert_int_equal(x.n, 1);
	assert_int_equal(x.e[0].rx_packets, 45);
	/* Headers only, garbage, a name too long, one number: nothing kept. */
	assert_int_equal(parse_str("Inter-|   Receive\n face |bytes\n", &x), -EINVAL);
	assert_false(x.read);
	assert_int_equal(parse_str("a: b c\nverylongname0123456789: 1 2\nx: 5\n", &x), -EINVAL);
	assert_int_equal(parse_str("", &x), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real),
		cmocka_unit_test(test_layouts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
