// SPDX-License-Identifier: GPL-2.0-only
/*
 * Archives from other machines: caps, truncation, bad checksums and foreign compressions stop
 * np_tar_extract with a reason that says so, keeping what came before.
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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "config.h"
#include "tar.h"
#include "tar_build.h"
#include "tar_refuse_fixture.h"

/* Each cap stops extraction with an error naming it; what came before stays. */
static void test_caps(void **state)
{
	struct dirs *d = *state;
	struct np_tar_limits lim = { 0 };
	struct np_tar_stats st;
	struct ar a = { 0 };
	char err[256], big[2001];

	memset(big, 'b', 2000);
	big[2000] = '\0';
	ar_file(&a, "small", "small\n");
	ar_file(&a, "big", big);
	ar_file(&a, "third", "third\n");
	ar_end(&a);

	lim.max_member = 1000;
	assert_int_equal(extract(d, &a, &lim, &st, err, sizeof(err)), -EFBIG);
	assert_non_null(strstr(err, "per-member"));
	assert_non_null(strstr(err, "big"));
	assert_true(exists(d->tree, "small"));
	assert_false(exists(d->tree, "big"));
	assert_false(exists(d->tree, "third"));

	np_rmtree(d->tree);
	assert_int_equal(mkdir(d->tree, 0700), 0);
	close(d->treefd);
	d->treefd = open(d->tree, O_RDONLY | O_DIRECTORY);
	/* Disk use in 4 KiB blocks: "small" takes one, "big" would take the second. */
	lim = (struct np_tar_limits){ .max_total = 4096 };
	assert_int_equal(extract(d, &a, &lim, &st, err, sizeof(err)), -EFBIG);
	assert_non_null(strstr(err, "disk-use cap (4 KiB)"));
	assert_int_equal(st.files, 1);
	assert_int_equal(st.bytes, 6);
	assert_false(exists(d->tree, "big"));

	np_rmtree(d->tree);
	assert_int_equal(mkdir(d->tree, 0700), 0);
	close(d->treefd);
	d->treefd = open(d->tree, O_RDONLY | O_DIRECTORY);
	lim = (struct np_tar_limits){ .max_members = 2 };
	assert_int_equal(extract(d, &a, &lim, &st, err, sizeof(err)), -EFBIG);
	assert_non_null(strstr(err, "member-count cap (2 members)"));
	assert_int_equal(st.files, 2);
	assert_true(exists(d->tree, "big"));
	assert_false(exists(d->tree, "third"));

	/* Under every cap: the whole archive. */
	np_rmtree(d->tree);
	assert_int_equal(mkdir(d->tree, 0700), 0);
	close(d->treefd);
	d->treefd = open(d->tree, O_RDONLY | O_DIRECTORY);
	lim = (struct np_tar_limits){ .max_total = 3 * 4096, .max_member = 2000, .max_members = 3 };
	assert_int_equal(extract(d, &a, &lim, &st, err, sizeof(err)), 0);
	assert_int_equal(st.files, 3);
	ar_free(&a);
}

/* Cut anywhere: "truncated", earlier members stay, the member cut short is removed. */
static void test_truncated(void **state)
{
	struct dirs *d = *state;
	struct np_tar_stats st;
	struct ar a = { 0 };
	char err[256], data[1500];
	int fd;

	memset(data, 'x', sizeof(data) - 1);
	data[sizeof(data) - 1] = '\0';
	ar_file(&a, "whole", "whole\n");	/* blocks 0-1 */
	ar_file(&a, "cut", data);		/* header at 1024, data 1536.. */
	ar_end(&a);

	/* Inside the second member's data. */
	fd = ar_fd_len(&a, 1536 + 700);
	assert_int_equal(np_tar_extract(fd, d->treefd, NULL, NULL, NULL, &st, err, sizeof(err)),
			 -EBADMSG);
	close(fd);
	assert_non_null(strstr(err, "truncated"));
	assert_string_equal(slurp(d->tree, "whole"), "whole\n");
	assert_false(exists(d->tree, "cut"));

	/* Inside a header, and right after the last member without the end block. */
	fd = ar_fd_len(&a, 1024 + 100);
	assert_int_equal(np_tar_extract(fd, d->treefd, NULL, NULL, NULL, &st, err, sizeof(err)),
			 -EBADMSG);
	close(fd);
	assert_non_null(strstr(err, "truncated"));
	fd = ar_fd_len(&a, a.len - 1024);
	assert_int_equal(np_tar_extract(fd, d->treefd, NULL, NULL, NULL, &st, err, sizeof(err)),
			 -EBADMSG);
	close(fd);
	assert_non_null(strstr(err, "truncated"));
	ar_free(&a);
}

