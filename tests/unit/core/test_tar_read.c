// SPDX-License-Identifier: GPL-2.0-only
/*
 * Archives made by other tools (tests/fixtures/archives/make.sh): GNU tar's gnu and posix
 * formats, Python's tarfile (what sos writes) in PAX and GNU formats, gzip, xz and none. Each
 * must unpack to the same tree: long sysfs paths, a long symlink target, a hardlink copied,
 * a FIFO and a device skipped.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "tmpdir_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "config.h"
#include "tar.h"

#define SOS "sosreport-host-2024-01-01-abcdef/"
#define LONG "sys/devices/pci0000:00/0000:00:1c.0/0000:01:00.0/0000:02:03.0/0000:05:00.0/" \
	     "net/eth0"

struct fixture {
	const char *file;
	const char *top;	/* the archive's top directory */
	size_t special;		/* FIFO and device members */
};

static const struct fixture fixtures[] = {
	{ "gnu.tar.gz", "", 0 },
	{ "python.tar.gz", SOS, 2 },
	{ "python-gnu.tar", SOS, 2 },
#if HAVE_LZMA
	{ "gnu-posix.tar.xz", "", 0 },
	{ "python.tar.xz", SOS, 2 },
#endif
};

static int setup(void **state)
{
	return np_test_dir_setup(state, "/tmp/np-tar-read.XXXXXX");
}

static int teardown(void **state)
{
	return np_test_dir_teardown(state);
}

static int open_fixture(const char *name)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/archives/%s", NP_FIXTURES, name);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	return fd;
}

