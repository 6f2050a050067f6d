// SPDX-License-Identifier: GPL-2.0-only
/* Watch frames: the model from two synthetic snapshots (rates, fallbacks, new findings, flows
 * carried between full socket walks). (The text and JSON renderings and the screen layout:
 * test_watch_render.c.) */
#include "synth.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "funnel.h"
#include "render_watch.h"
#include "../fits_width.h"
#include "watch_fixture.h"

static void test_model_rates(void **state_)
{
	struct np_watch_session sess = { 0 };
	struct np_watch_frame f;
	static const char *const none[] = { NULL };
	struct pair p;

	(void)state_;
	pair_init(&p);
	report(&p.rep, none, NULL);
	assert_int_equal(np_watch_frame_build(&f, &sess, &p.a, &p.rep, &p.fn), 0);
	assert_int_equal(f.seq, 1);
	assert_string_equal(f.ifname, "eth0");
	/* Stages come from the funnel: link and nic see rx_packets, nic drops = missed. */
	assert_true(f.nstage >= 3);
	assert_int_equal(f.stages[0].stage, NP_STAGE_LINK);
	assert_true(fabs(f.stages[0].packets - 1000) < 1e-9);
	assert_true(fabs(f.stages[0].drops) < 1e-9);
	assert_int_equal(f.stages[1].stage, NP_STAGE_NIC);
	assert_true(fabs(f.stages[1].drops - 10) < 1e-9);
	/* Per CPU, with the 32-bit wrap of CPU 1's processed counter. */
	assert_int_equal(f.ncpu, 2);
	assert_true(fabs(f.cpus[0].processed - 1000) < 1e-9);
	assert_true(fabs(f.cpus[0].dropped - 5) < 1e-9);
	assert_true(fabs(f.cpus[1].processed - 16) < 1e-9);
	assert_true(fabs(f.cpus[1].squeezed - 2) < 1e-9);
	/* Queue 0: packets from qstats, drops from the driver's rx0_drops (rx_drops is the
	 * device total, not a queue). Queue 1: idle. */
	assert_int_equal(f.nqueue, 2);
	assert_int_equal(f.queues[0].queue, 0);
	assert_true(fabs(f.queues[0].packets - 1000) < 1e-9);
	assert_true(fabs(f.queues[0].drops - 3) < 1e-9);
	assert_string_equal(f.queues[0].source, "qstats");
	assert_string_equal(f.queues[0].drops_source, "driver");
	assert_true(fabs(f.queues[1].packets) < 1e-9);
	/* IRQs per CPU, both lines summed: CPU 0 400/2 s, CPU 1 20/2 s. */
	assert_int_equal(f.nirq, 2);
	assert_true(fabs(f.irqs[0].rate - 200) < 1e-9);
	assert_true(fabs(f.irqs[1].rate - 10) < 1e-9);
	/* The UDP socket: 200 more drops over 2 s. */
	assert_true(f.has_socks);
	assert_int_equal(f.nsock, 1);
	assert_string_equal(f.socks[0].proto, "udp");
	assert_string_equal(f.socks[0].local, "0.0.0.0:5353");
	assert_true(fabs(f.socks[0].rate - 100) < 1e-9);
	assert_int_equal(f.socks[0].drops, 300);
	np_watch_frame_free(&f);
	np_watch_session_free(&sess);
	pair_free(&p);
}

/* Without qstats, per-queue packets come from driver counters (ixgbe names); with nothing per
 * queue, the frame says why; unavailable sections are marked, not zero. */
