// SPDX-License-Identifier: GPL-2.0-only
/* np_opts_parse() over the real tables: values checked with the table's hint, the spelled-out
 * rule, --help; and every table is well formed (unique ids and names, hints, choices). */
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
#include "doctor_run.h"
#include "opts.h"
#include "specs.h"

struct seen {
	int ids[16];
	double num[16];
	int choice[16];
	const char *s[16];
	size_t n;
};

static int record(void *arg, int id, const struct np_optval *v, struct np_status *st)
{
	struct seen *r = arg;

	(void)st;
	if (r->n < 16) {
		r->ids[r->n] = id;
		r->num[r->n] = v->num;
		r->choice[r->n] = v->choice;
		r->s[r->n] = v->s;
		r->n++;
	}
	return 0;
}

/* The options a row gives no destination reach the callback (into this). */
static struct seen doctor_seen;

static int record_doctor(void *arg, int id, const struct np_optval *v, struct np_status *st)
{
	(void)arg;
	return record(&doctor_seen, id, v, st);
}

/* Every command's configuration, which its rows store into (NP_TO): never into a struct seen. */
static union {
	struct doctor_args doctor;
	struct watch_args watch;
	struct trace_args trace;
	struct capture_args capture;
	struct diff_args diff;
	struct plan_args plan;
	struct reference_args reference;
} cmd_args;

/* doctor's table over its own configuration: the rows' destinations (NP_TO). */
static int parse_doctor(struct doctor_args *d, struct np_status *st, char **argv)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	memset(d, 0, sizeof(*d));
	memset(st, 0, sizeof(*st));
	memset(&doctor_seen, 0, sizeof(doctor_seen));
	return np_opts_parse(&np_doctor_spec, argc, argv, record_doctor, d, st);
}

/* Parse a NULL-terminated argument list (argv[0] is the command) with spec. */
static int parse(const struct np_cmd_spec *spec, struct seen *r, struct np_status *st, ...)
{
	static char *argv[32];
	va_list ap;
	int argc = 0, ret;

	va_start(ap, st);
	for (char *a; (a = va_arg(ap, char *)) && argc < 31;)
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;
	memset(r, 0, sizeof(*r));
	memset(st, 0, sizeof(*st));
	/* the rows store into the command's configuration; the callback records the others */
	if (spec == &np_doctor_spec) {
		ret = parse_doctor(&cmd_args.doctor, st, argv);
		*r = doctor_seen;
		return ret;
	}
	memset(&cmd_args, 0, sizeof(cmd_args));
	memset(&doctor_seen, 0, sizeof(doctor_seen));
	ret = np_opts_parse(spec, argc, argv, record_doctor, &cmd_args, st);
	*r = doctor_seen;
	return ret;
}

static void values_reach_the_command(void **state)
{
	char *argv[] = { "doctor", "-i", "2.5", "--color=never", "--bandwidth", "10G",
			 "--format", "prometheus", "--sockets", "3", "--netns", "/x", "-vv",
			 "--count", "4", "--every", "2", "-o", "f", "eth0", NULL };
	struct doctor_args d;
	struct np_status st;

	(void)state;
	assert_int_equal(parse_doctor(&d, &st, argv), 0);
	assert_true(d.opt.interval == 2.5);
	assert_int_equal(d.color, NP_COLOR_NEVER);
	assert_true(d.opt.bandwidth_bps == 10e9);
	assert_int_equal(d.sockets_top, 3);
	assert_string_equal(d.netns, "/x");
	assert_int_equal(d.opt.verbose, 2);
	assert_int_equal(d.count, 4);
	assert_true(d.every == 2);
	assert_string_equal(d.output, "f");
	/* --format is doctor's own (by the word): the one option here without a destination */
	assert_int_equal(doctor_seen.n, 1);
	assert_int_equal(doctor_seen.ids[0], NP_DOCTOR_FORMAT);
	assert_string_equal(doctor_seen.s[0], "prometheus");
	assert_int_equal(optind, 19);		/* at IFACE */
}

