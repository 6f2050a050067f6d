// SPDX-License-Identifier: GPL-2.0-only
/*
 * Archives from other machines: every refusal rule of np_tar_extract. Absolute paths, ".."
 * and paths through or over a symlink an earlier member planted create nothing outside the
 * tree; devices and FIFOs are never created; hardlinks become copies of extracted files only;
 * caps, truncation, bad checksums and foreign compressions stop with a reason that says so.
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

struct dirs {
	char base[64];		/* mkdtemp */
	char tree[128];		/* base/tree: where archives are extracted */
	char out[128];		/* base/out: outside the tree, must stay untouched */
	int treefd;
};

static int setup(void **state)
{
	struct dirs *d = calloc(1, sizeof(*d));

	assert_non_null(d);
	snprintf(d->base, sizeof(d->base), "/tmp/np-tar-refuse.XXXXXX");
	assert_non_null(mkdtemp(d->base));
	snprintf(d->tree, sizeof(d->tree), "%s/tree", d->base);
	snprintf(d->out, sizeof(d->out), "%s/out", d->base);
	assert_int_equal(mkdir(d->tree, 0700), 0);
	assert_int_equal(mkdir(d->out, 0700), 0);
	d->treefd = open(d->tree, O_RDONLY | O_DIRECTORY);
	assert_true(d->treefd >= 0);
	*state = d;
	return 0;
}

static int teardown(void **state)
{
	struct dirs *d = *state;

	close(d->treefd);
	np_rmtree(d->base);
	free(d);
	return 0;
}

static int extract(struct dirs *d, struct ar *a, const struct np_tar_limits *lim,
		   struct np_tar_stats *st, char *err, size_t errlen)
{
	int fd = ar_fd(a), r;

	r = np_tar_extract(fd, d->treefd, lim, NULL, NULL, st, err, errlen);
	close(fd);
	return r;
}

static bool exists(const char *base, const char *rel)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", base, rel);
	return lstat(path, &st) == 0;
}

static mode_t type_of(const char *base, const char *rel)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", base, rel);
	return lstat(path, &st) == 0 ? st.st_mode & S_IFMT : 0;
}

