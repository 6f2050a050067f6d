// SPDX-License-Identifier: GPL-2.0-only
/* Filters (--host, --port, --proto, --by) as the kernel side gets them, and flows as people read
 * them: IPv4, IPv6 in brackets, ICMP type and code instead of ports, VLAN tags, non-IP. */
#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "trace_flow.h"

static void test_host(void **state)
{
	struct np_trace_filter f = { 0 };
	uint8_t want[16] = { 0 };
	char buf[96];

	(void)state;
	/* Host bits beyond the prefix are cleared: the kernel compares masked bytes. */
	assert_int_equal(np_trace_filter_host("198.18.7.9/15", &f), 0);
	assert_true(f.host);
	assert_int_equal(f.family, NP_FLOW_IPV4);
	assert_int_equal(f.prefix, 15);
	inet_pton(AF_INET, "198.18.0.0", want);
	assert_memory_equal(f.addr, want, 16);
	assert_int_equal(f.mask[0], 0xff);
	assert_int_equal(f.mask[1], 0xfe);
	assert_int_equal(f.mask[2], 0);
	assert_string_equal(np_trace_filter_text(&f, buf, sizeof(buf)), "host 198.18.0.0/15");
	/* No prefix: the whole address. */
	assert_int_equal(np_trace_filter_host("198.18.0.3", &f), 0);
	assert_int_equal(f.prefix, 32);
	assert_int_equal(f.mask[3], 0xff);
	assert_int_equal(f.mask[4], 0);
	/* IPv6, with a prefix inside a byte. */
	assert_int_equal(np_trace_filter_host("2001:db8:ffff::1/36", &f), 0);
	assert_int_equal(f.family, NP_FLOW_IPV6);
	assert_int_equal(f.mask[4], 0xf0);
	assert_int_equal(f.addr[4], 0xf0);
	assert_int_equal(f.addr[15], 0);
	assert_int_equal(np_trace_filter_host("::1", &f), 0);
	assert_int_equal(f.prefix, 128);
	/* Bad input. */
	assert_int_equal(np_trace_filter_host("198.18.0.1/33", &f), -EINVAL);
	assert_int_equal(np_trace_filter_host("2001:db8::/129", &f), -EINVAL);
	assert_int_equal(np_trace_filter_host("198.18.0.1/", &f), -EINVAL);
	assert_int_equal(np_trace_filter_host("198.18.0.1/-1", &f), -EINVAL);
	assert_int_equal(np_trace_filter_host("/24", &f), -EINVAL);
	assert_int_equal(np_trace_filter_host("host.example", &f), -EINVAL);
	assert_int_equal(np_trace_filter_host("", &f), -EINVAL);
	assert_int_equal(np_trace_filter_host(NULL, &f), -EINVAL);
}

static void test_port_proto_by(void **state)
{
	struct np_trace_filter f = { 0 };
	enum np_flow_by by = NP_BY_FLOW;
	char buf[96];

	(void)state;
	assert_int_equal(np_trace_filter_port("9001", &f), 0);
	assert_true(f.port_on);
	assert_int_equal(f.port, 9001);
	assert_int_equal(np_trace_filter_port("0", &f), -EINVAL);
	assert_int_equal(np_trace_filter_port("65536", &f), -EINVAL);
	assert_int_equal(np_trace_filter_port("53x", &f), -EINVAL);
	assert_int_equal(np_trace_filter_port("-1", &f), -EINVAL);
	assert_int_equal(np_trace_filter_proto("UDP", &f), 0);
	assert_int_equal(f.proto, 17);
	assert_int_equal(np_trace_filter_proto("icmp6", &f), 0);
	assert_int_equal(f.proto, 58);
	assert_int_equal(np_trace_filter_proto("132", &f), 0);
	assert_int_equal(f.proto, 132);
	assert_int_equal(np_trace_filter_proto("256", &f), -EINVAL);
	assert_int_equal(np_trace_filter_proto("quic", &f), -EINVAL);
	assert_string_equal(np_trace_filter_text(&f, buf, sizeof(buf)), "port 9001 proto sctp");
	assert_int_equal(np_trace_by_parse("src", &by), 0);
	assert_int_equal(by, NP_BY_SRC);
	assert_int_equal(np_trace_by_parse("port", &by), 0);
	assert_int_equal(by, NP_BY_PORT);
	assert_int_equal(np_trace_by_parse("5tuple", &by), -EINVAL);
	assert_string_equal(np_trace_by_name(NP_BY_DST), "dst");
}

