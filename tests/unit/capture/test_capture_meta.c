// SPDX-License-Identifier: GPL-2.0-only
/* What --root names: META parsing, capture directories and archives, refusals. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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

#include "root.h"
#include "scratch.h"
#include "tar.h"

static void meta_fields(void **state)
{
	static const char meta[] =
		"format: netpath-capture 1\nnetpath: 0.1.0\nhostname: web7\x1b[2J\n"
		"kernel: 6.1.0-13-amd64\ntaken: 2026-11-25T06:00:00Z\ninterval: 2.000\n"
		"interfaces: bond0 eth1\npage_size: 65536\nlacks: socket dumps beyond 16 MiB\n"
		"unknown: ignored\n";
	struct np_root r = { 0 };

	(void)state;
	assert_int_equal(np_capture_meta_parse(meta, sizeof(meta) - 1, &r), 0);
	assert_string_equal(r.origin.tool_version, "netpath 0.1.0");
	assert_string_equal(r.origin.hostname, "web7?[2J");	/* ESC defanged */
	assert_string_equal(r.origin.kernel, "6.1.0-13-amd64");
	assert_string_equal(r.origin.taken, "2026-11-25T06:00:00Z");
	assert_string_equal(r.interfaces, "bond0 eth1");
	assert_true(r.interval > 1.99 && r.interval < 2.01);
	assert_int_equal(r.page_size, 65536);
	assert_string_equal(r.origin.lacks, "socket dumps beyond 16 MiB");
}

static void meta_refused(void **state)
{
	static const char *const bad[] = {
		"format: netpath-capture 2\n", "netpath: 0.1.0\n", "", "format netpath-capture 1\n",
	};
	struct np_root r = { 0 };

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(np_capture_meta_parse(bad[i], strlen(bad[i]), &r), -EINVAL);
	/* Nonsense values are unknown, not used. */
	{
		static const char odd[] = "format: netpath-capture 1\npage_size: 4097\ninterval: -3\n";

		assert_int_equal(np_capture_meta_parse(odd, sizeof(odd) - 1, &r), 0);
		assert_int_equal(r.page_size, 0);
		assert_true(r.interval == 0);
	}
}

