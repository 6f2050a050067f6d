// SPDX-License-Identifier: GPL-2.0-only
/*
 * The config file parser, check selection patterns and threshold overrides: good input gives the
 * settings it says, every kind of bad line gives "FILE:LINE: what is wrong", and a pattern or id
 * that names no check is an error rather than a silent no-op.
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

#define assert_contains(hay, needle) do { \
	if (!strstr((hay), (needle))) \
		fail_msg("'%s' does not contain '%s'", (hay), (needle)); \
} while (0)

static const struct np_check *chk(const char *id)
{
	const struct np_check *c = np_check_find(id);

	if (!c)
		fail_msg("no check %s in the table", id);
	return c;
}

static int idx(const char *id)
{
	return np_check_index(chk(id));
}

static size_t stage_count(enum np_stage st)
{
	size_t n, k = 0;
	const struct np_check *const *t = np_check_table(&n);

	for (size_t i = 0; i < n; i++)
		k += t[i]->stage == st;
	return k;
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

static void write_text(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	/* Whatever the umask: a group-writable file would be refused (test_load_trust). */
	assert_int_equal(chmod(path, 0644), 0);
}

static void write_file(const char *path, const char *text)
{
	write_text(path, text, strlen(text));
}

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

/* ---- who may have written the file ---- */

/* The rules as pure functions: every owner/euid case, root or not. */
static void test_trust_rules(void **state)
{
	(void)state;
	/* Mode: nobody else may write it, whoever owns it and whoever runs. */
	assert_int_equal(np_config_file_trust(0, S_IFREG | 0644, 0), NP_TRUST_OK);
	assert_int_equal(np_config_file_trust(0, S_IFREG | 0600, 1000), NP_TRUST_OK);
	assert_int_equal(np_config_file_trust(0, S_IFREG | 0664, 0), NP_TRUST_GROUP_WRITABLE);
	assert_int_equal(np_config_file_trust(0, S_IFREG | 0646, 0), NP_TRUST_WORLD_WRITABLE);
	assert_int_equal(np_config_file_trust(0, S_IFREG | 0666, 0), NP_TRUST_WORLD_WRITABLE);
	assert_int_equal(np_config_file_trust(1000, S_IFREG | 0620, 1000),
			 NP_TRUST_GROUP_WRITABLE);
	/* Running as root: root's file only (a user's file would steer root's monitoring). */
	assert_int_equal(np_config_file_trust(1000, S_IFREG | 0644, 0), NP_TRUST_NOT_ROOT_OWNED);
	assert_int_equal(np_config_file_trust(65534, S_IFREG | 0444, 0), NP_TRUST_NOT_ROOT_OWNED);
	/* Not root: root's file or one's own. */
	assert_int_equal(np_config_file_trust(1000, S_IFREG | 0644, 1000), NP_TRUST_OK);
	assert_int_equal(np_config_file_trust(0, S_IFREG | 0644, 1000), NP_TRUST_OK);
	assert_int_equal(np_config_file_trust(1001, S_IFREG | 0644, 1000),
			 NP_TRUST_FOREIGN_OWNER);
	assert_int_equal(np_config_file_trust(1001, S_IFREG | 0400, 1000),
			 NP_TRUST_FOREIGN_OWNER);
	/* Each directory on the way: root's or the invoking user's, nobody else may write it
	 * unless it has the sticky bit (/tmp). */
	assert_int_equal(np_config_dir_trust(0, S_IFDIR | 0755, 0), NP_TRUST_OK);
	assert_int_equal(np_config_dir_trust(0, S_IFDIR | 0755, 1000), NP_TRUST_OK);
	assert_int_equal(np_config_dir_trust(1000, S_IFDIR | 0700, 1000), NP_TRUST_OK);
	assert_int_equal(np_config_dir_trust(0, S_IFDIR | 01777, 1000), NP_TRUST_OK);
	assert_int_equal(np_config_dir_trust(0, S_IFDIR | 01770, 0), NP_TRUST_OK);
	assert_int_equal(np_config_dir_trust(0, S_IFDIR | 0777, 0), NP_TRUST_DIR_WORLD_WRITABLE);
	assert_int_equal(np_config_dir_trust(0, S_IFDIR | 0703, 0), NP_TRUST_DIR_WORLD_WRITABLE);
	assert_int_equal(np_config_dir_trust(0, S_IFDIR | 0775, 0), NP_TRUST_DIR_GROUP_WRITABLE);
	assert_int_equal(np_config_dir_trust(1000, S_IFDIR | 02770, 1000),
			 NP_TRUST_DIR_GROUP_WRITABLE);
	/* Running as root: root's directories only; otherwise root's or one's own. */
	assert_int_equal(np_config_dir_trust(1000, S_IFDIR | 0755, 0), NP_TRUST_DIR_FOREIGN_OWNER);
	assert_int_equal(np_config_dir_trust(1001, S_IFDIR | 0755, 1000),
			 NP_TRUST_DIR_FOREIGN_OWNER);
	assert_int_equal(np_config_dir_trust(1001, S_IFDIR | 01777, 1000),
			 NP_TRUST_DIR_FOREIGN_OWNER);
}

