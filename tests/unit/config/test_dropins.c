// SPDX-License-Identifier: GPL-2.0-only
/*
 * The settings read without --config (cmd/doctor_config.c's np_config_load_dirs()): in each
 * directory netpath.conf then netpath.conf.d/ *.conf in strcmp order, /etc's before sysconfdir's,
 * all as one file (the last rtt wins, thresholds level by level, check/skip lines add up); only
 * NAME.conf that is not hidden is a drop-in; each drop-in and the directory itself are judged
 * by the trust rules; a bad drop-in line names its file and line; the count is bounded. The
 * directories are the test's own (the production ones are /etc and meson's sysconfdir).
 */
#include <errno.h>
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

#include "config.h"
#include "doctor_config.h"

#define assert_contains(hay, needle) do { \
	if (!strstr((hay), (needle))) \
		fail_msg("'%s' does not contain '%s'", (hay), (needle)); \
} while (0)

static char top[] = "/tmp/np-dropins-XXXXXX";

static const struct np_check *chk(const char *id)
{
	const struct np_check *c = np_check_find(id);

	if (!c)
		fail_msg("no check %s in the table", id);
	return c;
}

/* top/REL, written with text, mode 0644 whatever the umask. */
static void put(const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", top, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(path, 0644), 0);
}

static void mkdir_top(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", top, rel);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(chmod(path, 0755), 0);
}

static void chmod_top(const char *rel, mode_t mode)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", top, rel);
	assert_int_equal(chmod(path, mode), 0);
}

/* The settings of the directories top/REL..., NULL-terminated; 0 or the error. */
static int load(struct np_config *c, char *err, size_t errlen, ...)
{
	char paths[2][512];
	const char *dirs[2];
	const char *rel;
	size_t n = 0;
	va_list ap;

	va_start(ap, errlen);
	while ((rel = va_arg(ap, const char *)) && n < 2) {
		snprintf(paths[n], sizeof(paths[n]), "%s/%s", top, rel);
		dirs[n] = paths[n];
		n++;
	}
	va_end(ap);
	err[0] = '\0';
	return np_config_load_dirs(dirs, n, c, err, errlen);
}

/* The i-th file read is top/REL. */
static void assert_file(const struct np_config *c, unsigned i, const char *rel)
{
	char want[512];

	snprintf(want, sizeof(want), "%s/%s", top, rel);
	assert_string_equal(np_config_file(c, i), want);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(top))
		return -1;
	return chmod(top, 0755);
}

static int teardown(void **state)
{
	char cmd[600];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	return system(cmd);
}

/* netpath.conf, then the drop-ins by name; the later line wins, level by level for
 * thresholds; check and skip lines add up. */
static void test_order_and_precedence(void **state)
{
	const struct np_check *bl = chk("softnet.backlog-drops");
	struct np_config c;
	char err[600];

	(void)state;
	mkdir_top("a");
	mkdir_top("a/netpath.conf.d");
	put("a/netpath.conf", "rtt 10\nbandwidth 1G\n"
	    "threshold softnet.backlog-drops warn=10 crit=1000\nskip congestion.keepalive\n");
	/* Written in the other order: the listing's order must not matter. */
	put("a/netpath.conf.d/20-late.conf", "rtt 30\nthreshold softnet.backlog-drops crit=2000\n");
	put("a/netpath.conf.d/10-early.conf", "rtt 20\ninterval 3\nskip congestion.cc\n");
	/* strcmp order, not numeric: "9" sorts after "20" (as sysctl.d and systemd do). */
	put("a/netpath.conf.d/9-last.conf", "interval 4\n");
	assert_int_equal(load(&c, err, sizeof(err), "a", NULL), 0);
	assert_int_equal(c.nfiles, 4);
	assert_file(&c, 1, "a/netpath.conf");
	assert_file(&c, 2, "a/netpath.conf.d/10-early.conf");
	assert_file(&c, 3, "a/netpath.conf.d/20-late.conf");
	assert_file(&c, 4, "a/netpath.conf.d/9-last.conf");
	assert_string_equal(np_config_file(&c, 5), "");
	assert_string_equal(np_config_file(&c, 0), "");
	/* The last line read wins, and says where it was. */
	assert_string_equal(c.rtt.text, "30");
	assert_file(&c, c.rtt.file, "a/netpath.conf.d/20-late.conf");
	assert_string_equal(c.interval.text, "4");
	assert_file(&c, c.interval.file, "a/netpath.conf.d/9-last.conf");
	assert_string_equal(c.bandwidth.text, "1G");
	assert_file(&c, c.bandwidth.file, "a/netpath.conf");
	assert_int_equal(c.bandwidth.line, 2);
	/* warn from the main file, crit from the drop-in. */
	assert_true(np_check_warn(bl, &c.ovr) == 10);
	assert_true(np_check_crit(bl, &c.ovr) == 2000);
	/* Both skip lines hold. */
	assert_false(np_selection_want(chk("congestion.keepalive"), &c.sel));
	assert_false(np_selection_want(chk("congestion.cc"), &c.sel));
	assert_true(np_selection_want(bl, &c.sel));
	assert_file(&c, 0 + c.nfiles, "a/netpath.conf.d/9-last.conf");
	assert_string_equal(c.path, np_config_file(&c, c.nfiles));
	np_config_free(&c);
}

