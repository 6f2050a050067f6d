// SPDX-License-Identifier: GPL-2.0-only
/* Watch frames: the model from two synthetic snapshots, and its text and JSON renderings. */
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

struct pair {
	struct np_snapshot prev, cur;
	struct np_options opt;
	struct np_analysis a;
	struct np_report rep;
	struct np_funnel fn;
};

static void add_irq(struct np_snapshot *s, unsigned irq, const char *name, uint64_t c0, uint64_t c1)
{
	struct np_interrupts *t = &s->irqs;
	struct np_irq_line *l;

	if (!t->col_cpu) {
		t->ncols = 2;
		t->col_cpu = calloc(2, sizeof(int));
		assert_non_null(t->col_cpu);
		t->col_cpu[0] = 0;
		t->col_cpu[1] = 1;
	}
	t->lines = realloc(t->lines, (t->n + 1) * sizeof(*t->lines));
	assert_non_null(t->lines);
	l = &t->lines[t->n++];
	memset(l, 0, sizeof(*l));
	l->irq = irq;
	snprintf(l->name, sizeof(l->name), "%s", name);
	l->role = NP_IRQ_RX;
	l->count = calloc(2, sizeof(*l->count));	/* dense */
	assert_non_null(l->count);
	l->ncount = 2;
	l->count[0] = c0;
	l->count[1] = c1;
	l->total = c0 + c1;
}

static void add_qstat(struct np_snapshot *s, int queue, uint64_t packets)
{
	struct np_ethtool *e = &s->eth;

	e->qstats = realloc(e->qstats, (e->nqstats + 1) * sizeof(*e->qstats));
	assert_non_null(e->qstats);
	e->qstats[e->nqstats++] = (struct np_qstat){ queue, packets, NP_NA, NP_NA, NP_NA, NP_NA,
						      NP_NA, NP_NA, NP_NA };
}

/* A virtio_net-like device over 2 s: 1000 pkt/s in, 10/s missed at the NIC, CPU 0 dropping
 * 5/s from its backlog, CPU 1's 32-bit processed counter wrapping, packets per queue from
 * qstats and drops from the driver's rxN_drops, two IRQ lines, one UDP socket dropping. */
static void state(struct np_snapshot *s, double t, int k)
{
	synth_init(s, t);
	synth_softnet(s, 2);
	s->dev.stats.rx_packets = 1000 + 2000 * (uint64_t)k;
	s->dev.stats.rx_crc_errors = s->dev.stats.rx_frame_errors = 0;
	s->dev.stats.rx_length_errors = s->dev.stats.rx_fifo_errors = 0;
	s->dev.stats.rx_over_errors = 0;
	s->dev.stats.rx_missed_errors = 20 * (uint64_t)k;
	s->softnet.rows[0].processed = 100 + 2000 * (uint64_t)k;
	s->softnet.rows[0].dropped = 10 * (uint64_t)k;
	s->softnet.rows[1].processed = k ? 0x10 : 0xfffffff0;	/* one wrap: +32 */
	s->softnet.rows[1].time_squeeze = 4 + 4 * (uint64_t)k;
	s->softnet.rows[1].received_rps = 0;
	snprintf(s->eth.driver, sizeof(s->eth.driver), "virtio_net");
	add_qstat(s, 0, 500 + 2000 * (uint64_t)k);
	add_qstat(s, 1, 7);
	assert_int_equal(np_counters_set(&s->eth.drv_stats, "rx0_drops", 6 * (uint64_t)k), 0);
	assert_int_equal(np_counters_set(&s->eth.drv_stats, "rx_drops", 6 * (uint64_t)k), 0);
	assert_int_equal(np_counters_set(&s->eth.drv_stats, "rx1_drops", 0), 0);
	add_irq(s, 30, "virtio2-input.0", 100 + 400 * (uint64_t)k, 5);
	add_irq(s, 31, "virtio2-output.0", 0, 10 + 20 * (uint64_t)k);
	s->socks.udp_total = 3;
	s->socks.udp.n = 1;
	s->socks.udp.total = 1;
	s->socks.udp.e[0].id.family = AF_INET;
	s->socks.udp.e[0].id.sport = 5353;
	s->socks.udp.e[0].id.inode = 4242;
	s->socks.udp.e[0].drops = 100 + 200 * (uint64_t)k;
}

