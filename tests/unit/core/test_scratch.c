// SPDX-License-Identifier: GPL-2.0-only
/*
 * Scratch directories for unpacked archives: private (0700, under $TMPDIR), removed whole
 * without following a symlink out of them, and removed too when SIGINT, SIGTERM or SIGHUP
 * ends the process, along with an -o FILE temporary, by one handler.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "atomic_file.h"
#include "cleanup.h"
#include "scratch.h"

struct base {
	char path[64];		/* $TMPDIR for the test */
	char outside[128];	/* what a symlink inside points to: must survive */
};

static int setup(void **state)
{
	struct base *b = calloc(1, sizeof(*b));
	FILE *f;

	assert_non_null(b);
	snprintf(b->path, sizeof(b->path), "/tmp/np-scratch.XXXXXX");
	assert_non_null(mkdtemp(b->path));
	snprintf(b->outside, sizeof(b->outside), "%s/outside", b->path);
	assert_int_equal(mkdir(b->outside, 0700), 0);
	f = fopen(strcat(strcpy((char[256]){ 0 }, b->outside), "/keep"), "w");
	assert_non_null(f);
	fputs("keep\n", f);
	fclose(f);
	setenv("TMPDIR", b->path, 1);
	*state = b;
	return 0;
}

static int teardown(void **state)
{
	struct base *b = *state;

	np_rmtree(b->path);
	unsetenv("TMPDIR");
	free(b);
	return 0;
}

static bool exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

/* A tree like an unpacked capture, with symlinks out of it and a deep chain. */
static void populate(const char *dir, const char *outside)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/sys/class/net", dir);
	for (char *p = path + strlen(dir) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		assert_int_equal(mkdir(path, 0700), 0);
		*p = '/';
	}
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/sys/class/net/eth0", dir);
	assert_int_equal(symlink(outside, path), 0);
	snprintf(path, sizeof(path), "%s/sys/keep-link", dir);
	snprintf(path + strlen(path) + 1, 64, "x");
	assert_int_equal(symlink(strcat(strcpy((char[256]){ 0 }, outside), "/keep"), path), 0);
	snprintf(path, sizeof(path), "%s/file", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("x\n", f);
	fclose(f);
	/* 40 levels, each holding a file. */
	snprintf(path, sizeof(path), "%s", dir);
	for (int i = 0; i < 40; i++) {
		char file[PATH_MAX + 8];

		strcat(path, "/d");
		assert_int_equal(mkdir(path, 0700), 0);
		snprintf(file, sizeof(file), "%s/f", path);
		f = fopen(file, "w");
		assert_non_null(f);
		fclose(f);
	}
}

static void test_create_and_remove(void **state)
{
	struct base *b = *state;
	char dir[PATH_MAX], keep[256];
	struct stat st;

	assert_int_equal(np_scratch_dir(dir, sizeof(dir)), 0);
	assert_int_equal(strncmp(dir, b->path, strlen(b->path)), 0);
	assert_int_equal(lstat(dir, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0700);
	populate(dir, b->outside);
	np_scratch_remove(dir);
	assert_false(exists(dir));
	/* What the symlinks pointed at is untouched. */
	snprintf(keep, sizeof(keep), "%s/keep", b->outside);
	assert_true(exists(keep));
	assert_true(exists(b->outside));
	/* Removing twice, or nothing, is harmless. */
	np_scratch_remove(dir);
	np_scratch_remove("");
	np_scratch_remove(NULL);
}

/* A relative or empty TMPDIR: /tmp, so a signal handler never depends on the cwd. */
static void test_tmpdir_fallback(void **state)
{
	char dir[PATH_MAX], small[8];

	(void)state;
	setenv("TMPDIR", "relative/dir", 1);
	assert_int_equal(np_scratch_dir(dir, sizeof(dir)), 0);
	assert_int_equal(strncmp(dir, "/tmp/netpath.", 13), 0);
	np_scratch_remove(dir);
	assert_false(exists(dir));
	assert_int_equal(np_scratch_dir(small, sizeof(small)), -ENAMETOOLONG);
	assert_string_equal(small, "");
}

/* np_rmtree on a symlink to a directory removes the link only. */
static void test_rmtree_symlink_root(void **state)
{
	struct base *b = *state;
	char link[256], keep[256];

	snprintf(link, sizeof(link), "%s/link", b->path);
	assert_int_equal(symlink(b->outside, link), 0);
	assert_int_equal(np_rmtree(link), 0);
	assert_false(exists(link));
	snprintf(keep, sizeof(keep), "%s/keep", b->outside);
	assert_true(exists(keep));
	assert_int_equal(np_rmtree("/nonexistent/np-scratch"), 0);
}

/* SIGTERM, SIGINT, SIGHUP: the scratch directory and an -o temporary both go, and the
 * process still ends by the signal. */
static void test_signal_removes(void **state)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP };
	struct base *b = *state;

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		char out[256];
		int status, p[2];
		pid_t pid;
		struct {
			char dir[256], tmp[256];
		} names;

		snprintf(out, sizeof(out), "%s/report.prom", b->path);
		assert_int_equal(pipe(p), 0);
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			FILE *f;

			memset(&names, 0, sizeof(names));
			if (np_scratch_dir(names.dir, sizeof(names.dir)))
				_exit(2);
			populate(names.dir, b->outside);
			f = np_atomic_open(out, names.tmp, sizeof(names.tmp));
			if (!f)
				_exit(3);
			fputs("half", f);
			fflush(f);
			if (write(p[1], &names, sizeof(names)) != sizeof(names))
				_exit(4);
			raise(sigs[i]);
			_exit(5);	/* not reached */
		}
		close(p[1]);
		assert_int_equal(read(p[0], &names, sizeof(names)), sizeof(names));
		close(p[0]);
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFSIGNALED(status));
		assert_int_equal(WTERMSIG(status), sigs[i]);
		assert_true(names.dir[0] && names.tmp[0]);
		assert_false(exists(names.dir));
		assert_false(exists(names.tmp));
		assert_false(exists(out));
		assert_true(exists(b->outside));
	}
}

/* A command with its own handler keeps it: the guard takes over only default signals. */
static void test_own_handler_kept(void **state)
{
	struct base *b = *state;
	int status;
	pid_t pid = fork();

	(void)b;
	assert_true(pid >= 0);
	if (pid == 0) {
		char dir[PATH_MAX];

		signal(SIGTERM, SIG_IGN);
		if (np_scratch_dir(dir, sizeof(dir)))
			_exit(2);
		raise(SIGTERM);		/* ignored */
		_exit(exists(dir) ? (np_scratch_remove(dir), 0) : 6);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
	/* The guard keeps a signal the runner ignores ignored, by design (nohup: SIGHUP, a
	 * background job: SIGINT), and installs once per process: start from the defaults, so the
	 * signal tests ask what they mean however the suite was started. */
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGHUP, SIG_DFL);

	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_create_and_remove, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tmpdir_fallback, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rmtree_symlink_root, setup, teardown),
		cmocka_unit_test_setup_teardown(test_signal_removes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_own_handler_kept, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
