// SPDX-License-Identifier: GPL-2.0-only
/*
 * The loss ledger on every capture of a real machine we hold (tests/fixtures/real, the
 * sosreports, the vm-virtio pair of this project's own VM) and on the generated golden pairs:
 * never a negative remainder, never a number where the counters overlap (the boundary says
 * "not comparable" and why), and on a single capture only the boundaries whose counters all
 * start with the namespace (the MIB's) are taken, since boot.
 */
#include "golden.h"
#include "ledger.h"

#include <stdio.h>
#include <string.h>

static void sane(const struct np_ledger *l, bool single)
{
	assert_int_equal(l->n, 5);
	for (size_t i = 0; i < l->n; i++) {
		const struct np_ledger_line *b = &l->b[i];

		print_message("    %-20s %-14s %10.0f %10.1f/s  %s\n", b->boundary,
			      np_ledger_kind_name(b->kind), b->packets, b->rate, b->reason);
		assert_true(b->reason[0]);
		assert_true(b->packets >= 0 && b->rate >= 0);
		if (b->kind == NP_LEDGER_NOT_COMPARABLE)
			assert_true(b->packets == 0 && b->rate == 0 && !b->material);
		if (b->kind == NP_LEDGER_AT_MOST)
			assert_false(b->material);
		if (single) {
			assert_false(b->window);
			assert_false(b->material);
		}
	}
	if (single) {	/* device, host and namespace counters start apart: no since-boot sum */
		assert_int_equal(l->b[0].kind, NP_LEDGER_NOT_COMPARABLE);
		assert_int_equal(l->b[1].kind, NP_LEDGER_NOT_COMPARABLE);
		assert_contains(l->b[0].reason, "needs an interval");
		assert_contains(l->b[1].reason, "needs an interval");
	}
}

static void single(void **state, const char *dir, const char *ifname, struct np_ledger *l)
{
	struct golden *g = golden_run_single(state, dir, ifname);

	print_message("  %s %s\n", dir, ifname);
	np_ledger_build(&g->a, &g->fn, l);
	sane(l, true);
	golden_teardown(state);
}

static void test_real_single_captures(void **state)
{
	static const char *const caps[][2] = {
		{ "real/bigsys-480cpu-rhel6", "eth0" },
		{ "real/e1000e-single-msi-8cpu", "enp0s25" },
		{ "real/ena-3nics-x86-4cpu", "eth1" },
		{ "real/ena-arm64-graviton-8cpu", "eth0" },
		{ "real/eth2-1of8-queues-8cpu", "eth2" },
		{ "real/igb-kernel3.13-4cpu-all-on-cpu0", "eth0" },
		{ "real/intx-shared-ens3-1cpu-i686", "ens3" },
		{ "real/mlx5-12cpu-pinned", "enp1s0f0np0" },
		{ "real/rhel6-eth0-txrx-16cpu-spread", "eth0" },
		{ "real/sysstat-cpu6-offline", "enp6s0" },
		{ "real/virtio-kvm-4cpu", "eth0" },
		{ "real/xen-netfront-eth0-8cpu", "eth0" },
		{ "real/node-exporter-bonds", "dmz" },
		{ "sos/sos3.4-composite-e1000e", "eth0" },
	};
	struct np_ledger l;

	for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		single(state, caps[i][0], caps[i][1], &l);
		/* No IP counters in these: nothing to balance, and said so. */
		for (size_t k = 0; k < l.n; k++)
			assert_int_equal(l.b[k].kind, NP_LEDGER_NOT_COMPARABLE);
	}
}

/* The real sosreport (Debian 12 VM): the MIB balances since boot; IP delivered 11,887 and the
 * transports counted 11,885 (within the read skew); no UDP error without a cause. */
static void test_sos_debian12(void **state)
{
	struct np_ledger l;

	single(state, "sos/sos4.0-debian12-virtio", "eth0", &l);
	assert_int_equal(l.b[3].kind, NP_LEDGER_AT_MOST);
	assert_true(l.b[3].packets == 0);
	assert_int_equal(l.b[4].kind, NP_LEDGER_EXACT);
	assert_true(l.b[4].packets == 0);
	assert_int_equal(l.b[2].kind, NP_LEDGER_NOT_COMPARABLE);
}

/* node_exporter's /proc/net files (SOURCES.md): IPv4 from a busy host, snmp6 from an idle one.
 * TCP counted 599 segments more than IP delivered: within the skew, an upper bound of 0, not
 * -599. Udp6RcvbufErrors 9 beside Udp6InErrors 0 (files of different machines): udp-errors is
 * not comparable, never -9. */
static void test_node_exporter_proc_net(void **state)
{
	struct np_ledger l;

	single(state, "real/node-exporter-proc-net", "eth0", &l);
	assert_int_equal(l.b[3].kind, NP_LEDGER_AT_MOST);
	assert_true(l.b[3].packets == 0);
	assert_near(l.b[3].in, 57340175);
	assert_int_equal(l.b[4].kind, NP_LEDGER_NOT_COMPARABLE);
	assert_contains(l.b[4].reason, "9 packets below zero");
}

/* Pairs with an interval: the real vm-virtio capture and the generated trees. */
static void test_pairs(void **state)
{
	static const char *const trees[][2] = {
		{ "vm-virtio", "eth0" }, { "x710-server", "eth0" }, { "old-kernel-5.4", "eth0" },
		{ "arm-board", "enp1s0" }, { "lan-10g", "enp1s0f0" }, { "pop-a", "eth0" },
		{ "pop-b", "eth0" },
	};
	struct np_ledger l;

	for (size_t i = 0; i < sizeof(trees) / sizeof(trees[0]); i++) {
		struct golden *g = golden_run(state, trees[i][0], trees[i][1]);

		print_message("  %s %s (interval %.1f s)\n", trees[i][0], trees[i][1], g->a.dt);
		np_ledger_build(&g->a, &g->fn, &l);
		sane(&l, false);
		/* These captures predate /proc/net/dev in netpath's reads: who else fed IP is
		 * unknown, so the link-to-IP boundary is not taken. */
		assert_int_equal(l.b[1].kind, NP_LEDGER_NOT_COMPARABLE);
		golden_teardown(state);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_real_single_captures, golden_teardown),
		cmocka_unit_test_teardown(test_sos_debian12, golden_teardown),
		cmocka_unit_test_teardown(test_node_exporter_proc_net, golden_teardown),
		cmocka_unit_test_teardown(test_pairs, golden_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