/* The declared rules (needs, conflicts) with today's messages; not a usage error. */
static void declared_rules_checked(void **state)
{
	static const struct {
		char *argv[8];
		const char *msg;
	} cases[] = {
		{ { "doctor", "--count", "2", NULL },
		  "--count needs --every (the reports of a repeating run)" },
		{ { "doctor", "--every", "2", NULL },
		  "--every rewrites a report file: name it with -o FILE" },
		{ { "doctor", "--every", "2", "-o", "f", "--root", "/", NULL },
		  "--every samples the live system again and again: not with --root" },
		{ { "doctor", "--timeout", "5", "--every", "2", "-o", "f", NULL },
		  "--timeout bounds one run: not with --every" },
		{ { "doctor", "--before", "/a", NULL },
		  "--before needs --root (two captures of the same machine)" },
		{ { "doctor", "--interval-of", "3", NULL },
		  "--interval-of needs --before (the spacing of two captures)" },
		{ { "doctor", "--nagios", "-o", "f", NULL },
		  "--nagios prints its status to stdout for the monitoring system: no -o" },
	};
	struct doctor_args d;
	struct np_status st;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(parse_doctor(&d, &st, (char **)cases[i].argv), -1);
		assert_int_equal(st.code, NP_EXIT_UNKNOWN);
		assert_string_equal(st.msg, cases[i].msg);
		assert_false(st.usage);
	}
}

static void bad_values_name_the_option(void **state)
{
	static const struct {
		const struct np_cmd_spec *spec;
		const char *opt, *val, *msg;
	} cases[] = {
		{ &np_doctor_spec, "--interval", "0x10",
		  "invalid --interval '0x10' (seconds, 0 to 3600)" },
		{ &np_doctor_spec, "-i", "3601", "invalid --interval '3601' (seconds, 0 to 3600)" },
		{ &np_doctor_spec, "--sockets", "1.5",
		  "invalid --sockets '1.5' (a whole number, 0 to 16)" },
		{ &np_doctor_spec, "--bandwidth", "10Q",
		  "invalid --bandwidth '10Q' (e.g. 10G, 500M, 100k)" },
		{ &np_doctor_spec, "--format", "xml",
		  "invalid --format 'xml' (text, json, prometheus)" },
		{ &np_watch_spec, "--count", "0",
		  "invalid --count '0' (a whole number of frames, >= 1)" },
		{ &np_diff_spec, "--color", "sometimes",
		  "invalid --color 'sometimes' (auto, always, never)" },
		{ &np_trace_spec, "--xdp-mode", "fast",
		  "invalid --xdp-mode 'fast' (auto, native, generic)" },
	};
	struct np_status st;
	struct seen r;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(parse(cases[i].spec, &r, &st, "x", cases[i].opt, cases[i].val,
				       NULL), -1);
		assert_true(np_failed(&st));
		assert_int_equal(st.code, NP_EXIT_UNKNOWN);
		assert_string_equal(st.msg, cases[i].msg);
		assert_true(st.usage);
		assert_int_equal(r.n, 0);
	}
}

static void abbreviations_refused_where_exact(void **state)
{
	struct np_status st;
	struct seen r;

	(void)state;
	char *all_c[] = { "doctor", "--all-c", NULL };
	char *value[] = { "doctor", "-o", "--x", "--all", NULL };
	struct doctor_args d;

	assert_int_equal(parse_doctor(&d, &st, all_c), -1);
	assert_string_equal(st.msg, "unknown option '--all-c' (long options are spelled out in "
			    "full)");
	assert_true(st.usage);
	/* The value of an option is no option, whatever it looks like. */
	assert_int_equal(parse_doctor(&d, &st, value), 0);
	assert_string_equal(d.output, "--x");
	assert_true(d.all);
	/* watch keeps getopt's prefixes (it never had the rule). */
	assert_int_equal(parse(&np_watch_spec, &r, &st, "watch", "--inter", "2", NULL), 0);
	assert_true(cmd_args.watch.interval == 2);
}

