// SPDX-License-Identifier: GPL-2.0-only
/*
 * The caps of np_tar_extract against archives built to get past them (netpath issue #29): a
 * 30 KB archive whose members' parents make 126,000 directories, one-byte files that take a
 * disk block each, the data of a skipped member inflated from a few KiB, and members that are
 * never created. Each stops with -EFBIG and a message naming the cap and its value. Then the
 * caps --root really uses, through np_root_resolve: a gzip bomb in a skipped member stops at
 * the decompressed-size cap, with the hint to unpack by hand, and no scratch directory left.
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

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "root.h"
#include "tar.h"
#include "tar_build.h"
#include "gzip_build.h"
#include "tar_parse.h"

static int setup(void **state)
{
	return np_test_dir_setup(state, "/tmp/np-tar-caps.XXXXXX");
}

static int teardown(void **state)
{
	return np_test_dir_teardown(state);
}

/* A size the compiler cannot see (gcc would warn that ar_hdr's octal field may not hold it). */
static uint64_t opaque(uint64_t v)
{
	volatile uint64_t x = v;

	return x;
}

static int memfd_of(const void *buf, size_t len)
{
	int fd = memfd_create("caps", MFD_CLOEXEC);

	assert_true(fd >= 0);
	assert_int_equal(np_write_all(fd, buf, len), 0);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	return fd;
}

static int extract(struct dir *d, int fd, const struct np_tar_limits *lim,
		   struct np_tar_stats *st, char *err, size_t errlen)
{
	int r = np_tar_extract(fd, d->fd, lim, NULL, NULL, st, err, errlen);

	close(fd);
	return r;
}

/* Entries directly below dir, recursively: what landed on disk. */
static size_t count_tree(int dirfd)
{
	DIR *dd = fdopendir(dup(dirfd));
	struct dirent *e;
	size_t n = 0;

	assert_non_null(dd);
	while ((e = readdir(dd))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		n++;
		if (e->d_type == DT_DIR) {
			int sub = openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);

			assert_true(sub >= 0);
			n += count_tree(sub);
			close(sub);
		}
	}
	closedir(dd);
	return n;
}

/*
 * 2,000 members "iNNNN/d/d/.../d/f", 63 components of directories each: 126,000 directories
 * from a gzip file of about 30 KB (before the directory cap it made them all: 46 s and 500 MB
 * of disk). The parents of a member count like listed directories.
 */
static void test_implicit_dirs(void **state)
{
	struct dir *d = *state;
	struct np_tar_limits lim = { .max_dirs = 1000 };
	struct np_tar_stats st;
	char path[256], err[256], want[256];
	struct stat sb;
	int fd = memfd_create("bomb", MFD_CLOEXEC), e = 1;
	struct np_tar_out *o = np_tar_out_open(fd, true, &e);

	assert_non_null(o);
	for (int i = 0; i < 2000; i++) {
		int n = snprintf(path, sizeof(path), "i%04d/", i);

		for (int k = 0; k < NP_TAR_MAX_DEPTH - 2; k++)
			n += snprintf(path + n, sizeof(path) - (size_t)n, "d/");
		snprintf(path + n, sizeof(path) - (size_t)n, "f");
		assert_int_equal(np_tar_out_file(o, path, "", 0, 0644, 0), 0);
	}
	assert_int_equal(np_tar_out_close(o), 0);
	assert_int_equal(fstat(fd, &sb), 0);
	assert_true(sb.st_size < 40 * 1024);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);

	assert_int_equal(extract(d, fd, &lim, &st, err, sizeof(err)), -EFBIG);
	/* 63 directories a member: the 16th member reaches 1,000. The message shows the first
	 * 127 bytes of its name. */
	snprintf(want, sizeof(want), "the directory cap (1000 directories) is reached at member "
		 "%.127s", path);
	memcpy(want + strlen(want) - 127, "i0015", 5);
	assert_string_equal(err, want);
	assert_int_equal(st.dirs, 1000);
	assert_int_equal(st.files, 15);
	assert_int_equal(count_tree(d->fd), 1000 + st.files);
}

/* Listed directories count too, and the cap holds for a directory listed as a member. */
static void test_listed_dirs(void **state)
{
	struct dir *d = *state;
	struct np_tar_limits lim = { .max_dirs = 3 };
	struct np_tar_stats st;
	struct ar a = { 0 };
	char err[256];

	ar_hdr(&a, "a/", '5', 0, NULL);
	ar_hdr(&a, "b/", '5', 0, NULL);
	ar_file(&a, "c/x", "x\n");
	ar_hdr(&a, "e/", '5', 0, NULL);
	ar_end(&a);
	assert_int_equal(extract(d, memfd_of(a.buf, a.len), &lim, &st, err, sizeof(err)),
			 -EFBIG);
	assert_string_equal(err, "the directory cap (3 directories) is reached at member e");
	assert_int_equal(st.dirs, 3);
	assert_int_equal(st.files, 1);
	ar_free(&a);
}

