// SPDX-License-Identifier: GPL-2.0-only
/* Every command but doctor (test_optable.c) over its own table: each value lands in the row's
 * destination in the command's configuration (cmd_args.h), and the rules declared on the rows
 * (needs, conflicts) are what refuses a combination, so deleting a rule fails here. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cmd_args.h"
#include "specs.h"

/* The ids that reached the command's callback (rows without a destination). */
static int called[16];
static size_t ncalled;

static int record(void *arg, int id, const struct np_optval *v, struct np_status *st)
{
	(void)arg;
	(void)v;
	(void)st;
	if (ncalled < 16)
		called[ncalled++] = id;
	return 0;
}

/* A NULL-terminated argv (argv[0] the command) through spec into cfg, zeroed first. */
static int parse(const struct np_cmd_spec *spec, void *cfg, size_t size, struct np_status *st,
		 char **argv)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	memset(cfg, 0, size);
	memset(st, 0, sizeof(*st));
	ncalled = 0;
	return np_opts_parse(spec, argc, argv, record, cfg, st);
}

static void watch_values_land(void **state)
{
	char *argv[] = { "watch", "-i", "0.5", "-n", "7", "-b", "--json", "--color", "never",
			 "--socket-walk-every", "3", "--netns", "ns1", "-vv", "eth0", NULL };
	struct watch_args w;
	struct np_status st;

	(void)state;
	assert_int_equal(parse(&np_watch_spec, &w, sizeof(w), &st, argv), 0);
	assert_true(w.interval == 0.5);
	assert_int_equal(w.count, 7);
	assert_true(w.batch && w.json);
	assert_int_equal(w.color, NP_COLOR_NEVER);
	assert_int_equal(w.walk_every, 3);
	assert_string_equal(w.netns, "ns1");
	assert_int_equal(w.verbose, 2);
	assert_int_equal(ncalled, 0);
	assert_int_equal(optind, 14);
}

static void trace_values_land(void **state)
{
	char *argv[] = { "trace", "-d", "2", "-j", "-a", "--top", "0", "--by", "port", "--stack",
			 "--netns", "n", "--xdp", "--xdp-mode", "generic", "--xdp-accept-reset",
			 "--host", "10.0.0.0/8", "-v", NULL };
	struct trace_args t;
	struct np_status st;

	(void)state;
	assert_int_equal(parse(&np_trace_spec, &t, sizeof(t), &st, argv), 0);
	assert_true(t.duration == 2);
	assert_true(t.json && t.all && t.stacks && t.xdp && t.xdp_accept_reset);
	assert_int_equal(t.top, 0);
	assert_int_equal(t.by, 3);		/* flow src dst port */
	assert_int_equal(t.xdp_mode, 2);	/* auto native generic */
	assert_string_equal(t.netns, "n");
	assert_int_equal(t.verbose, 1);
	/* --host is parsed by trace's own filter parser: the one without a destination */
	assert_int_equal(ncalled, 1);
	assert_int_equal(called[0], NP_TRACE_HOST);
}

static void capture_diff_plan_reference_values_land(void **state)
{
	char *cap[] = { "capture", "-o", "f.tgz", "-i", "2", "--all", "--netns", "n",
			"--no-compress", "-v", NULL };
	char *dif[] = { "diff", "--live", "-i", "0", "-j", "-o", "out", "--color=always", "b",
			NULL };
	char *pln[] = { "plan", "-p", "busy-server", "--all", "--rtt", "20", "--bandwidth",
			"10G", "-i", "3", "--root", "r", "-j", "-w", "d", "-vv", NULL };
	char *chk[] = { "checks", "--json", NULL };
	struct capture_args c;
	struct diff_args d;
	struct plan_args p;
	struct reference_args r;
	struct np_status st;

	(void)state;
	assert_int_equal(parse(&np_capture_spec, &c, sizeof(c), &st, cap), 0);
	assert_string_equal(c.output, "f.tgz");
	assert_true(c.interval == 2 && c.all && c.plain);
	assert_string_equal(c.netns, "n");
	assert_int_equal(c.verbose, 1);
	assert_int_equal(parse(&np_diff_spec, &d, sizeof(d), &st, dif), 0);
	assert_true(d.live && d.json && d.interval == 0);
	assert_string_equal(d.output, "out");
	assert_int_equal(d.color, NP_COLOR_ALWAYS);
	assert_int_equal(parse(&np_plan_spec, &p, sizeof(p), &st, pln), 0);
	assert_int_equal(p.profile, 2);		/* lan long-haul busy-server low-latency */
	assert_true(p.all && p.json && p.rtt_ms == 20 && p.bw_bps == 10e9 && p.interval == 3);
	assert_string_equal(p.root, "r");
	assert_string_equal(p.write, "d");
	assert_int_equal(p.verbose, 2);
	assert_int_equal(parse(&np_checks_spec, &r, sizeof(r), &st, chk), 0);
	assert_true(r.json);
	assert_int_equal(parse(&np_explain_spec, &r, sizeof(r), &st, chk), 0);
	assert_true(r.json);
	assert_int_equal(ncalled, 0);
}