static void help_is_a_stop_not_a_failure(void **state)
{
	struct np_status st;
	struct seen r;

	(void)state;
	fflush(stdout);
	assert_int_equal(parse(&np_capture_spec, &r, &st, "capture", "--help", "-i", "x", NULL),
			 -1);
	assert_false(np_failed(&st));
	assert_int_equal(st.code, NP_EXIT_OK);
	assert_false(st.usage);
}

/* getopt's refusals: one line each (a usage failure, exit 3), naming the option as written;
 * no usage text anywhere (np_finish adds only the --help hint). */
static void getopt_errors_are_one_line(void **state)
{
	static const struct {
		const struct np_cmd_spec *spec;
		const char *a[4];
		const char *msg;
	} cases[] = {
		{ &np_diff_spec, { "-Z" }, "unknown option '-Z'" },
		{ &np_doctor_spec, { "--nagios", "-w", "10" }, "unknown option '-w'" },
		{ &np_doctor_spec, { "-vjx", "lo" }, "unknown option '-x'" },
		{ &np_doctor_spec, { "--bogus=1", "lo" }, "unknown option '--bogus' (long options "
		  "are spelled out in full)" },
		{ &np_checks_spec, { "--bogus=1" }, "unknown option '--bogus'" },
		{ &np_watch_spec, { "--co", "1" }, "ambiguous option '--co' (spell it out)" },
		{ &np_doctor_spec, { "lo", "--interval" }, "option '--interval' needs a value (SEC)" },
		{ &np_doctor_spec, { "lo", "-i" }, "option '-i' needs a value (SEC)" },
		{ &np_doctor_spec, { "lo", "-vi" }, "option '-i' needs a value (SEC)" },
		{ &np_doctor_spec, { "--rtt" }, "option '--rtt' needs a value (MS)" },
		{ &np_doctor_spec, { "--json=1" }, "option '--json' takes no value" },
		{ &np_doctor_spec, { "--nagios=yes" }, "option '--nagios' takes no value" },
		{ &np_watch_spec, { "--count" }, "option '--count' needs a value (N)" },
	};
	struct np_status st;
	struct seen r;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *const *a = cases[i].a;

		assert_int_equal(parse(cases[i].spec, &r, &st, "x", a[0], a[1], a[2], NULL), -1);
		assert_true(np_failed(&st));
		assert_true(st.usage);
		assert_int_equal(st.code, NP_EXIT_UNKNOWN);
		assert_string_equal(st.msg, cases[i].msg);
	}
	/* The value is quoted escaped: no control byte from argv reaches the terminal. */
	assert_int_equal(parse(&np_doctor_spec, &r, &st, "x", "--rtt", "1\033[2J", NULL), -1);
	assert_string_equal(st.msg, "invalid --rtt '1\\x1b[2J' (milliseconds, > 0)");
	assert_int_equal(parse(&np_doctor_spec, &r, &st, "x", "--\033]0;x\007", NULL), -1);
	assert_string_equal(st.msg, "unknown option '--\\x1b]0;x\\x07' (long options are "
			    "spelled out in full)");
	/* A bad value is a usage failure too. */
	assert_int_equal(parse(&np_doctor_spec, &r, &st, "x", "-i", "abc", NULL), -1);
	assert_true(st.usage);
}