/*
 * Disk use counts blocks: 1,000 one-byte files are 4 MB on a file system, not 1,000 bytes
 * (before, the 2 GiB cap counted content only, so a million empty files were "0 bytes").
 * Directories and symlinks take a block each as well.
 */
static void test_disk_blocks(void **state)
{
	struct dir *d = *state;
	struct np_tar_limits lim = { .max_total = 40 * 1024 };
	struct np_tar_stats st;
	struct ar a = { 0 };
	char name[32], err[256];

	for (int i = 0; i < 1000; i++) {
		snprintf(name, sizeof(name), "f%d", i);
		ar_file(&a, name, "x");
	}
	ar_end(&a);
	assert_int_equal(extract(d, memfd_of(a.buf, a.len), &lim, &st, err, sizeof(err)),
			 -EFBIG);
	assert_string_equal(err, "the disk-use cap (40 KiB) is reached at member f10");
	assert_int_equal(st.files, 10);
	assert_int_equal(st.bytes, 10);
	assert_int_equal(st.disk, 40 * 1024);
	ar_free(&a);

	/* A file of 5,000 bytes takes two blocks; a directory and a symlink one each. */
	memset(&a, 0, sizeof(a));
	{
		char big[5001];

		memset(big, 'b', 5000);
		big[5000] = '\0';
		ar_hdr(&a, "dir/", '5', 0, NULL);
		ar_hdr(&a, "link", '2', 0, "dir");
		ar_file(&a, "dir/big", big);
		ar_file(&a, "one", "1");
	}
	ar_end(&a);
	np_rmtree(d->path);
	assert_int_equal(mkdir(d->path, 0700), 0);
	close(d->fd);
	d->fd = open(d->path, O_RDONLY | O_DIRECTORY);
	lim.max_total = 4 * NP_TAR_DISK_BLOCK;
	assert_int_equal(extract(d, memfd_of(a.buf, a.len), &lim, &st, err, sizeof(err)),
			 -EFBIG);
	assert_string_equal(err, "the disk-use cap (16 KiB) is reached at member one");
	assert_int_equal(st.disk, 4 * NP_TAR_DISK_BLOCK);
	assert_int_equal(st.bytes, 5000);
	ar_free(&a);
}

/*
 * A member never written whose data is zeros: the gzip file is small, the stream huge. Of a
 * type netpath does not create ('Z': the vendor types 'A'..'Z' carry data, GNU sparse and
 * multi-volume members too), or one want() declines. Reading it is bounded by the
 * decompressed-size cap: before, every byte was inflated, 1 s per GiB, with nothing to stop
 * it but -t.
 */
static bool none(const char *path, void *arg)
{
	(void)path;
	(void)arg;
	return false;
}

static void test_inflate_bomb(void **state)
{
	struct dir *d = *state;
	struct np_tar_limits lim = { .max_inflated = 1 << 20 };
	struct np_tar_stats st;
	struct ar tar = { 0 }, gz = { 0 };
	char err[256];
	size_t size = 8 << 20;
	uint8_t *zeros = calloc(1, size + 1024);
	int fd;

	assert_non_null(zeros);
	ar_file(&tar, "before", "first\n");
	ar_hdr(&tar, "vendor", 'Z', opaque(size), NULL);
	gzip_append(&gz, tar.buf, tar.len);
	gzip_append(&gz, zeros, size + 1024);	/* the data, then the end-of-archive blocks */
	assert_true(gz.len < 64 * 1024);

	assert_int_equal(extract(d, memfd_of(gz.buf, gz.len), &lim, &st, err, sizeof(err)),
			 -EFBIG);
	assert_string_equal(err, "the decompressed-size cap (1 MiB of tar data) is reached");
	assert_int_equal(st.files, 1);
	assert_true(st.inflated <= lim.max_inflated);

	/* The same through want(): a member declined is read all the same. */
	fd = memfd_of(gz.buf, gz.len);
	assert_int_equal(np_tar_extract(fd, d->fd, &lim, none, NULL, &st, err, sizeof(err)),
			 -EFBIG);
	close(fd);
	assert_int_equal(st.skipped_unwanted, 2);

	/* Under the cap, the whole archive. */
	lim.max_inflated = size + 3 * 1024 + 1024;
	assert_int_equal(extract(d, memfd_of(gz.buf, gz.len), &lim, &st, err, sizeof(err)), 0);
	assert_int_equal(st.skipped_type, 1);
	ar_free(&tar);
	ar_free(&gz);
	free(zeros);
}

/* A file above skip_over is consumed, not written, and extraction goes on. */
static void test_skip_over(void **state)
{
	struct dir *d = *state;
	struct np_tar_limits lim = { .skip_over = 100 };
	struct np_tar_stats st;
	struct ar a = { 0 };
	char err[256], big[201];
	struct stat sb;

	memset(big, 'j', 200);
	big[200] = '\0';
	ar_file(&a, "journal", big);
	ar_file(&a, "mtu", "1500\n");
	ar_end(&a);
	assert_int_equal(extract(d, memfd_of(a.buf, a.len), &lim, &st, err, sizeof(err)), 0);
	assert_int_equal(st.skipped_big, 1);
	assert_int_equal(st.files, 1);
	assert_int_equal(fstatat(d->fd, "journal", &sb, AT_SYMLINK_NOFOLLOW), -1);
	assert_int_equal(fstatat(d->fd, "mtu", &sb, AT_SYMLINK_NOFOLLOW), 0);
	ar_free(&a);
}

