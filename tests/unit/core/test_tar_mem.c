// SPDX-License-Identifier: GPL-2.0-only
/*
 * The in-memory unpack (core/tar_mem.c, issue 35) against the disk unpack it is to replace:
 * hostile archives (absolute paths, "..", members through or over symlinks, duplicates,
 * hardlinks, devices, every cap, broken streams) go through both, and the table must hold
 * exactly the tree np_tar_extract wrote, with the same counts and the same errors. Lookups
 * are checked against openat2(RESOLVE_BENEATH) on that tree, links, loops and escapes included.
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

#include <dirent.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cleanup.h"
#include "scratch.h"
#include "tar.h"
#include "tar_mem.h"
#include "tar_build.h"

static const struct np_tar_limits roomy = {
	.max_inflated = 1 << 24, .max_members = 1000, .max_dirs = 500, .max_total = 1 << 24,
	.skip_over = 1 << 20,
};

/* Every entry of the disk tree below rel must be in t, the same kind and content; the count. */
static size_t compare_tree(const struct np_tmem *t, int dfd, const char *rel)
{
	DIR *d = fdopendir(dup(dfd));
	struct dirent *e;
	size_t n = 0, listed = 0;

	assert_non_null(d);
	while ((e = readdir(d))) {
		char path[4096], buf[8192];
		const struct np_tmem_entry *m;
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s%s%s", rel, *rel ? "/" : "", e->d_name);
		m = np_tmem_get(t, path);
		if (!m)
			fail_msg("%s is on disk, not in the table", path);
		assert_int_equal(fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW), 0);
		n++;
		listed++;
		if (S_ISDIR(st.st_mode)) {
			int sub = openat(dfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);

			assert_int_equal(m->kind, NP_TMEM_DIR);
			n += compare_tree(t, sub, path);
			close(sub);
		} else if (S_ISLNK(st.st_mode)) {
			ssize_t l = readlinkat(dfd, e->d_name, buf, sizeof(buf));

			assert_int_equal(m->kind, NP_TMEM_LINK);
			assert_int_equal((size_t)l, m->len);
			assert_memory_equal(buf, m->data, m->len);
		} else {
			int fd = openat(dfd, e->d_name, O_RDONLY | O_NOFOLLOW);
			char *all = malloc(m->len + 1);
			size_t got = 0;
			ssize_t l;

			/* One byte more than the table holds: the file must end there too. */
			while ((l = read(fd, all + got, m->len + 1 - got)) > 0)
				got += (size_t)l;
			close(fd);
			assert_int_equal(m->kind, NP_TMEM_FILE);
			assert_int_equal(got, m->len);
			assert_memory_equal(all, m->data, m->len);
			free(all);
		}
	}
	closedir(d);
	return n;
}

static int count_one(const char *name, const struct np_tmem_entry *e, void *arg)
{
	(void)name;
	(void)e;
	++*(size_t *)arg;
	return 0;
}

/* Both unpacks of a: same result, counts, error text and tree. The table is left in t. */
static void both(struct ar *a, const struct np_tar_limits *lim, struct np_tmem *t, char *dir,
		 size_t size)
{
	struct np_tar_stats sd, sm;
	char ed[256], em[256];
	int fd, dfd, rd, rm;

	assert_int_equal(np_scratch_dir(dir, size), 0);
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	fd = ar_fd(a);
	rd = np_tar_extract(fd, dfd, lim, NULL, NULL, &sd, ed, sizeof(ed));
	close(fd);
	fd = ar_fd(a);
	rm = np_tmem_load(t, fd, lim, &sm, em, sizeof(em));
	close(fd);
	assert_int_equal(rm, rd);
	assert_string_equal(em, ed);
	assert_memory_equal(&sm, &sd, sizeof(sd));
	if (rd == 0) {
		size_t n = compare_tree(t, dfd, ""), top = 0;

		assert_int_equal(n, t->n);
		/* The top's listing too (the lower levels are checked by the lookups below). */
		assert_int_equal(np_tmem_list(t, "", count_one, &top), 0);
		(void)top;
	}
	close(dfd);
}

