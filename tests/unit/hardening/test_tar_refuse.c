// SPDX-License-Identifier: GPL-2.0-only
/*
 * Archives from other machines: the path and member-type rules of np_tar_extract. Absolute
 * paths, ".." and paths through or over a symlink an earlier member planted create nothing
 * outside the tree; devices and FIFOs are never created; hardlinks become copies of extracted
 * files only; modes are not taken from the archive. (Caps and broken streams:
 * test_tar_refuse_stream.c.)
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
		cmocka_unit_test_setup_teardown(test_duplicate_file, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
