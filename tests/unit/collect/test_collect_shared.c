// SPDX-License-Identifier: GPL-2.0-only
/*
 * The pieces doctor --all stands on, over temporary --root trees: a device's run that points
 * at the sample's host snapshot reads none of it again (the tree changes between the two runs
 * and that run still sees the first read), reads its own device's key, and frees nothing of
 * the sample's (ASan would catch a double free); and which busy interfaces --all keeps
 * when there are more than it holds: physical NICs first, then by name, the rest counted.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "tree_put.h"

#include "collect.h"
#include "ctx.h"

static int setup(void **state)
{
	*state = tree_new("/tmp/np-shared-XXXXXX");
	return *state ? 0 : -1;
}

static int teardown(void **state)
{
	return tree_free(*state);
}

static void iface(const char *root, const char *name, bool physical, const char *rx)
{
	char rel[128];

	snprintf(rel, sizeof(rel), "sys/class/net/%s/operstate", name);
	tree_put(root, rel, "up\n");
	snprintf(rel, sizeof(rel), "sys/class/net/%s/statistics/rx_packets", name);
	tree_put(root, rel, rx);
	if (physical) {
		snprintf(rel, sizeof(rel), "sys/class/net/%s/device/vendor", name);
		tree_put(root, rel, "0x8086\n");
	}
}

static void host_files(const char *root, const char *processed, const char *backlog)
{
	char row[128];

	snprintf(row, sizeof(row), "%s 00000000 00000000 0 0 0 0 0 0 0 0 0 00000000\n", processed);
	tree_put(root, "proc/net/softnet_stat", row);
	tree_put(root, "proc/sys/net/core/netdev_max_backlog", backlog);
	tree_put(root, "proc/net/snmp", "Ip: InReceives\nIp: 5\n");
}

static void test_host_read_once(void **state)
{
	const char *root = *state;
	struct np_snapshot a, b, c;
	struct np_ctx ctx;
	bool ok;

	iface(root, "eth0", true, "1\n");
	iface(root, "eth1", true, "1\n");
	tree_put(root, "proc/sys/net/ipv4/conf/eth0/rp_filter", "1\n");
	tree_put(root, "proc/sys/net/ipv4/conf/eth1/rp_filter", "2\n");
	host_files(root, "00000010", "1000\n");
	assert_int_equal(np_ctx_open(&ctx, root), 0);
	assert_int_equal(np_collect(&ctx, "eth0", NULL, &a), 0);
	/* The host changes before the second device is read: the second run must not see it. */
	host_files(root, "00000020", "2000\n");
	assert_int_equal(np_collect_device(&ctx, "eth1", &b, a.hs), 0);
	assert_int_equal(np_collect_device(&ctx, "eth1", &c, NULL), 0);	/* the control */
	np_ctx_close(&ctx);

	assert_ptr_equal(a.hs, &a.own_hs);
	assert_ptr_equal(b.hs, a.hs);	/* the sample's host snapshot, not a copy */
	assert_ptr_equal(c.hs, &c.own_hs);
	/* The very arrays, not copies: memory O(CPUs), not O(devices x CPUs). */
	assert_ptr_equal(b.hs->softnet.rows, a.hs->softnet.rows);
	assert_ptr_equal(b.hs->sysctl.e, a.hs->sysctl.e);
	assert_ptr_equal(b.hs->mib.e, a.hs->mib.e);
	assert_int_equal(b.hs->softnet.rows[0].processed, 0x10);
	assert_int_equal(c.hs->softnet.rows[0].processed, 0x20);
	assert_int_equal(np_sysctl_int(&b, NP_SYSCTL_NETDEV_MAX_BACKLOG, 0, &ok), 1000);
	assert_int_equal(np_sysctl_int(&c, NP_SYSCTL_NETDEV_MAX_BACKLOG, 0, &ok), 2000);
	assert_int_equal(np_srcp(&b, NP_SRC_SOFTNET)->status, np_srcp(&a, NP_SRC_SOFTNET)->status);
	assert_int_equal(np_srcp(&b, NP_SRC_SYSCTL)->status, np_srcp(&c, NP_SRC_SYSCTL)->status);
	assert_string_equal(np_srcp(&b, NP_SRC_SYSCTL)->detail, np_srcp(&c, NP_SRC_SYSCTL)->detail);
	/* Each its own device's key, in its own table. */
	assert_int_equal(np_sysctl_dev_int(&a, NP_SYSCTL_DEV_RP_FILTER_FMT, &ok), 1);
	assert_int_equal(np_sysctl_dev_int(&b, NP_SYSCTL_DEV_RP_FILTER_FMT, &ok), 2);
	assert_true(ok);
	assert_null(np_sysctl_find_key(&b, "net.ipv4.conf.eth0.rp_filter"));
	assert_string_equal(b.ifname, "eth1");

	/* The second run first; freeing it leaves the sample's host snapshot alone. */
	np_snapshot_free(&b);
	assert_int_equal(a.hs->softnet.rows[0].processed, 0x10);
	np_snapshot_free(&c);
	np_snapshot_free(&a);
}