static void test_paths_and_clashes(void **state)
{
	struct np_tmem t;
	struct ar a = { 0 };
	char dir[256], pax[512];
	size_t n;

	(void)state;
	ar_file(&a, "/etc/abs-planted", "absolute\n");
	ar_file(&a, "../dotdot", "x\n");
	ar_file(&a, "ok/../../dotdot2", "x\n");
	ar_hdr(&a, "ok/..", '5', 0, NULL);
	n = pax_rec(pax, sizeof(pax), "path", "../pax-planted");
	ar_meta(&a, 'x', pax, n);
	ar_file(&a, "innocent", "pax\n");
	ar_hdr(&a, "./", '5', 0, NULL);
	ar_hdr(&a, "l", '2', 0, "/etc");
	ar_file(&a, "l/passwd", "through a link\n");
	ar_hdr(&a, "d", '5', 0, NULL);
	ar_file(&a, "d", "over a directory\n");
	ar_file(&a, "f", "first\n");
	ar_file(&a, "f/x", "through a file\n");
	ar_hdr(&a, "f", '2', 0, "elsewhere");
	ar_hdr(&a, "f", '5', 0, NULL);
	ar_file(&a, "f", "second, replaces first\n");
	ar_file(&a, "l", "over a link\n");
	ar_hdr(&a, "empty", '2', 0, "");
	ar_hdr(&a, "deep/er/link", '2', 0, "../../f");
	ar_hdr(&a, "hard", '1', 0, "f");
	ar_hdr(&a, "hard2", '1', 0, "l");
	ar_hdr(&a, "hard3", '1', 0, "missing/parent/x");
	ar_hdr(&a, "hard4", '1', 0, "../f");
	ar_hdr(&a, "dev", '3', 0, NULL);
	ar_hdr(&a, "fifo", '6', 0, NULL);
	ar_hdr(&a, "a/b/c/d/e", '5', 0, NULL);
	/* Long names: a GNU 'L' name with "..", a pax linkpath, one too deep, one too long. */
	ar_meta(&a, 'L', "long/../../gnu-planted", strlen("long/../../gnu-planted") + 1);
	ar_file(&a, "innocent-gnu", "gnu\n");
	n = pax_rec(pax, sizeof(pax), "linkpath", "../../../../etc/shadow");
	ar_meta(&a, 'x', pax, n);
	ar_hdr(&a, "paxlink", '2', 0, "innocent");
	{
		char deep[400] = "", longc[300];

		for (int i = 0; i < 70; i++)
			strcat(deep, "d/");
		strcat(deep, "f");
		n = pax_rec(pax, sizeof(pax), "path", deep);
		ar_meta(&a, 'x', pax, n);
		ar_file(&a, "innocent-deep", "deep\n");
		memset(longc, 'c', 270);
		longc[270] = '\0';
		n = pax_rec(pax, sizeof(pax), "path", longc);
		ar_meta(&a, 'x', pax, n);
		ar_file(&a, "innocent-long", "long\n");
	}
	ar_end(&a);
	both(&a, &roomy, &t, dir, sizeof(dir));
	assert_string_equal(np_tmem_get(&t, "f")->data, "second, replaces first\n");
	assert_int_equal(np_tmem_get(&t, "l")->kind, NP_TMEM_LINK);
	assert_null(np_tmem_get(&t, "l/passwd"));
	assert_string_equal(np_tmem_get(&t, "paxlink")->data, "../../../../etc/shadow");
	assert_null(np_tmem_get(&t, "innocent-gnu"));
	np_tmem_free(&t);
	np_scratch_remove(dir);
	ar_free(&a);
}