static struct np_flow_key v4(const char *s, const char *d, uint8_t proto, uint16_t sp,
			     uint16_t dp)
{
	struct np_flow_key k = { .family = NP_FLOW_IPV4, .proto = proto, .sport = sp, .dport = dp };

	inet_pton(AF_INET, s, k.src);
	inet_pton(AF_INET, d, k.dst);
	return k;
}

static void test_format(void **state)
{
	struct np_flow_key k = v4("198.18.0.1", "198.18.0.2", 17, 40000, 9001);
	char buf[160];

	(void)state;
	assert_string_equal(np_flow_format(&k, NP_BY_FLOW, buf, sizeof(buf)),
			    "198.18.0.1:40000 > 198.18.0.2:9001 udp");
	assert_string_equal(np_flow_format(&k, NP_BY_PORT, buf, sizeof(buf)), "udp dport 9001");
	k.vlan = NP_FLOW_VLAN | 10;
	assert_string_equal(np_flow_format(&k, NP_BY_FLOW, buf, sizeof(buf)),
			    "vlan 10 198.18.0.1:40000 > 198.18.0.2:9001 udp");
	/* VLAN 0 (priority tag) is still a tag. */
	k.vlan = NP_FLOW_VLAN;
	assert_non_null(strstr(np_flow_format(&k, NP_BY_FLOW, buf, sizeof(buf)), "vlan 0 "));
	/* --by src: the kernel zeroed the rest. */
	k = v4("198.18.0.3", "0.0.0.0", 0, 0, 0);
	assert_string_equal(np_flow_format(&k, NP_BY_SRC, buf, sizeof(buf)), "src 198.18.0.3");
	assert_string_equal(np_flow_addr(&k, false, buf, sizeof(buf)), "");
	/* ICMP echo request: type and code, not ports. */
	k = v4("198.18.0.1", "198.18.0.2", 1, 8, 0);
	assert_true(np_flow_is_icmp(&k));
	assert_string_equal(np_flow_format(&k, NP_BY_FLOW, buf, sizeof(buf)),
			    "198.18.0.1 > 198.18.0.2 icmp type 8 code 0");
	assert_string_equal(np_flow_format(&k, NP_BY_PORT, buf, sizeof(buf)),
			    "icmp type 8 code 0");
	/* IPv6: brackets around addresses with ports; ICMPv6 is protocol 58 only in IPv6. */
	memset(&k, 0, sizeof(k));
	k.family = NP_FLOW_IPV6;
	k.proto = 6;
	k.sport = 443;
	k.dport = 51000;
	inet_pton(AF_INET6, "2001:db8::1", k.src);
	inet_pton(AF_INET6, "2001:db8::2", k.dst);
	assert_string_equal(np_flow_format(&k, NP_BY_FLOW, buf, sizeof(buf)),
			    "[2001:db8::1]:443 > [2001:db8::2]:51000 tcp");
	assert_string_equal(np_flow_format(&k, NP_BY_DST, buf, sizeof(buf)), "dst 2001:db8::2");
	k.proto = 58;
	k.sport = 135;
	k.dport = 0;
	assert_string_equal(np_flow_format(&k, NP_BY_FLOW, buf, sizeof(buf)),
			    "2001:db8::1 > 2001:db8::2 ipv6-icmp type 135 code 0");
	k = v4("198.18.0.1", "198.18.0.2", 58, 1, 2);
	assert_false(np_flow_is_icmp(&k));
	/* A fragment (no ports) and a protocol without a name. */
	k = v4("198.18.0.1", "198.18.0.2", 200, 0, 0);
	assert_string_equal(np_flow_format(&k, NP_BY_FLOW, buf, sizeof(buf)),
			    "198.18.0.1 > 198.18.0.2 proto 200");
	memset(&k, 0, sizeof(k));
	assert_string_equal(np_flow_format(&k, NP_BY_FLOW, buf, sizeof(buf)),
			    "non-IP or unreadable headers");
	/* Truncation is safe. */
	k = v4("198.18.0.1", "198.18.0.2", 17, 40000, 9001);
	assert_int_equal(strlen(np_flow_format(&k, NP_BY_FLOW, buf, 8)), 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_host),
		cmocka_unit_test(test_port_proto_by),
		cmocka_unit_test(test_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