static void pair_init(struct pair *p)
{
	memset(p, 0, sizeof(*p));
	state(&p->prev, 10, 0);
	state(&p->cur, 12, 1);
	p->opt = (struct np_options){ .interval = 2, .rtt_ms = NAN, .bandwidth_bps = NAN };
	p->a = (struct np_analysis){ .prev = &p->prev, .cur = &p->cur, .dt = 2, .opt = &p->opt };
	np_analysis_derive(&p->a);
	np_funnel_build(&p->a, &p->fn);
}

static void pair_free(struct pair *p)
{
	np_snapshot_free(&p->prev);
	np_snapshot_free(&p->cur);
	np_report_free(&p->rep);
}

/* A report holding findings of the given checks and severities (ids NULL-terminated). */
static void report(struct np_report *r, const char *const *ids, const enum np_severity *sev)
{
	size_t n = 0;

	np_report_free(r);
	memset(r, 0, sizeof(*r));
	while (ids[n])
		n++;
	r->f = calloc(n ? n : 1, sizeof(*r->f));
	assert_non_null(r->f);
	for (size_t i = 0; i < n; i++) {
		r->f[i].check = np_check_find(ids[i]);
		assert_non_null(r->f[i].check);
		r->f[i].severity = sev[i];
		snprintf(r->f[i].summary, sizeof(r->f[i].summary), "summary of %s", ids[i]);
	}
	r->n = r->cap = n;
}

static char *render_text(const struct np_watch_frame *f)
{
	/* static: GCC 12 takes the stream's pointer to a local buffer for a dangling one. */
	static char *buf;
	static size_t len;
	FILE *out;

	buf = NULL;
	len = 0;
	out = open_memstream(&buf, &len);

	assert_non_null(out);
	np_render_watch_text(out, f, 60);
	fclose(out);
	np_assert_fits(buf, 60);
	free(buf);
	/* The assertions were written for whole lines: no limit. */
	buf = NULL;
	len = 0;
	out = open_memstream(&buf, &len);
	assert_non_null(out);
	np_render_watch_text(out, f, 0);
	fclose(out);
	return buf;
}

static char *render_json(const struct np_watch_frame *f)
{
	/* static: GCC 12 takes the stream's pointer to a local buffer for a dangling one. */
	static char *buf;
	static size_t len;
	FILE *out;

	buf = NULL;
	len = 0;
	out = open_memstream(&buf, &len);

	assert_non_null(out);
	np_render_watch_json(out, f);
	fclose(out);
	return buf;
}

static void assert_contains(const char *hay, const char *needle)
{
	if (!strstr(hay, needle)) {
		fprintf(stderr, "missing: [%s]\nin:\n%s\n", needle, hay);
		fail();
	}
}

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

/* The whole text frame of the synthetic pair, line by line. */
static void test_text_frame(void **state_)
{
	static const char *const none[] = { NULL };
	struct np_watch_session sess = { 0 };
	struct np_watch_frame f;
	struct pair p;
	char *txt;
	static const char expect[] =
		"netpath watch eth0  frame 1  over 2.00 s  2024-05-01T12:00:01.250Z\n"
		"stage      scope        packets/s     drops/s\n"
		"link       interface        1,000           0\n"
		"nic        interface        1,000          10\n"
		"softnet    host             1,016           5\n"
		"ingress    netns                -           -\n"
		"ip         netns                -           -\n"
		"transport  netns                -           -\n"
		"socket     netns                -           -\n"
		"cpu  processed/s   dropped/s  squeezed/s       rps/s  flow-lim/s   dev-irq/s\n"
		"0          1,000           5           0           0           0         200\n"
		"1             16           0           2           0           0          10\n"
		"queue    rx pkts/s     drops/s  source\n"
		"0            1,000           3  qstats, drops driver\n"
		"1                0           0  qstats, drops driver\n"
		"socket local address                         drops/s         drops\n"
		"  full TCP walk, last this frame; listeners and UDP every frame\n"
		"udp    0.0.0.0:5353                              100           300\n"
		"findings: 0, 0 new since the first frame\n"
		"\n";

	(void)state_;
	pair_init(&p);
	report(&p.rep, none, NULL);
	assert_int_equal(np_watch_frame_build(&f, &sess, &p.a, &p.rep, &p.fn), 0);
	snprintf(f.time, sizeof(f.time), "2024-05-01T12:00:01.250Z");
	txt = render_text(&f);
	if (strcmp(txt, expect) != 0) {
		fprintf(stderr, "got:\n%s\nexpected:\n%s\n", txt, expect);
		fail();
	}
	free(txt);
	np_watch_frame_free(&f);
	np_watch_session_free(&sess);
	pair_free(&p);
}

