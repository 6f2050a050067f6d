// SPDX-License-Identifier: GPL-2.0-only
/*
 * -o FILE: the whole content or the old file, never half a file, never a temp file left behind,
 * never a write through a symlink, into a device or FIFO, or into a directory that is missing.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "atomic_file.h"

struct dir {
	char path[PATH_MAX];
};

static int dir_setup(void **state)
{
	struct dir *d = calloc(1, sizeof(*d));

	assert_non_null(d);
	snprintf(d->path, sizeof(d->path), "/tmp/np-atomic.XXXXXX");
	assert_non_null(mkdtemp(d->path));
	*state = d;
	return 0;
}

/* Remove the scratch tree (two levels are all the tests make). */
static void rm_tree(const char *path)
{
	DIR *dp = opendir(path);
	struct dirent *e;

	if (!dp)
		return;
	while ((e = readdir(dp))) {
		char sub[PATH_MAX + 256];
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		if (lstat(sub, &st) == 0 && S_ISDIR(st.st_mode))
			rm_tree(sub);
		else
			unlink(sub);
	}
	closedir(dp);
	rmdir(path);
}

static int dir_teardown(void **state)
{
	struct dir *d = *state;

	rm_tree(d->path);
	free(d);
	return 0;
}

/* Entries of the directory, besides . and .. */
static size_t entries(const char *path)
{
	DIR *dp = opendir(path);
	struct dirent *e;
	size_t n = 0;

	assert_non_null(dp);
	while ((e = readdir(dp)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(dp);
	return n;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* Bigger than any stdio buffer, so most of it is written before the commit. */
#define BIG (256 * 1024)

static void test_commit_replaces(void **state)
{
	struct dir *d = *state;
	char path[PATH_MAX + 32], tmp[PATH_MAX + 64], *got;
	struct stat st;
	mode_t old = umask(027);
	size_t len;
	FILE *f;

	snprintf(path, sizeof(path), "%s/netpath.prom", d->path);
	put(path, "old\n");
	f = np_atomic_open(path, tmp, sizeof(tmp));
	assert_non_null(f);
	/* The temp file is beside the target, hidden, and not the target. */
	assert_int_equal(strncmp(tmp, d->path, strlen(d->path)), 0);
	assert_non_null(strstr(tmp, "/.netpath.prom."));
	assert_int_equal(entries(d->path), 2);
	assert_int_equal(fcntl(fileno(f), F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
	for (size_t i = 0; i < BIG / 8; i++)
		fputs("0123456\n", f);
	/* Until the commit, readers see the old file. */
	got = slurp(path, &len);
	assert_string_equal(got, "old\n");
	free(got);
	assert_int_equal(np_atomic_commit(f, tmp, path), 0);
	umask(old);

	got = slurp(path, &len);
	assert_int_equal(len, BIG);
	for (size_t i = 0; i < BIG; i += 8)
		assert_int_equal(memcmp(got + i, "0123456\n", 8), 0);
	free(got);
	assert_int_equal(entries(d->path), 1);
	/* 0644 less the umask (027). */
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0640);
}

/* A relative name without a directory part lands in the current directory. */
static void test_relative(void **state)
{
	struct dir *d = *state;
	char cwd[PATH_MAX], tmp[64], *got;
	size_t len;
	FILE *f;

	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(d->path), 0);
	f = np_atomic_open("out.prom", tmp, sizeof(tmp));
	assert_non_null(f);
	assert_int_equal(strncmp(tmp, ".out.prom.", 10), 0);
	fputs("x 1\n", f);
	assert_int_equal(np_atomic_commit(f, tmp, "out.prom"), 0);
	got = slurp("out.prom", &len);
	assert_string_equal(got, "x 1\n");
	free(got);
	assert_int_equal(chdir(cwd), 0);
	assert_int_equal(entries(d->path), 1);
}

/* A write error stdio deferred (EFBIG past RLIMIT_FSIZE): old content kept, no temp left. */
static void test_failed_write_keeps_old(void **state)
{
	struct dir *d = *state;
	char path[PATH_MAX + 32], tmp[PATH_MAX + 64], *got;
	struct rlimit lim, small;
	void (*oldsig)(int);
	size_t len;
	FILE *f;
	int r;

	snprintf(path, sizeof(path), "%s/netpath.prom", d->path);
	put(path, "old content\n");
	f = np_atomic_open(path, tmp, sizeof(tmp));
	assert_non_null(f);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &lim), 0);
	small = lim;
	small.rlim_cur = 4096;
	oldsig = signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
	for (size_t i = 0; i < BIG / 8; i++)
		fputs("0123456\n", f);
	r = np_atomic_commit(f, tmp, path);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	signal(SIGXFSZ, oldsig);

	assert_int_equal(r, -EFBIG);
	got = slurp(path, &len);
	assert_string_equal(got, "old content\n");
	free(got);
	assert_int_equal(access(tmp, F_OK), -1);
	assert_int_equal(entries(d->path), 1);
}

static void test_abort(void **state)
{
	struct dir *d = *state;
	char path[PATH_MAX + 32], tmp[PATH_MAX + 64], *got;
	size_t len;
	FILE *f;

	snprintf(path, sizeof(path), "%s/netpath.prom", d->path);
	put(path, "old\n");
	f = np_atomic_open(path, tmp, sizeof(tmp));
	assert_non_null(f);
	fputs("half a fi", f);
	np_atomic_abort(f, tmp);
	got = slurp(path, &len);
	assert_string_equal(got, "old\n");
	free(got);
	assert_int_equal(entries(d->path), 1);
}

/* A signal between create and rename (doctor -o killed by a timeout or a user) leaves no
 * .FILE.XXXXXX behind, and the process still ends by that signal. */
static void test_signal_removes_tmp(void **state)
{
	struct dir *d = *state;
	char path[PATH_MAX + 32], tmp[PATH_MAX + 64];
	int status;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/netpath.prom", d->path);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		FILE *f = np_atomic_open(path, tmp, sizeof(tmp));

		if (!f)
			_exit(2);
		fputs("half", f);
		fflush(f);
		raise(SIGTERM);
		_exit(3);	/* not reached */
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGTERM);
	assert_int_equal(entries(d->path), 0);
}

