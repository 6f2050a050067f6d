// SPDX-License-Identifier: GPL-2.0-only
/*
 * The recorder's counter frames (snapshot_counters.h): a snapshot's counters encoded, applied
 * to another snapshot with other counters and another shape (CPUs, queues), come back exactly,
 * checked field by field against the model (never by the encoder alone); what a frame lacks
 * becomes absent; hostile names are ignored within bounds; the configuration's digest follows
 * the settings and never a counter. Hostile names, the digest and real trees: the _edge file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "snapcnt_fixture.h"

static void test_round_trip(void **state)
{
	struct np_snapshot a, b;
	struct frame f, g;
	uint64_t digest;

	(void)state;
	build_a(&a);
	build_b(&b);
	digest = np_snapshot_config_digest(&b, 0);
	encode(&a, &f);
	apply(&b, &f);
	eq_counters(&a, &b);
	/* A socket B had not listed gets its identity from the frame, its owner unknown. */
	assert_int_equal(b.socks.udp.e[0].id.pid, -1);
	/* Every source read stays read. */
	for (int i = 0; i < NP_SRC__COUNT; i++)
		assert_int_equal(np_srcp(&b, i)->status, NP_SRC_OK);
	/* The configuration is B's, untouched. */
	assert_int_equal(b.eth.rings.rx, 4096);
	assert_true(np_snapshot_config_digest(&b, 0) == digest);
	/* encode -> apply -> encode: the same names and values, in the same order. */
	encode(&b, &g);
	assert_int_equal(f.c.n, g.c.n);
	assert_int_equal(f.c.names_len, g.c.names_len);
	assert_memory_equal(f.c.names, g.c.names, f.c.names_len);
	assert_memory_equal(f.c.v, g.c.v, f.c.n * sizeof(uint64_t));
	frame_free(&f);
	frame_free(&g);
	np_snapshot_free(&a);
	np_snapshot_free(&b);
}

/* What the frame lacks is absent, never the configuration's moment's value. */
static void test_missing_is_absent(void **state)
{
	struct np_snapshot a, b;
	struct frame f;
	size_t k = 0;

	(void)state;
	build_a(&a);
	build_a(&b);
	/* Drop one name from the frame: that counter alone goes NP_NA. */
	encode(&a, &f);
	for (size_t i = 0; i < f.c.n; i++)
		if (strcmp(f.names[i], "eth0/ls/rx_dropped") && strcmp(f.names[i], "sn/1/drop") &&
		    strcmp(f.names[i], "mib/UdpRcvbufErrors")) {
			f.names[k] = f.names[i];
			f.c.v[k++] = f.c.v[i];
		}
	assert_int_equal(k, f.c.n - 3);
	assert_int_equal(np_snapcnt_apply(&b, f.names, f.c.v, k), 0);
	assert_true(b.dev.stats.rx_dropped == NP_NA);
	assert_true(b.dev.stats.rx_packets == a.dev.stats.rx_packets);
	assert_true(b.hs->softnet.rows[1].dropped == NP_NA);
	assert_true(b.hs->softnet.rows[1].processed == a.hs->softnet.rows[1].processed);
	assert_true(np_mib(&b, "UdpRcvbufErrors") == NP_NA);
	assert_true(np_mib(&b, "TcpExtListenOverflows") == 17);
	frame_free(&f);

	/* A device of a sample of several (a device stack, --all) leaves the shared host snapshot
	 * to the first device's apply, which takes the frame once for all. */
	assert_int_equal(np_snapcnt_apply_dev(&b, NULL, NULL, 0), 0);
	assert_int_equal(b.hs->softnet.n, 3);
	assert_true(np_mib(&b, "TcpExtListenOverflows") == 17);
	assert_true(b.dev.stats.rx_packets == NP_NA);
	np_srcp(&b, NP_SRC_INTERRUPTS)->status = NP_SRC_OK;
	np_srcp(&b, NP_SRC_ETHTOOL_STATS)->status = NP_SRC_OK;
	np_srcp(&b, NP_SRC_DRIVER_STATS)->status = NP_SRC_OK;
	np_srcp(&b, NP_SRC_QSTATS)->status = NP_SRC_OK;
	np_srcp(&b, NP_SRC_SOCK_DIAG)->status = NP_SRC_OK;

	/* An empty frame: every counter absent, the sources that were read say why. */
	assert_int_equal(np_snapcnt_apply(&b, NULL, NULL, 0), 0);
	assert_int_equal(b.hs->softnet.n, 0);
	assert_int_equal(b.hs->softirqs.n, 0);
	assert_int_equal(b.hs->mib.n, 0);
	assert_int_equal(b.hs->conntrack.n, 0);
	assert_true(b.hs->sockstat.udp_mem == NP_NA);
	assert_true(b.hs->mem.mem_available == NP_NA);
	assert_true(gauge(&b) == NP_NA);
	assert_true(b.dev.stats.rx_packets == NP_NA);
	assert_false(b.rtnl.has_stats64);
	assert_true(b.dev.carrier_changes == NP_NA);
	assert_int_equal(b.irqs.n, 2);	/* the lines are configuration */
	assert_true(b.irqs.lines[0].total == NP_NA);
	assert_int_equal(b.irqs.lines[0].ncount, 0);
	assert_int_equal(b.eth.drv_stats.n, 0);
	assert_int_equal(b.eth.nqstats, 0);
	assert_int_equal(b.rtnl.nqdisc, 2);
	assert_true(b.rtnl.qdiscs[1].drops == NP_NA);
	assert_true(b.eth.pause.rx_frames == NP_NA);
	assert_true(b.pcie.aer_correctable == NP_NA);
	assert_int_equal(b.socks.udp.n, 0);
	assert_int_equal(np_srcp(&b, NP_SRC_SOFTNET)->status, NP_SRC_ABSENT);
	assert_int_equal(np_srcp(&b, NP_SRC_SNMP)->status, NP_SRC_ABSENT);
	assert_int_equal(np_srcp(&b, NP_SRC_QSTATS)->status, NP_SRC_ABSENT);
	assert_int_equal(np_srcp(&b, NP_SRC_SOCK_DIAG)->status, NP_SRC_ABSENT);
	assert_string_equal(np_srcp(&b, NP_SRC_SOFTNET)->detail, "not in the recorded frame");
	/* ... and the settings stay. */
	assert_int_equal(b.eth.rings.rx, 1024);
	assert_int_equal(b.dev.mtu, 1500);
	np_snapshot_free(&a);
	np_snapshot_free(&b);
}