static void put(const char *dir, const char *rel, const char *text)
{
	char path[3 * PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void sub(const char *dir, const char *rel)
{
	char path[3 * PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	assert_int_equal(mkdir(path, 0700), 0);
}

static void capture_directory(void **state)
{
	char dir[PATH_MAX], err[256], want[PATH_MAX + 8];
	struct np_root r;

	(void)state;
	assert_int_equal(np_scratch_dir(dir, sizeof(dir)), 0);
	put(dir, "META", "format: netpath-capture 1\ninterfaces: eth0\n");
	sub(dir, "s1");
	sub(dir, "s1/proc");
	sub(dir, "s2");
	sub(dir, "s2/proc");
	assert_int_equal(np_root_resolve(&r, dir, err, sizeof(err)), 0);
	assert_true(r.capture);
	assert_int_equal(r.origin.kind, NP_ORIGIN_CAPTURE);
	snprintf(want, sizeof(want), "%s/s2", dir);
	assert_string_equal(r.dir, want);
	snprintf(want, sizeof(want), "%s/s1", dir);
	assert_string_equal(r.before, want);
	assert_string_equal(r.scratch, "");	/* a directory is read in place */
	np_root_release(&r);
	/* A META of another format is an error, not a plain tree. */
	put(dir, "META", "format: something else\n");
	assert_int_equal(np_root_resolve(&r, dir, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a netpath capture"));
	np_scratch_remove(dir);
}

static void archive_unpacked_and_removed(void **state)
{
	char dir[PATH_MAX], file[PATH_MAX + 16], err[256];
	struct np_tar_out *o;
	struct np_root r;
	struct stat st;
	int fd, e = 0;

	(void)state;
	assert_int_equal(np_scratch_dir(dir, sizeof(dir)), 0);
	snprintf(file, sizeof(file), "%s/cap.tgz", dir);
	fd = open(file, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	o = np_tar_out_open(fd, true, &e);
	assert_non_null(o);
	/* One top directory, as `tar czf cap.tgz capture/` makes it. */
	assert_int_equal(np_tar_out_file(o, "capture/META", "format: netpath-capture 1\n", 26,
					 0600, 0), 0);
	assert_int_equal(np_tar_out_file(o, "capture/s1/proc/uptime", "10.0 1.0\n", 9, 0600, 0),
			 0);
	assert_int_equal(np_tar_out_close(o), 0);
	close(fd);
	assert_int_equal(np_root_resolve(&r, file, err, sizeof(err)), 0);
	assert_true(r.capture);
	assert_true(r.scratch[0]);
	assert_non_null(strstr(r.dir, "/capture/s1"));
	assert_string_equal(r.before, "");	/* one sample only */
	assert_int_equal(stat(r.scratch, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	np_root_release(&r);
	assert_int_equal(stat(r.dir, &st), -1);	/* gone */
	np_scratch_remove(dir);
}

static void not_a_tree(void **state)
{
	char dir[PATH_MAX], fifo[PATH_MAX + 8], err[256];
	struct np_root r;

	(void)state;
	assert_int_equal(np_scratch_dir(dir, sizeof(dir)), 0);
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	/* Refused at once: a FIFO must not block the open. */
	assert_int_equal(np_root_resolve(&r, fifo, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "neither a directory nor an archive"));
	put(dir, "junk", "this is not an archive at all, not even close to one");
	snprintf(fifo, sizeof(fifo), "%s/junk", dir);
	assert_int_equal(np_root_resolve(&r, fifo, err, sizeof(err)), -1);
	assert_string_equal(r.scratch, "");	/* nothing left behind */
	np_scratch_remove(dir);
}

static void link_at(const char *dir, const char *rel, const char *target)
{
	char path[3 * PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	assert_int_equal(symlink(target, path), 0);
}

static void move(const char *dir, const char *from, const char *to)
{
	char a[3 * PATH_MAX], b[3 * PATH_MAX];

	snprintf(a, sizeof(a), "%s/%s", dir, from);
	snprintf(b, sizeof(b), "%s/%s", dir, to);
	assert_int_equal(rename(a, b), 0);
}

static void unlink_at(const char *dir, const char *rel)
{
	char path[3 * PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	assert_int_equal(unlink(path), 0);
}

/* A capture in dir/cap with both samples holding proc/ and sys/. */
static void make_capture(const char *dir)
{
	static const char *const dirs[] = {
		"cap", "cap/s1", "cap/s1/proc", "cap/s1/sys", "cap/s2", "cap/s2/proc", "cap/s2/sys",
	};

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		sub(dir, dirs[i]);
	put(dir, "cap/META", "format: netpath-capture 1\nhostname: x\n");
}

static void refused(const char *path, const char *why)
{
	struct np_root r;
	char err[512];

	assert_int_equal(np_root_resolve(&r, path, err, sizeof(err)), -1);
	if (!strstr(err, why))
		fail_msg("%s: \"%s\" does not say \"%s\"", path, err, why);
	assert_null(strchr(err, '\n'));
	assert_string_equal(r.scratch, "");
}

/*
 * A capture's samples are directories of it, and what they hold stays beneath them: s2 -> /
 * (or s1 -> /) would have doctor judge the live /proc and /sys under the capture's name, and
 * s2/proc -> /proc the live /proc alone. Refused, each with a line saying which member. The
 * capture's own path may be a link: the user named it.
 */
static void capture_member_links_refused(void **state)
{
	char dir[PATH_MAX], cap[PATH_MAX + 8], link[PATH_MAX + 8];
	struct np_root r;
	struct np_ctx ctx;
	char err[512];

	(void)state;
	assert_int_equal(np_scratch_dir(dir, sizeof(dir)), 0);
	make_capture(dir);
	snprintf(cap, sizeof(cap), "%s/cap", dir);
	snprintf(link, sizeof(link), "%s/link", dir);
	link_at(dir, "link", "cap");
	assert_int_equal(np_root_resolve(&r, link, err, sizeof(err)), 0);
	assert_true(r.capture);
	np_root_release(&r);

	move(cap, "s2", "s2.real");
	link_at(cap, "s2", "/");
	refused(cap, "s2 is a symbolic link");
	unlink_at(cap, "s2");
	link_at(cap, "s2", "s1");	/* inside the capture, but still not a sample of it */
	refused(cap, "s2 is a symbolic link");
	unlink_at(cap, "s2");
	move(cap, "s2.real", "s2");

	move(cap, "s1", "s1.real");
	link_at(cap, "s1", "/");
	refused(cap, "s1 is a symbolic link");
	unlink_at(cap, "s1");
	move(cap, "s1.real", "s1");

	move(cap, "s2/proc", "s2.proc");
	link_at(cap, "s2/proc", "/proc");
	refused(cap, "s2/proc leads outside the tree");
	unlink_at(cap, "s2/proc");
	link_at(cap, "s2/proc", "../s1/proc");
	refused(cap, "s2/proc leads outside the tree");
	unlink_at(cap, "s2/proc");
	sub(cap, "s2/proc");
	link_at(cap, "s1/sys/x", "/");	/* deeper links are the reads' business (ctx.c) */

	/* Swapped for a link after the check: the sample's open does not follow it either. */
	assert_int_equal(np_root_resolve(&r, cap, err, sizeof(err)), 0);
	assert_int_equal(np_root_ctx_open(&ctx, &r, r.before), 0);
	np_root_ctx_close(&ctx);
	move(cap, "s1", "s1.real");
	link_at(cap, "s1", "/");
	assert_int_equal(np_root_ctx_open(&ctx, &r, r.before), -ELOOP);
	assert_int_equal(ctx.proc_fd, -1);
	assert_int_equal(np_root_ctx_open(&ctx, &r, "/"), -EINVAL);	/* not one of its samples */
	np_root_release(&r);
	np_scratch_remove(dir);
}

/* Archived, the same links are unpacked as links (a sosreport holds some) and refused the same
 * way; an archive with no tree in it says so by its own name. */
static void archive_member_links_refused(void **state)
{
	static const struct {
		const char *link, *target, *why;
	} cases[] = {
		{ "capture/s2", "/", "s2 is a symbolic link" },
		{ "capture/s1", "/", "s1 is a symbolic link" },
		{ "capture/s2/proc", "/proc", "s2/proc leads outside the tree" },
		{ "capture/s1/sys", "../../../../../../../sys", "s1/sys leads outside the tree" },
	};
	char dir[PATH_MAX], file[PATH_MAX + 16];

	(void)state;
	assert_int_equal(np_scratch_dir(dir, sizeof(dir)), 0);
	snprintf(file, sizeof(file), "%s/cap.tgz", dir);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		static const char *const files[] = {
			"capture/s1/proc/uptime", "capture/s1/sys/x", "capture/s2/proc/uptime",
			"capture/s2/sys/x",
		};
		struct np_tar_out *o;
		int fd, e = 0;

		unlink(file);
		fd = open(file, O_WRONLY | O_CREAT | O_EXCL, 0600);
		assert_true(fd >= 0);
		o = np_tar_out_open(fd, true, &e);
		assert_non_null(o);
		assert_int_equal(np_tar_out_file(o, "capture/META", "format: netpath-capture 1\n",
						 26, 0600, 0), 0);
		assert_int_equal(np_tar_out_symlink(o, cases[i].link, cases[i].target, 0), 0);
		for (size_t j = 0; j < sizeof(files) / sizeof(files[0]); j++)
			if (strncmp(files[j], cases[i].link, strlen(cases[i].link)))
				assert_int_equal(np_tar_out_file(o, files[j], "1\n", 2, 0600, 0), 0);
		assert_int_equal(np_tar_out_close(o), 0);
		close(fd);
		refused(file, cases[i].why);
	}
	/* No proc/ or sys/: the archive is named, not a path inside it that does not exist. */
	{
		struct np_tar_out *o;
		int fd, e = 0;

		unlink(file);
		fd = open(file, O_WRONLY | O_CREAT | O_EXCL, 0600);
		assert_true(fd >= 0);
		o = np_tar_out_open(fd, true, &e);
		assert_non_null(o);
		assert_int_equal(np_tar_out_file(o, "etc/hostname", "x\n", 2, 0600, 0), 0);
		assert_int_equal(np_tar_out_close(o), 0);
		close(fd);
		refused(file, "cap.tgz: not a capture, sosreport or tree of /proc and /sys: no proc/ "
			"or sys/ inside");
	}
	np_scratch_remove(dir);
}

/* A live target's root (np_root_clear): the head zero, the four path buffers not written (each
 * on its own page: a live run never touches them), and nothing read from them: no earlier
 * sample, and releasing it removes nothing whatever stale bytes the buffers hold. */
static void cleared_root_leaves_path_buffers(void **state)
{
	struct np_root *r = malloc(sizeof(*r));

	(void)state;
	assert_non_null(r);
	memset(r, 'x', sizeof(*r));
	r->scratch[sizeof(r->scratch) - 1] = r->before[sizeof(r->before) - 1] = '\0';
	np_root_clear(r);
	assert_false(r->resolved);
	assert_false(r->capture);
	assert_int_equal(r->shown[0], 0);
	assert_int_equal(r->dir_rel[0], 0);
	assert_int_equal(r->dir[0], 'x');
	assert_int_equal(r->before[0], 'x');
	assert_int_equal(r->top[0], 'x');
	assert_false(np_root_has_before(r));
	np_root_release(r);	/* would remove "xxx...": a relative path that must stay */
	assert_int_equal(r->scratch[0], 'x');
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(meta_fields),
		cmocka_unit_test(cleared_root_leaves_path_buffers),
		cmocka_unit_test(meta_refused),
		cmocka_unit_test(capture_directory),
		cmocka_unit_test(archive_unpacked_and_removed),
		cmocka_unit_test(not_a_tree),
		cmocka_unit_test(capture_member_links_refused),
		cmocka_unit_test(archive_member_links_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
