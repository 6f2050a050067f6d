// SPDX-License-Identifier: GPL-2.0-only
/* link.mtu-mismatch: a veth refusing frames larger than its MTU, told from its other drops. */
#include "synth.h"

#include <stdio.h>
#include <string.h>

/* vb, a veth with MTU 1500 on 2 CPUs; over 2 s it received rx packets and dropped drop. */
static void veth(struct np_snapshot *p, struct np_snapshot *c, uint64_t rx, uint64_t drop)
{
	synth_init(p, 0);
	synth_init(c, 2);
	synth_softnet(p, 2);
	synth_softnet(c, 2);
	snprintf(c->eth.driver, sizeof(c->eth.driver), "veth");
	snprintf(c->dev.name, sizeof(c->dev.name), "vb");
	c->dev.mtu = 1500;
	p->dev.stats.rx_packets = 1000;
	p->dev.stats.rx_dropped = 50;
	c->dev.stats.rx_packets = 1000 + rx;
	c->dev.stats.rx_dropped = 50 + drop;
	c->rtnl.xdp_attached = 0;
}

static void test_refused(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	/* Scenario 10: 8000-byte datagrams into MTU 1500, 26,000 dropped, 3 received. */
	veth(&p, &c, 3, 26000);
	synth_run(&run, "link.mtu-mismatch", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
	f = synth_first(&run);
	assert_int_equal(f->check->stage, NP_STAGE_LINK);
	assert_non_null(strstr(f->summary, "vb refuses 12,998 frames/s"));
	assert_non_null(strstr(f->summary, "MTU 1500"));
	assert_true(synth_has_ev(f, "rx_dropped"));
	assert_true(synth_has_ev(f, "softnet_dropped_all_cpus"));
	assert_non_null(strstr(f->remedy, "ip -d link show vb"));
	assert_true(f->rank > 12997 && f->rank < 12999);
	synth_run_free(&run);

	/* A few per second: warning. */
	c.dev.stats.rx_dropped = 50 + 3 + 20;
	synth_run(&run, "link.mtu-mismatch", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

static void test_other_drops_quiet(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;

	(void)state;
	/* Backlog overflow (scenario 2): rx_dropped grows as much as softnet's dropped. */
	veth(&p, &c, 40000, 2000);
	c.hs->softnet.rows[1].dropped = 2000;
	synth_run(&run, "link.mtu-mismatch", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	assert_int_equal(synth_state(&run), NP_CHECK_PASSED);
	synth_run_free(&run);
	/* Unhandled protocols: counted in rx_packets first, so never more than those. */
	c.hs->softnet.rows[1].dropped = 0;
	c.dev.stats.rx_packets = 1000 + 300;
	c.dev.stats.rx_dropped = 50 + 300;
	synth_run(&run, "link.mtu-mismatch", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);

	/* XDP drops count in rx_dropped too: no bound, skipped. */
	c.dev.stats.rx_dropped = 50 + 26000;
	c.rtnl.xdp_attached = 1;
	synth_run(&run, "link.mtu-mismatch", &p, &c, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	c.rtnl.xdp_attached = 0;

	/* No interval: totals cannot tell, skipped. */
	synth_run(&run, "link.mtu-mismatch", NULL, &c, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);

	/* Not a veth: physical NICs count oversize frames as length errors. */
	snprintf(c.eth.driver, sizeof(c.eth.driver), "ixgbe");
	synth_run(&run, "link.mtu-mismatch", &p, &c, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

/* link.veth-peer-refuses: x (MTU 1500) sends into a peer that refuses: its tx_dropped grows by
 * what the peer refuses (reproduced: 358,478 frames sent, 358,478 in x's tx_dropped and in the
 * peer's rx_dropped), and the peer's smaller MTU, read in its namespace, is named. */
static void sender(struct np_snapshot *p, struct np_snapshot *c, uint64_t refused)
{
	veth(p, c, 0, 0);
	snprintf(c->dev.name, sizeof(c->dev.name), "x");
	p->dev.stats.tx_packets = 4;
	c->dev.stats.tx_packets = 6;
	p->dev.stats.tx_dropped = 0;
	c->dev.stats.tx_dropped = refused;
	snprintf(c->rtnl.peer_name, sizeof(c->rtnl.peer_name), "y");
	c->rtnl.peer_mtu = 1000;
	c->rtnl.peer_rx_dropped = refused;
}

static void test_sender_side(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	sender(&p, &c, 234000);		/* 117k/s over the 2 s */
	synth_run(&run, "link.veth-peer-refuses", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
	f = synth_first(&run);
	assert_int_equal(f->check->stage, NP_STAGE_LINK);
	assert_non_null(strstr(f->summary, "x's veth peer y refuses 117,000 frames/s that x sends"));
	assert_non_null(strstr(f->summary, "its MTU 1000 is smaller than x's 1500"));
	assert_true(synth_has_ev(f, "tx_dropped"));
	assert_true(synth_has_ev(f, "peer_mtu"));
	assert_non_null(strstr(f->remedy, "ip link set dev x mtu 1000"));
	synth_run_free(&run);

	/* The same MTU on both ends: not named as the cause; the peer is to be diagnosed. */
	c.rtnl.peer_mtu = 1500;
	synth_run(&run, "link.veth-peer-refuses", &p, &c, NAN, NAN);
	f = synth_first(&run);
	assert_null(strstr(f->summary, "MTU"));
	assert_non_null(strstr(f->detail, "backlog"));
	assert_null(strstr(f->remedy, "mtu 1500"));
	synth_run_free(&run);

	/* The peer could not be asked: no name, no MTU claimed. */
	c.rtnl.peer_mtu = NP_NA;
	c.rtnl.peer_name[0] = '\0';
	synth_run(&run, "link.veth-peer-refuses", &p, &c, NAN, NAN);
	f = synth_first(&run);
	assert_non_null(strstr(f->summary, "peer (unnamed) refuses"));
	assert_non_null(strstr(f->detail, "could not be read"));
	synth_run_free(&run);

	/* Nothing refused: quiet; not a veth: not applicable. */
	c.dev.stats.tx_dropped = 0;
	synth_run(&run, "link.veth-peer-refuses", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	snprintf(c.eth.driver, sizeof(c.eth.driver), "ixgbe");
	c.dev.stats.tx_dropped = 99999;
	synth_run(&run, "link.veth-peer-refuses", &p, &c, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_other_drops_quiet),
		cmocka_unit_test(test_sender_side),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
