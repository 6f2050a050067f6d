// SPDX-License-Identifier: GPL-2.0-only
/*
 * Who may have written the config file: the trust rules as pure functions, then on real files
 * (modes, directories, symlinks, every ancestor) and as another user through the uid seam.
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

/* Names longer than the walk's first buffers (256 bytes): the walk is done again with PATH_MAX
 * ones and finds what a short name would. A deep directory, a link whose text is long (and one
 * exactly as long as the short buffer), a relative name from a deep working directory. */
static void test_path_trust_long_names(void **state)
{
	char top[] = "/tmp/np-long-XXXXXX", dir[1200], file[1300], link[1300], text[1300],
	     real[PATH_MAX], err[2000], cwd[PATH_MAX], cmd[300];
	uid_t me = geteuid();
	struct stat st;
	size_t n;

	(void)state;
	assert_non_null(mkdtemp(top));
	/* top/aaaa...(60)/ x 12: ~750 bytes */
	n = (size_t)snprintf(dir, sizeof(dir), "%s", top);
	for (int i = 0; i < 12; i++) {
		n += (size_t)snprintf(dir + n, sizeof(dir) - n, "/%c%059d", 'a' + i, 0);
		assert_int_equal(mkdir(dir, 0755), 0);
	}
	assert_true(strlen(dir) > 700);
	snprintf(file, sizeof(file), "%s/netpath.conf", dir);
	write_file(file, "rtt 1\n");
	assert_int_equal(np_config_path_trust(file, me, &st, real, sizeof(real), err, sizeof(err)),
			 0);
	assert_string_equal(real, file);
	assert_true(S_ISREG(st.st_mode));
	/* A link whose text (absolute) is the long name. */
	snprintf(link, sizeof(link), "%s/abs.conf", top);
	assert_int_equal(symlink(file, link), 0);
	assert_int_equal(np_config_path_trust(link, me, &st, real, sizeof(real), err, sizeof(err)),
			 0);
	assert_string_equal(real, file);
	/* Link texts of 254, 255 and 256 bytes ("./" repeated, then the file's name relative to
	 * top): whole, not cut at the short buffer's end. */
	for (size_t len = 254; len <= 256; len++) {
		const char *rel = file + strlen(top) + 1;
		size_t pad = len - strlen(rel);

		if (strlen(rel) > len)
			break;
		memset(text, 0, sizeof(text));
		for (size_t k = 0; k + 2 <= pad; k += 2)
			memcpy(text + k, "./", 2);
		if (pad % 2)
			text[pad - 1] = '/';	/* "././/": the same directory */
		memcpy(text + pad, rel, strlen(rel) + 1);
		assert_int_equal(strlen(text), len);
		snprintf(link, sizeof(link), "%s/rel%zu.conf", top, len);
		assert_int_equal(symlink(text, link), 0);
		assert_int_equal(np_config_path_trust(link, me, &st, real, sizeof(real), err,
						      sizeof(err)), 0);
		assert_string_equal(real, file);
	}
	/* A relative name from a working directory deeper than the short buffers. */
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(dir), 0);
	assert_int_equal(np_config_path_trust("netpath.conf", me, &st, real, sizeof(real), err,
					      sizeof(err)), 0);
	assert_string_equal(real, file);
	/* What the long walk cannot find is said with the long name. */
	assert_int_equal(np_config_path_trust("none/netpath.conf", me, &st, real, sizeof(real),
					      err, sizeof(err)), -ENOENT);
	assert_contains(err, dir);
	assert_int_equal(chdir(cwd), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trust_rules),
		cmocka_unit_test(test_load_trust),
		cmocka_unit_test(test_load_trust_ancestors),
		cmocka_unit_test(test_path_trust_as_other_user),
		cmocka_unit_test(test_path_trust_long_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
