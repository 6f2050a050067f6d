// SPDX-License-Identifier: GPL-2.0-only
/*
 * The loss ledger: a remainder planted between two stages (IP receiving fewer packets than the
 * link handed on with nothing else moving, UDP errors without a cause) is found with its count
 * and rate; where the counters overlap (another interface feeding IP, GRO merging frames, a
 * transport counting segments) the boundary says "not comparable", never a negative or
 * made-up loss.
 */
#include "synth.h"
#include "ledger.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const struct np_ledger_line *bline(const struct np_ledger *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->b[i].boundary, name))
			return &l->b[i];
	fail_msg("no ledger line %s", name);
	return &l->b[0];
}

#define assert_reason(b, s) do { \
	if (!strstr((b)->reason, (s))) \
		fail_msg("'%s' not in '%s'", (s), (b)->reason); \
} while (0)

static void ifrx(struct np_snapshot *s, const char *name, uint64_t rx)
{
	struct np_ifrx *x = &s->hs->ifrx;

	x->read = true;
	snprintf(x->e[x->n].name, sizeof(x->e[x->n].name), "%s", name);
	x->e[x->n++].rx_packets = rx;
}

/* eth0 received 50,000 in 2 s, GRO off, lo quiet, nothing else in the namespace. */
static void pair(struct np_snapshot *p, struct np_snapshot *c)
{
	synth_init(p, 0);
	synth_init(c, 2);
	synth_softnet(p, 2);
	synth_softnet(c, 2);
	p->dev.stats.rx_packets = 1000;
	c->dev.stats.rx_packets = 1000 + 50000;
	p->dev.stats.rx_dropped = c->dev.stats.rx_dropped = 0;
	c->eth.features.gro = c->eth.features.lro = c->eth.features.gro_hw = 0;
	c->hs->softnet.rows[0].processed = 50000;
	ifrx(p, "lo", 10);
	ifrx(c, "lo", 10);
	ifrx(p, "eth0", 1000);
	ifrx(c, "eth0", 51000);
	synth_mib(p, "IpInReceives", 500);
	synth_mib(c, "IpInReceives", 500 + 50000);
	synth_mib(p, "Ip6InReceives", 0);
	synth_mib(c, "Ip6InReceives", 0);
}

static void build(struct synth_run *run, const struct np_snapshot *p,
		  const struct np_snapshot *c, struct np_ledger *l)
{
	struct np_funnel f;

	synth_run(run, "ingress.netfilter-drops", p, c, NAN, NAN);
	np_funnel_build(&run->a, &f);
	np_ledger_build(&run->a, &f, l);
	synth_run_free(run);
}

/* IP received 1,200 fewer packets than eth0 handed on, nothing else moved: found, per second,
 * as an upper bound (non-IP frames land there too), never material. */
