// SPDX-License-Identifier: GPL-2.0-only
/*
 * The config file parser and loader: good input gives the settings it says (threshold levels on
 * two scales included), every kind of bad line gives "FILE:LINE: what is wrong", a NUL byte is
 * not text. (Who may have written the file: test_config_trust.c; check selection and
 * --threshold: test_config_select.c.)
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "doctor_config.h"
#include "config_fixture.h"

static int idx(const char *id)
{
	return np_check_index(chk(id));
}

static size_t glob_count(const char *pattern)
{
	size_t n, k = 0;
	const struct np_check *const *t = np_check_table(&n);

	for (size_t i = 0; i < n; i++)
		k += np_pattern_match(pattern, t[i]);
	return k;
}

static int parse(struct np_config *c, const char *text, char *err, size_t errlen)
{
	err[0] = '\0';
	return np_config_parse(c, "test.conf", text, strlen(text), err, errlen);
}

/* ---- good files ---- */

static void test_parse_good(void **state)
{
	static const char text[] =
		"# netpath.conf for the test\n"
		"\n"
		"threshold softnet.backlog-drops warn=10 crit=1000   # per second\n"
		"threshold\tnic.missed\tcrit=500\r\n"
		"threshold irq.cpu-rate:warn=75\n"
		"check softnet.*, socket.tcp-*\n"
		"check nic.missed\n"
		"skip softnet.flow-limit\n"
		"   interval 5\n"
		"interval 2\n"
		"rtt 30\n"
		"bandwidth 10G";	/* no newline at the end */
	struct np_config c;
	char err[256];
	int b = idx("softnet.backlog-drops"), m = idx("nic.missed");

	(void)state;
	assert_int_equal(parse(&c, text, err, sizeof(err)), 0);
	assert_true(c.ovr.t[b].has_warn && c.ovr.t[b].has_crit);
	assert_true(c.ovr.t[b].warn == 10 && c.ovr.t[b].crit == 1000);
	assert_false(c.ovr.t[m].has_warn);
	assert_true(c.ovr.t[m].has_crit && c.ovr.t[m].crit == 500);
	assert_true(np_check_warn(chk("nic.missed"), &c.ovr) == 1);	/* the table's */
	assert_true(np_check_crit(chk("nic.missed"), &c.ovr) == 500);
	assert_true(np_check_warn(chk("irq.cpu-rate"), &c.ovr) == 75);
	assert_true(isnan(np_check_crit(chk("irq.cpu-rate"), &c.ovr)));
	/* Untouched checks keep the table's thresholds. */
	assert_true(np_check_crit(chk("link.rx-errors"), &c.ovr) ==
		    chk("link.rx-errors")->crit);

	/* Two check lines add up; skip wins over check. */
	assert_true(c.sel.has_check && c.sel.has_skip);
	assert_true(np_selection_want(chk("softnet.backlog-drops"), &c.sel));
	assert_true(np_selection_want(chk("socket.tcp-mem"), &c.sel));
	assert_true(np_selection_want(chk("nic.missed"), &c.sel));
	assert_false(np_selection_want(chk("softnet.flow-limit"), &c.sel));
	assert_false(np_selection_want(chk("socket.udp-mem"), &c.sel));
	assert_false(np_selection_want(chk("link.duplex"), &c.sel));
	assert_int_equal(np_selection_count(&c.sel), stage_count(NP_STAGE_SOFTNET) - 1 +
			 glob_count("socket.tcp-*") + 1);

	/* The last interval line wins; values stay text with their line for the command. */
	assert_string_equal(c.interval.text, "2");
	assert_int_equal(c.interval.line, 10);
	assert_string_equal(c.rtt.text, "30");
	assert_int_equal(c.rtt.line, 11);
	assert_string_equal(c.bandwidth.text, "10G");
	assert_int_equal(c.bandwidth.line, 12);
	assert_string_equal(c.path, "");
	np_config_free(&c);
}