/* The rules declared on trace's and diff's rows, with the messages the commands gave before
 * (tests/integration/diff-cli.sh greps "needs --live"); a failure, not a usage error. */
static void declared_rules_refuse(void **state)
{
	static const struct {
		const struct np_cmd_spec *spec;
		char *argv[6];
		const char *msg;
	} cases[] = {
		{ &np_trace_spec, { "trace", "--xdp-mode", "native", "eth0", NULL },
		  "--xdp-mode and --xdp-accept-reset go with --xdp" },
		{ &np_trace_spec, { "trace", "--xdp-accept-reset", NULL },
		  "--xdp-mode and --xdp-accept-reset go with --xdp" },
		{ &np_diff_spec, { "diff", "--interval", "2", "a", "b", NULL },
		  "--interval needs --live (a captured tree is one instant)" },
	};
	union {
		struct trace_args t;
		struct diff_args d;
	} cfg;
	struct np_status st;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(parse(cases[i].spec, &cfg, sizeof(cfg), &st,
				       (char **)cases[i].argv), -1);
		assert_true(np_failed(&st));
		assert_int_equal(st.code, NP_EXIT_UNKNOWN);
		assert_string_equal(st.msg, cases[i].msg);
		assert_false(st.usage);
	}
	/* with what they need, the same options pass */
	char *xdp[] = { "trace", "--xdp-mode", "native", "--xdp", "--xdp-accept-reset", NULL };
	char *live[] = { "diff", "--interval", "2", "--live", "a", NULL };

	assert_int_equal(parse(&np_trace_spec, &cfg, sizeof(cfg), &st, xdp), 0);
	assert_int_equal(parse(&np_diff_spec, &cfg, sizeof(cfg), &st, live), 0);
}

/* A value the table can check, for an option given alone. */
static char *sample_value(const struct np_opt *o, char *buf, size_t size)
{
	switch (o->kind) {
	case NP_ARG_NUMBER:
		snprintf(buf, size, "%g", o->max);
		return buf;
	case NP_ARG_BANDWIDTH:
		return "10G";
	case NP_ARG_CHOICE:
		snprintf(buf, size, "%.*s", (int)strcspn(o->words, " "), o->words);
		return buf;
	default:
		return "x";
	}
}

/* Every table: each rule names an option of the same table and says why; and an option given
 * without the first option it needs is refused with that rule's message. */
static void every_rule_is_checked(void **state)
{
	static union {
		struct watch_args w;
		struct trace_args t;
		struct capture_args c;
		struct diff_args d;
		struct plan_args p;
		struct reference_args r;
		char doctor[8192];	/* doctor_args: test_optable.c's */
	} cfg;
	size_t rules = 0;

	(void)state;
	for (size_t c = 0; c < NP_CMD__COUNT; c++) {
		const struct np_cmd_spec *spec = np_cmd_specs[c];

		for (const struct np_opt *o = spec->opts; o->name; o++) {
			for (size_t i = 0; i < 2; i++) {
				const struct np_opt_rule *r[2] = { &o->needs[i], &o->conflicts[i] };

				for (size_t k = 0; k < 2; k++) {
					if (!r[k]->other)
						continue;
					assert_non_null(np_opts_find(spec, r[k]->other));
					assert_int_not_equal(r[k]->other, o->id);
					assert_non_null(r[k]->msg);
					rules++;
				}
			}
			if (!o->needs[0].other)
				continue;

			char opt[64], val[64], *argv[4] = { (char *)spec->name, opt, NULL, NULL };
			struct np_status st;

			snprintf(opt, sizeof(opt), "--%s", o->name);
			if (o->arg)
				argv[2] = sample_value(o, val, sizeof(val));
			assert_int_equal(parse(spec, &cfg, sizeof(cfg), &st, argv), -1);
			assert_string_equal(st.msg, o->needs[0].msg);
		}
	}
	/* doctor's 8 (at least), trace's 2, diff's 1 */
	assert_true(rules >= 11);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(watch_values_land),
		cmocka_unit_test(trace_values_land),
		cmocka_unit_test(capture_diff_plan_reference_values_land),
		cmocka_unit_test(declared_rules_refuse),
		cmocka_unit_test(every_rule_is_checked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