static void expect_refused(const char *path, const char *why)
{
	struct np_config c;
	char err[600];

	err[0] = '\0';
	assert_int_equal(np_config_load(path, false, &c, err, sizeof(err)), -EPERM);
	assert_contains(err, path);
	assert_contains(err, why);
	assert_null(strchr(err, '\n'));
	assert_string_equal(c.path, "");
}

static void expect_loaded(const char *path)
{
	struct np_config c;
	char err[600] = "";

	if (np_config_load(path, true, &c, err, sizeof(err)) != 0)
		fail_msg("%s: %s", path, err);
	assert_string_equal(c.path, path);
	np_config_free(&c);
}

/* The same rules on real files: modes, directories, symlinks, /dev/null; ownership as far as
 * the test's own uid allows (a foreign owner needs root to create). */
static void test_load_trust(void **state)
{
	char dir[] = "/tmp/np-trust-XXXXXX", path[256], open_dir[256], in_open[256],
	     via_link[256], link_to_open[256], cmd[300];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/netpath.conf", dir);
	snprintf(open_dir, sizeof(open_dir), "%s/open", dir);
	snprintf(in_open, sizeof(in_open), "%s/open/netpath.conf", dir);
	snprintf(via_link, sizeof(via_link), "%s/link.conf", dir);
	snprintf(link_to_open, sizeof(link_to_open), "%s/to-open.conf", dir);
	write_file(path, "skip congestion.*\n");
	expect_loaded(path);

	assert_int_equal(chmod(path, 0664), 0);
	expect_refused(path, "group-writable");
	assert_int_equal(chmod(path, 0646), 0);
	expect_refused(path, "world-writable");
	assert_int_equal(chmod(path, 0666), 0);
	expect_refused(path, "chmod go-w");
	assert_int_equal(chmod(path, 0600), 0);
	expect_loaded(path);
	/* Refused whether given with --config or found at the default path. */
	assert_int_equal(chmod(path, 0666), 0);
	{
		struct np_config c;
		char err[600];

		assert_int_equal(np_config_load(path, true, &c, err, sizeof(err)), -EPERM);
	}
	assert_int_equal(chmod(path, 0644), 0);

	/* A directory anyone can write to (no sticky bit): anyone could swap the file. */
	assert_int_equal(mkdir(open_dir, 0755), 0);
	write_file(in_open, "skip congestion.*\n");
	assert_int_equal(chmod(open_dir, 0777), 0);
	expect_refused(in_open, "world-writable without the sticky bit");
	/* ... named through a symlink from a safe directory: its real directory counts. */
	assert_int_equal(symlink(in_open, link_to_open), 0);
	expect_refused(link_to_open, "world-writable without the sticky bit");
	/* /tmp-like, sticky: others cannot remove or rename the file. */
	assert_int_equal(chmod(open_dir, 01777), 0);
	expect_loaded(in_open);
	expect_loaded(link_to_open);
	/* A symlink in the open directory to a safe file: the link could be swapped. */
	assert_int_equal(chmod(open_dir, 0777), 0);
	snprintf(via_link, sizeof(via_link), "%s/open/link.conf", dir);
	assert_int_equal(symlink(path, via_link), 0);
	expect_refused(via_link, "world-writable without the sticky bit");
	assert_int_equal(chmod(open_dir, 0755), 0);
	expect_loaded(via_link);

	/* The usual "no configuration": a world-writable device, but always empty. */
	expect_loaded("/dev/null");

	/* Ownership on disk: root can make a file someone else owns. */
	if (geteuid() == 0) {
		assert_int_equal(chown(path, 65534, 65534), 0);
		expect_refused(path, "must be owned by root, not uid 65534");
	} else {
		/* Our own file loads (above); a root-owned one is trusted too. */
		assert_int_equal(np_config_file_trust(0, S_IFREG | 0644, geteuid()), NP_TRUST_OK);
	}

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* Every ancestor counts, not only the file's own directory: top/a/b/netpath.conf with top (or
 * a) open to others is refused however safe b is, named directly, relatively, or through a
 * link from a safe place (where it really lives is what counts). */
