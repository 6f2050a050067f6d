// SPDX-License-Identifier: GPL-2.0-only
/* np_parse_route_default / np_parse_ipv6_route_default: lowest-metric default, skips, errors. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <net/if.h>

#include "fixture.h"
#include "parse.h"

typedef int (*route_fn)(const char *, size_t, char *, size_t);

static int parse_fixture(route_fn fn, const char *name, char *ifname, size_t size)
{
	size_t len;
	char *buf = load_fixture(name, &len);
	char *p;
	int err;

	assert_non_null(buf);
	p = exact_copy(buf, len);
	err = fn(p, len, ifname, size);
	free(p);
	free(buf);
	return err;
}

static int parse_str(route_fn fn, const char *s, char *ifname, size_t size)
{
	size_t len = strlen(s);
	char *p = exact_copy(s, len);
	int err = fn(p, len, ifname, size);

	free(p);
	return err;
}

static void test_v4_real(void **state)
{
	char ifname[IF_NAMESIZE];

	(void)state;
	assert_int_equal(parse_fixture(np_parse_route_default, "route.real.txt", ifname,
				       sizeof(ifname)), 0);
	assert_string_equal(ifname, "eth0");
}

/* eth0 600, wlan0 100, wg0 100 (later: tie keeps wlan0), "*" reject, eth1 not up. */
static void test_v4_lowest_metric(void **state)
{
	char ifname[IF_NAMESIZE];

	(void)state;
	assert_int_equal(parse_fixture(np_parse_route_default, "route_multi.txt", ifname,
				       sizeof(ifname)), 0);
	assert_string_equal(ifname, "wlan0");
}

static void test_v4_none(void **state)
{
	char ifname[IF_NAMESIZE] = "x";

	(void)state;
	/* Header only, and a table without a default. */
	assert_int_equal(parse_str(np_parse_route_default,
				   "Iface\tDestination\tGateway\tFlags\tRefCnt\tUse\tMetric\tMask",
				   ifname, sizeof(ifname)), -ENOENT);
	assert_string_equal(ifname, "");
	assert_int_equal(parse_str(np_parse_route_default,
				   "Iface\tDestination\tGateway\tFlags\tRefCnt\tUse\tMetric\tMask\n"
				   "eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n"
				   "eth0\t00000000\t00000000\t0001\t0\t0\t0\t000000FF\t0\t0\t0",
				   ifname, sizeof(ifname)), -ENOENT);
}

static void test_v4_negative_metric(void **state)
{
	char ifname[IF_NAMESIZE];

	(void)state;
	/* Metric 4294967295 prints as -1 (%d): it is the largest, not the smallest. */
	assert_int_equal(parse_str(np_parse_route_default,
				   "Iface Destination Gateway Flags RefCnt Use Metric Mask\n"
				   "a 00000000 0 0003 0 0 -1 00000000\n"
				   "b 00000000 0 0003 0 0 7 00000000\n",
				   ifname, sizeof(ifname)), 0);
	assert_string_equal(ifname, "b");
}

static void test_v4_malformed(void **state)
{
	static const char *const bad[] = {
		"",
		"garbage\n",
		/* missing header */
		"eth0\t00000000\t010200C0\t0003\t0\t0\t0\t00000000\t0\t0\t0\n",
		/* header, then only rows we cannot read */
		"Iface Destination\neth0 zz 00 0003 0 0 0 00000000\neth0 00000000\n",
	};
	char ifname[IF_NAMESIZE];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse_str(np_parse_route_default, bad[i], ifname, sizeof(ifname)),
				 -EINVAL);
		assert_string_equal(ifname, "");
	}
	/* One unreadable row does not hide the good one. */
	assert_int_equal(parse_str(np_parse_route_default,
				   "Iface\neth9 00000000 0 xyz 0 0 0 00000000\n"
				   "eth1 00000000 0 0003 0 0 5 00000000\n",
				   ifname, sizeof(ifname)), 0);
	assert_string_equal(ifname, "eth1");
	assert_int_equal(np_parse_route_default(NULL, 0, ifname, sizeof(ifname)), -EINVAL);
	assert_int_equal(np_parse_route_default("Iface\n", 6, ifname, 0), -EINVAL);
}

