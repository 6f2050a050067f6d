// SPDX-License-Identifier: GPL-2.0-only
/* Watch frames rendered: the text frame, the JSON line (and an error as one line), and the
 * screen layout that keeps the busiest CPUs and fits findings in the lines it has. */
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

/* An error ends a JSON-lines stream as one line too. */
static void test_json_error_line(void **state_)
{
	static char *buf;
	static size_t len;
	FILE *out = mem_open(&buf, &len);

	(void)state_;
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
		cmocka_unit_test(test_text_frame),
		cmocka_unit_test(test_json_line),
		cmocka_unit_test(test_json_error_line),
		cmocka_unit_test(test_layout_truncates),
		cmocka_unit_test(test_layout_fit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
