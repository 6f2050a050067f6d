// SPDX-License-Identifier: GPL-2.0-only
/* Checks of stage "link" that read ethtool: link modes and standard MAC/PHY statistics. */
#include "synth.h"

#include <stdio.h>
#include <string.h>

/* ETHTOOL_LINK_MODE_*_BIT numbers from include/uapi/linux/ethtool.h. */
#define LM_1000BASET_FULL 5
#define LM_10000BASET_FULL 12
#define LM_25000BASECR_FULL 31
#define LM_100000BASECR4_FULL 38
#define LM_200000BASECR_FULL 103

static void set_bit(uint64_t *map, unsigned bit)
{
	map[bit / 64] |= 1ULL << (bit % 64);
}

static void modes(struct np_snapshot *s, uint64_t speed)
{
	struct np_linkmodes *lm = &s->eth.link;

	lm->speed_mbps = speed;
	lm->duplex = 1;
	lm->autoneg = 1;
	lm->has_supported = lm->has_advertised = lm->has_peer = true;
	set_bit(lm->supported, LM_1000BASET_FULL);
	set_bit(lm->supported, LM_10000BASET_FULL);
	set_bit(lm->advertised, LM_1000BASET_FULL);
	set_bit(lm->advertised, LM_10000BASET_FULL);
}

static const char *skip_reason(const struct synth_run *run)
{
	for (size_t i = 0; i < run->r.nres; i++)
		if (run->r.res[i].state == NP_CHECK_SKIPPED)
			return run->r.res[i].skip_reason;
	return "";
}

