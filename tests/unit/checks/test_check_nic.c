// SPDX-License-Identifier: GPL-2.0-only
/* Checks of stage "nic" on synthetic snapshots. */
#include "synth.h"

#include <stdio.h>
#include <string.h>

static void test_missed(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	synth_init(&p, 0);
	synth_init(&c, 2);
	p.dev.stats.rx_missed_errors = 1000;
	c.dev.stats.rx_missed_errors = 1400;	/* 200/s: critical */
	p.dev.stats.rx_fifo_errors = c.dev.stats.rx_fifo_errors = 0;
	p.dev.stats.rx_packets = 0;
	c.dev.stats.rx_packets = 2000000;
	synth_run(&run, "nic.missed", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
	f = synth_first(&run);
	assert_true(synth_has_ev(f, "rx_missed_errors"));
	assert_true(synth_has_ev(f, "missed_share"));
	assert_non_null(strstr(f->summary, "200.0 packets/s"));
	assert_non_null(strstr(f->remedy, "ethtool -g eth0"));
	assert_non_null(strstr(f->remedy, "ethtool -G eth0 rx"));
	assert_non_null(strstr(f->remedy, "Cost:"));
	assert_non_null(strstr(f->detail, "ethtool"));
	synth_run_free(&run);

	/* FIFO overruns alone count too: 2/s is a warning. */
	c.dev.stats.rx_missed_errors = 1000;
	c.dev.stats.rx_fifo_errors = 4;
	synth_run(&run, "nic.missed", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	synth_run_free(&run);

	/* Since boot only: never critical. */
	c.dev.stats.rx_missed_errors = 50000000;
	synth_run(&run, "nic.missed", NULL, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);

	c.dev.stats.rx_missed_errors = p.dev.stats.rx_missed_errors = 0;
	c.dev.stats.rx_fifo_errors = 0;
	synth_run(&run, "nic.missed", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	assert_int_equal(synth_state(&run), NP_CHECK_PASSED);
	synth_run_free(&run);

	c.dev.stats.rx_missed_errors = c.dev.stats.rx_fifo_errors = NP_NA;
	synth_run(&run, "nic.missed", &p, &c, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

static void test_rx_dropped(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	synth_init(&p, 0);
	synth_init(&c, 1);
	synth_softnet(&p, 2);
	synth_softnet(&c, 2);
	p.dev.stats.rx_packets = 0;
	c.dev.stats.rx_packets = 9500;
	p.dev.stats.rx_dropped = 0;
	c.dev.stats.rx_dropped = 500;		/* 5% of the traffic: warning */
	c.dev.stats.rx_nohandler = p.dev.stats.rx_nohandler = 3;
	synth_run(&run, "nic.rx-dropped", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	f = synth_first(&run);
	assert_non_null(strstr(f->summary, "5.00% of received packets"));
	assert_true(synth_has_ev(f, "rx_dropped"));
	assert_true(synth_has_ev(f, "rx_nohandler"));
	assert_true(synth_has_ev(f, "softnet_dropped_all_cpus"));
	assert_non_null(strstr(f->detail, "not backlog overflow"));
	assert_non_null(strstr(f->remedy, "tcpdump -i eth0"));
	assert_non_null(strstr(f->remedy, "Cost:"));
	synth_run_free(&run);

	/* Softnet drops move too: attributed to the backlog. */
	c.softnet.rows[1].dropped = 400;
	synth_run(&run, "nic.rx-dropped", &p, &c, NAN, NAN);
	assert_non_null(strstr(synth_first(&run)->detail, "softnet.backlog-drops"));
	synth_run_free(&run);

	/* A small share (unknown protocols, typically): info however high the count. */
	c.dev.stats.rx_packets = 10000000;
	synth_run(&run, "nic.rx-dropped", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);

	synth_run(&run, "nic.rx-dropped", NULL, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);

	c.dev.stats.rx_dropped = 0;
	synth_run(&run, "nic.rx-dropped", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);

	c.dev.stats.rx_dropped = NP_NA;
	synth_run(&run, "nic.rx-dropped", &p, &c, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_missed),
		cmocka_unit_test(test_rx_dropped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
