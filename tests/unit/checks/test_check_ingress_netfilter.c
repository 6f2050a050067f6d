// SPDX-License-Identifier: GPL-2.0-only
/* ingress.netfilter-drops: the IPv4 MIB balance over an interval, each way it can come out. */
#include "synth.h"

#include <stdio.h>
#include <string.h>

/* The IP counters of the receiving namespace, p over the first second, c one second later. */
struct ip_mib {
	uint64_t in, deliv, forw, hdr, addr, proto, disc, noroute, trunc, rpf, reqds, oks, mc, bc;
};

static void put(struct np_snapshot *s, const struct ip_mib *m)
{
	synth_mib(s, "IpInReceives", m->in);
	synth_mib(s, "IpInDelivers", m->deliv);
	synth_mib(s, "IpForwDatagrams", m->forw);
	synth_mib(s, "IpInHdrErrors", m->hdr);
	synth_mib(s, "IpInAddrErrors", m->addr);
	synth_mib(s, "IpInUnknownProtos", m->proto);
	synth_mib(s, "IpInDiscards", m->disc);
	synth_mib(s, "IpExtInNoRoutes", m->noroute);
	synth_mib(s, "IpExtInTruncatedPkts", m->trunc);
	synth_mib(s, "TcpExtIPReversePathFilter", m->rpf);
	synth_mib(s, "IpReasmReqds", m->reqds);
	synth_mib(s, "IpReasmOKs", m->oks);
	synth_mib(s, "IpExtInMcastPkts", m->mc);
	synth_mib(s, "IpExtInBcastPkts", m->bc);
}

/* Runs the check on before -> after over 1 s; the run is left for inspection. */
static void run_mib(struct synth_run *run, struct np_snapshot *p, struct np_snapshot *c,
		    const struct ip_mib *before, const struct ip_mib *after)
{
	synth_init(p, 0);
	synth_init(c, 1);
	put(p, before);
	put(c, after);
	synth_run(run, "ingress.netfilter-drops", p, c, NAN, NAN);
}

static void done(struct synth_run *run, struct np_snapshot *p, struct np_snapshot *c)
{
	synth_run_free(run);
	np_snapshot_free(p);
	np_snapshot_free(c);
}

static const struct ip_mib base = { .in = 1000000, .deliv = 990000, .forw = 5000, .hdr = 10,
				    .addr = 20, .proto = 5, .disc = 1, .noroute = 4, .rpf = 60,
				    .reqds = 300, .oks = 100, .mc = 3000 };

static void test_rule_drops_everything(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	struct ip_mib after = base;
	const struct np_finding *f;

	(void)state;
	/* Scenario 6: an INPUT DROP rule, 25,000 packets/s received, none delivered. */
	after.in += 25000;
	run_mib(&run, &p, &c, &base, &after);
	assert_int_equal(synth_worst(&run), NP_SEV_CRITICAL);
	f = synth_first(&run);
	assert_int_equal(f->check->stage, NP_STAGE_INGRESS);
	assert_non_null(strstr(f->summary, "25,000 packets/s (100.0% of IPv4 input)"));
	assert_true(synth_has_ev(f, "vanished"));
	assert_true(synth_has_ev(f, "IpInDelivers"));
	assert_non_null(strstr(f->remedy, "iptables -L -v -n -x"));
	assert_non_null(strstr(f->remedy, "nft list ruleset"));
	assert_true(f->rank > 24999 && f->rank < 25001);
	done(&run, &p, &c);

	/* A tenth of the traffic blocked: warning; a firewall shedding 1%: info. */
	after = base;
	after.in += 10000;
	after.deliv += 9000;
	run_mib(&run, &p, &c, &base, &after);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	done(&run, &p, &c);
	after.deliv = base.deliv + 9900;
	run_mib(&run, &p, &c, &base, &after);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	done(&run, &p, &c);
	/* All of a trickle: below 10 packets/s it is info whatever the share. */
	after = base;
	after.in += 5;
	run_mib(&run, &p, &c, &base, &after);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	done(&run, &p, &c);
}

/* Everything the IP MIB itself accounts for balances to zero: quiet. */
static void test_accounted_quiet(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	struct ip_mib after = base;

	(void)state;
	after.in += 100000;
	after.deliv += 60000;		/* delivered (TCP, UDP, also to closed ports) */
	after.forw += 10000;		/* routed on */
	after.hdr += 100;
	after.addr += 200;
	after.proto += 50;
	after.disc += 10;
	after.noroute += 40;
	after.trunc += 0;
	after.rpf += 9000;		/* rp_filter: ip.rp-filter's */
	after.reqds += 30000;		/* 30,000 fragments made 10,000 datagrams, */
	after.oks += 10000;		/* delivered above */
	after.deliv += 10000;
	after.mc += 600;		/* multicast nobody joined */
	run_mib(&run, &p, &c, &base, &after);
	assert_int_equal(run.r.n, 0);
	assert_int_equal(synth_state(&run), NP_CHECK_PASSED);
	done(&run, &p, &c);
}

/* Conntrack's own drops belong to ingress.conntrack-full, not counted twice. */
static void test_conntrack_drops_set_aside(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	struct ip_mib after = base;

	(void)state;
	after.in += 1000;
	after.deliv += 600;
	synth_init(&p, 0);
	synth_init(&c, 1);
	put(&p, &base);
	put(&c, &after);
	assert_int_equal(np_counters_set(&p.hs->conntrack, "drop", 100), 0);
	assert_int_equal(np_counters_set(&c.hs->conntrack, "drop", 500), 0);
	synth_run(&run, "ingress.netfilter-drops", &p, &c, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	done(&run, &p, &c);
}

static void test_skips(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;

	(void)state;
	/* No interval: the counters only balance over one window. */
	synth_init(&c, 1);
	put(&c, &base);
	synth_run(&run, "ingress.netfilter-drops", NULL, &c, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&c);
	/* No IP counters at all. */
	synth_init(&p, 0);
	synth_init(&c, 1);
	synth_run(&run, "ingress.netfilter-drops", &p, &c, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	done(&run, &p, &c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rule_drops_everything),
		cmocka_unit_test(test_accounted_quiet),
		cmocka_unit_test(test_conntrack_drops_set_aside),
		cmocka_unit_test(test_skips),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