static void test_parse_empty(void **state)
{
	struct np_config c;
	char err[256];
	size_t n;

	(void)state;
	np_check_table(&n);
	assert_int_equal(parse(&c, "", err, sizeof(err)), 0);
	assert_int_equal(parse(&c, "\n\n   # only comments\n\t\n", err, sizeof(err)), 0);
	assert_false(c.sel.has_check || c.sel.has_skip);
	assert_int_equal(np_selection_count(&c.sel), n);
	assert_int_equal(c.interval.line, 0);
	for (size_t i = 0; i < n; i++)
		assert_false(c.ovr.t[i].has_warn || c.ovr.t[i].has_crit);
	np_config_free(&c);
}

/* socket.tcp-mem's levels are on two scales (% of tcp_mem[1] and of tcp_mem[2]): its default
 * warn 100 is above crit 90, so a warning above the critical value is no error there. */
static void test_two_scale_levels(void **state)
{
	struct np_config c;
	char err[256];

	(void)state;
	assert_true(chk("socket.tcp-mem")->warn > chk("socket.tcp-mem")->crit);
	assert_int_equal(parse(&c, "threshold socket.tcp-mem warn=95\n", err, sizeof(err)), 0);
	assert_int_equal(parse(&c, "threshold socket.tcp-mem warn=120 crit=80\n", err,
			       sizeof(err)), 0);
	np_config_free(&c);
}

/* Either level alone, past the other's default: the default follows it (the man page's
 * promise), in both directions; a level the admin set earlier is never moved. */
static void test_level_alone_moves_default(void **state)
{
	const struct np_check *b = chk("softnet.backlog-drops");
	struct np_config c;
	char err[256];
	int i = np_check_index(b);

	(void)state;
	assert_true(b->warn < 500 && b->crit < 500 && b->warn >= 1 && b->crit > 2);
	assert_int_equal(parse(&c, "threshold softnet.backlog-drops warn=500\n", err, sizeof(err)),
			 0);
	assert_true(c.ovr.t[i].has_warn && c.ovr.t[i].warn == 500);
	assert_true(c.ovr.t[i].has_crit && c.ovr.t[i].crit == 500);
	np_config_free(&c);
	assert_int_equal(parse(&c, "threshold softnet.backlog-drops crit=0.5\n", err, sizeof(err)),
			 0);
	assert_true(c.ovr.t[i].has_warn && c.ovr.t[i].warn == 0.5);
	assert_true(c.ovr.t[i].crit == 0.5);
	np_config_free(&c);
	/* below the default: nothing moves */
	assert_int_equal(parse(&c, "threshold softnet.backlog-drops warn=2\n", err, sizeof(err)), 0);
	assert_true(c.ovr.t[i].warn == 2);
	assert_false(c.ovr.t[i].has_crit);
	np_config_free(&c);
}

/* ---- malformed lines: each names the file, the line and the problem ---- */

