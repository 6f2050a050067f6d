// SPDX-License-Identifier: GPL-2.0-only
/* Checks of stage "congestion" over live TCP flows (hand-built sock_diag sections). */
#include "synth.h"
#include "socket_fold.h"

#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

static const struct np_sock_limits lim = {
	{ 4096, 131072, 6291456 }, { 4096, 16384, 4194304 }, 212992, 212992, 1,
};

static void base(struct np_snapshot *s, double t, const char *def)
{
	synth_init(s, t);
	synth_sysctl(s, "net.ipv4.tcp_congestion_control", def);
	synth_sysctl(s, "net.ipv4.tcp_available_congestion_control", "reno cubic");
}

static void flow(struct np_snapshot *s, uint64_t cookie, const char *cc, uint32_t min_rtt_us,
		 uint32_t segs, uint32_t retrans)
{
	struct np_sock_rec r;

	memset(&r, 0, sizeof(r));
	r.family = AF_INET;
	r.protocol = IPPROTO_TCP;
	r.state = 1;
	r.sport = (uint16_t)(40000 + cookie);
	r.dport = 443;
	r.saddr[0] = 192, r.saddr[3] = 1;
	r.daddr[0] = 203, r.daddr[2] = 113, r.daddr[3] = 9;
	r.cookie = cookie;
	r.inode = (uint32_t)cookie;
	r.has_info = true;
	r.min_rtt = min_rtt_us;
	r.rtt = min_rtt_us + 2000;
	r.segs_out = segs;
	r.total_retrans = retrans;
	snprintf(r.cc, sizeof(r.cc), "%s", cc);
	np_socket_fold(&s->socks, &r, &lim);
}

static bool has_text(const char *hay, const char *needle)
{
	return strstr(hay, needle) != NULL;
}

static void test_lossy_cubic(void **state)
{
	struct np_snapshot p, c;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	/* 60 ms, 5% of the sample's segments retransmitted by cubic: warning, suggest bbr. */
	base(&p, 0, "cubic");
	base(&c, 1, "cubic");
	flow(&p, 7, "cubic", 60000, 10000, 300);
	flow(&c, 7, "cubic", 60000, 20000, 800);
	synth_run(&run, "congestion.lossy-long-flows", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_WARNING);
	f = synth_first(&run);
	assert_true(has_text(f->summary, "cubic"));
	assert_true(has_text(f->summary, "5.0%"));
	assert_true(synth_has_ev(f, "retransmitted (sample)"));
	assert_true(has_text(f->remedy, "modprobe tcp_bbr"));	/* not in available */
	assert_true(has_text(f->remedy, "tcp_congestion_control=bbr"));
	assert_true(has_text(f->remedy, "fq"));
	assert_true(has_text(f->detail, "LAN"));
	synth_run_free(&run);

	/* The same flow clean during the sample (lifetime 1.5%): history, info. */
	np_snapshot_free(&c);
	base(&c, 1, "cubic");
	flow(&c, 7, "cubic", 60000, 20000, 300);
	synth_run(&run, "congestion.lossy-long-flows", &p, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);

	/* No interval: a lifetime rate alone never goes past info. */
	synth_run(&run, "congestion.lossy-long-flows", NULL, &c, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	synth_run_free(&run);
	np_snapshot_free(&p);
	np_snapshot_free(&c);
}

static void test_lossy_quiet_and_skipped(void **state)
{
	struct np_snapshot s;
	struct synth_run run;

	(void)state;
	base(&s, 1, "bbr");
	flow(&s, 1, "bbr", 60000, 20000, 2000);		/* bbr: not this check's business */
	flow(&s, 2, "cubic", 200, 20000, 2000);		/* LAN: not kept */
	flow(&s, 3, "cubic", 60000, 20000, 20);		/* 0.1%: low loss */
	synth_run(&run, "congestion.lossy-long-flows", NULL, &s, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	assert_int_equal(synth_state(&run), NP_CHECK_PASSED);
	synth_run_free(&run);
	np_srcp(&s, NP_SRC_SOCK_DIAG)->status = NP_SRC_SKIPPED;
	synth_run(&run, "congestion.lossy-long-flows", NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&s);
}

static void test_cc_in_use(void **state)
{
	struct np_snapshot s;
	struct synth_run run;
	const struct np_finding *f;

	(void)state;
	/* Default bbr, but 20 of 25 sockets still on cubic. */
	base(&s, 1, "bbr");
	for (uint64_t i = 0; i < 20; i++)
		flow(&s, 100 + i, "cubic", 300, 10, 0);
	for (uint64_t i = 0; i < 5; i++)
		flow(&s, 200 + i, "bbr", 300, 10, 0);
	synth_run(&run, "congestion.cc-in-use", NULL, &s, NAN, NAN);
	assert_int_equal(synth_worst(&run), NP_SEV_INFO);
	f = synth_first(&run);
	assert_true(has_text(f->summary, "20 of 25"));
	assert_true(synth_has_ev(f, "cubic"));
	assert_true(has_text(f->detail, "barely matters"));	/* all on a LAN */
	synth_run_free(&run);
	np_snapshot_free(&s);

	/* Everything on the default: nothing to say. */
	base(&s, 1, "cubic");
	flow(&s, 1, "cubic", 300, 10, 0);
	synth_run(&run, "congestion.cc-in-use", NULL, &s, NAN, NAN);
	assert_int_equal(run.r.n, 0);
	synth_run_free(&run);
	np_snapshot_free(&s);

	/* No default readable: skipped. */
	synth_init(&s, 1);
	flow(&s, 1, "cubic", 300, 10, 0);
	synth_run(&run, "congestion.cc-in-use", NULL, &s, NAN, NAN);
	assert_int_equal(synth_state(&run), NP_CHECK_SKIPPED);
	synth_run_free(&run);
	np_snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lossy_cubic),
		cmocka_unit_test(test_lossy_quiet_and_skipped),
		cmocka_unit_test(test_cc_in_use),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