/* The JSON line: one line, the schema id first, every section present. */
static void test_json_line(void **state_)
{
	static const char *const none[] = { NULL };
	struct np_watch_session sess = { 0 };
	struct np_watch_frame f;
	struct pair p;
	char *js;

	(void)state_;
	pair_init(&p);
	report(&p.rep, none, NULL);
	assert_int_equal(np_watch_frame_build(&f, &sess, &p.a, &p.rep, &p.fn), 0);
	f.elapsed = 2.0004;
	js = render_json(&f);
	assert_non_null(strchr(js, '\n'));
	assert_int_equal(strchr(js, '\n') - js, (long)strlen(js) - 1);
	assert_contains(js, "{\"schema\":\"netpath/watch\",\"version\":1,\"t\":2,\"time\":null,"
			"\"interval_s\":2,\"frame\":1,\"interface\":\"eth0\",\"stages\":[");
	assert_contains(js, "{\"stage\":\"nic\",\"scope\":\"interface\",\"packets_per_s\":1000,"
			"\"drops_per_s\":10}");
	assert_contains(js, "{\"stage\":\"ip\",\"scope\":\"netns\",\"packets_per_s\":null,"
			"\"drops_per_s\":null}");
	assert_contains(js, "\"cpus\":[{\"cpu\":0,\"processed_per_s\":1000,\"dropped_per_s\":5,"
			"\"squeezed_per_s\":0,\"rps_per_s\":0,\"flow_limit_per_s\":0},");
	assert_contains(js, "\"irqs\":[{\"cpu\":0,\"per_s\":200},{\"cpu\":1,\"per_s\":10}]");
	assert_contains(js, "\"sockets\":[{\"proto\":\"udp\",\"local\":\"0.0.0.0:5353\","
			"\"drops_per_s\":100,\"drops\":300}],\"socket_walk\":{\"full\":true,"
			"\"only_listeners\":false,\"age_s\":0,\"every\":null,\"adaptive\":false,"
			"\"walk_cpu_ms\":null,\"frame_cpu_ms\":null},\"findings\":[],"
			"\"unavailable\":{}}\n");
	free(js);
	np_watch_frame_free(&f);
	np_watch_session_free(&sess);
	pair_free(&p);
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

/* An error ends a JSON-lines stream as one line too. */
static void test_json_error_line(void **state_)
{
	/* static: GCC 12 takes the stream's pointer to a local buffer for a dangling one. */
	static char *buf;
	static size_t len;
	FILE *out;

	buf = NULL;
	len = 0;
	out = open_memstream(&buf, &len);

	(void)state_;
	assert_non_null(out);
	np_render_watch_error_json(out, "interface 'vx' disappeared", 3);
	fclose(out);
	assert_string_equal(buf, "{\"schema\":\"netpath/error\",\"version\":1,"
			    "\"command\":\"watch\","
			    "\"error\":\"interface 'vx' disappeared\",\"exit_code\":3}\n");
	free(buf);
}

static void line_count(void *arg, const struct np_watch_line *l)
{
	size_t *n = arg;

	n[l->section]++;
	if (l->kind == NP_WL_NOTE && strstr(l->text, "+1 quieter CPUs not shown"))
		n[NP_WS__COUNT]++;
	if (l->section == NP_WS_CPUS && l->kind == NP_WL_ROW && l->text[0] == '1')
		n[NP_WS__COUNT + 1]++;
}

/* A screen's layout keeps the busiest CPUs and says how many it left out. */
static void test_layout_truncates(void **state_)
{
	static const char *const none[] = { NULL };
	struct np_watch_session sess = { 0 };
	struct np_watch_layout lay = { .max_cpus = 1 };
	struct np_watch_frame f;
	size_t n[NP_WS__COUNT + 2] = { 0 };
	struct pair p;

	(void)state_;
	pair_init(&p);
	report(&p.rep, none, NULL);
	assert_int_equal(np_watch_frame_build(&f, &sess, &p.a, &p.rep, &p.fn), 0);
	np_watch_lines(&f, &lay, line_count, n);
	/* Header, CPU 0 (it drops), the "+1 quieter" note. */
	assert_int_equal(n[NP_WS_CPUS], 3);
	assert_int_equal(n[NP_WS__COUNT], 1);
	assert_int_equal(n[NP_WS__COUNT + 1], 0);
	np_watch_frame_free(&f);
	np_watch_session_free(&sess);
	pair_free(&p);
}

static void line_total(void *arg, const struct np_watch_line *l)
{
	size_t *n = arg;

	n[0]++;
	if (l->kind == NP_WL_FINDING)
		n[1]++;
	if (l->section == NP_WS_CPUS && l->kind == NP_WL_ROW && strncmp(l->text, "0 ", 2) == 0)
		n[2]++;
}

/* A 64-CPU frame with 12 findings on a 24-line screen: everything fits in 24 lines, findings
 * keep a share, and the CPU that drops stays in view. Roomy screens are not limited. */
static void test_layout_fit(void **state_)
{
	static const char *const ids[] = { "nic.missed", "softnet.backlog-drops",
		"softnet.time-squeeze", "socket.rmem-max", "socket.udp-rcvbuf", "ip.no-route",
		"irq.gro", "link.mtu-jumbo", "congestion.keepalive", "congestion.mtu-probing",
		"transport.udp-no-ports", "irq.affinity", NULL };
	static const enum np_severity sev[12] = { NP_SEV_WARNING, NP_SEV_CRITICAL };
	struct np_watch_session sess = { 0 };
	struct np_watch_layout lay;
	struct np_watch_frame f;
	struct pair p;

	(void)state_;
	pair_init(&p);
	report(&p.rep, ids, sev);
	assert_int_equal(np_watch_frame_build(&f, &sess, &p.a, &p.rep, &p.fn), 0);
	assert_int_equal(f.nfind, 2);	/* severity ok (0) is not shown */
	for (size_t i = 0; i < p.rep.n; i++)
		p.rep.f[i].severity = NP_SEV_INFO;
	np_watch_frame_free(&f);
	assert_int_equal(np_watch_frame_build(&f, &sess, &p.a, &p.rep, &p.fn), 0);
	assert_int_equal(f.nfind, 12);
	free(f.cpus);
	f.ncpu = 64;
	f.cpus = calloc(f.ncpu, sizeof(*f.cpus));
	assert_non_null(f.cpus);
	for (size_t i = 0; i < f.ncpu; i++)
		f.cpus[i] = (struct np_watch_cpu){ (int)i, 100.0 + (double)i, 0, 0, 0, 0 };
	f.cpus[0].dropped = 7;	/* the quietest CPU by traffic, but it drops */
	for (size_t rows = 24; rows <= 60; rows += 12) {
		size_t n[3] = { 0 };

		np_watch_layout_fit(&f, rows, &lay);
		np_watch_lines(&f, &lay, line_total, n);
		assert_true(n[0] <= rows);
		assert_true(n[1] >= 3);
		assert_int_equal(n[2], 1);
		assert_true(lay.max_cpus > 0 && lay.max_cpus < 64);
	}
	np_watch_layout_fit(&f, 200, &lay);
	assert_int_equal(lay.max_cpus, 0);
	assert_int_equal(lay.max_findings, 0);
	np_watch_frame_free(&f);
	np_watch_session_free(&sess);
	pair_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model_rates),
		cmocka_unit_test(test_model_fallbacks),
		cmocka_unit_test(test_new_findings),
		cmocka_unit_test(test_text_frame),
		cmocka_unit_test(test_json_line),
		cmocka_unit_test(test_walk_carried),
		cmocka_unit_test(test_flow_checks_exist),
		cmocka_unit_test(test_json_error_line),
		cmocka_unit_test(test_layout_truncates),
		cmocka_unit_test(test_layout_fit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