static void test_parse_errors(void **state)
{
	static char long_line[NP_CONFIG_MAX_LINE + 8], long_value[120], many[400],
		long_item[200], long_pat[300];
	static const struct {
		const char *text;
		const char *want;	/* in the message, after "test.conf:LINE: " */
		unsigned line;		/* 0: a whole-file error ("test.conf: ...") */
	} cases[] = {
		{ "frobnicate 1\n", "unknown setting 'frobnicate'", 1 },
		{ "# ok\ninterval=2\n", "'interval=2': write 'NAME VALUE' without '='", 2 },
		{ "interval\n", "'interval' takes one value, e.g. 'interval 2'", 1 },
		{ "interval 1 2\n", "'interval' takes one value", 1 },
		{ "rtt\n", "'rtt' takes one value, e.g. 'rtt 30'", 1 },
		{ "bandwidth 10G 1G\n", "'bandwidth' takes one value, e.g. 'bandwidth 10G'", 1 },
		{ long_value, "value of 'bandwidth' too long", 1 },
		{ "threshold\n", "'threshold' needs a check id and warn=N and/or crit=N", 1 },
		{ "threshold softnet.backlog-drops\n", "'threshold' needs a check id", 1 },
		{ "threshold :warn=1\n", "is not ID:warn=N,crit=N", 1 },
		{ "\n\nthreshold softnet.nope warn=1\n",
		  "no check 'softnet.nope' (list them with 'netpath checks')", 3 },
		{ "threshold softnet.max-backlog warn=1\n",
		  "softnet.max-backlog has no thresholds to override", 1 },
		{ "threshold softnet.flow-limit crit=5\n",
		  "softnet.flow-limit has no critical threshold (only warn=1, in drops/s)", 1 },
		{ "threshold softnet.backlog-drops warn=abc\n",
		  "softnet.backlog-drops: invalid warn value 'abc' (a number >= 0, in drops/s)",
		  1 },
		{ "threshold softnet.backlog-drops crit=-1\n", "invalid crit value '-1'", 1 },
		{ "threshold softnet.backlog-drops warn=\n", "invalid warn value ''", 1 },
		{ "threshold softnet.backlog-drops warn=nan\n", "invalid warn value 'nan'", 1 },
		{ "threshold softnet.backlog-drops warn=1e999\n", "invalid warn value '1e999'", 1 },
		{ "threshold softnet.backlog-drops warn=5k\n", "invalid warn value '5k'", 1 },
		{ "threshold softnet.backlog-drops level=5\n",
		  "softnet.backlog-drops: 'level=5' is not warn=N or crit=N", 1 },
		{ "threshold softnet.backlog-drops warn\n", "'warn' is not warn=N or crit=N", 1 },
		{ "threshold softnet.backlog-drops warn=5 warn=6\n",
		  "softnet.backlog-drops: warn given twice", 1 },
		{ "threshold softnet.backlog-drops warn=500 crit=100\n",
		  "softnet.backlog-drops: warn=500 is above crit=100 (the warning level", 1 },
		{ "threshold softnet.backlog-drops crit=1000\nthreshold softnet.backlog-drops "
		  "warn=2000\n", "warn=2000 is above crit=1000 (set earlier)", 2 },
		{ long_item, "softnet.backlog-drops: threshold item too long", 1 },
		{ "check\n", "'check' needs check ids, globs or stage names", 1 },
		{ "skip\n", "'skip' needs check ids", 1 },
		{ "check softnet.nope*\n", "'softnet.nope*' matches no check", 1 },
		{ "skip softnet.backlog-drops,,nic.missed\n", "empty check id in", 1 },
		{ "check softnet,\n", "empty check id in 'softnet,'", 1 },
		{ long_pat, "check pattern too long", 1 },
		{ "check softnet\nskip softnet.*\n", "leave no check to run", 0 },
		{ long_line, "line longer than 1023 characters", 2 },
		{ many, "too many words on one line", 1 },
	};
	struct np_config c;
	char err[400], want[400];

	(void)state;
	snprintf(long_value, sizeof(long_value), "bandwidth %0100d\n", 1);
	memset(long_line, 'x', sizeof(long_line) - 1);
	memcpy(long_line, "# ok\n", 5);
	long_line[sizeof(long_line) - 1] = '\0';
	for (size_t i = 0, n = 0; i < 65; i++)
		n += (size_t)snprintf(many + n, sizeof(many) - n, "skip ");
	snprintf(long_item, sizeof(long_item), "threshold softnet.backlog-drops warn=%080d\n", 1);
	snprintf(long_pat, sizeof(long_pat), "check softnet.%0200d\n", 1);

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int r = parse(&c, cases[i].text, err, sizeof(err));

		if (r != -EINVAL)
			fail_msg("case %zu ('%.40s') returned %d, not -EINVAL", i, cases[i].text,
				 r);
		if (cases[i].line)
			snprintf(want, sizeof(want), "test.conf:%u: ", cases[i].line);
		else
			snprintf(want, sizeof(want), "test.conf: ");
		if (strncmp(err, want, strlen(want)) != 0 || !strstr(err, cases[i].want))
			fail_msg("case %zu: got '%s', want '%s%s'", i, err, want, cases[i].want);
		assert_null(strchr(err, '\n'));
		np_config_free(&c);
	}
}

/* A NUL byte inside the text: not a text file, named with its line. */
static void test_parse_nul(void **state)
{
	static const char text[] = "interval 2\nrtt 3\0 0\n";
	struct np_config c;
	char err[256];

	(void)state;
	assert_int_equal(np_config_parse(&c, "bin.conf", text, sizeof(text) - 1, err,
					 sizeof(err)), -EINVAL);
	assert_string_equal(err, "bin.conf:2: NUL byte: not a text file");
}