/* Only NAME.conf, not hidden: backups, swap files, package leftovers and other names are
 * not read (each would be an error if it were). */
static void test_ignored_names(void **state)
{
	static const char *const ignored[] = {
		".hidden.conf", "x.conf~", "x.conf.bak", "x.conf.dpkg-old", "x.conf.dpkg-dist",
		"x.conf.ucf-new", "#x.conf#", ".x.conf.swp", ".conf", "README", "x.CONF", "conf",
	};
	struct np_config c;
	char rel[256], err[600];

	(void)state;
	mkdir_top("b");
	mkdir_top("b/netpath.conf.d");
	for (size_t i = 0; i < sizeof(ignored) / sizeof(ignored[0]); i++) {
		snprintf(rel, sizeof(rel), "b/netpath.conf.d/%s", ignored[i]);
		put(rel, "bogus line\n");
		assert_false(np_conffile_dropin_name(ignored[i]));
	}
	put("b/netpath.conf.d/ok.conf", "rtt 5\n");
	assert_true(np_conffile_dropin_name("ok.conf"));
	assert_true(np_conffile_dropin_name("a.b.conf"));
	/* No main file: the drop-ins alone. */
	assert_int_equal(load(&c, err, sizeof(err), "b", NULL), 0);
	assert_int_equal(c.nfiles, 1);
	assert_file(&c, 1, "b/netpath.conf.d/ok.conf");
	assert_string_equal(c.rtt.text, "5");
	np_config_free(&c);
	/* Nothing there at all: no settings, no error. */
	mkdir_top("empty");
	assert_int_equal(load(&c, err, sizeof(err), "empty", "none", NULL), 0);
	assert_int_equal(c.nfiles, 0);
	assert_string_equal(c.path, "");
}

/* Each drop-in and its directory are judged as the main file is: refused, with the file or
 * directory named, exit 3 at the command. */