/* Every cap, and broken streams: the same error, the same counts where it stopped. */
static void test_caps_and_broken(void **state)
{
	struct np_tar_limits lim[5] = { roomy, roomy, roomy, roomy, roomy };
	struct np_tmem t;
	struct ar a = { 0 }, cut = { 0 };
	char dir[256], big[3000];

	(void)state;
	lim[0].max_members = 3;
	lim[1].max_dirs = 2;
	lim[2].max_total = 3 * 4096;
	lim[3].skip_over = 100;
	lim[4].max_inflated = 2048;
	memset(big, 'b', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ar_file(&a, "x/y/z/f", "one\n");
	ar_file(&a, "big", big);
	ar_hdr(&a, "s", '2', 0, "x");
	ar_file(&a, "g", "two\n");
	ar_end(&a);
	for (int i = 0; i < 5; i++) {
		both(&a, &lim[i], &t, dir, sizeof(dir));
		np_tmem_free(&t);
		np_scratch_remove(dir);
	}
	/* Truncated in a member's data, then a bad checksum. */
	ar_put(&cut, a.buf, 512 + 2);
	both(&cut, &roomy, &t, dir, sizeof(dir));
	np_scratch_remove(dir);
	a.buf[512 * 2 + 148] ^= 1;
	both(&a, &roomy, &t, dir, sizeof(dir));
	np_scratch_remove(dir);
	ar_free(&a);
	ar_free(&cut);
}

static int beneath(int dfd, const char *path)
{
	struct open_how how = { .flags = O_RDONLY | O_CLOEXEC,
				.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS };
	int fd;

	/* openat2 says EAGAIN when any rename on the host races the lookup (RESOLVE_BENEATH
	 * checks the mount and rename sequence counts): retry, as src/core/ctx.c does. */
	for (int tries = 0; tries < 1000; tries++) {
		fd = (int)syscall(SYS_openat2, dfd, path, &how, sizeof(how));
		if (fd >= 0 || errno != EAGAIN)
			break;
	}
	return fd < 0 ? -errno : fd;
}

/* Lookups beneath a base, as openat2(RESOLVE_BENEATH) answers them on the unpacked tree. */
static void test_resolve_like_openat2(void **state)
{
	static const char *const bases[] = { "", "t", "t/sys", "t/sys/class" };
	static const char *const paths[] = {
		"class/net/eth0/mtu", "sys/class/net/eth0/mtu", "net/eth0/mtu", "t/sys/class/net",
		"class/net/esc", "class/net/abs", "class/net/loop/x", "class/net/chain",
		"class/net/eth0/../eth0/mtu", "../sys", "./class//net/", "class/net/mtu/x",
		"class/net/nothing", "devices/virtual/net/eth0", "class/net/eth0", ".", "",
		"class/net/eth0/", "t/sys/class/net/up/sys/class/net/eth0/mtu", "class/net/eth0/mtu/",
		"class/net/mtu/", "class/net/mtu//", "class/net/abs/", "class/net/c41/", "..",
		"class/net/eth0/../../net/eth0/./mtu", "class/../../t/sys/class/net/eth0/mtu",
	};
	struct np_tmem t;
	struct ar a = { 0 };
	char dir[256], name[32], target[32];

	(void)state;
	ar_hdr(&a, "t/sys/class/net/", '5', 0, NULL);
	ar_file(&a, "t/sys/devices/virtual/net/eth0/mtu", "1500\n");
	ar_hdr(&a, "t/sys/class/net/eth0", '2', 0, "../../devices/virtual/net/eth0");
	ar_hdr(&a, "t/sys/class/net/esc", '2', 0, "../../../../../etc");
	ar_hdr(&a, "t/sys/class/net/abs", '2', 0, "/etc/passwd");
	ar_hdr(&a, "t/sys/class/net/loop", '2', 0, "loop2");
	ar_hdr(&a, "t/sys/class/net/loop2", '2', 0, "loop");
	ar_hdr(&a, "t/sys/class/net/up", '2', 0, "../../..");
	ar_hdr(&a, "t/sys/class/net/mtu", '2', 0, "eth0/mtu");
	/* 41 links in a row: one more than the kernel follows. */
	for (int i = 0; i < 41; i++) {
		snprintf(name, sizeof(name), "t/sys/class/net/c%d", i);
		snprintf(target, sizeof(target), "c%d", i + 1);
		ar_hdr(&a, i ? name : "t/sys/class/net/chain", '2', 0, i ? target : "c1");
	}
	ar_file(&a, "t/sys/class/net/c41", "end\n");
	ar_end(&a);
	both(&a, &roomy, &t, dir, sizeof(dir));
	for (size_t b = 0; b < sizeof(bases) / sizeof(*bases); b++) {
		char bpath[512];
		int bfd;

		snprintf(bpath, sizeof(bpath), "%s/%s", dir, bases[b]);
		bfd = open(bpath, O_RDONLY | O_DIRECTORY);
		assert_true(bfd >= 0);
		for (size_t i = 0; i < sizeof(paths) / sizeof(*paths); i++) {
			const struct np_tmem_entry *e = NULL;
			int fd = beneath(bfd, paths[i]);
			int r = np_tmem_resolve(&t, bases[b], paths[i], true, &e);

			if (fd < 0 && r != fd)
				fail_msg("beneath \"%s\", \"%s\": openat2 %d, table %d", bases[b],
					 paths[i], fd, r);
			if (fd >= 0) {
				struct stat st;
				char buf[64];
				ssize_t l;

				if (r != 0)
					fail_msg("beneath \"%s\", \"%s\": openat2 opens, table %d",
						 bases[b], paths[i], r);
				assert_int_equal(fstat(fd, &st), 0);
				assert_int_equal(e->kind, S_ISDIR(st.st_mode) ? NP_TMEM_DIR :
							  NP_TMEM_FILE);
				if (!S_ISDIR(st.st_mode)) {
					l = read(fd, buf, sizeof(buf));
					assert_int_equal((size_t)l, e->len);
					assert_memory_equal(buf, e->data, e->len);
				} else {
					size_t on_disk = 0, listed = 0;
					DIR *d = fdopendir(dup(fd));

					while (readdir(d))
						on_disk++;
					closedir(d);
					assert_int_equal(np_tmem_list(&t, e->path, count_one,
								      &listed), 0);
					assert_int_equal(listed + 2, on_disk);
				}
				close(fd);
			}
		}
		close(bfd);
	}
	np_tmem_free(&t);
	np_scratch_remove(dir);
	ar_free(&a);
}

/* Real archives (GNU tar, Python tarfile, a netpath capture): the same tree both ways. */
static void test_fixture_archives(void **state)
{
	static const char *const files[] = {
		"archives/python-gnu.tar", "archives/tree.tar.bz2", "archives/python.tar.gz",
		"archives/gnu.tar.gz", "archives/python.tar.xz", "archives/gnu-posix.tar.xz",
		"capture/veth-tbf.cap",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(files) / sizeof(*files); i++) {
		struct np_tmem t = { 0 };
		struct ar a = { 0 };
		char path[512], dir[256], buf[4096];
		ssize_t n;
		int fd;

		snprintf(path, sizeof(path), "%s/%s", NP_FIXTURES, files[i]);
		fd = open(path, O_RDONLY);
		assert_true(fd >= 0);
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			ar_put(&a, buf, (size_t)n);
		close(fd);
		both(&a, &roomy, &t, dir, sizeof(dir));
		/* bzip2 is not read (both say so); every other one unpacks. */
		if (!strstr(files[i], ".bz2"))
			assert_true(t.n > 3);
		np_tmem_free(&t);
		np_scratch_remove(dir);
		ar_free(&a);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paths_and_clashes),
		cmocka_unit_test(test_caps_and_broken),
		cmocka_unit_test(test_resolve_like_openat2),
		cmocka_unit_test(test_fixture_archives),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