static void test_model_fallbacks(void **state_)
{
	struct np_watch_session sess = { 0 };
	struct np_watch_frame f;
	static const char *const none[] = { NULL };
	struct pair p;
	char *txt, *js;

	(void)state_;
	pair_init(&p);
	report(&p.rep, none, NULL);
	for (int i = 0; i < 2; i++) {
		struct np_snapshot *s = i ? &p.cur : &p.prev;

		np_src_set(s, NP_SRC_QSTATS, -EOPNOTSUPP, "driver does not report per-queue stats");
		snprintf(s->eth.driver, sizeof(s->eth.driver), "ixgbe");
		np_counters_free(&s->eth.drv_stats);
		assert_int_equal(np_counters_set(&s->eth.drv_stats, "rx_queue_0_packets",
						 (uint64_t)i * 600), 0);
		assert_int_equal(np_counters_set(&s->eth.drv_stats, "rx_queue_1_packets",
						 (uint64_t)i * 60), 0);
		assert_int_equal(np_counters_set(&s->eth.drv_stats, "rx_queue_1_drops",
						 (uint64_t)i * 8), 0);
		np_src_set(s, NP_SRC_SOCK_DIAG, -EPERM, "needs root");
	}
	assert_int_equal(np_watch_frame_build(&f, &sess, &p.a, &p.rep, &p.fn), 0);
	assert_int_equal(f.nqueue, 2);
	assert_true(fabs(f.queues[0].packets - 300) < 1e-9);
	assert_string_equal(f.queues[0].source, "driver");
	assert_true(isnan(f.queues[0].drops));
	assert_null(f.queues[0].drops_source);
	assert_true(fabs(f.queues[1].packets - 30) < 1e-9);
	assert_true(fabs(f.queues[1].drops - 4) < 1e-9);
	assert_false(f.has_socks);
	txt = render_text(&f);
	assert_contains(txt, "\n0              300           -  driver\n");
	assert_contains(txt, "\n1               30           4  driver\n");
	assert_contains(txt, "socket diagnostics denied: needs root");
	js = render_json(&f);
	assert_contains(js, "\"queues\":[{\"queue\":0,\"packets_per_s\":300,\"drops_per_s\":null,"
			"\"source\":\"driver\",\"drops_source\":null},");
	assert_contains(js, "\"sockets\":null,");
	assert_contains(js, "\"unavailable\":{\"sockets\":\"socket diagnostics denied: "
			"needs root\"}");
	free(txt);
	free(js);
	np_watch_frame_free(&f);

	/* Nothing per queue at all, and no IRQ lines (a virtual device). */
	for (int i = 0; i < 2; i++) {
		struct np_snapshot *s = i ? &p.cur : &p.prev;

		np_src_set(s, NP_SRC_DRIVER_STATS, -EOPNOTSUPP, NULL);
		np_src_set(s, NP_SRC_IRQ_AFFINITY, -ENOENT, "the device has no IRQ of its own");
		for (size_t k = 0; k < s->irqs.n; k++)
			free(s->irqs.lines[k].count);
		s->irqs.n = 0;
	}
	assert_int_equal(np_watch_frame_build(&f, &sess, &p.a, &p.rep, &p.fn), 0);
	assert_int_equal(f.nqueue, 0);
	assert_int_equal(f.nirq, 0);
	txt = render_text(&f);
	assert_contains(txt, "  per-queue counters not reported (qstats: unsupported, driver does "
			"not report per-queue stats; driver: unsupported)\n");
	assert_contains(txt, "  dev-irq/s: the device has no IRQ of its own\n");
	assert_contains(txt, "\n0          1,000           5           0           0           0"
			"           -\n");
	js = render_json(&f);
	assert_contains(js, "\"queues\":[],\"irqs\":[],");
	assert_contains(js, "\"irqs\":\"the device has no IRQ of its own\"");
	free(txt);
	free(js);
	np_watch_frame_free(&f);
	np_watch_session_free(&sess);
	pair_free(&p);
}