/* The same for compressed streams cut short. */
static void test_truncated_compressed(void **state)
{
	struct dirs *d = *state;
	const char *names[] = { "python.tar.gz",
#if HAVE_LZMA
		"python.tar.xz",
#endif
	};
	char err[256];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char path[PATH_MAX];
		struct ar a = { 0 };
		uint8_t buf[65536];
		ssize_t n;
		int fd;

		snprintf(path, sizeof(path), "%s/archives/%s", NP_FIXTURES, names[i]);
		fd = open(path, O_RDONLY);
		assert_true(fd >= 0);
		n = read(fd, buf, sizeof(buf));
		close(fd);
		assert_true(n > 100);
		ar_put(&a, buf, (size_t)n);
		fd = ar_fd_len(&a, (size_t)n / 2);
		assert_int_equal(np_tar_extract(fd, d->treefd, NULL, NULL, NULL, NULL, err,
						sizeof(err)), -EBADMSG);
		close(fd);
		assert_non_null(strstr(err, "truncated"));
		ar_free(&a);
	}
}

/* A bad checksum stops extraction, naming the header's offset. */
static void test_bad_checksum(void **state)
{
	struct dirs *d = *state;
	struct np_tar_stats st;
	struct ar a = { 0 };
	char err[256];
	int fd;

	ar_file(&a, "first", "first\n");
	ar_file(&a, "second", "second\n");
	ar_end(&a);
	a.buf[1024 + 10] ^= 0x20;	/* a byte of the second header's name */
	fd = ar_fd(&a);
	assert_int_equal(np_tar_extract(fd, d->treefd, NULL, NULL, NULL, &st, err, sizeof(err)),
			 -EBADMSG);
	close(fd);
	assert_non_null(strstr(err, "checksum"));
	assert_non_null(strstr(err, "offset 1024"));
	assert_true(exists(d->tree, "first"));
	assert_int_equal(st.files, 1);
	ar_free(&a);
}

/* bzip2, zstd and non-archives: refused, saying what the file is and what to do. */
static void test_unknown_compression(void **state)
{
	struct dirs *d = *state;
	struct ar a = { 0 };
	char err[256], path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/archives/tree.tar.bz2", NP_FIXTURES);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(np_tar_extract(fd, d->treefd, NULL, NULL, NULL, NULL, err, sizeof(err)),
			 -ENOTSUP);
	close(fd);
	assert_non_null(strstr(err, "bzip2"));
	assert_non_null(strstr(err, "tar xf"));

	ar_put(&a, "\x28\xb5\x2f\xfd", 4);
	for (int i = 0; i < 600; i++)
		ar_put(&a, "z", 1);
	fd = ar_fd(&a);
	assert_int_equal(np_tar_extract(fd, d->treefd, NULL, NULL, NULL, NULL, err, sizeof(err)),
			 -ENOTSUP);
	close(fd);
	assert_non_null(strstr(err, "zstd"));
	assert_non_null(strstr(err, "--root"));
	ar_free(&a);

	for (int i = 0; i < 700; i++)
		ar_put(&a, "hello world\n", 12);
	fd = ar_fd(&a);
	assert_int_equal(np_tar_extract(fd, d->treefd, NULL, NULL, NULL, NULL, err, sizeof(err)),
			 -EBADMSG);
	close(fd);
	assert_non_null(strstr(err, "not a tar archive"));
	ar_free(&a);

	fd = ar_fd(&a);		/* empty */
	assert_int_equal(np_tar_extract(fd, d->treefd, NULL, NULL, NULL, NULL, err, sizeof(err)),
			 -EBADMSG);
	close(fd);
	assert_non_null(strstr(err, "empty"));
	assert_int_equal(type_of(d->base, "tree"), S_IFDIR);
	assert_null(slurp(d->tree, "anything"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_caps, setup, teardown),
		cmocka_unit_test_setup_teardown(test_truncated, setup, teardown),
		cmocka_unit_test_setup_teardown(test_truncated_compressed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_checksum, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unknown_compression, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