/* ---- loading files ---- */

static void test_load(void **state)
{
	char dir[] = "/tmp/np-config-XXXXXX", path[256], missing[256], big[256], err[400];
	struct np_config c;
	char *blob;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/netpath.conf", dir);
	snprintf(missing, sizeof(missing), "%s/none.conf", dir);
	snprintf(big, sizeof(big), "%s/big.conf", dir);

	/* The default file may be missing: no settings, no error. */
	assert_int_equal(np_config_load(missing, false, &c, err, sizeof(err)), 0);
	assert_string_equal(c.path, "");
	assert_false(c.sel.has_check);
	np_config_free(&c);
	/* --config FILE must exist. */
	assert_int_equal(np_config_load(missing, true, &c, err, sizeof(err)), -ENOENT);
	assert_contains(err, "cannot read config file ");
	assert_contains(err, "none.conf: No such file or directory");
	/* A name longer than the struct keeps: refused rather than cut short. */
	blob = malloc(2048);
	assert_non_null(blob);
	memset(blob, 'a', 2047);
	blob[0] = '/';
	blob[2047] = '\0';
	assert_int_equal(np_config_load(blob, false, &c, err, sizeof(err)), -ENAMETOOLONG);
	assert_string_equal(err, "config file name too long");
	free(blob);
	/* A directory is not a config file, required or not. */
	assert_int_equal(np_config_load(dir, false, &c, err, sizeof(err)), -EISDIR);
	assert_contains(err, "Is a directory");

	write_file(path, "threshold softnet.backlog-drops warn=100000 crit=200000\n"
			 "skip congestion.*\n");
	assert_int_equal(np_config_load(path, true, &c, err, sizeof(err)), 0);
	assert_string_equal(c.path, path);
	assert_true(np_check_crit(chk("softnet.backlog-drops"), &c.ovr) == 200000);
	assert_false(np_selection_want(chk("congestion.keepalive"), &c.sel));
	np_config_free(&c);
	assert_string_equal(c.path, "");

	/* Errors carry the path as given. */
	write_file(path, "# two\nthreshold nic.missed warn=x\n");
	assert_int_equal(np_config_load(path, false, &c, err, sizeof(err)), -EINVAL);
	assert_contains(err, "/netpath.conf:2: nic.missed: invalid warn value 'x'");
	assert_string_equal(c.path, "");

	/* The file's words are quoted escaped, the parser's message too (not only where the
	 * commands print it): it is the loader's answer to any caller. */
	write_file(path, "interval 1\n\033]0;evil\007 1\n");
	assert_int_equal(np_config_load(path, false, &c, err, sizeof(err)), -EINVAL);
	assert_contains(err, "/netpath.conf:2: unknown setting '\\x1b]0;evil\\x07'");
	assert_null(strchr(err, '\033'));
	assert_null(strchr(err, '\007'));

	/* An unreadable file is an error even for the default path (root reads anything). */
	if (geteuid() != 0) {
		assert_int_equal(chmod(path, 0), 0);
		assert_int_equal(np_config_load(path, false, &c, err, sizeof(err)), -EACCES);
		assert_contains(err, "Permission denied");
	}

	/* Bigger than 1 MiB: refused, not parsed for minutes. */
	blob = malloc(NP_CONFIG_MAX_BYTES + 2);
	assert_non_null(blob);
	memset(blob, '\n', NP_CONFIG_MAX_BYTES + 2);
	write_text(big, blob, NP_CONFIG_MAX_BYTES + 2);
	free(blob);
	assert_int_equal(np_config_load(big, true, &c, err, sizeof(err)), -EFBIG);
	assert_contains(err, "larger than 1 MiB");

	unlink(path);
	unlink(big);
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_good),
		cmocka_unit_test(test_parse_empty),
		cmocka_unit_test(test_two_scale_levels),
		cmocka_unit_test(test_level_alone_moves_default),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_parse_nul),
		cmocka_unit_test(test_load),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