static void test_trust(void **state)
{
	char err[600], want[512], real[PATH_MAX], **paths;
	struct np_config c;
	struct stat st;
	uid_t me = geteuid();
	size_t n;

	(void)state;
	mkdir_top("t");
	mkdir_top("t/netpath.conf.d");
	put("t/netpath.conf", "rtt 1\n");
	put("t/netpath.conf.d/50-x.conf", "rtt 2\n");
	assert_int_equal(load(&c, err, sizeof(err), "t", NULL), 0);
	assert_string_equal(c.rtt.text, "2");

	chmod_top("t/netpath.conf.d/50-x.conf", 0664);
	assert_int_equal(load(&c, err, sizeof(err), "t", NULL), -EPERM);
	snprintf(want, sizeof(want), "%s/t/netpath.conf.d/50-x.conf", top);
	assert_contains(err, want);
	assert_contains(err, "group-writable");
	assert_null(strchr(err, '\n'));
	assert_string_equal(c.path, "");
	chmod_top("t/netpath.conf.d/50-x.conf", 0644);

	/* The directory itself: whoever may write it chooses the drop-ins. */
	chmod_top("t/netpath.conf.d", 0777);
	assert_int_equal(load(&c, err, sizeof(err), "t", NULL), -EPERM);
	snprintf(want, sizeof(want), "config directory %s/t/netpath.conf.d not used", top);
	assert_contains(err, want);
	assert_contains(err, "world-writable");
	chmod_top("t/netpath.conf.d", 0775);
	assert_int_equal(load(&c, err, sizeof(err), "t", NULL), -EPERM);
	assert_contains(err, "group-writable");
	chmod_top("t/netpath.conf.d", 0755);
	/* ... and the directories on its way. */
	chmod_top("t", 0777);
	assert_int_equal(load(&c, err, sizeof(err), "t", NULL), -EPERM);
	assert_contains(err, "world-writable without the sticky bit");
	chmod_top("t", 0755);
	assert_int_equal(load(&c, err, sizeof(err), "t", NULL), 0);

	/* The uid seam: the same directory judged as someone else. */
	snprintf(want, sizeof(want), "%s/t/netpath.conf.d", top);
	assert_int_equal(np_conffile_dropins(want, me, &paths, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	free(paths);
	if (me != 0) {
		/* Not root: the test's own directory is nobody else's, nor root's to trust. */
		assert_int_equal(np_conffile_dropins(want, me + 1, &paths, &n, err, sizeof(err)),
				 -EPERM);
		assert_contains(err, "neither root nor you");
		assert_int_equal(np_conffile_dropins(want, 0, &paths, &n, err, sizeof(err)),
				 -EPERM);
		assert_contains(err, "not root");
	} else {
		/* Root's tree: trusted by anyone; a user's drop-in directory: not by root. */
		assert_int_equal(np_conffile_dropins(want, 1000, &paths, &n, err, sizeof(err)), 0);
		free(paths);
		assert_int_equal(chown(want, 1000, 1000), 0);
		assert_int_equal(np_conffile_dropins(want, 0, &paths, &n, err, sizeof(err)),
				 -EPERM);
		assert_contains(err, "owned by uid 1000, not root");
		assert_int_equal(np_config_path_trust(want, 1000, &st, real, sizeof(real), err,
						      sizeof(err)), 0);
		assert_int_equal(chown(want, 0, 0), 0);
	}
	/* A drop-in "directory" that is a file: said. */
	mkdir_top("f");
	put("f/netpath.conf.d", "rtt 1\n");
	assert_int_equal(load(&c, err, sizeof(err), "f", NULL), -ENOTDIR);
	assert_contains(err, "is not a directory");
}

/* A bad drop-in is one line naming its file and line, whatever the kind of error; a value
 * that the command refuses later names the file it came from. */
static void test_bad_dropin(void **state)
{
	char err[600], want[512];
	struct np_config c;

	(void)state;
	mkdir_top("e");
	mkdir_top("e/netpath.conf.d");
	put("e/netpath.conf", "rtt 1\n");
	put("e/netpath.conf.d/10-ok.conf", "# fine\nrtt 2\n");
	put("e/netpath.conf.d/20-bad.conf", "\n\nrtt\n");
	assert_int_equal(load(&c, err, sizeof(err), "e", NULL), -EINVAL);
	snprintf(want, sizeof(want), "%s/e/netpath.conf.d/20-bad.conf:3: 'rtt' takes one value",
		 top);
	assert_contains(err, want);
	assert_null(strchr(err, '\n'));
	put("e/netpath.conf.d/20-bad.conf", "threshold no.such-check warn=1\n");
	assert_int_equal(load(&c, err, sizeof(err), "e", NULL), -EINVAL);
	snprintf(want, sizeof(want), "%s/e/netpath.conf.d/20-bad.conf:1: ", top);
	assert_contains(err, want);
	/* A level against one set by an earlier file: the later file's line is named. */
	put("e/netpath.conf", "threshold softnet.backlog-drops crit=100\n");
	put("e/netpath.conf.d/20-bad.conf", "threshold softnet.backlog-drops warn=500\n");
	assert_int_equal(load(&c, err, sizeof(err), "e", NULL), -EINVAL);
	assert_contains(err, want);
	assert_contains(err, "above crit=100");
	/* The lists together leave nothing: said with the last file read. */
	put("e/netpath.conf", "check softnet\n");
	put("e/netpath.conf.d/20-bad.conf", "skip softnet\n");
	assert_int_equal(load(&c, err, sizeof(err), "e", NULL), -EINVAL);
	snprintf(want, sizeof(want), "%s/e/netpath.conf.d/20-bad.conf: ", top);
	assert_contains(err, want);
	assert_contains(err, "leave no check to run");
	/* A syntactically fine value: where it came from travels with it. */
	put("e/netpath.conf.d/20-bad.conf", "rtt fast\n");
	assert_int_equal(load(&c, err, sizeof(err), "e", NULL), 0);
	assert_string_equal(c.rtt.text, "fast");
	assert_int_equal(c.rtt.line, 1);
	snprintf(want, sizeof(want), "%s/e/netpath.conf.d/20-bad.conf", top);
	assert_string_equal(np_config_file(&c, c.rtt.file), want);
}

/* /etc's files first, then sysconfdir's: the second directory refines the first; one linked
 * to the other is read once. */
static void test_two_directories(void **state)
{
	const char *dirs[2];
	char err[600], link[512];
	struct np_config c;
	size_t n = np_config_default_dirs(dirs);

	(void)state;
	/* Production: /etc always, then meson's sysconfdir when it is another directory. */
	assert_string_equal(dirs[0], "/etc");
	assert_string_equal(NP_CONFIG_PATH, "/etc/netpath.conf");
	if (strcmp(NETPATH_SYSCONFDIR, "/etc") == 0) {
		assert_int_equal(n, 1);
	} else {
		assert_int_equal(n, 2);
		assert_string_equal(dirs[1], NETPATH_SYSCONFDIR);
	}

	mkdir_top("etc");
	mkdir_top("etc/netpath.conf.d");
	mkdir_top("local");
	mkdir_top("local/netpath.conf.d");
	put("etc/netpath.conf", "rtt 10\nbandwidth 1G\n");
	put("etc/netpath.conf.d/50-z.conf", "rtt 20\ninterval 9\n");
	put("local/netpath.conf", "rtt 40\n");
	put("local/netpath.conf.d/00-a.conf", "bandwidth 25G\n");
	assert_int_equal(load(&c, err, sizeof(err), "etc", "local", NULL), 0);
	assert_int_equal(c.nfiles, 4);
	assert_file(&c, 1, "etc/netpath.conf");
	assert_file(&c, 2, "etc/netpath.conf.d/50-z.conf");
	assert_file(&c, 3, "local/netpath.conf");
	assert_file(&c, 4, "local/netpath.conf.d/00-a.conf");
	/* The whole of the first directory, then the second: its 00-a.conf beats etc's 50-z. */
	assert_string_equal(c.rtt.text, "40");
	assert_string_equal(c.bandwidth.text, "25G");
	assert_string_equal(c.interval.text, "9");
	/* The other way round, the other answer. */
	assert_int_equal(load(&c, err, sizeof(err), "local", "etc", NULL), 0);
	assert_string_equal(c.rtt.text, "20");
	assert_string_equal(c.bandwidth.text, "1G");
	/* sysconfdir a link to /etc: one reading. */
	snprintf(link, sizeof(link), "%s/same", top);
	assert_int_equal(symlink("etc", link), 0);
	assert_int_equal(load(&c, err, sizeof(err), "etc", "same", NULL), 0);
	assert_int_equal(c.nfiles, 2);
	/* Only one of them exists: its files. */
	assert_int_equal(load(&c, err, sizeof(err), "nowhere", "local", NULL), 0);
	assert_int_equal(c.nfiles, 2);
	assert_file(&c, 1, "local/netpath.conf");
}

/* At most NP_CONFIG_MAX_DROPINS drop-ins a directory: a runaway generator is an error, not
 * minutes of parsing. */
static void test_bounded(void **state)
{
	char rel[256], err[600];
	struct np_config c;

	(void)state;
	mkdir_top("many");
	mkdir_top("many/netpath.conf.d");
	for (int i = 0; i < NP_CONFIG_MAX_DROPINS; i++) {
		snprintf(rel, sizeof(rel), "many/netpath.conf.d/%03d.conf", i);
		put(rel, "rtt 7\n");
	}
	assert_int_equal(load(&c, err, sizeof(err), "many", NULL), 0);
	assert_int_equal(c.nfiles, NP_CONFIG_MAX_DROPINS);
	assert_file(&c, NP_CONFIG_MAX_DROPINS, "many/netpath.conf.d/063.conf");
	put("many/netpath.conf.d/999.conf", "rtt 7\n");
	assert_int_equal(load(&c, err, sizeof(err), "many", NULL), -E2BIG);
	assert_contains(err, "more than 64 *.conf files");
	assert_contains(err, "many/netpath.conf.d");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order_and_precedence),
		cmocka_unit_test(test_ignored_names),
		cmocka_unit_test(test_trust),
		cmocka_unit_test(test_bad_dropin),
		cmocka_unit_test(test_two_directories),
		cmocka_unit_test(test_bounded),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