/* The layout of --help: two-column options, continuation lines under the text. */
static void help_layout(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	np_opts_help(&np_doctor_spec, f, 80);
	fclose(f);
	assert_non_null(strstr(buf, "Usage: netpath doctor [OPTIONS] [IFACE]\n"));
	assert_non_null(strstr(buf, "\n  -i, --interval SEC     sample counters over SEC seconds"));
	assert_non_null(strstr(buf, "\n      --rtt MS           round-trip time"));
	assert_non_null(strstr(buf, "\n      --threshold ID:warn=N,crit=N\n"
				    "                         override a check's thresholds"));
	assert_non_null(strstr(buf, "text, json or prometheus (text format 0.0.4, for the\n"
				    "                         node_exporter textfile collector)\n"));
	assert_non_null(strstr(buf, "\n  -V, --version          print netpath's version and exit"));
	assert_non_null(strstr(buf, "\n  -h, --help             this text (with --nagios: exit 3)\n\n"
				    "Exit: 0 no"));
	free(buf);
	/* checks lists its options (--json, --version, --help) under its synopsis. */
	buf = NULL;
	f = open_memstream(&buf, &len);
	np_opts_help(&np_checks_spec, f, 80);
	fclose(f);
	assert_string_equal(buf, "Usage: netpath checks [--json]\n"
				 "List every check, in receive-path order.\n\n"
				 "  -j, --json             JSON output\n"
				 "  -V, --version          print netpath's version and exit\n"
				 "  -h, --help             this text\n");
	free(buf);
}

static void prescan_finds_config_and_help(void **state)
{
	char *argv[] = { "doctor", "lo", "--config=/a", "-i", "1", "--config", "/b", NULL };
	char *help[] = { "doctor", "--bogus", "-h", NULL };
	const char *v = NULL;

	(void)state;
	assert_false(np_opts_prescan(&np_doctor_spec, 7, argv, NP_DOCTOR_CONFIG, &v));
	assert_string_equal(v, "/b");
	assert_string_equal(argv[1], "lo");	/* not permuted */
	v = NULL;
	assert_true(np_opts_prescan(&np_doctor_spec, 3, help, NP_DOCTOR_CONFIG, &v));
	assert_null(v);
	/* --version, like --help, answers whatever the configuration file says. */
	help[2] = "--version";
	assert_true(np_opts_prescan(&np_doctor_spec, 3, help, NP_DOCTOR_CONFIG, &v));
}

/* Every table: unique ids, letters and names; a hint for every checked value; choices. */
static void tables_are_well_formed(void **state)
{
	(void)state;
	for (size_t c = 0; c < NP_CMD__COUNT; c++) {
		const struct np_cmd_spec *spec = np_cmd_specs[c];
		size_t n = 0;

		assert_non_null(spec->name);
		assert_non_null(spec->summary);
		assert_non_null(np_opts_find(spec, 'h'));
		for (const struct np_opt *o = spec->opts; o->name; o++, n++) {
			assert_true(n < 40);
			for (const struct np_opt *p = spec->opts; p < o; p++) {
				assert_int_not_equal(p->id, o->id);
				assert_string_not_equal(p->name, o->name);
			}
			assert_non_null(o->help);
			if (o->kind != NP_ARG_NONE && o->kind != NP_ARG_STRING)
				assert_non_null(o->hint);
			assert_true((o->kind == NP_ARG_NONE) == (o->arg == NULL));
			if (o->kind == NP_ARG_CHOICE)
				assert_non_null(o->words);
			assert_true(o->id >= 256 || np_opt_short(o));
		}
	}
	assert_string_equal(np_cmd_specs[NP_CMD_DOCTOR]->name, "doctor");
	assert_string_equal(np_cmd_specs[NP_CMD_DIFF]->name, "diff");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(values_reach_the_command),
		cmocka_unit_test(declared_rules_checked),
		cmocka_unit_test(bad_values_name_the_option),
		cmocka_unit_test(abbreviations_refused_where_exact),
		cmocka_unit_test(help_is_a_stop_not_a_failure),
		cmocka_unit_test(getopt_errors_are_one_line),
		cmocka_unit_test(help_layout),
		cmocka_unit_test(prescan_finds_config_and_help),
		cmocka_unit_test(tables_are_well_formed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