/* A sample's device snapshot neither clears nor frees own_hs: it holds whatever was there
 * (here 0xA5 bytes, pointers included, that a free would trip over) and is never read. */
static void test_sample_leaves_own_hs(void **state)
{
	const char *root = *state;
	struct np_snapshot a, *b = malloc(sizeof(*b));
	struct np_host_snap junk;
	struct np_ctx ctx;
	bool ok;

	assert_non_null(b);
	iface(root, "eth0", true, "1\n");
	iface(root, "eth1", true, "1\n");
	tree_put(root, "proc/sys/net/ipv4/conf/eth1/rp_filter", "2\n");
	host_files(root, "00000010", "1000\n");
	assert_int_equal(np_ctx_open(&ctx, root), 0);
	assert_int_equal(np_collect(&ctx, "eth0", NULL, &a), 0);
	memset(b, 0xA5, sizeof(*b));
	memset(&junk, 0xA5, sizeof(junk));
	assert_int_equal(np_collect_device(&ctx, "eth1", b, a.hs), 0);
	np_ctx_close(&ctx);

	assert_ptr_equal(b->hs, a.hs);
	assert_memory_equal(&b->own_hs, &junk, sizeof(junk));
	/* Everything else reads as a cleared snapshot's would. */
	assert_int_equal(b->irqs.n, 0);
	assert_int_equal(b->socks.listen.n, 0);
	assert_int_equal(np_sysctl_dev_int(b, NP_SYSCTL_DEV_RP_FILTER_FMT, &ok), 2);
	assert_true(ok);
	assert_int_equal(np_sysctl_int(b, NP_SYSCTL_NETDEV_MAX_BACKLOG, 0, &ok), 1000);
	np_snapshot_release(b);
	assert_memory_equal(&b->own_hs, &junk, sizeof(junk));
	/* Freed into a lone snapshot: its own host snapshot, initialised. */
	np_snapshot_init(b);
	assert_ptr_equal(b->hs, &b->own_hs);
	assert_int_equal(b->own_hs.sysctl.n, 0);
	assert_null(b->own_hs.softnet.rows);
	np_snapshot_free(b);
	free(b);
	np_snapshot_free(&a);
}

static void test_busy_order(void **state)
{
	const char *root = *state;
	char names[32][IF_NAMESIZE], rel[64], name[IF_NAMESIZE];
	struct np_ctx ctx;
	size_t n, more;

	/* 40 busy veths, two busy NICs whose names sort last, one idle NIC, a bond member and
	 * loopback: 42 candidates for 32 places. */
	for (int i = 0; i < 40; i++) {
		snprintf(name, sizeof(name), "veth%02d", i);
		iface(root, name, false, "5\n");
	}
	iface(root, "zeth1", true, "5\n");
	iface(root, "zeth0", true, "5\n");
	iface(root, "yidle", true, "0\n");
	iface(root, "xmember", true, "5\n");
	tree_put(root, "sys/class/net/xmember/master/ifindex", "9\n");
	iface(root, "lo", false, "5\n");
	assert_int_equal(np_ctx_open(&ctx, root), 0);
	n = np_collect_busy_ifaces(&ctx, names, 32, &more);
	np_ctx_close(&ctx);

	assert_int_equal(n, 32);
	assert_int_equal(more, 10);
	assert_string_equal(names[0], "zeth0");
	assert_string_equal(names[1], "zeth1");
	for (int i = 0; i < 30; i++) {
		snprintf(rel, sizeof(rel), "veth%02d", i);
		assert_string_equal(names[2 + i], rel);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_host_read_once, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sample_leaves_own_hs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_busy_order, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