static void test_name_too_long(void **state)
{
	char small[4];

	(void)state;
	assert_int_equal(parse_fixture(np_parse_route_default, "route.real.txt", small,
				       sizeof(small)), -ENOSPC);
	assert_string_equal(small, "");
	assert_int_equal(parse_fixture(np_parse_ipv6_route_default, "ipv6_route.real.txt", small,
				       sizeof(small)), -ENOSPC);
}

static void test_v6_real(void **state)
{
	char ifname[IF_NAMESIZE];

	(void)state;
	/* eth0 metric 0x400, and lo's reject default at 0xffffffff. */
	assert_int_equal(parse_fixture(np_parse_ipv6_route_default, "ipv6_route.real.txt", ifname,
				       sizeof(ifname)), 0);
	assert_string_equal(ifname, "eth0");
}

/* eth0 0x400, eth2 source-specific 0x1, wlan0 0x100, eth1 0x100 (tie), wg0 reject, lo reject. */
static void test_v6_lowest_metric(void **state)
{
	char ifname[IF_NAMESIZE];

	(void)state;
	assert_int_equal(parse_fixture(np_parse_ipv6_route_default, "ipv6_route_multi.txt", ifname,
				       sizeof(ifname)), 0);
	assert_string_equal(ifname, "wlan0");
}

static void test_v6_none_and_malformed(void **state)
{
	char ifname[IF_NAMESIZE];

	(void)state;
	/* Empty (IPv6 without routes) and only lo's reject route: no default. */
	assert_int_equal(parse_str(np_parse_ipv6_route_default, "", ifname, sizeof(ifname)),
			 -ENOENT);
	assert_int_equal(parse_str(np_parse_ipv6_route_default,
				   "00000000000000000000000000000000 00 "
				   "00000000000000000000000000000000 00 "
				   "00000000000000000000000000000000 ffffffff 00000001 00000000 "
				   "00200200       lo\n", ifname, sizeof(ifname)), -ENOENT);
	/* lo without RTF_REJECT is still skipped. */
	assert_int_equal(parse_str(np_parse_ipv6_route_default,
				   "00000000000000000000000000000000 00 "
				   "00000000000000000000000000000000 00 "
				   "00000000000000000000000000000000 00000001 00000001 00000000 "
				   "00000001       lo", ifname, sizeof(ifname)), -ENOENT);
	/* Garbage, a truncated row, too many columns, non-hex address: nothing readable. */
	assert_int_equal(parse_str(np_parse_ipv6_route_default, "garbage\n", ifname,
				   sizeof(ifname)), -EINVAL);
	assert_int_equal(parse_str(np_parse_ipv6_route_default,
				   "00000000000000000000000000000000 00 "
				   "00000000000000000000000000000000 00 "
				   "00000000000000000000000000000000 00000001 00000001", ifname,
				   sizeof(ifname)), -EINVAL);
	assert_int_equal(parse_str(np_parse_ipv6_route_default,
				   "00000000000000000000000000000000 00 "
				   "00000000000000000000000000000000 00 "
				   "00000000000000000000000000000000 00000001 00000001 00000000 "
				   "00000001 eth0 extra", ifname, sizeof(ifname)), -EINVAL);
	assert_int_equal(parse_str(np_parse_ipv6_route_default,
				   "0000000000000000000000000000000g 00 "
				   "00000000000000000000000000000000 00 "
				   "00000000000000000000000000000000 00000001 00000001 00000000 "
				   "00000001 eth0", ifname, sizeof(ifname)), -EINVAL);
	assert_string_equal(ifname, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v4_real),
		cmocka_unit_test(test_v4_lowest_metric),
		cmocka_unit_test(test_v4_none),
		cmocka_unit_test(test_v4_negative_metric),
		cmocka_unit_test(test_v4_malformed),
		cmocka_unit_test(test_name_too_long),
		cmocka_unit_test(test_v6_real),
		cmocka_unit_test(test_v6_lowest_metric),
		cmocka_unit_test(test_v6_none_and_malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