/* Findings absent from the first frame, or worse than they were then, are NEW. */
static void test_new_findings(void **state_)
{
	static const char *const first[] = { "softnet.backlog-drops", "socket.rmem-max", NULL };
	static const enum np_severity first_sev[] = { NP_SEV_INFO, NP_SEV_INFO };
	static const char *const later[] = { "nic.missed", "softnet.backlog-drops",
					     "socket.rmem-max", NULL };
	static const enum np_severity later_sev[] = { NP_SEV_WARNING, NP_SEV_CRITICAL,
						      NP_SEV_INFO };
	struct np_watch_session sess = { 0 };
	struct np_watch_frame f;
	struct pair p;
	char *txt, *js;

	(void)state_;
	pair_init(&p);
	report(&p.rep, first, first_sev);
	assert_int_equal(np_watch_frame_build(&f, &sess, &p.a, &p.rep, &p.fn), 0);
	assert_int_equal(f.nfind, 2);
	assert_false(f.findings[0].is_new);
	assert_false(f.findings[1].is_new);
	np_watch_frame_free(&f);

	report(&p.rep, later, later_sev);
	assert_int_equal(np_watch_frame_build(&f, &sess, &p.a, &p.rep, &p.fn), 0);
	assert_int_equal(f.seq, 2);
	assert_int_equal(f.nfind, 3);
	/* Worst first: the escalated backlog drops, then the new NIC finding, then the rest. */
	assert_string_equal(f.findings[0].check->id, "softnet.backlog-drops");
	assert_true(f.findings[0].is_new);
	assert_string_equal(f.findings[1].check->id, "nic.missed");
	assert_true(f.findings[1].is_new);
	assert_string_equal(f.findings[2].check->id, "socket.rmem-max");
	assert_false(f.findings[2].is_new);
	txt = render_text(&f);
	assert_contains(txt, "findings: 3, 2 new since the first frame\n"
			"NEW CRITICAL softnet.backlog-drops            "
			"summary of softnet.backlog-drops\n"
			"NEW WARNING  nic.missed                       summary of nic.missed\n"
			"    INFO     socket.rmem-max                  "
			"summary of socket.rmem-max\n");
	js = render_json(&f);
	assert_contains(js, "\"findings\":[{\"id\":\"softnet.backlog-drops\",\"stage\":\"softnet\","
			"\"severity\":\"critical\",\"new\":true,\"from_walk\":false,"
			"\"summary\":\"summary of "
			"softnet.backlog-drops\"},{\"id\":\"nic.missed\"");
	assert_contains(js, "{\"id\":\"socket.rmem-max\",\"stage\":\"socket\","
			"\"severity\":\"info\","
			"\"new\":false,");
	free(txt);
	free(js);
	np_watch_frame_free(&f);
	pair_free(&p);
	np_watch_session_free(&sess);
}

/*
 * A frame between full walks: listeners and UDP read now, established flows carried from the
 * walk 3 s before. The cadence line says so, and the findings of flow checks are marked; a UDP
 * finding and an RTT-sized one (no RTT measured on flows here) are not.
 */