static void test_speed_below_best_common(void **state)
{
	struct np_snapshot s;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	synth_init(&s, 0);
	modes(&s, 1000);
	set_bit(s.eth.link.peer, LM_1000BASET_FULL);
	set_bit(s.eth.link.peer, LM_10000BASET_FULL);
	synth_run(&run, "link.speed-below-best", NULL, &s, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	f = synth_first(&run);
	assert_non_null(strstr(f->summary, "1000 Mbit/s"));
	assert_non_null(strstr(f->summary, "10000 Mbit/s supported by both ends"));
	assert_true(synth_has_ev(f, "speed"));
	assert_true(synth_has_ev(f, "best_common_speed"));
	assert_true(synth_has_ev(f, "best_partner_speed"));
	assert_non_null(strstr(f->remedy, "ethtool -s eth0 autoneg on speed 10000 duplex full"));
	assert_non_null(strstr(f->remedy, "Cost:"));
	synth_run_free(&run);

	/* The partner only does 1G: 1G is the best common mode, nothing to say. */
	memset(s.eth.link.peer, 0, sizeof(s.eth.link.peer));
	set_bit(s.eth.link.peer, LM_1000BASET_FULL);
	synth_run(&run, "link.speed-below-best", NULL, &s, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	assert_int_equal(synth_state(&run), NP_CHECK_PASSED);
	synth_run_free(&run);

	/* Running at the best speed. */
	set_bit(s.eth.link.peer, LM_10000BASET_FULL);
	s.eth.link.speed_mbps = 10000;
	synth_run(&run, "link.speed-below-best", NULL, &s, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	np_snapshot_free(&s);
}

static void test_speed_below_best_without_peer(void **state)
{
	struct np_snapshot s;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	synth_init(&s, 0);
	modes(&s, 1000);
	s.eth.link.has_peer = false;	/* fibre/DAC: the partner's modes are unknown */
	synth_run(&run, "link.speed-below-best", NULL, &s, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	assert_non_null(strstr(synth_first(&run)->summary, "advertised here"));
	synth_run_free(&run);

	/* Forced speed: said so. */
	s.eth.link.has_peer = true;
	set_bit(s.eth.link.peer, LM_10000BASET_FULL);
	s.eth.link.autoneg = 0;
	synth_run(&run, "link.speed-below-best", NULL, &s, NAN, NAN);
	f = synth_first(&run);
	assert_int_equal(f->severity, NP_SEV_WARNING);
	assert_non_null(strstr(f->detail, "Autonegotiation is off"));
	synth_run_free(&run);
	np_snapshot_free(&s);
}

static void test_speed_below_best_high_bits(void **state)
{
	struct np_snapshot s;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	synth_init(&s, 0);
	s.eth.link.speed_mbps = 100000;
	s.eth.link.autoneg = 1;
	s.eth.link.has_supported = s.eth.link.has_peer = true;
	/* Bit 103 lives in the second 64-bit word. */
	set_bit(s.eth.link.supported, LM_25000BASECR_FULL);
	set_bit(s.eth.link.supported, LM_100000BASECR4_FULL);
	set_bit(s.eth.link.supported, LM_200000BASECR_FULL);
	set_bit(s.eth.link.peer, LM_100000BASECR4_FULL);
	set_bit(s.eth.link.peer, LM_200000BASECR_FULL);
	synth_run(&run, "link.speed-below-best", NULL, &s, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	f = synth_first(&run);
	assert_non_null(strstr(f->summary, "200000 Mbit/s"));
	synth_run_free(&run);
	np_snapshot_free(&s);
}

static void test_speed_below_best_skipped(void **state)
{
	struct np_snapshot s;
	struct synth_run run;

	(void)state;
	synth_init(&s, 0);
	np_srcp(&s, NP_SRC_ETHTOOL_LINKMODES)->status = NP_SRC_UNSUPPORTED;
	snprintf(np_srcp(&s, NP_SRC_ETHTOOL_LINKMODES)->detail, sizeof(np_srcp(&s, 0)->detail),
		 "driver does not report link modes");
	synth_run(&run, "link.speed-below-best", NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	assert_string_equal(skip_reason(&run), "driver does not report link modes");
	synth_run_free(&run);

	/* virtio_net: link modes read, but no supported modes (and no speed). */
	np_srcp(&s, NP_SRC_ETHTOOL_LINKMODES)->status = NP_SRC_OK;
	s.eth.link.has_supported = true;
	synth_run(&run, "link.speed-below-best", NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);

	/* Modes known, speed unknown (link down): skipped, not "0 Mbit/s". */
	modes(&s, NP_NA);
	synth_run(&run, "link.speed-below-best", NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&s);
}

static void std(struct np_snapshot *s, const char *name, uint64_t v)
{
	assert_int_equal(np_counters_set(&s->eth.std_stats, name, v), 0);
}

static void test_phy_errors_symbol(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	synth_init(&p, 0);
	synth_init(&c, 2);
	std(&p, "eth-phy.SymbolErrorDuringCarrier", 1000);
	std(&c, "eth-phy.SymbolErrorDuringCarrier", 1400);	/* 200/s */
	p.dev.stats.rx_crc_errors = c.dev.stats.rx_crc_errors = 0;
	synth_run(&run, "link.phy-errors", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
	f = synth_first(&run);
	assert_true(synth_has_ev(f, "eth-phy.SymbolErrorDuringCarrier"));
	assert_non_null(strstr(f->summary, "physical 200/s"));
	assert_non_null(strstr(f->remedy, "--show-fec eth0"));
	synth_run_free(&run);

	c.eth.std_stats.e[0].value = 1004;	/* 2/s */
	synth_run(&run, "link.phy-errors", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	synth_run_free(&run);

	/* Since boot only: info, never critical. */
	c.eth.std_stats.e[0].value = 50000000;
	synth_run(&run, "link.phy-errors", NULL, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);

	c.eth.std_stats.e[0].value = 1000;
	synth_run(&run, "link.phy-errors", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);	/* history, not now */
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

static void test_phy_errors_no_double_report(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	synth_init(&p, 0);
	synth_init(&c, 2);
	/* The driver folds FCS errors into rx_crc_errors: link.rx-errors reports them. */
	std(&p, "eth-mac.FrameCheckSequenceErrors", 0);
	std(&c, "eth-mac.FrameCheckSequenceErrors", 100);
	p.dev.stats.rx_crc_errors = 0;
	c.dev.stats.rx_crc_errors = 100;
	synth_run(&run, "link.phy-errors", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	assert_int_equal(synth_state(&run), NP_CHECK_PASSED);
	synth_run_free(&run);

	/* A driver that does not: only this check sees them. */
	c.dev.stats.rx_crc_errors = 0;
	synth_run(&run, "link.phy-errors", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	f = synth_first(&run);
	assert_non_null(strstr(f->summary, "physical 50/s"));
	synth_run_free(&run);

	/* Partly folded: only the excess counts (100 - 60 = 40 in 2 s). */
	c.dev.stats.rx_crc_errors = 60;
	synth_run(&run, "link.phy-errors", &p, &c, NAN, NAN);
	assert_non_null(strstr(synth_first(&run)->summary, "physical 20/s"));
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

static void test_phy_errors_oversize(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	synth_init(&p, 0);
	synth_init(&c, 2);
	c.dev.mtu = 1500;
	/* eth-mac and rmon count the same oversize frames: the larger witness, not the sum. */
	std(&p, "eth-mac.FrameTooLongErrors", 0);
	std(&c, "eth-mac.FrameTooLongErrors", 20);
	std(&p, "rmon.etherStatsOversizePkts", 0);
	std(&c, "rmon.etherStatsOversizePkts", 20);
	synth_run(&run, "link.phy-errors", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	f = synth_first(&run);
	assert_non_null(strstr(f->summary, "oversize 10/s"));
	assert_non_null(strstr(f->detail, "MTU 1500"));
	assert_non_null(strstr(f->remedy, "ip link show dev eth0"));
	assert_true(synth_has_ev(f, "rmon.oversize"));
	synth_run_free(&run);

	/* rx_length_errors already shows them: left to link.rx-errors. */
	p.dev.stats.rx_length_errors = 0;
	c.dev.stats.rx_length_errors = 20;
	synth_run(&run, "link.phy-errors", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

static void drvc(struct np_snapshot *s, const char *name, uint64_t v)
{
	snprintf(s->eth.driver, sizeof(s->eth.driver), "mlx5_core");
	assert_int_equal(np_counters_set(&s->eth.drv_stats, name, v), 0);
}

static void test_phy_errors_driver_counters(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	synth_init(&p, 0);
	synth_init(&c, 2);
	/* mlx5 reports symbol errors in eth-phy and in its own list: counted once (10/s). */
	std(&p, "eth-phy.SymbolErrorDuringCarrier", 0);
	std(&c, "eth-phy.SymbolErrorDuringCarrier", 20);
	drvc(&p, "rx_symbol_err_phy", 0);
	drvc(&c, "rx_symbol_err_phy", 20);
	synth_run(&run, "link.phy-errors", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	f = synth_first(&run);
	assert_non_null(strstr(f->summary, "physical 10/s"));
	assert_true(synth_has_ev(f, "driver_phy_errors"));
	synth_run_free(&run);

	/* Only the driver knows about oversize frames. */
	drvc(&c, "rx_symbol_err_phy", 0);
	c.eth.std_stats.e[0].value = 0;
	drvc(&p, "rx_oversize_pkts_phy", 0);
	drvc(&c, "rx_oversize_pkts_phy", 400);	/* 200/s */
	synth_run(&run, "link.phy-errors", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
	f = synth_first(&run);
	assert_non_null(strstr(f->summary, "oversize 200/s"));
	assert_true(synth_has_ev(f, "driver_oversize"));
	assert_non_null(strstr(f->detail, "MTU mismatch"));
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

static void test_phy_errors_skipped(void **state)
{
	struct np_snapshot s;
	struct synth_run run;

	(void)state;
	synth_init(&s, 0);
	/* Both sources read, neither has anything relevant (virtio_net). */
	snprintf(s.eth.driver, sizeof(s.eth.driver), "virtio_net");
	std(&s, "eth-ctrl.MACControlFramesReceived", 0);
	synth_run(&run, "link.phy-errors", NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);

	np_srcp(&s, NP_SRC_ETHTOOL_STATS)->status = NP_SRC_UNSUPPORTED;
	snprintf(np_srcp(&s, NP_SRC_ETHTOOL_STATS)->detail, sizeof(np_srcp(&s, 0)->detail),
		 "driver does not report standard statistics");
	np_srcp(&s, NP_SRC_DRIVER_STATS)->status = NP_SRC_UNSUPPORTED;
	synth_run(&run, "link.phy-errors", NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	assert_string_equal(skip_reason(&run), "driver does not report standard statistics");
	synth_run_free(&run);
	np_snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_speed_below_best_common),
		cmocka_unit_test(test_speed_below_best_without_peer),
		cmocka_unit_test(test_speed_below_best_high_bits),
		cmocka_unit_test(test_speed_below_best_skipped),
		cmocka_unit_test(test_phy_errors_symbol),
		cmocka_unit_test(test_phy_errors_no_double_report),
		cmocka_unit_test(test_phy_errors_oversize),
		cmocka_unit_test(test_phy_errors_driver_counters),
		cmocka_unit_test(test_phy_errors_skipped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
