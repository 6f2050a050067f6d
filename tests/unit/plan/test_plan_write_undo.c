// SPDX-License-Identifier: GPL-2.0-only
/*
 * netpath plan --write, all or nothing when a rename fails halfway through putting the plan in
 * place: renameat() is wrapped (-Wl,--wrap=renameat) to fail the Nth call, after the plan's
 * first files have replaced an earlier plan's. DIR must be as it was: the earlier files back,
 * a file that did not exist gone again, no temporary name, no directory of the failed run.
 */
#include <errno.h>
#include <limits.h>
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

#include "plan_priv.h"
#include "plan_write.h"
#include "small_plan.h"

int __real_renameat(int olddfd, const char *old, int newdfd, const char *new);
int __wrap_renameat(int olddfd, const char *old, int newdfd, const char *new);

static int fail_at, calls;
static char tmpdir[64];

int __wrap_renameat(int olddfd, const char *old, int newdfd, const char *new)
{
	if (fail_at && ++calls == fail_at) {
		errno = EIO;
		return -1;
	}
	return __real_renameat(olddfd, old, newdfd, new);
}

static int setup(void **state)
{
	(void)state;
	umask(022);
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/np-plan-undo.XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static void shell(const char *fmt, const char *arg)
{
	char cmd[3 * PATH_MAX + 256];

	snprintf(cmd, sizeof(cmd), fmt, arg, arg, arg);
	assert_int_equal(system(cmd), 0);
}

/* Every name beneath dir with its type and mode, and every file's content. */
static void snap(const char *dir, char *buf, size_t size)
{
	char cmd[PATH_MAX + 160];
	FILE *f;
	size_t n;

	snprintf(cmd, sizeof(cmd), "cd '%s' && find . -printf '%%p %%y %%m\\n' | sort && "
		 "find . -type f | sort | xargs cat", dir);
	f = popen(cmd, "r");
	assert_non_null(f);
	n = fread(buf, 1, size - 1, f);
	buf[n] = '\0';
	pclose(f);
}

static void test_undo_over_earlier_plan(void **state)
{
	char dir[PATH_MAX], err[512], before[16384], after[16384];
	struct np_plan p;

	(void)state;
	small_plan(&p);
	snprintf(dir, sizeof(dir), "%s/out", tmpdir);
	fail_at = 0;
	if (np_plan_write(&p, dir, NULL, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	/* The admin edited two files and removed the modules one (a new file for the next run). */
	shell("echo edited > '%s/etc/sysctl.d/90-netpath.conf' && "
	      "echo edited > '%s/etc/systemd/network/10-netpath-eth0.link' && "
	      "rm '%s/etc/modules-load.d/netpath.conf'", dir);
	snap(dir, before, sizeof(before));
	/* 1-3 replace sysctl.d, .link and the udev rule; 4 (modules-load.d) fails. */
	for (int n = 1; n <= 5; n++) {
		calls = 0;
		fail_at = n;
		err[0] = '\0';
		assert_int_equal(np_plan_write(&p, dir, NULL, err, sizeof(err)), -1);
		if (!strstr(err, strerror(EIO)))
			fail_msg("rename %d: '%s'", n, err);
		snap(dir, after, sizeof(after));
		if (strcmp(before, after))
			fail_msg("rename %d failed, DIR changed:\n%s\n-- was --\n%s", n, after, before);
	}
	fail_at = 0;
	np_plan_free(&p);
}

static void test_undo_removes_new_dir(void **state)
{
	char dir[PATH_MAX], err[512];
	struct stat st;
	struct np_plan p;

	(void)state;
	small_plan(&p);
	snprintf(dir, sizeof(dir), "%s/new", tmpdir);
	calls = 0;
	fail_at = 3;
	assert_int_equal(np_plan_write(&p, dir, NULL, err, sizeof(err)), -1);
	fail_at = 0;
	/* DIR did not exist: the failed run takes it back with all it created. */
	assert_int_equal(lstat(dir, &st), -1);
	assert_int_equal(errno, ENOENT);
	np_plan_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_undo_over_earlier_plan),
		cmocka_unit_test(test_undo_removes_new_dir),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