/* Paths that must be refused, creating nothing anywhere. */
static void test_refusals(void **state)
{
	struct dir *d = *state;
	char path[PATH_MAX + 32], other[PATH_MAX + 32], real[PATH_MAX + 64];
	char tmp[PATH_MAX + 64], *got;
	size_t len;

	/* Missing directory: never created. */
	snprintf(path, sizeof(path), "%s/missing/netpath.prom", d->path);
	errno = 0;
	assert_null(np_atomic_open(path, tmp, sizeof(tmp)));
	assert_int_equal(errno, ENOENT);
	assert_string_equal(tmp, "");
	/* The "directory" is a file. */
	snprintf(other, sizeof(other), "%s/file", d->path);
	put(other, "f\n");
	snprintf(path, sizeof(path), "%s/file/netpath.prom", d->path);
	assert_null(np_atomic_open(path, tmp, sizeof(tmp)));
	assert_int_equal(errno, ENOTDIR);
	unlink(other);

	/* A symlink to a file elsewhere: neither followed nor replaced. */
	snprintf(other, sizeof(other), "%s/elsewhere", d->path);
	assert_int_equal(mkdir(other, 0755), 0);
	snprintf(real, sizeof(real), "%s/real.prom", other);
	put(real, "real\n");
	snprintf(path, sizeof(path), "%s/link.prom", d->path);
	assert_int_equal(symlink(real, path), 0);
	assert_null(np_atomic_open(path, tmp, sizeof(tmp)));
	assert_int_equal(errno, ELOOP);
	got = slurp(real, &len);
	assert_string_equal(got, "real\n");
	free(got);
	unlink(path);

	/* A FIFO (think /dev/null, /dev/stdout): renaming over it would destroy it. */
	snprintf(path, sizeof(path), "%s/fifo", d->path);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_null(np_atomic_open(path, tmp, sizeof(tmp)));
	assert_int_equal(errno, EINVAL);
	unlink(path);

	/* A directory, a trailing slash, "." and "..", an empty name. */
	assert_null(np_atomic_open(other, tmp, sizeof(tmp)));
	assert_int_equal(errno, EISDIR);
	snprintf(path, sizeof(path), "%s/", d->path);
	assert_null(np_atomic_open(path, tmp, sizeof(tmp)));
	assert_int_equal(errno, EINVAL);
	snprintf(path, sizeof(path), "%s/..", d->path);
	assert_null(np_atomic_open(path, tmp, sizeof(tmp)));
	assert_int_equal(errno, EINVAL);
	assert_null(np_atomic_open("", tmp, sizeof(tmp)));
	assert_int_equal(errno, EINVAL);
	/* A temp name buffer too small. */
	snprintf(path, sizeof(path), "%s/netpath.prom", d->path);
	assert_null(np_atomic_open(path, tmp, 16));
	assert_int_equal(errno, ENAMETOOLONG);

	/* Nothing but the directory of the symlink test was left. */
	assert_int_equal(entries(d->path), 1);
	assert_int_equal(entries(other), 1);
}

/* The target became a symlink while the file was written: the commit refuses and cleans up. */
static void test_target_changed(void **state)
{
	struct dir *d = *state;
	char path[PATH_MAX + 32], tmp[PATH_MAX + 64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/netpath.prom", d->path);
	f = np_atomic_open(path, tmp, sizeof(tmp));
	assert_non_null(f);
	fputs("x 1\n", f);
	assert_int_equal(symlink("/etc/hostname", path), 0);
	assert_int_equal(np_atomic_commit(f, tmp, path), -ELOOP);
	assert_int_equal(access(tmp, F_OK), -1);
	assert_int_equal(entries(d->path), 1);
	assert_int_equal(unlink(path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_commit_replaces, dir_setup, dir_teardown),
		cmocka_unit_test_setup_teardown(test_relative, dir_setup, dir_teardown),
		cmocka_unit_test_setup_teardown(test_failed_write_keeps_old, dir_setup,
						dir_teardown),
		cmocka_unit_test_setup_teardown(test_abort, dir_setup, dir_teardown),
		cmocka_unit_test_setup_teardown(test_signal_removes_tmp, dir_setup, dir_teardown),
		cmocka_unit_test_setup_teardown(test_refusals, dir_setup, dir_teardown),
		cmocka_unit_test_setup_teardown(test_target_changed, dir_setup, dir_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
