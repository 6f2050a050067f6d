// SPDX-License-Identifier: GPL-2.0-only
/*
 * The recorder's counter frames at their edges: hostile names ignored within bounds, the
 * configuration's digest that follows settings and never a counter, and frames of a real
 * fixture tree and capture applied back exactly.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "snapcnt_fixture.h"

/* Unknown and hostile names: ignored, nothing allocated beyond the bounds, no crash. */
static void test_hostile_names(void **state)
{
	static const char *const bad[] = {
		"", "/", "//", "sn", "sn/", "sn/3", "sn/3/", "sn/3/nope", "eth0/q/1/nope", "sn/-1/drop", "sn/ 3/drop",
		"sn/4294967296/drop", "sn/18446744073709551616/drop", "sn/8192/drop",
		"sn/99999999999999999999999999/drop", "si/8192/rx", "si/1/xx", "mib/", "mib/a/b",
		"mib/0123456789012345678901234567890123456789012345678901234567890123456789",
		"eth0", "eth0/", "eth0/ls/nope", "eth0/q/4096/rx_packets", "eth0/q/-1/rx_packets",
		"eth0/q/99999999999999999999/rx_packets", "eth0/irq/45/8192",
		"eth0/irq/4294967296/0", "eth0/irq/47/0", "eth0/irq/45/x", "eth0/irq/col/8192", "eth0/irq/col/99999999999",
		"eth0/irq/col/-1", "eth0/irq/col/", "eth0/qd/zz/drops",
		"eth0/qd/1ffffffff:0/drops", "eth0/sk/u/1:70000/drops", "eth0/sk/u/x/drops",
		"eth0/sk/st/13", "eth0/sk/st/999", "eth0/sk/l/4294967296:1/drops", "eth1/ls/rx_packets",
		"sysctl/net.core.netdev_max_backlog", "unknown/thing", "ss/nope", NULL,
	};
	size_t n = sizeof(bad) / sizeof(bad[0]);
	const char **names = calloc(n + 40, sizeof(*names));
	uint64_t *v = calloc(n + 40, sizeof(*v));
	char sock[40][48];
	struct np_snapshot b;

	(void)state;
	assert_non_null(names);
	assert_non_null(v);
	memcpy(names, bad, n * sizeof(*names));
	/* 40 UDP sockets: the list keeps NP_SOCK_TOP. */
	for (int i = 0; i < 40; i++) {
		snprintf(sock[i], sizeof(sock[i]), "eth0/sk/u/%d:%d/drops", 100 + i, 1000 + i);
		names[n + i] = sock[i];
		v[n + i] = 1;
	}
	build_b(&b);
	assert_int_equal(np_snapcnt_apply(&b, names, v, n + 40), 0);
	assert_int_equal(b.hs->softnet.n, 0);
	assert_int_equal(b.hs->softirqs.n, 0);
	assert_int_equal(b.hs->mib.n, 0);
	assert_int_equal(b.eth.nqstats, 0);
	assert_int_equal(b.irqs.ncols, 0);
	assert_true(b.dev.stats.rx_packets == NP_NA);
	assert_int_equal(b.socks.udp.n, NP_SOCK_TOP);
	assert_true(b.socks.tcp_state[12] == NP_NA);
	assert_string_equal(np_sysctl_find_key(&b, "net.core.netdev_max_backlog")->raw, "1000");

	/* The bounds themselves are accepted. */
	names[0] = "sn/8191/drop";
	names[1] = "eth0/q/4095/rx_hw_drops";
	names[2] = "eth0/irq/45/8191";
	names[3] = "eth0/sk/st/12";
	v[0] = 5;
	assert_int_equal(np_snapcnt_apply(&b, names, v, 4), 0);
	assert_int_equal(b.hs->softnet.n, 1);
	assert_int_equal(b.hs->softnet.rows[0].cpu, 8191);
	assert_true(b.hs->softnet.rows[0].dropped == 5);
	assert_true(b.hs->softnet.rows[0].processed == NP_NA);
	assert_int_equal(b.eth.nqstats, 1);
	assert_int_equal(b.eth.qstats[0].queue, 4095);
	assert_int_equal(b.irqs.ncols, 1);
	assert_int_equal(b.irqs.col_cpu[0], 8191);
	assert_true(b.socks.tcp_state[12] == 0);
	np_snapshot_free(&b);
	free(names);
	free(v);
}