static void test_load_trust_ancestors(void **state)
{
	char top[] = "/tmp/np-anc-XXXXXX", a[256], b[256], file[256], safe[256], link[256],
	     dirlink[256], via_dirlink[256], cwd[PATH_MAX], cmd[300];

	(void)state;
	assert_non_null(mkdtemp(top));
	snprintf(a, sizeof(a), "%s/a", top);
	snprintf(b, sizeof(b), "%s/a/b", top);
	snprintf(file, sizeof(file), "%s/a/b/netpath.conf", top);
	snprintf(safe, sizeof(safe), "%s/safe", top);
	snprintf(link, sizeof(link), "%s/safe/link.conf", top);
	snprintf(dirlink, sizeof(dirlink), "%s/safe/dir", top);
	snprintf(via_dirlink, sizeof(via_dirlink), "%s/safe/dir/netpath.conf", top);
	assert_int_equal(mkdir(a, 0755), 0);
	assert_int_equal(mkdir(b, 0755), 0);
	assert_int_equal(mkdir(safe, 0755), 0);
	write_file(file, "skip congestion.*\n");
	assert_int_equal(symlink(file, link), 0);
	assert_int_equal(symlink("../a/b", dirlink), 0);
	assert_int_equal(chmod(top, 0755), 0);
	expect_loaded(file);
	expect_loaded(link);
	expect_loaded(via_dirlink);

	/* Two levels up, world-writable: anyone could rename a/ and put another b/ in place. */
	assert_int_equal(chmod(top, 0777), 0);
	expect_refused(file, "world-writable without the sticky bit");
	expect_refused(file, top);
	expect_refused(link, "world-writable without the sticky bit");
	expect_refused(via_dirlink, "world-writable without the sticky bit");
	/* Relative to a working directory below it: its ancestors count too. */
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(b), 0);
	expect_refused("netpath.conf", top);
	expect_refused("./../b/netpath.conf", top);
	assert_int_equal(chdir(cwd), 0);
	/* Sticky, as /tmp: fine. */
	assert_int_equal(chmod(top, 01777), 0);
	expect_loaded(file);
	expect_loaded(via_dirlink);
	/* One level up, group-writable: the group could do the same. */
	assert_int_equal(chmod(top, 0755), 0);
	assert_int_equal(chmod(a, 0775), 0);
	expect_refused(file, "group-writable without the sticky bit");
	expect_refused(file, a);
	expect_refused(link, "group-writable");
	/* The file's own directory group-writable: refused as well (it was accepted). */
	assert_int_equal(chmod(a, 0755), 0);
	assert_int_equal(chmod(b, 0770), 0);
	expect_refused(file, "chmod g-w");
	assert_int_equal(chmod(b, 0755), 0);
	expect_loaded(file);

	/* A directory on the way owned by someone else: root can make one. */
	if (geteuid() == 0) {
		assert_int_equal(chown(a, 65534, 65534), 0);
		expect_refused(file, "is owned by uid 65534, not root");
		expect_refused(via_dirlink, "is owned by uid 65534, not root");
		assert_int_equal(chown(a, 0, 0), 0);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	assert_int_equal(system(cmd), 0);
}

/* The walk judged as another user (the uid seam): a tree of the test's own uid is fine for
 * that uid and for root's... only when that uid is root; anyone else's tree is refused. */
