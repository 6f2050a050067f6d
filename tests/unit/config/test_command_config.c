// SPDX-License-Identifier: GPL-2.0-only
/*
 * One settings file for every command (cmd/command_config.c): watch and trace read --config
 * FILE as doctor does, the file's thresholds, check/skip lines, rtt and bandwidth land where
 * their analysis takes them, the interval only where the command asks for it, a bad line names
 * the file and line, --help reads nothing, and the default path is meson's sysconfdir.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "command_config.h"
#include "config.h"
#include "conffile.h"
#include "specs.h"

#define assert_near(x, want, eps) do { \
	double x_ = (x), w_ = (want); \
	if (!(fabs(x_ - w_) <= (eps))) \
		fail_msg("%s = %.17g, expected %.17g", #x, x_, w_); \
} while (0)

static char dir[] = "/tmp/np-cmdconf-XXXXXX";
static char path[256];

static void write_conf(const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(path, 0644), 0);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/netpath.conf", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(path);
	return rmdir(dir);
}

/* Run the loader for spec as "CMD --config PATH [extra]". */
static int load(const struct np_cmd_spec *spec, int id, const char *extra, struct np_config *cfg,
		struct np_options *opt, double *interval, struct np_status *st)
{
	char *argv[] = { (char *)spec->name, "--config", path, (char *)extra, NULL };
	int argc = extra ? 4 : 3;

	memset(st, 0, sizeof(*st));
	opt->rtt_ms = NAN;
	opt->bandwidth_bps = NAN;
	return np_command_config_load(spec, id, argc, argv, cfg, opt, interval, st);
}

static void test_watch_and_trace_read_it(void **state)
{
	static const struct { const struct np_cmd_spec *spec; int id; } cmds[] = {
		{ &np_watch_spec, NP_WATCH_CONFIG }, { &np_trace_spec, NP_TRACE_CONFIG },
		{ &np_doctor_spec, NP_DOCTOR_CONFIG },
	};
	const struct np_check *bl = np_check_find("softnet.backlog-drops");
	struct np_options opt;
	struct np_config cfg;
	struct np_status st;
	double interval = 1;

	(void)state;
	assert_non_null(bl);
	write_conf("threshold softnet.backlog-drops warn=7 crit=70\n"
		   "skip congestion.*\n"
		   "rtt 30\n"
		   "bandwidth 10G\n"
		   "interval 2\n");
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		interval = 1;
		assert_int_equal(load(cmds[i].spec, cmds[i].id, NULL, &cfg, &opt, &interval, &st), 0);
		assert_near(opt.rtt_ms, 30, 1e-9);
		assert_near(opt.bandwidth_bps, 10e9, 1);
		assert_near(interval, 2, 1e-9);
		assert_near(np_check_warn(bl, &cfg.ovr), 7, 1e-9);
		assert_near(np_check_crit(bl, &cfg.ovr), 70, 1e-9);
		assert_false(np_selection_want(np_check_find("congestion.cc"), &cfg.sel));
		assert_true(np_selection_want(bl, &cfg.sel));
		np_config_free(&cfg);
	}
	/* watch's frame period is not doctor's sampling interval: left alone without a pointer. */
	assert_int_equal(load(&np_watch_spec, NP_WATCH_CONFIG, NULL, &cfg, &opt, NULL, &st), 0);
	assert_near(opt.rtt_ms, 30, 1e-9);
	np_config_free(&cfg);
}

static void test_errors(void **state)
{
	struct np_options opt;
	struct np_config cfg;
	struct np_status st;

	(void)state;
	write_conf("# ok\nrtt fast\n");
	assert_int_equal(load(&np_trace_spec, NP_TRACE_CONFIG, NULL, &cfg, &opt, NULL, &st), -1);
	assert_non_null(strstr(st.msg, "netpath.conf:2: invalid rtt 'fast'"));
	write_conf("threshold no.such-check warn=1\n");
	assert_int_equal(load(&np_watch_spec, NP_WATCH_CONFIG, NULL, &cfg, &opt, NULL, &st), -1);
	assert_non_null(strstr(st.msg, "netpath.conf:1: "));
	/* The file's bytes are quoted escaped: no escape sequence reaches the admin's terminal,
	 * whichever step (the parser, the command's value check, the check selection) refuses. */
	write_conf("\033]0;evil\007 1\n");
	assert_int_equal(load(&np_doctor_spec, NP_DOCTOR_CONFIG, NULL, &cfg, &opt, NULL, &st), -1);
	assert_non_null(strstr(st.msg, "netpath.conf:1: unknown setting '\\x1b]0;evil\\x07'"));
	write_conf("rtt 3\033[2J\n");
	assert_int_equal(load(&np_trace_spec, NP_TRACE_CONFIG, NULL, &cfg, &opt, NULL, &st), -1);
	assert_non_null(strstr(st.msg, "netpath.conf:1: invalid rtt '3\\x1b[2J'"));
	write_conf("threshold \033[2J warn=1\n");
	assert_int_equal(load(&np_watch_spec, NP_WATCH_CONFIG, NULL, &cfg, &opt, NULL, &st), -1);
	assert_non_null(strstr(st.msg, "\\x1b[2J"));
	assert_null(strchr(st.msg, '\033'));
	/* A file others could change is refused, as doctor refuses it. */
	write_conf("rtt 1\n");
	assert_int_equal(chmod(path, 0666), 0);
	assert_int_equal(load(&np_watch_spec, NP_WATCH_CONFIG, NULL, &cfg, &opt, NULL, &st), -1);
	/* --help reads nothing, not even a bad file. */
	write_conf("bogus\n");
	assert_int_equal(load(&np_watch_spec, NP_WATCH_CONFIG, "--help", &cfg, &opt, NULL, &st), 0);
}

/* The default file is /etc's whatever the prefix (where an admin puts it, and what the man page
 * and --help name); meson's sysconfdir is the second directory read (test_dropins.c). */
static void test_default_path(void **state)
{
	(void)state;
	assert_string_equal(NP_CONFIG_PATH, "/etc/netpath.conf");
	assert_string_equal(NP_CONFIG_SYSCONFDIR "/netpath.conf", NETPATH_CONFIG_PATH);
}

/* --config FILE reads that file alone: not the drop-ins beside it (a check command or a test
 * wants exactly the file it names). */
static void test_config_file_alone(void **state)
{
	char ddir[300], dropin[320];
	struct np_options opt;
	struct np_config cfg;
	struct np_status st;
	FILE *f;

	(void)state;
	snprintf(ddir, sizeof(ddir), "%s/netpath.conf.d", dir);
	snprintf(dropin, sizeof(dropin), "%s/bad.conf", ddir);
	assert_int_equal(mkdir(ddir, 0755), 0);
	f = fopen(dropin, "w");
	assert_non_null(f);
	fputs("bogus\nrtt 99\n", f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(dropin, 0644), 0);
	write_conf("rtt 12\n");
	assert_int_equal(load(&np_doctor_spec, NP_DOCTOR_CONFIG, NULL, &cfg, &opt, NULL, &st), 0);
	assert_near(opt.rtt_ms, 12, 1e-9);
	assert_int_equal(cfg.nfiles, 1);
	assert_string_equal(np_config_file(&cfg, 1), path);
	unlink(dropin);
	assert_int_equal(rmdir(ddir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_watch_and_trace_read_it),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_default_path),
		cmocka_unit_test(test_config_file_alone),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