/* The longest device name, the widest ids: every name whole. */
static void test_long_names(void **state)
{
	struct np_snapshot a, b;
	struct frame f;

	(void)state;
	build_a(&a);
	build_b(&b);
	snprintf(a.dev.name, sizeof(a.dev.name), "abcdefghijklmno");
	snprintf(b.dev.name, sizeof(b.dev.name), "abcdefghijklmno");
	a.rtnl.qdiscs[1].handle = b.rtnl.qdiscs[1].handle = 0xfffffff0;
	a.rtnl.qdiscs[1].parent = b.rtnl.qdiscs[1].parent = 0xfffffff1;
	a.irqs.lines[1].irq = b.irqs.lines[1].irq = 4294967295u;
	a.socks.udp.e[1].id.inode = 4294967295u;
	a.socks.udp.e[1].id.sport = 65535;
	a.eth.qstats[0].queue = 4095;
	encode(&a, &f);
	apply(&b, &f);
	eq_counters(&a, &b);
	frame_free(&f);
	np_snapshot_free(&a);
	np_snapshot_free(&b);
}

/* A section read but empty (no IRQ line, a driver without statistics) is no missing section. */
static void test_empty_section_read(void **state)
{
	struct np_snapshot a, b;
	struct frame f;

	(void)state;
	build_a(&a);
	build_b(&b);
	np_counters_free(&a.eth.drv_stats);
	a.eth.nqstats = 0;
	a.hs->softirqs.n = 0;
	encode(&a, &f);
	apply(&b, &f);
	assert_int_equal(b.eth.drv_stats.n, 0);
	assert_int_equal(b.eth.nqstats, 0);
	assert_int_equal(b.hs->softirqs.n, 0);
	assert_int_equal(np_srcp(&b, NP_SRC_DRIVER_STATS)->status, NP_SRC_OK);
	assert_int_equal(np_srcp(&b, NP_SRC_QSTATS)->status, NP_SRC_OK);
	assert_int_equal(np_srcp(&b, NP_SRC_SOFTIRQS)->status, NP_SRC_OK);
	frame_free(&f);
	/* A source that was not read writes no marker: nothing to say absent either. */
	np_srcp(&a, NP_SRC_DRIVER_STATS)->status = NP_SRC_UNSUPPORTED;
	np_srcp(&b, NP_SRC_DRIVER_STATS)->status = NP_SRC_UNSUPPORTED;
	encode(&a, &f);
	apply(&b, &f);
	assert_int_equal(np_srcp(&b, NP_SRC_DRIVER_STATS)->status, NP_SRC_UNSUPPORTED);
	frame_free(&f);
	np_snapshot_free(&a);
	np_snapshot_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_missing_is_absent),
		cmocka_unit_test(test_long_names),
		cmocka_unit_test(test_empty_section_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
