// SPDX-License-Identifier: GPL-2.0-only
/* Checks of stage "link" on synthetic snapshots. */
#include "synth.h"

#include <stdio.h>
#include <string.h>

static void test_half_duplex_flagged(void **state)
{
	struct np_snapshot s;
	struct synth_run run;

	(void)state;
	synth_init(&s, 1);
	snprintf(s.dev.duplex, sizeof(s.dev.duplex), "half");
	s.dev.speed_mbps = 100;
	synth_run(&run, "link.duplex", NULL, &s, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	assert_true(synth_has_ev(synth_first(&run), "duplex"));
	synth_run_free(&run);

	snprintf(s.dev.duplex, sizeof(s.dev.duplex), "full");
	synth_run(&run, "link.duplex", NULL, &s, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	assert_int_equal(synth_state(&run), NP_CHECK_PASSED);
	synth_run_free(&run);
	np_snapshot_free(&s);
}

/* sysfs says nothing (the collector stores its "unknown" as ""): the duplex ethtool's link
 * modes report decides. */
static void test_half_duplex_from_ethtool(void **state)
{
	static const char *const silent[] = { "" };
	struct np_snapshot s;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	for (size_t i = 0; i < sizeof(silent) / sizeof(silent[0]); i++) {
		synth_init(&s, 1);
		snprintf(s.dev.duplex, sizeof(s.dev.duplex), "%s", silent[i]);
		s.eth.link.duplex = 0;
		s.eth.link.speed_mbps = 100;
		synth_run(&run, "link.duplex", NULL, &s, NAN, NAN);
		assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
		f = synth_first(&run);
		assert_non_null(strstr(f->summary, "half duplex"));
		assert_null(strstr(f->summary, "speed unknown"));
		assert_true(synth_has_ev(f, "duplex_source"));
		synth_run_free(&run);

		/* Full duplex per ethtool, or ethtool silent too: nothing to say. */
		s.eth.link.duplex = 1;
		synth_run(&run, "link.duplex", NULL, &s, NAN, NAN);
		assert_int_equal(run.r.n, 0);
		synth_run_free(&run);
		s.eth.link.duplex = 0;
		np_srcp(&s, NP_SRC_ETHTOOL_LINKMODES)->status = NP_SRC_SKIPPED;
		synth_run(&run, "link.duplex", NULL, &s, NAN, NAN);
		assert_int_equal(run.r.n, 0);
		synth_run_free(&run);
		np_snapshot_free(&s);
	}

	/* sysfs "full" wins over a stale ethtool value. */
	synth_init(&s, 1);
	snprintf(s.dev.duplex, sizeof(s.dev.duplex), "full");
	s.eth.link.duplex = 0;
	synth_run(&run, "link.duplex", NULL, &s, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	np_snapshot_free(&s);
}

static void test_carrier_flap_during_sample(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;

	(void)state;
	synth_init(&p, 0);
	synth_init(&c, 1);
	p.dev.carrier_changes = 2;
	c.dev.carrier_changes = 4;
	synth_run(&run, "link.carrier-flaps", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
	synth_run_free(&run);

	/* Two changes since boot (the bring-up) and none now: nothing to say. */
	c.dev.carrier_changes = 2;
	synth_run(&run, "link.carrier-flaps", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);

	/* Many since boot without an interval: history, at most info. */
	c.dev.carrier_changes = 40;
	synth_run(&run, "link.carrier-flaps", NULL, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);

	/* Not reported: skipped, not passed. */
	c.dev.carrier_changes = NP_NA;
	synth_run(&run, "link.carrier-flaps", NULL, &c, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

/* No carrier: a NIC's cable and switch port, but a virtual device's own source of carrier
 * (a veth's peer, a TAP's process, a bridge's ports), never a cable it does not have. */
static void test_down_advice_by_kind(void **state)
{
	static const struct {
		const char *kind, *why, *fix;
	} kinds[] = {
		{ "", "cable, optic or switch port", "ethtool eth0" },
		{ "veth", "so the peer is down", "ip link set dev PEER up" },
		{ "tun", "holds it open", "owns it" },
		{ "bridge", "one of its ports is up", "ip link show master eth0" },
	};
	struct np_snapshot c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		synth_init(&c, 1);
		snprintf(c.dev.operstate, sizeof(c.dev.operstate), "down");
		c.dev.carrier = 0;
		c.dev.admin_up = 1;
		c.dev.has_device = !kinds[i].kind[0];
		c.dev.is_virtual = kinds[i].kind[0] ? 1 : 0;
		snprintf(c.rtnl.kind, sizeof(c.rtnl.kind), "%s", kinds[i].kind);
		synth_run(&run, "link.down", NULL, &c, NAN, NAN);
		assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
		f = synth_first(&run);
		if (!strstr(f->detail, kinds[i].why) || !strstr(f->remedy, kinds[i].fix))
			fail_msg("%s: %s / %s", kinds[i].kind, f->detail, f->remedy);
		if (kinds[i].kind[0])
			assert_null(strstr(f->remedy, "switch port"));
		synth_run_free(&run);
		np_snapshot_free(&c);
	}
}

/* An idle window is said (info), not passed in silence; traffic or no interval: nothing. */
static void test_idle_window(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;

	(void)state;
	synth_init(&p, 0);
	synth_init(&c, 2);
	p.dev.stats.rx_packets = c.dev.stats.rx_packets = 5000;
	synth_run(&run, "link.idle", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	assert_non_null(strstr(synth_first(&run)->summary, "no packet in the 2.0 s sample"));
	synth_run_free(&run);
	c.dev.stats.rx_packets = 5001;
	synth_run(&run, "link.idle", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	synth_run(&run, "link.idle", NULL, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

static void test_mtu_jumbo(void **state)
{
	struct np_snapshot s;
	struct synth_run run;

	(void)state;
	synth_init(&s, 0);
	s.dev.mtu = 1500;
	s.dev.speed_mbps = 25000;
	synth_run(&run, "link.mtu-jumbo", NULL, &s, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	assert_non_null(strstr(synth_first(&run)->remedy, "mtu 9000"));
	synth_run_free(&run);

	s.dev.speed_mbps = 1000;
	synth_run(&run, "link.mtu-jumbo", NULL, &s, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);

	s.dev.speed_mbps = 10000;
	s.dev.mtu = 9000;
	synth_run(&run, "link.mtu-jumbo", NULL, &s, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	np_snapshot_free(&s);
}

static void test_rx_errors_rates(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;

	(void)state;
	synth_init(&p, 0);
	synth_init(&c, 2);
	p.dev.stats.rx_crc_errors = 1000;
	c.dev.stats.rx_crc_errors = 1400;	/* 200/s over 2 s: above crit 100/s */
	p.dev.stats.rx_frame_errors = c.dev.stats.rx_frame_errors = 0;
	synth_run(&run, "link.rx-errors", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
	assert_true(synth_has_ev(synth_first(&run), "rx_crc_errors"));
	assert_true(synth_first(&run)->ev[0].sampled);
	synth_run_free(&run);

	c.dev.stats.rx_crc_errors = 1004;	/* 2/s: warning */
	synth_run(&run, "link.rx-errors", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	synth_run_free(&run);

	/* Since boot only: never critical. */
	c.dev.stats.rx_crc_errors = 1000000;
	synth_run(&run, "link.rx-errors", NULL, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);

	c.dev.stats.rx_crc_errors = 0;
	p.dev.stats.rx_crc_errors = 0;
	synth_run(&run, "link.rx-errors", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_half_duplex_flagged),
		cmocka_unit_test(test_half_duplex_from_ethtool),
		cmocka_unit_test(test_carrier_flap_during_sample),
		cmocka_unit_test(test_down_advice_by_kind),
		cmocka_unit_test(test_idle_window),
		cmocka_unit_test(test_mtu_jumbo),
		cmocka_unit_test(test_rx_errors_rates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