static void test_path_trust_as_other_user(void **state)
{
	char top[] = "/tmp/np-uid-XXXXXX", sub[256], file[256], link[256], real[PATH_MAX],
	     err[600], cmd[300];
	uid_t me = geteuid(), other = me == 0 ? 1000 : me + 1;
	struct stat st;

	(void)state;
	assert_non_null(mkdtemp(top));
	snprintf(sub, sizeof(sub), "%s/sub", top);
	snprintf(file, sizeof(file), "%s/sub/netpath.conf", top);
	snprintf(link, sizeof(link), "%s/link.conf", top);
	assert_int_equal(mkdir(sub, 0755), 0);
	write_file(file, "rtt 1\n");
	assert_int_equal(symlink("sub/netpath.conf", link), 0);

	/* As its owner: the real path, and the file's own stat. */
	assert_int_equal(np_config_path_trust(link, me, &st, real, sizeof(real), err, sizeof(err)),
			 0);
	assert_string_equal(real, file);
	assert_true(S_ISREG(st.st_mode));
	if (me != 0) {
		/* Not root: top is the test's own, another user must not trust it, nor root. */
		assert_int_equal(np_config_path_trust(file, other, &st, real, sizeof(real), err,
						      sizeof(err)), -EPERM);
		assert_contains(err, "neither root nor you");
		assert_contains(err, top);
		assert_int_equal(np_config_path_trust(file, 0, &st, real, sizeof(real), err,
						      sizeof(err)), -EPERM);
		assert_contains(err, "not root");
	} else {
		/* Root's tree: anyone may trust it. A user's directory on the way: that user
		 * may, root and other users may not. */
		assert_int_equal(np_config_path_trust(file, other, &st, real, sizeof(real), err,
						      sizeof(err)), 0);
		assert_int_equal(chown(sub, other, other), 0);
		assert_int_equal(np_config_path_trust(file, other, &st, real, sizeof(real), err,
						      sizeof(err)), 0);
		assert_int_equal(np_config_path_trust(file, other + 1, &st, real, sizeof(real), err,
						      sizeof(err)), -EPERM);
		assert_contains(err, "neither root nor you");
		assert_contains(err, sub);
		assert_int_equal(np_config_path_trust(link, 0, &st, real, sizeof(real), err,
						      sizeof(err)), -EPERM);
		assert_contains(err, "not root");
		/* A link in a sticky, world-writable directory must be one's own (/tmp). */
		assert_int_equal(chown(sub, 0, 0), 0);
		assert_int_equal(chmod(top, 01777), 0);
		assert_int_equal(lchown(link, other, other), 0);
		assert_int_equal(np_config_path_trust(link, 0, &st, real, sizeof(real), err,
						      sizeof(err)), -EPERM);
		assert_contains(err, "symbolic link");
		assert_int_equal(np_config_path_trust(link, other, &st, real, sizeof(real), err,
						      sizeof(err)), 0);
	}
	/* What the walk cannot find is said, not trusted. */
	snprintf(sub, sizeof(sub), "%s/none/netpath.conf", top);
	assert_int_equal(np_config_path_trust(sub, me, &st, real, sizeof(real), err, sizeof(err)),
			 -ENOENT);
	assert_contains(err, "cannot check config file");
	/* A loop of links ends. */
	snprintf(sub, sizeof(sub), "%s/loop", top);
	assert_int_equal(symlink("loop", sub), 0);
	assert_int_equal(np_config_path_trust(sub, me, &st, real, sizeof(real), err, sizeof(err)),
			 -ELOOP);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	assert_int_equal(system(cmd), 0);
}

/* ---- patterns ---- */