static void test_nic_ip_remainder_found(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	struct np_ledger l;
	const struct np_ledger_line *b;

	(void)state;
	pair(&p, &c);
	build(&run, &p, &c, &l);
	b = bline(&l, "nic-ip");
	assert_int_equal(b->kind, NP_LEDGER_AT_MOST);
	assert_true(b->packets == 0);
	assert_reason(b, "balanced");

	synth_mib(&c, "IpInReceives", 500 + 50000 - 1200);
	build(&run, &p, &c, &l);
	b = bline(&l, "nic-ip");
	assert_int_equal(b->kind, NP_LEDGER_AT_MOST);
	assert_true(b->packets == 1200 && b->rate == 600);
	assert_false(b->material);
	assert_reason(b, "tc ingress");

	/* The longest name an interface can have: the reason is never cut. */
	snprintf(c.ifname, sizeof(c.ifname), "veth0123456789a");
	snprintf(p.ifname, sizeof(p.ifname), "veth0123456789a");
	snprintf(c.hs->ifrx.e[1].name, sizeof(c.hs->ifrx.e[1].name), "veth0123456789a");
	snprintf(p.hs->ifrx.e[1].name, sizeof(p.hs->ifrx.e[1].name), "veth0123456789a");
	build(&run, &p, &c, &l);
	b = bline(&l, "nic-ip");
	assert_true(b->packets == 1200);
	assert_reason(b, "dev veth0123456789a ingress");
	assert_true(strlen(b->reason) > 11 &&
		    !strcmp(b->reason + strlen(b->reason) - 11, "before 5.19"));
	snprintf(c.ifname, sizeof(c.ifname), "eth0");
	snprintf(p.ifname, sizeof(p.ifname), "eth0");
	snprintf(c.hs->ifrx.e[1].name, sizeof(c.hs->ifrx.e[1].name), "eth0");
	snprintf(p.hs->ifrx.e[1].name, sizeof(p.hs->ifrx.e[1].name), "eth0");

	/* Within the read skew (1% + 2): balanced. */
	synth_mib(&c, "IpInReceives", 500 + 50000 - 400);
	build(&run, &p, &c, &l);
	assert_true(bline(&l, "nic-ip")->packets == 0);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

/* Overlaps: another interface feeding IP, IP counting more than came in, GRO merging frames. */
static void test_nic_ip_not_comparable(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	struct np_ledger l;
	const struct np_ledger_line *b;

	(void)state;
	pair(&p, &c);
	ifrx(&p, "eth1", 7);
	ifrx(&c, "eth1", 9);
	synth_mib(&c, "IpInReceives", 500 + 40000);
	build(&run, &p, &c, &l);
	b = bline(&l, "nic-ip");
	assert_int_equal(b->kind, NP_LEDGER_NOT_COMPARABLE);
	assert_true(b->packets == 0);
	assert_reason(b, "1 other received packets in the window (eth1)");
	np_snapshot_free(&p);
	np_snapshot_free(&c);

	/* IP counted more than eth0 and lo handed on: not a negative loss. */
	pair(&p, &c);
	synth_mib(&c, "IpInReceives", 500 + 90000);
	build(&run, &p, &c, &l);
	b = bline(&l, "nic-ip");
	assert_int_equal(b->kind, NP_LEDGER_NOT_COMPARABLE);
	assert_true(b->packets == 0);
	assert_reason(b, "40,000 packets below zero: IP counted more");

	/* GRO on: IpInReceives counts merged packets; without the segment counters, no
	 * comparison; with them, the frames balance. */
	c.eth.features.gro = 1;
	synth_mib(&c, "IpInReceives", 500 + 2000);
	build(&run, &p, &c, &l);
	b = bline(&l, "nic-ip");
	assert_int_equal(b->kind, NP_LEDGER_NOT_COMPARABLE);
	assert_reason(b, "segment counters");
	assert_int_equal(bline(&l, "nic-softnet")->kind, NP_LEDGER_NOT_COMPARABLE);
	assert_reason(bline(&l, "nic-softnet"), "GRO is on: softnet may count merged packets");
	synth_mib(&p, "IpExtInNoECTPkts", 100);
	synth_mib(&c, "IpExtInNoECTPkts", 100 + 49000);
	synth_mib(&p, "IpExtInECT0Pkts", 0);
	synth_mib(&c, "IpExtInECT0Pkts", 0);
	synth_mib(&p, "IpExtInECT1Pkts", 0);
	synth_mib(&c, "IpExtInECT1Pkts", 0);
	synth_mib(&p, "IpExtInCEPkts", 0);
	synth_mib(&c, "IpExtInCEPkts", 0);
	build(&run, &p, &c, &l);
	b = bline(&l, "nic-ip");
	assert_int_equal(b->kind, NP_LEDGER_AT_MOST);
	assert_true(b->packets == 1000);
	/* ... unless lo sent packets: its TSO packets count once on lo, by segment in IP. */
	c.hs->ifrx.e[0].rx_packets = 500;
	build(&run, &p, &c, &l);
	assert_int_equal(bline(&l, "nic-ip")->kind, NP_LEDGER_NOT_COMPARABLE);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

/* softnet counts every interface: only a shortfall is read, as a lower bound. */
static void test_nic_softnet(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	struct np_ledger l;
	const struct np_ledger_line *b;

	(void)state;
	pair(&p, &c);
	c.hs->softnet.rows[0].processed = 40000;
	build(&run, &p, &c, &l);
	b = bline(&l, "nic-softnet");
	assert_int_equal(b->kind, NP_LEDGER_AT_LEAST);
	assert_true(b->packets == 10000 && b->rate == 5000);
	assert_true(b->material);
	assert_reason(b, "XDP");
	c.eth.features.gro = -1;	/* ethtool -k not read: merged or not is unknown */
	build(&run, &p, &c, &l);
	assert_int_equal(bline(&l, "nic-softnet")->kind, NP_LEDGER_NOT_COMPARABLE);
	assert_int_equal(bline(&l, "nic-ip")->kind, NP_LEDGER_NOT_COMPARABLE);
	assert_reason(bline(&l, "nic-ip"), "GRO's state is unknown");
	c.eth.features.gro = 0;
	c.hs->softnet.rows[1].processed = 90000;	/* other interfaces' packets */
	build(&run, &p, &c, &l);
	b = bline(&l, "nic-softnet");
	assert_int_equal(b->kind, NP_LEDGER_NOT_COMPARABLE);
	assert_true(b->packets == 0);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

static void udp(struct np_snapshot *s, uint64_t dgrams, uint64_t errs, uint64_t rcvbuf,
		uint64_t csum)
{
	synth_mib(s, "UdpInDatagrams", dgrams);
	synth_mib(s, "UdpInErrors", errs);
	synth_mib(s, "UdpNoPorts", 0);
	synth_mib(s, "UdpRcvbufErrors", rcvbuf);
	synth_mib(s, "UdpMemErrors", 0);
	synth_mib(s, "UdpInCsumErrors", csum);
}

/* UDP errors without a cause counter: exact, material above 10/s and 1%. */
static void test_udp_errors(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	struct np_ledger l;
	const struct np_ledger_line *b;

	(void)state;
	pair(&p, &c);
	udp(&p, 1000, 10, 10, 0);
	udp(&c, 1000 + 9000, 10 + 1000, 10 + 600, 100);
	build(&run, &p, &c, &l);
	b = bline(&l, "udp-errors");
	assert_int_equal(b->kind, NP_LEDGER_EXACT);
	assert_true(b->packets == 300 && b->rate == 150);
	assert_true(b->material);
	assert_reason(b, "socket filters");
	/* Since boot (no interval): the same balance over the totals. */
	build(&run, NULL, &c, &l);
	b = bline(&l, "udp-errors");
	assert_false(b->window);
	assert_true(b->packets == 300);
	assert_false(b->material);
	assert_int_equal(bline(&l, "nic-ip")->kind, NP_LEDGER_NOT_COMPARABLE);
	assert_int_equal(bline(&l, "nic-softnet")->kind, NP_LEDGER_NOT_COMPARABLE);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

/* The check on the udp-errors line: a warning from 10/s and 1% of UDP input, info since boot
 * or below, nothing when every error has its cause counter. */
static void test_udp_unnamed_check(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	pair(&p, &c);
	udp(&p, 1000, 10, 10, 0);
	udp(&c, 1000 + 9000, 10 + 1000, 10 + 600, 100);
	synth_run(&run, "transport.udp-unnamed-errors", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	f = synth_first(&run);
	if (!strstr(f->summary, "150 UDP datagrams/s (3.0% of UDP input)"))
		fail_msg("summary: %s", f->summary);
	assert_true(synth_has_ev(f, "UdpInErrors"));
	assert_non_null(strstr(f->detail, "socket filters"));
	synth_run_free(&run);
	synth_run(&run, "transport.udp-unnamed-errors", NULL, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);
	udp(&c, 1000 + 9000, 10 + 1000, 10 + 890, 100);	/* 10 in 2 s: 5/s */
	synth_run(&run, "transport.udp-unnamed-errors", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);
	udp(&c, 1000 + 9000, 10 + 1000, 10 + 900, 100);	/* every error named */
	synth_run(&run, "transport.udp-unnamed-errors", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_OK);
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

/* IP delivered vs the transports: a protocol without counters is an upper bound; TCP counting
 * GRO segments (more than IP delivered) is not comparable. */
static void test_delivered_transport(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	struct np_ledger l;
	const struct np_ledger_line *b;

	(void)state;
	pair(&p, &c);
	synth_mib(&p, "IpInDelivers", 0);
	synth_mib(&c, "IpInDelivers", 20000);
	synth_mib(&p, "TcpInSegs", 0);
	synth_mib(&c, "TcpInSegs", 15000);
	udp(&p, 0, 0, 0, 0);
	udp(&c, 2000, 0, 0, 0);
	build(&run, &p, &c, &l);
	b = bline(&l, "delivered-transport");
	assert_int_equal(b->kind, NP_LEDGER_AT_MOST);
	assert_true(b->packets == 3000);
	assert_false(b->material);
	assert_reason(b, "GRE");
	synth_mib(&c, "TcpInSegs", 60000);
	build(&run, &p, &c, &l);
	b = bline(&l, "delivered-transport");
	assert_int_equal(b->kind, NP_LEDGER_NOT_COMPARABLE);
	assert_reason(b, "segment of a GRO packet");
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nic_ip_remainder_found),
		cmocka_unit_test(test_nic_ip_not_comparable),
		cmocka_unit_test(test_nic_softnet),
		cmocka_unit_test(test_udp_errors),
		cmocka_unit_test(test_udp_unnamed_check),
		cmocka_unit_test(test_delivered_transport),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
