// SPDX-License-Identifier: GPL-2.0-only
/* The per-stage funnel counts each stage's losses once, including the ones its own checks
 * report from counters outside the stage's list (man netpath: "the larger of its counters"). */
#include "synth.h"
#include "funnel.h"

#include <math.h>

static const struct np_funnel_row *stage_row(const struct np_funnel *f, enum np_stage st)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->rows[i].stage == st)
			return &f->rows[i];
	fail_msg("no funnel row for stage %d", (int)st);
	return NULL;
}

/* p at t=0, c at t=1 with softnet rows that did not move. */
static void pair(struct np_snapshot *p, struct np_snapshot *c)
{
	synth_init(p, 0);
	synth_init(c, 1);
	synth_softnet(p, 2);
	synth_softnet(c, 2);
	p->dev.stats.rx_packets = 1000;
	c->dev.stats.rx_packets = 1000 + 50000;
	p->dev.stats.rx_missed_errors = c->dev.stats.rx_missed_errors = 0;
	p->dev.stats.rx_fifo_errors = c->dev.stats.rx_fifo_errors = 0;
	p->dev.stats.rx_over_errors = c->dev.stats.rx_over_errors = 0;
}

static void build(struct synth_run *run, struct np_snapshot *p, struct np_snapshot *c,
		  const char *id, struct np_funnel *f)
{
	synth_run(run, id, p, c, NAN, NAN);
	np_funnel_build(&run->a, f);
}

/* A veth refusing frames above its MTU: rx_dropped 117k/s, no hardware counter, no backlog
 * drop. The nic row said 0/s beside nic.rx-dropped's 117k/s. */
static void test_nic_row_counts_rx_dropped(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	struct np_funnel f;

	(void)state;
	pair(&p, &c);
	p.dev.stats.rx_dropped = 5;
	c.dev.stats.rx_dropped = 5 + 117000;
	build(&run, &p, &c, "nic.rx-dropped", &f);
	assert_true(stage_row(&f, NP_STAGE_NIC)->drop.rate == 117000);
	synth_run_free(&run);

	/* Backlog drops also land in rx_dropped: the softnet row has them, the nic row not. */
	c.hs->softnet.rows[1].dropped = 117000;
	build(&run, &p, &c, "nic.rx-dropped", &f);
	assert_true(stage_row(&f, NP_STAGE_NIC)->drop.rate == 0);
	assert_true(stage_row(&f, NP_STAGE_SOFTNET)->drop.rate == 117000);
	synth_run_free(&run);

	/* Ring overflows counted by the hardware and in rx_dropped: the larger, not the sum. */
	c.hs->softnet.rows[1].dropped = 0;
	c.dev.stats.rx_missed_errors = 90000;
	build(&run, &p, &c, "nic.rx-dropped", &f);
	assert_true(stage_row(&f, NP_STAGE_NIC)->drop.rate == 117000);
	c.dev.stats.rx_missed_errors = 200000;
	synth_run_free(&run);
	build(&run, &p, &c, "nic.rx-dropped", &f);
	assert_true(stage_row(&f, NP_STAGE_NIC)->drop.rate == 200000);
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

/* An nft DROP rule: 120k/s of IPv4 input vanish. The ingress row said 0/s beside
 * ingress.netfilter-drops critical at 120k/s; it now has the same number. */
static void test_ingress_row_counts_netfilter(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	struct np_funnel f;
	const struct np_funnel_row *r;

	(void)state;
	pair(&p, &c);
	synth_mib(&p, "IpInReceives", 1000);
	synth_mib(&p, "IpInDelivers", 1000);
	synth_mib(&c, "IpInReceives", 1000 + 150000);
	synth_mib(&c, "IpInDelivers", 1000 + 30000);
	build(&run, &p, &c, "ingress.netfilter-drops", &f);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
	r = stage_row(&f, NP_STAGE_INGRESS);
	assert_true(r->drop.present && r->drop.sampled);
	assert_true(r->drop.rate == 120000);
	synth_run_free(&run);

	/* Everything delivered: present, 0. */
	synth_mib(&c, "IpInDelivers", 1000 + 150000);
	build(&run, &p, &c, "ingress.netfilter-drops", &f);
	assert_true(stage_row(&f, NP_STAGE_INGRESS)->drop.rate == 0);
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nic_row_counts_rx_dropped),
		cmocka_unit_test(test_ingress_row_counts_netfilter),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