static void test_patterns(void **state)
{
	size_t n, nsoft = 0, ntcp = 0;
	const struct np_check *const *t = np_check_table(&n);

	(void)state;
	for (size_t i = 0; i < n; i++) {
		bool soft = strncmp(t[i]->id, "softnet.", 8) == 0;
		bool tcp = strncmp(t[i]->id, "socket.tcp-", 11) == 0;

		/* A stage name means every check of that stage, like its glob. */
		assert_int_equal(np_pattern_match("softnet.*", t[i]), soft);
		assert_int_equal(np_pattern_match("softnet", t[i]),
				 t[i]->stage == NP_STAGE_SOFTNET);
		assert_int_equal(np_pattern_match("socket.tcp-*", t[i]), tcp);
		assert_true(np_pattern_match("*", t[i]));
		assert_true(np_pattern_match(t[i]->id, t[i]));
		nsoft += soft;
		ntcp += tcp;
	}
	assert_int_equal(nsoft, stage_count(NP_STAGE_SOFTNET));
	assert_true(ntcp >= 3);		/* tcp-mem, tcp-rmem-bdp, tcp-wmem-bdp */
	assert_true(np_pattern_match("socket.tcp-mem", chk("socket.tcp-mem")));
	assert_false(np_pattern_match("socket.tcp-mem", chk("socket.udp-mem")));
	assert_true(np_pattern_match("socket.?dp-mem", chk("socket.udp-mem")));
	assert_true(np_pattern_match("nic.[mr]*", chk("nic.missed")));
	assert_true(np_pattern_match("nic.[mr]*", chk("nic.rx-dropped")));
	/* No implicit prefix matching: a partial id is a typo, not a selection. */
	assert_false(np_pattern_match("softnet.backlog", chk("softnet.backlog-drops")));
	assert_false(np_pattern_match("soft", chk("softnet.backlog-drops")));
	assert_false(np_pattern_match("SOFTNET.*", chk("softnet.backlog-drops")));
}