static char *slurp(const char *base, const char *rel)
{
	static char buf[4096];
	char path[512];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", base, rel);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void put(const char *base, const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", base, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* Absolute paths and ".." components: skipped and counted, nothing created anywhere. */
static void test_absolute_and_dotdot(void **state)
{
	struct dirs *d = *state;
	struct np_tar_stats st;
	struct ar a = { 0 };
	char abs[200], err[256], pax[256];
	size_t n;

	snprintf(abs, sizeof(abs), "%s/abs-planted", d->out);
	ar_file(&a, abs, "absolute\n");
	ar_file(&a, "../out/dotdot-planted", "dotdot\n");
	ar_file(&a, "ok/../../out/dotdot2", "dotdot\n");
	ar_hdr(&a, "ok/..", '5', 0, NULL);
	/* The same through a pax path record and a GNU long name. */
	n = pax_rec(pax, sizeof(pax), "path", "../out/pax-planted");
	ar_meta(&a, 'x', pax, n);
	ar_file(&a, "innocent-pax", "pax\n");
	ar_meta(&a, 'L', "../out/gnu-planted", strlen("../out/gnu-planted") + 1);
	ar_file(&a, "innocent-gnu", "gnu\n");
	ar_file(&a, "./kept", "kept\n");
	ar_end(&a);

	assert_int_equal(extract(d, &a, NULL, &st, err, sizeof(err)), 0);
	assert_int_equal(st.refused_path, 6);
	assert_int_equal(st.files, 1);
	assert_string_equal(slurp(d->tree, "kept"), "kept\n");
	assert_false(exists(d->out, "abs-planted"));
	assert_false(exists(d->out, "dotdot-planted"));
	assert_false(exists(d->out, "dotdot2"));
	assert_false(exists(d->out, "pax-planted"));
	assert_false(exists(d->out, "gnu-planted"));
	assert_false(exists(d->tree, "innocent-pax"));
	assert_false(exists(d->tree, "innocent-gnu"));
	ar_free(&a);
}

/* A symlink planted by one member is never written through, nor replaced, by a later one. */
static void test_symlink_then_file(void **state)
{
	struct dirs *d = *state;
	struct np_tar_stats st;
	struct ar a = { 0 };
	char err[256], target[200];

	put(d->out, "victim", "original\n");
	ar_hdr(&a, "link", '2', 0, d->out);		/* link -> outside directory */
	ar_file(&a, "link/pwned", "through\n");	/* a file through it */
	ar_hdr(&a, "link/subdir", '5', 0, NULL);	/* a directory through it */
	snprintf(target, sizeof(target), "%s/victim", d->out);
	ar_hdr(&a, "flink", '2', 0, target);		/* flink -> outside file */
	ar_file(&a, "flink", "overwritten\n");		/* a file over it */
	ar_hdr(&a, "flink", '2', 0, "elsewhere");	/* a symlink over it */
	ar_hdr(&a, "flink", '5', 0, NULL);		/* a directory over it */
	ar_file(&a, "regular", "first\n");
	ar_file(&a, "regular/below", "x\n");		/* a file below a file */
	ar_end(&a);

	assert_int_equal(extract(d, &a, NULL, &st, err, sizeof(err)), 0);
	assert_int_equal(st.symlinks, 2);		/* link, flink; the second flink refused */
	assert_int_equal(st.refused_path, 6);
	assert_int_equal(st.files, 1);
	assert_false(exists(d->out, "pwned"));
	assert_false(exists(d->out, "subdir"));
	assert_string_equal(slurp(d->out, "victim"), "original\n");
	assert_int_equal(type_of(d->tree, "link"), S_IFLNK);
	assert_int_equal(type_of(d->tree, "flink"), S_IFLNK);
	assert_string_equal(slurp(d->tree, "regular"), "first\n");
	ar_free(&a);
}

/* FIFOs, character and block devices, unknown types: skipped, never created; data skipped. */
static void test_special_types(void **state)
{
	struct dirs *d = *state;
	struct np_tar_stats st;
	struct ar a = { 0 };
	char err[256];

	ar_hdr(&a, "fifo", '6', 0, NULL);
	ar_hdr(&a, "null", '3', 0, NULL);
	ar_hdr(&a, "sda", '4', 0, NULL);
	ar_hdr(&a, "vendor", 'Z', 5, NULL);		/* unknown type with data */
	ar_put(&a, "12345", 5);
	ar_pad(&a);
	ar_file(&a, "after", "after\n");
	ar_end(&a);

	assert_int_equal(extract(d, &a, NULL, &st, err, sizeof(err)), 0);
	assert_int_equal(st.skipped_type, 4);
	assert_int_equal(st.files, 1);
	assert_false(exists(d->tree, "fifo"));
	assert_false(exists(d->tree, "null"));
	assert_false(exists(d->tree, "sda"));
	assert_false(exists(d->tree, "vendor"));
	assert_string_equal(slurp(d->tree, "after"), "after\n");
	ar_free(&a);
}

/* Hardlinks: a copy of an extracted regular file; anything else is skipped. */
static void test_hardlinks(void **state)
{
	struct dirs *d = *state;
	struct np_tar_stats st;
	struct ar a = { 0 };
	char err[256], outfile[200];
	char path[512];
	struct stat sb;

	put(d->out, "secret", "secret\n");
	snprintf(outfile, sizeof(outfile), "%s/secret", d->out);
	ar_file(&a, "dir/real", "content\n");
	ar_hdr(&a, "copy", '1', 0, "./dir/real");
	ar_hdr(&a, "missing", '1', 0, "nowhere");
	ar_hdr(&a, "abs", '1', 0, outfile);
	ar_hdr(&a, "up", '1', 0, "../out/secret");
	ar_hdr(&a, "sym", '2', 0, outfile);
	ar_hdr(&a, "viasym", '1', 0, "sym");		/* the symlink is not followed */
	ar_hdr(&a, "ofdir", '1', 0, "dir");		/* a directory is not copied */
	ar_end(&a);

	assert_int_equal(extract(d, &a, NULL, &st, err, sizeof(err)), 0);
	assert_int_equal(st.files, 2);
	assert_int_equal(st.skipped_type, 5);
	assert_string_equal(slurp(d->tree, "copy"), "content\n");
	snprintf(path, sizeof(path), "%s/copy", d->tree);
	assert_int_equal(lstat(path, &sb), 0);
	assert_int_equal(sb.st_nlink, 1);		/* a copy, not a link */
	assert_false(exists(d->tree, "missing"));
	assert_false(exists(d->tree, "abs"));
	assert_false(exists(d->tree, "up"));
	assert_false(exists(d->tree, "viasym"));
	assert_false(exists(d->tree, "ofdir"));
	ar_free(&a);
}

/* Modes from the archive are ignored: files 0600, directories 0700, setuid or not. */
static void test_modes(void **state)
{
	struct dirs *d = *state;
	struct ar a = { 0 };
	char err[256], path[512];
	struct stat sb;
	mode_t mask = umask(0);

	ar_hdr(&a, "d/", '5', 0, NULL);
	ar_file(&a, "d/suid", "x");
	/* ar_hdr writes 0644; make this one 04777 by hand (and fix the checksum). */
	{
		uint8_t *h = a.buf + 512;
		unsigned sum = 0;

		memcpy(h + 100, "0004777", 8);
		memset(h + 148, ' ', 8);
		for (int i = 0; i < 512; i++)
			sum += h[i];
		snprintf((char *)h + 148, 8, "%06o", sum);
		h[155] = ' ';
	}
	ar_end(&a);
	assert_int_equal(extract(d, &a, NULL, NULL, err, sizeof(err)), 0);
	umask(mask);
	snprintf(path, sizeof(path), "%s/d", d->tree);
	assert_int_equal(lstat(path, &sb), 0);
	assert_int_equal(sb.st_mode & 07777, 0700);
	snprintf(path, sizeof(path), "%s/d/suid", d->tree);
	assert_int_equal(lstat(path, &sb), 0);
	assert_int_equal(sb.st_mode & 07777, 0600);
	ar_free(&a);
}

/* Paths deeper than NP_TAR_MAX_DEPTH are refused. */
static void test_depth(void **state)
{
	struct dirs *d = *state;
	struct np_tar_stats st;
	struct ar a = { 0 };
	char err[256], deep[512] = "", pax[600];
	size_t n;

	for (int i = 0; i < NP_TAR_MAX_DEPTH; i++)
		strcat(deep, "d/");
	strcat(deep, "f");
	n = pax_rec(pax, sizeof(pax), "path", deep);
	ar_meta(&a, 'x', pax, n);
	ar_file(&a, "placeholder", "deep\n");
	ar_end(&a);
	assert_int_equal(extract(d, &a, NULL, &st, err, sizeof(err)), 0);
	assert_int_equal(st.refused_path, 1);
	assert_false(exists(d->tree, "d"));
	ar_free(&a);
}

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

/* A member listed twice: the later regular file wins, as with tar. */
static void test_duplicate_file(void **state)
{
	struct dirs *d = *state;
	struct np_tar_stats st;
	struct ar a = { 0 };
	char err[256];

	ar_file(&a, "twice", "old\n");
	ar_file(&a, "twice", "new\n");
	ar_hdr(&a, "dir", '5', 0, NULL);
	ar_hdr(&a, "dir", '5', 0, NULL);
	ar_end(&a);
	assert_int_equal(extract(d, &a, NULL, &st, err, sizeof(err)), 0);
	assert_string_equal(slurp(d->tree, "twice"), "new\n");
	assert_int_equal(st.files, 2);
	assert_int_equal(st.dirs, 1);
	assert_int_equal(st.refused_path, 0);
	ar_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_absolute_and_dotdot, setup, teardown),
		cmocka_unit_test_setup_teardown(test_symlink_then_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_special_types, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hardlinks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_modes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_depth, setup, teardown),
		cmocka_unit_test_setup_teardown(test_caps, setup, teardown),
		cmocka_unit_test_setup_teardown(test_truncated, setup, teardown),
		cmocka_unit_test_setup_teardown(test_truncated_compressed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_checksum, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unknown_compression, setup, teardown),
		cmocka_unit_test_setup_teardown(test_duplicate_file, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