static void test_walk_carried(void **state_)
{
	static const char *const ids[] = { "socket.tcp-buffer-ceiling", "socket.udp-socket-drops",
					   "socket.rmem-max", NULL };
	static const enum np_severity sev[] = { NP_SEV_WARNING, NP_SEV_WARNING, NP_SEV_INFO };
	struct np_watch_session sess = { 0 };
	struct np_watch_frame f;
	struct pair p;
	char *txt, *js;

	(void)state_;
	pair_init(&p);
	p.cur.socks.walk = NP_SOCK_WALK_LISTEN;
	p.cur.socks.flows_carried = true;
	p.cur.socks.flows_t = 9;	/* cur is at t = 12 */
	report(&p.rep, ids, sev);
	assert_int_equal(np_watch_frame_build(&f, &sess, &p.a, &p.rep, &p.fn), 0);
	assert_true(f.walk.known);
	assert_false(f.walk.full);
	assert_true(fabs(f.walk.age_s - 3) < 1e-9);
	for (size_t i = 0; i < f.nfind; i++)
		assert_int_equal(f.findings[i].from_walk,
				 !strcmp(f.findings[i].check->id, "socket.tcp-buffer-ceiling"));
	/* What the command adds: the cadence and the measured costs. */
	f.walk.adaptive = true;
	f.walk.every = 10;
	f.walk.walk_cpu_ms = 312.4;
	f.walk.frame_cpu_ms = 4.12;
	txt = render_text(&f);
	assert_contains(txt, "socket local address                         drops/s         drops\n"
			"  full TCP walk every 10 frames (adaptive: 312 ms CPU a walk, 4.1 ms a "
			"frame between), last 3.0 s ago; listeners and UDP every frame\n");
	assert_contains(txt, "summary of socket.tcp-buffer-ceiling  [from the last full TCP "
			"walk]\n");
	free(txt);
	/* Every frame walking (N = 1): no frame between was measured. */
	f.walk.every = 1;
	f.walk.frame_cpu_ms = NAN;
	txt = render_text(&f);
	assert_contains(txt, "  full TCP walk every frame (adaptive: 312 ms CPU a walk), last "
			"3.0 s ago; listeners and UDP every frame\n");
	f.walk.every = 10;
	f.walk.frame_cpu_ms = 4.12;
	assert_contains(txt, "summary of socket.udp-socket-drops\n");
	js = render_json(&f);
	assert_contains(js, "\"socket_walk\":{\"full\":false,\"only_listeners\":false,"
			"\"age_s\":3,\"every\":10,"
			"\"adaptive\":true,\"walk_cpu_ms\":312.4,\"frame_cpu_ms\":4.12}");
	assert_contains(js, "\"id\":\"socket.tcp-buffer-ceiling\",\"stage\":\"socket\","
			"\"severity\":\"warning\",\"new\":false,\"from_walk\":true,");
	free(txt);
	free(js);
	np_watch_frame_free(&f);

	/* A listeners walk before any full walk succeeded: nothing carried, age unknown; a
	 * fixed cadence says where it comes from. */
	p.cur.socks.flows_carried = false;
	p.cur.socks.flows_t = NAN;
	assert_int_equal(np_watch_frame_build(&f, &sess, &p.a, &p.rep, &p.fn), 0);
	assert_true(isnan(f.walk.age_s));
	f.walk.every = 5;
	txt = render_text(&f);
	assert_contains(txt, "  full TCP walk every 5 frames (--socket-walk-every), last unknown; "
			"listeners and UDP every frame\n");
	free(txt);
	np_watch_frame_free(&f);

	/* A namespace with no TCP socket but listeners: the listeners walk saw them all, fresh;
	 * nothing is marked as the walk's. */
	p.cur.socks.only_listeners = true;
	p.cur.socks.flows_t = 12;
	assert_int_equal(np_watch_frame_build(&f, &sess, &p.a, &p.rep, &p.fn), 0);
	assert_true(f.walk.full && f.walk.only_listeners);
	assert_true(f.walk.age_s == 0);
	for (size_t i = 0; i < f.nfind; i++)
		assert_false(f.findings[i].from_walk);
	txt = render_text(&f);
	assert_contains(txt, "  no TCP socket here but listeners (sockstat): no full TCP walk "
			"needed; listeners and UDP every frame\n");
	js = render_json(&f);
	assert_contains(js, "\"socket_walk\":{\"full\":true,\"only_listeners\":true,"
			"\"age_s\":0,");
	free(txt);
	free(js);
	np_watch_frame_free(&f);
	np_watch_session_free(&sess);
	pair_free(&p);
}

/* Every check the frame marks as judged on carried flows exists: a renamed check would
 * otherwise silently lose its mark. */
static void test_flow_checks_exist(void **state_)
{
	size_t n;
	const char *const *ids = np_watch_flow_check_ids(&n);

	(void)state_;
	assert_true(n >= 4);
	for (size_t i = 0; i < n; i++) {
		if (!np_check_find(ids[i]))
			fprintf(stderr, "no check %s\n", ids[i]);
		assert_non_null(np_check_find(ids[i]));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model_rates),
		cmocka_unit_test(test_model_fallbacks),
		cmocka_unit_test(test_new_findings),
		cmocka_unit_test(test_walk_carried),
		cmocka_unit_test(test_flow_checks_exist),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