static void test_selection(void **state)
{
	struct np_selection file = { 0 }, cli = { 0 }, none = { 0 };
	char err[256];
	size_t n;

	(void)state;
	np_check_table(&n);
	assert_true(np_selection_want(chk("link.duplex"), NULL));
	assert_int_equal(np_selection_count(&none), n);

	assert_int_equal(np_selection_parse(&file, NP_SEL_CHECK, " softnet , nic.missed ", err,
					    sizeof(err)), 0);
	assert_int_equal(np_selection_parse(&file, NP_SEL_SKIP, "softnet.flow-limit", err,
					    sizeof(err)), 0);
	assert_int_equal(np_selection_count(&file), stage_count(NP_STAGE_SOFTNET));
	/* Command line --skip replaces the file's skip list, keeps its check list. */
	assert_int_equal(np_selection_parse(&cli, NP_SEL_SKIP, "nic.missed", err, sizeof(err)), 0);
	assert_int_equal(np_selection_merge(&file, &cli, err, sizeof(err)), 0);
	assert_true(np_selection_want(chk("softnet.flow-limit"), &file));
	assert_false(np_selection_want(chk("nic.missed"), &file));
	assert_true(np_selection_want(chk("softnet.backlog-drops"), &file));
	assert_false(np_selection_want(chk("link.duplex"), &file));
	/* ... and --check its check list. */
	memset(&cli, 0, sizeof(cli));
	assert_int_equal(np_selection_parse(&cli, NP_SEL_CHECK, "link.*", err, sizeof(err)), 0);
	assert_int_equal(np_selection_merge(&file, &cli, err, sizeof(err)), 0);
	assert_true(np_selection_want(chk("link.duplex"), &file));
	assert_false(np_selection_want(chk("softnet.backlog-drops"), &file));
	/* An empty command line changes nothing. */
	memset(&cli, 0, sizeof(cli));
	assert_int_equal(np_selection_merge(&file, &cli, err, sizeof(err)), 0);
	assert_true(np_selection_want(chk("link.duplex"), &file));
	/* Layered into nothing: an error. */
	assert_int_equal(np_selection_parse(&cli, NP_SEL_SKIP, "link", err, sizeof(err)), 0);
	assert_int_equal(np_selection_merge(&file, &cli, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "the check and skip lists leave no check to run");

	/* A pattern matching nothing is reported by name, and nothing is half-applied
	 * beyond the patterns before it. */
	memset(&cli, 0, sizeof(cli));
	assert_int_equal(np_selection_parse(&cli, NP_SEL_CHECK, "ip.*,ipv6.*", err, sizeof(err)),
			 -EINVAL);
	assert_contains(err, "'ipv6.*' matches no check");
}

/* ---- --threshold ---- */

static void test_threshold_option(void **state)
{
	struct np_overrides *o = calloc(1, sizeof(*o));
	const struct np_check *b = chk("softnet.backlog-drops");
	char err[256];

	(void)state;
	assert_non_null(o);
	assert_int_equal(np_overrides_parse_option(o, "softnet.backlog-drops:warn=10,crit=1000",
						   err, sizeof(err)), 0);
	assert_true(np_check_warn(b, o) == 10 && np_check_crit(b, o) == 1000);
	/* A later option replaces only the level it names (the command line over the file). */
	assert_int_equal(np_overrides_parse_option(o, "softnet.backlog-drops:crit=0.5e4", err,
						   sizeof(err)), 0);
	assert_true(np_check_warn(b, o) == 10 && np_check_crit(b, o) == 5000);
	/* Zero is a threshold: every drop during the sample reaches the level. */
	assert_int_equal(np_overrides_parse_option(o, "nic.missed:warn=0", err, sizeof(err)), 0);
	assert_true(np_check_warn(chk("nic.missed"), o) == 0);
	/* Blanks around the id and between levels are fine. */
	assert_int_equal(np_overrides_parse_option(o, " link.rx-errors : warn=2, crit=20", err,
						   sizeof(err)), 0);
	assert_true(np_check_crit(chk("link.rx-errors"), o) == 20);

	assert_int_equal(np_overrides_parse_option(o, "softnet.backlog-drops", err, sizeof(err)),
			 -EINVAL);
	assert_contains(err, "'softnet.backlog-drops' is not ID:warn=N,crit=N (e.g. ");
	assert_int_equal(np_overrides_parse_option(o, "softnet.backlog-drops:", err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "softnet.backlog-drops: no threshold given (warn=N and/or "
			    "crit=N)");
	assert_int_equal(np_overrides_parse_option(o, "softnet.*:warn=1", err, sizeof(err)),
			 -EINVAL);
	assert_contains(err, "no check 'softnet.*'");
	assert_int_equal(np_overrides_parse_option(o, "softnet.backlog-drops:warn=6000", err,
						   sizeof(err)), -EINVAL);
	assert_contains(err, "warn=6000 is above crit=5000 (set earlier)");
	/* A failed option changes nothing. */
	assert_true(np_check_warn(b, o) == 10 && np_check_crit(b, o) == 5000);
	/* Raising both together is fine. */
	assert_int_equal(np_overrides_parse_option(o, "softnet.backlog-drops:warn=6000,crit=9000",
						   err, sizeof(err)), 0);
	assert_true(np_check_warn(b, o) == 6000 && np_check_crit(b, o) == 9000);
	/* No overrides: the table's values. */
	assert_true(np_check_warn(b, NULL) == b->warn && np_check_crit(b, NULL) == b->crit);
	free(o);
}

/* Every check with thresholds accepts its own defaults back, and every check without refuses:
 * the catalogue's override example (netpath explain) is always valid. */
static void test_every_check(void **state)
{
	struct np_overrides *o = calloc(1, sizeof(*o));
	size_t n;
	const struct np_check *const *t = np_check_table(&n);
	char arg[256], err[256];

	(void)state;
	assert_non_null(o);
	for (size_t i = 0; i < n; i++) {
		const struct np_check *c = t[i];
		int len = snprintf(arg, sizeof(arg), "%s:", c->id);
		int r;

		if (!isnan(c->warn))
			len += snprintf(arg + len, sizeof(arg) - (size_t)len, "warn=%g,", c->warn);
		if (!isnan(c->crit))
			len += snprintf(arg + len, sizeof(arg) - (size_t)len, "crit=%g", c->crit);
		if (isnan(c->warn) && isnan(c->crit))
			snprintf(arg + len, sizeof(arg) - (size_t)len, "warn=1");
		r = np_overrides_parse_option(o, arg, err, sizeof(err));
		if (isnan(c->warn) && isnan(c->crit)) {
			assert_int_equal(r, -EINVAL);
			assert_contains(err, "has no thresholds to override");
		} else if (r != 0) {
			fail_msg("%s: %s", arg, err);
		} else {
			assert_true(np_check_warn(c, o) == c->warn || isnan(c->warn));
			/* A documented threshold comes with its unit. */
			if (!c->thr_unit || !c->thr_unit[0])
				fail_msg("%s has thresholds but no unit", c->id);
		}
		assert_int_equal(np_check_index(c), (int)i);
	}
	free(o);
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
		cmocka_unit_test(test_trust_rules),
		cmocka_unit_test(test_load_trust),
		cmocka_unit_test(test_load_trust_ancestors),
		cmocka_unit_test(test_path_trust_as_other_user),
		cmocka_unit_test(test_patterns),
		cmocka_unit_test(test_selection),
		cmocka_unit_test(test_threshold_option),
		cmocka_unit_test(test_every_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