static void expect_file(const struct dir *d, const char *top, const char *rel, const char *text)
{
	char path[1024], buf[256];
	struct stat st;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s%s", top, rel);
	fd = openat(d->fd, path, O_RDONLY | O_NOFOLLOW);
	if (fd < 0)
		fail_msg("%s: %s", path, strerror(errno));
	assert_int_equal(fstat(fd, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_int_equal(st.st_nlink, 1);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	assert_true(n >= 0);
	buf[n] = '\0';
	assert_string_equal(buf, text);
}

static void test_fixtures(void **state)
{
	struct dir *d = *state;

	for (size_t i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++) {
		const struct fixture *f = &fixtures[i];
		/* Tight caps, every one of them: these archives are small. */
		struct np_tar_limits lim = {
			.max_total = 1 << 20, .max_member = 1 << 16, .max_members = 1000,
			.max_dirs = 100, .max_inflated = 1 << 20, .skip_over = 1 << 16,
		};
		struct np_tar_stats st;
		char err[256], path[1024], link[512];
		struct stat sb;
		ssize_t n;
		int fd = open_fixture(f->file), r;

		print_message("%s\n", f->file);
		r = np_tar_extract(fd, d->fd, &lim, NULL, NULL, &st, err, sizeof(err));
		close(fd);
		if (r)
			fail_msg("%s: %d %s", f->file, r, err);
		assert_int_equal(st.files, 6);
		assert_int_equal(st.symlinks, 1);
		assert_int_equal(st.skipped_type, f->special);
		assert_int_equal(st.refused_path, 0);
		assert_int_equal(st.bytes, 37 + 5 + 20 + 20 + 2 + 5);
		expect_file(d, f->top, "proc/net/dev", "Inter-|   Receive\n eth0: 1000 10 0 0\n");
		expect_file(d, f->top, "proc/sys/net/core/netdev_max_backlog", "1000\n");
		expect_file(d, f->top, "proc/version", "Linux version 6.1.0\n");
		expect_file(d, f->top, "proc/version.hardlink", "Linux version 6.1.0\n");
		expect_file(d, f->top, LONG "/queues/rx-0/rps_cpus", "f\n");
		expect_file(d, f->top, LONG "/mtu", "1500\n");
		snprintf(path, sizeof(path), "%ssys/class/net/eth0", f->top);
		n = readlinkat(d->fd, path, link, sizeof(link) - 1);
		assert_true(n > 0);
		link[n] = '\0';
		assert_string_equal(link, "../../../" LONG);
		snprintf(path, sizeof(path), "%sproc", f->top);
		assert_int_equal(fstatat(d->fd, path, &sb, AT_SYMLINK_NOFOLLOW), 0);
		assert_int_equal(sb.st_mode & 07777, 0700);
		snprintf(path, sizeof(path), "%sfifo", f->top);
		assert_int_equal(fstatat(d->fd, path, &sb, AT_SYMLINK_NOFOLLOW), -1);
		snprintf(path, sizeof(path), "%sdev/null", f->top);
		assert_int_equal(fstatat(d->fd, path, &sb, AT_SYMLINK_NOFOLLOW), -1);

		/* Empty the directory for the next archive. */
		close(d->fd);
		np_rmtree(d->path);
		assert_int_equal(mkdir(d->path, 0700), 0);
		d->fd = open(d->path, O_RDONLY | O_DIRECTORY);
	}
}

/* Only proc/net/: how doctor takes what it needs from a large sosreport. */
static bool only_proc_net(const char *path, void *arg)
{
	size_t *asked = arg;

	(*asked)++;
	return strstr(path, "proc/net/") != NULL;
}

static void test_want(void **state)
{
	struct dir *d = *state;
	struct np_tar_stats st;
	size_t asked = 0;
	char err[256];
	struct stat sb;
	int fd = open_fixture("python.tar.gz");

	assert_int_equal(np_tar_extract(fd, d->fd, NULL, only_proc_net, &asked, &st, err,
					sizeof(err)), 0);
	close(fd);
	assert_int_equal(st.files, 1);
	assert_int_equal(st.symlinks, 0);
	assert_int_equal(st.skipped_unwanted, asked - 1);
	assert_true(asked > 20);
	expect_file(d, SOS, "proc/net/dev", "Inter-|   Receive\n eth0: 1000 10 0 0\n");
	/* Parents are created for it; nothing else is. */
	assert_int_equal(fstatat(d->fd, SOS "proc/net", &sb, AT_SYMLINK_NOFOLLOW), 0);
	assert_int_equal(fstatat(d->fd, SOS "sys", &sb, AT_SYMLINK_NOFOLLOW), -1);
	assert_int_equal(fstatat(d->fd, SOS "proc/version", &sb, AT_SYMLINK_NOFOLLOW), -1);
}

/* The archive is read from the fd's current offset, and a pipe works as well as a file. */
static void test_pipe(void **state)
{
	struct dir *d = *state;
	struct np_tar_stats st;
	char err[256], buf[4096];
	int fd = open_fixture("gnu.tar.gz"), p[2];
	ssize_t n;

	n = read(fd, buf, sizeof(buf));
	close(fd);
	assert_true(n > 0 && n < (ssize_t)sizeof(buf));
	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], buf, (size_t)n), n);
	close(p[1]);
	assert_int_equal(np_tar_extract(p[0], d->fd, NULL, NULL, NULL, &st, err, sizeof(err)), 0);
	close(p[0]);
	assert_int_equal(st.files, 6);
}

#if !HAVE_LZMA
/* Built without liblzma: an .xz archive is refused with advice, not misread. */
static void test_xz_unsupported(void **state)
{
	struct dir *d = *state;
	char err[256];
	int fd = open_fixture("python.tar.xz");

	assert_int_equal(np_tar_extract(fd, d->fd, NULL, NULL, NULL, NULL, err, sizeof(err)),
			 -ENOTSUP);
	close(fd);
	assert_non_null(strstr(err, "xz"));
	assert_non_null(strstr(err, "tar xf"));
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fixtures, setup, teardown),
		cmocka_unit_test_setup_teardown(test_want, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pipe, setup, teardown),
#if !HAVE_LZMA
		cmocka_unit_test_setup_teardown(test_xz_unsupported, setup, teardown),
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
