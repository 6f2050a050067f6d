// SPDX-License-Identifier: GPL-2.0-only
/* A veth's peer in another namespace, from recorded replies (tests/fixtures/netlink/README.md):
 * IFLA_LINK_NETNSID and IFLA_IFNAME of the veth, the peer asked by ifindex in its own
 * namespace (IFLA_TARGET_NETNSID), and RTM_GETNSID's answers (assigned, not assigned). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "fixture_load.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/net_namespace.h>
#include <linux/rtnetlink.h>

#include "rtnl.h"
#include "snapshot.h"
#include "rtnl_fixture.h"

/* va in namespace a, its peer vb in namespace b, which a numbers 0. */
static void test_veth_names_its_peer_namespace(void **state)
{
	struct np_rtnl_stream st;
	struct np_rtnl r;

	(void)state;
	assert_int_equal(parse_file("rtnl_link_veth_nsid.bin", 0, &r, &st), 0);
	assert_string_equal(r.ifname, "va");
	assert_string_equal(r.kind, "veth");
	assert_true(r.link_other_netns);
	assert_int_equal(r.link_netnsid, 0);
	/* The peer's ifindex is 2 in b, and va's own is 2 in a: the same number. */
	assert_int_equal(r.link, 2);
	assert_int_equal(st.ifindex, 2);
	np_rtnl_free(&r);
}

/* The peer asked in b (from a, IFLA_TARGET_NETNSID 0): vb with its smaller MTU. */
static void test_peer_asked_in_its_namespace(void **state)
{
	struct np_rtnl_stream st;
	struct np_rtnl r;

	(void)state;
	assert_int_equal(parse_file("rtnl_link_peer.bin", 0, &r, &st), 0);
	assert_true(st.got_link);
	assert_int_equal(st.ifindex, 2);
	assert_string_equal(r.ifname, "vb");
	assert_int_equal(r.mtu, 1000);
	assert_string_equal(r.kind, "veth");
	assert_int_equal(r.stats64.rx_dropped, 0);
	np_rtnl_free(&r);

	/* No ifindex 77 there: the kernel's ENODEV, nothing named. */
	assert_int_equal(parse_file("rtnl_link_peer_enodev.bin", 0, &r, &st), -ENODEV);
	assert_false(st.got_link);
	assert_string_equal(r.ifname, "");
	np_rtnl_free(&r);
}

static void test_nsid_replies(void **state)
{
	struct np_rtnl_stream st;
	struct np_rtnl r;

	(void)state;
	assert_int_equal(parse_file("rtnl_nsid_peer.bin", 0, &r, &st), 0);
	assert_true(st.got_nsid);
	assert_int_equal(st.nsid, 0);
	assert_true(st.done);
	np_rtnl_free(&r);
	/* A namespace a has never numbered: NETNSA_NSID_NOT_ASSIGNED. */
	assert_int_equal(parse_file("rtnl_nsid_unassigned.bin", 0, &r, &st), 0);
	assert_true(st.got_nsid);
	assert_int_equal(st.nsid, -1);
	np_rtnl_free(&r);
}

static void test_nsid_malformed(void **state)
{
	size_t len;
	unsigned char *b = load("rtnl_nsid_peer.bin", &len);
	struct nlmsghdr *h = (struct nlmsghdr *)b;
	int nsid = 5;

	(void)state;
	/* Shorter than it claims. */
	assert_int_equal(np_rtnl_parse_nsid(h, len - 8, &nsid), -EINVAL);
	/* Without its attribute: the header alone. */
	h->nlmsg_len = NLMSG_LENGTH(sizeof(struct rtgenmsg));
	assert_int_equal(np_rtnl_parse_nsid(h, len, &nsid), -EBADMSG);
	assert_int_equal(nsid, -1);
	/* Another message type. */
	h->nlmsg_type = RTM_NEWLINK;
	assert_int_equal(np_rtnl_parse_nsid(h, len, &nsid), -EINVAL);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_veth_names_its_peer_namespace),
		cmocka_unit_test(test_peer_asked_in_its_namespace),
		cmocka_unit_test(test_nsid_replies),
		cmocka_unit_test(test_nsid_malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