/* The digest follows the settings, never the counters. */
static void test_digest(void **state)
{
	struct np_snapshot a, b;
	struct frame f;
	uint64_t d;

	(void)state;
	build_a(&a);
	d = np_snapshot_config_digest(&a, 0);
	assert_true(np_snapshot_config_digest(&a, 0) == d);
	assert_true(np_snapshot_config_digest(&a, 1) != d);
	a.eth.rings.rx = 2048;
	assert_true(np_snapshot_config_digest(&a, 0) != d);
	a.eth.rings.rx = 1024;
	assert_int_equal(np_parse_sysctl_value("2000", &a.hs->sysctl.e[0]), 0);
	assert_true(np_snapshot_config_digest(&a, 0) != d);
	assert_int_equal(np_parse_sysctl_value("1000", &a.hs->sysctl.e[0]), 0);
	a.irqs.lines[1].has_affinity = true;
	np_cpuset_set(&a.irqs.lines[1].affinity, 3);
	assert_true(np_snapshot_config_digest(&a, 0) != d);
	a.irqs.lines[1].has_affinity = false;
	snprintf(a.rtnl.qdiscs[1].kind, sizeof(a.rtnl.qdiscs[1].kind), "fq_codel");
	assert_true(np_snapshot_config_digest(&a, 0) != d);
	snprintf(a.rtnl.qdiscs[1].kind, sizeof(a.rtnl.qdiscs[1].kind), "fq");
	assert_true(np_snapshot_config_digest(&a, 0) == d);

	/* Every counter of A replaced by other values: same digest. */
	build_a(&b);
	for (size_t i = 0; i < b.hs->softnet.n; i++)
		b.hs->softnet.rows[i].dropped += 1000;
	b.hs->softirqs.net_rx[0] = 1;
	b.hs->mib.e[0].value = 31337;
	b.hs->conntrack.e[0].value = 4;
	b.hs->sockstat.tcp_mem = 1;
	b.hs->mem.mem_available = 1;
	set_irqs(&b, (const int[]){ 0, 1, 3 }, 3, 123456);
	for (size_t i = 0; i < np_link_stats_nfields; i++)
		*np_link_stats_at(&b.dev.stats, i) = 77;
	b.rtnl.stats64.rx_dropped = 5;
	b.eth.drv_stats.e[0].value = 8;
	b.eth.std_stats.e[0].value = 8;
	b.eth.qstats[1].rx_hw_drops = 999;
	b.rtnl.qdiscs[0].drops = 12345;
	b.dev.carrier_changes = 99;
	b.eth.pause.rx_frames = 5;
	b.pcie.aer_fatal = 1;
	b.socks.udp.e[0].drops = 5000;
	b.socks.listen_drops = 6;
	assert_int_equal(np_parse_sysctl_value("123456", &b.hs->sysctl.e[1]), 0);
	encode(&b, &f);
	apply(&a, &f);
	eq_counters(&b, &a);
	assert_true(np_snapshot_config_digest(&a, 0) == d);
	frame_free(&f);
	np_snapshot_free(&a);
	np_snapshot_free(&b);
}

/* Snapshots the collectors read from a fixture tree: the "after" moment's counters applied
 * to the "before" one's snapshot come back whole. */
static void collect_tree(const char *which, struct np_snapshot *s)
{
	char root[1024];
	struct np_ctx ctx;

	snprintf(root, sizeof(root), "%s/trees/x710-server/%s", NP_FIXTURES, which);
	assert_int_equal(np_ctx_open(&ctx, root), 0);
	np_snapshot_init(s);
	np_collect(&ctx, "eth0", NULL, s);
	np_ctx_close(&ctx);
}

static void test_fixture_tree(void **state)
{
	struct np_snapshot a, b;
	struct frame f, g;

	(void)state;
	collect_tree("after", &a);
	collect_tree("before", &b);
	assert_true(a.hs->softnet.n > 0);
	assert_true(a.hs->mib.n > 50);
	assert_true(a.irqs.n > 0);
	encode(&a, &f);
	apply(&b, &f);
	eq_counters(&a, &b);
	encode(&b, &g);
	assert_int_equal(f.c.n, g.c.n);
	assert_memory_equal(f.c.names, g.c.names, f.c.names_len);
	assert_memory_equal(f.c.v, g.c.v, f.c.n * sizeof(uint64_t));
	frame_free(&f);
	frame_free(&g);
	np_snapshot_free(&a);
	np_snapshot_free(&b);
}

/* A netpath capture replays the NIC side too: stats64, qdisc statistics, qstats. */
static void test_capture_fields(void **state)
{
	struct np_snapshot a, b;
	struct np_ctx ctx;
	struct np_root r;
	struct frame f;
	char err[256];
	bool l64 = false, qd = false;

	(void)state;
	assert_int_equal(np_root_resolve(&r, NP_FIXTURES "/capture/veth-tbf.cap", err,
					 sizeof(err)), 0);
	assert_int_equal(np_root_ctx_open(&ctx, &r, r.dir), 0);
	np_snapshot_init(&a);
	assert_int_equal(np_collect(&ctx, "va", NULL, &a), 0);
	np_root_ctx_close(&ctx);
	assert_int_equal(np_root_ctx_open(&ctx, &r, r.before), 0);
	np_snapshot_init(&b);
	assert_int_equal(np_collect(&ctx, "va", NULL, &b), 0);
	np_root_ctx_close(&ctx);
	np_root_release(&r);
	encode(&a, &f);
	for (size_t i = 0; i < f.c.n; i++) {
		l64 |= strncmp(f.names[i], "va/l64/", 7) == 0;
		qd |= strncmp(f.names[i], "va/qd/", 6) == 0;
	}
	assert_true(l64 && qd);
	apply(&b, &f);
	eq_counters(&a, &b);
	frame_free(&f);
	np_snapshot_free(&a);
	np_snapshot_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hostile_names),
		cmocka_unit_test(test_digest),
		cmocka_unit_test(test_fixture_tree),
		cmocka_unit_test(test_capture_fields),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