/*
 * Members count whatever becomes of them: before, only the entries created did, so an archive
 * of FIFOs, devices and refused names was read to its end however many it held.
 */
static void test_members(void **state)
{
	struct dir *d = *state;
	struct np_tar_limits lim = { .max_members = 100 };
	struct np_tar_stats st;
	struct ar a = { 0 };
	char name[32], err[256];

	for (int i = 0; i < 1000; i++) {
		snprintf(name, sizeof(name), i % 2 ? "p%d" : "../up%d", i);
		ar_hdr(&a, name, i % 2 ? '6' : '0', 0, NULL);
	}
	ar_end(&a);
	assert_int_equal(extract(d, memfd_of(a.buf, a.len), &lim, &st, err, sizeof(err)),
			 -EFBIG);
	assert_string_equal(err, "the member-count cap (100 members) is reached at member ../up100");
	assert_int_equal(st.members, 101);
	assert_int_equal(st.skipped_type + st.refused_path, 100);
	ar_free(&a);
}

/* A hardlink's target path makes directories too: counted. */
static void test_hardlink_parents(void **state)
{
	struct dir *d = *state;
	struct np_tar_limits lim = { .max_dirs = 2 };
	struct np_tar_stats st;
	struct ar a = { 0 };
	char err[256];

	ar_hdr(&a, "h", '1', 0, "x/y/z/target");
	ar_end(&a);
	assert_int_equal(extract(d, memfd_of(a.buf, a.len), &lim, &st, err, sizeof(err)),
			 -EFBIG);
	assert_string_equal(err, "the directory cap (2 directories) is reached at member "
			    "x/y/z/target");
	ar_free(&a);
}

/*
 * The caps --root uses, end to end: a gzip file of 2.2 MB (33 gzip members of 64 MiB of
 * zeros, one after the other as gzip allows) holding one 'Z' member of 2.06 GiB. Before the
 * decompressed-size cap it was read to its end and accepted; now np_root_resolve stops at
 * 2 GiB, says which cap and how to read a real archive that big, and leaves no scratch
 * directory behind.
 */
static void test_root_bomb(void **state)
{
	struct dir *d = *state;
	const size_t chunk = 64u << 20;
	const int chunks = 33;
	struct ar tar = { 0 }, gz = { 0 }, one = { 0 };
	uint8_t *zeros = calloc(1, chunk);
	char file[PATH_MAX], tmp[PATH_MAX], err[512];
	struct np_root r;
	int fd;

	assert_non_null(zeros);
	/* Member 1: the header and the first chunk's zeros; the others: zeros only. */
	ar_hdr(&tar, "vendor", 'Z', opaque((uint64_t)chunk * chunks - 3 * NP_TAR_BLOCK), NULL);
	gzip_append(&gz, tar.buf, tar.len);
	gzip_append(&gz, zeros, chunk - NP_TAR_BLOCK);
	gzip_append(&one, zeros, chunk);
	for (int i = 1; i < chunks; i++)
		ar_put(&gz, one.buf, one.len);
	assert_true(gz.len < 3 << 20);

	snprintf(file, sizeof(file), "%s/bomb.tar.gz", d->path);
	fd = open(file, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	assert_int_equal(np_write_all(fd, gz.buf, gz.len), 0);
	close(fd);
	snprintf(tmp, sizeof(tmp), "%s/tmp", d->path);
	assert_int_equal(mkdir(tmp, 0700), 0);
	setenv("TMPDIR", tmp, 1);

	assert_int_equal(np_root_resolve(&r, file, err, sizeof(err)), -1);
	unsetenv("TMPDIR");
	assert_non_null(strstr(err, "the decompressed-size cap (2 GiB of tar data) is reached"));
	assert_non_null(strstr(err, "unpack it (tar xf) and name the directory instead"));
	assert_null(strchr(err, '\n'));
	/* Nothing left in $TMPDIR. */
	fd = open(tmp, O_RDONLY | O_DIRECTORY);
	assert_true(fd >= 0);
	assert_int_equal(count_tree(fd), 0);
	close(fd);
	ar_free(&tar);
	ar_free(&gz);
	ar_free(&one);
	free(zeros);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_implicit_dirs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_listed_dirs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_disk_blocks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_inflate_bomb, setup, teardown),
		cmocka_unit_test_setup_teardown(test_skip_over, setup, teardown),
		cmocka_unit_test_setup_teardown(test_members, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hardlink_parents, setup, teardown),
		cmocka_unit_test_setup_teardown(test_root_bomb, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
