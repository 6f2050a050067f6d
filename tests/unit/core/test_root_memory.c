// SPDX-License-Identifier: GPL-2.0-only
/*
 * Where `--root ARCHIVE` unpacks (issue #35): a small archive in memory (a tmpfs), so that
 * reading a capture costs no more than a live pass; one that unpacks beyond the memory cap
 * again on disk, with nothing left in memory; a TMPDIR set always wins. And the choice of the
 * memory place itself: only a tmpfs with room, only a directory nobody else can write.
 * Each test is skipped when /dev/shm is not a tmpfs with room (a container may not have one).
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
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "root.h"
#include "scratch.h"
#include "tar.h"
#include "tar_build.h"
#include "gzip_build.h"

static int setup(void **state)
{
	unsetenv("TMPDIR");
	unsetenv("XDG_RUNTIME_DIR");
	return np_test_dir_setup(state, "/tmp/np-root-mem.XXXXXX");
}

static int teardown(void **state)
{
	unsetenv("TMPDIR");
	unsetenv("XDG_RUNTIME_DIR");
	return np_test_dir_teardown(state);
}

static void need_shm(void)
{
	if (!np_scratch_in_memory("/dev/shm", NP_ROOT_MEM_DISK))
		skip();
}

/* Our scratch directories under /dev/shm: none must be left. */
static size_t shm_scratches(void)
{
	DIR *d = opendir("/dev/shm");
	struct dirent *e;
	size_t n = 0;
	struct stat st;
	char path[PATH_MAX];

	assert_non_null(d);
	while ((e = readdir(d))) {
		snprintf(path, sizeof(path), "/dev/shm/%s", e->d_name);
		if (!strncmp(e->d_name, "netpath.", 8) && lstat(path, &st) == 0 &&
		    st.st_uid == geteuid())
			n++;
	}
	closedir(d);
	return n;
}

/* A tree --root accepts (proc/ and sys/), gzipped, with extra zero-filled files of each bytes,
 * written to DIR/name; its path in out. */
static void write_archive(const struct dir *d, const char *name, int extra, size_t each,
			  char *out, size_t size)
{
	struct ar tar = { 0 }, gz = { 0 };
	uint8_t *zeros = calloc(1, each ? each : 1);
	int fd;

	assert_non_null(zeros);
	ar_file(&tar, "tree/proc/net/dev", "Inter-|   Receive\n face |bytes\n");
	ar_file(&tar, "tree/sys/class/net/lo/mtu", "65536\n");
	for (int i = 0; i < extra; i++) {
		char member[64];

		snprintf(member, sizeof(member), "tree/big%d", i);
		ar_hdr(&tar, member, '0', each, NULL);
		ar_put(&tar, zeros, each);
		ar_pad(&tar);
	}
	ar_end(&tar);
	gzip_append(&gz, tar.buf, tar.len);
	snprintf(out, size, "%s/%s", d->path, name);
	fd = open(out, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(np_write_all(fd, gz.buf, gz.len), 0);
	close(fd);
	ar_free(&tar);
	ar_free(&gz);
	free(zeros);
}

static void resolve_under(const char *file, const char *prefix)
{
	struct np_root r;
	char err[512] = "";
	struct stat st;

	assert_int_equal(np_root_resolve(&r, file, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_int_equal(strncmp(r.scratch, prefix, strlen(prefix)), 0);
	assert_string_equal(r.dir_rel, "tree");
	np_root_release(&r);
	assert_int_not_equal(lstat(r.top, &st), 0);
}

/* A capture-sized archive: unpacked in /dev/shm, removed after. */
static void test_small_in_memory(void **state)
{
	char file[PATH_MAX];

	need_shm();
	write_archive(*state, "small.tar.gz", 0, 0, file, sizeof(file));
	resolve_under(file, "/dev/shm/netpath.");
	assert_int_equal(shm_scratches(), 0);
}

/* 80 MiB unpacked from a file of about 80 KB: past the memory cap, so unpacked again on disk
 * ($TMPDIR unset: /tmp), and the half-made memory copy is gone. */
static void test_big_falls_back_to_disk(void **state)
{
	char file[PATH_MAX];
	size_t before;

	need_shm();
	before = shm_scratches();
	write_archive(*state, "big.tar.gz", 2, 40u << 20, file, sizeof(file));
	resolve_under(file, "/tmp/netpath.");
	assert_int_equal(shm_scratches(), before);
}

/* A TMPDIR set is where scratch goes, memory or not. */
static void test_tmpdir_wins(void **state)
{
	struct dir *d = *state;
	char file[PATH_MAX], tmp[PATH_MAX];

	write_archive(d, "small.tar.gz", 0, 0, file, sizeof(file));
	snprintf(tmp, sizeof(tmp), "%s/tmp", d->path);
	assert_int_equal(mkdir(tmp, 0700), 0);
	setenv("TMPDIR", tmp, 1);
	strcat(tmp, "/netpath.");
	resolve_under(file, tmp);
}

/* Only a tmpfs with twice the room: /proc and a disk directory are not memory, nor a tmpfs
 * asked for more than it has. */
static void test_in_memory_rules(void **state)
{
	(void)state;
	assert_false(np_scratch_in_memory("/proc", 1));
	assert_false(np_scratch_in_memory("relative", 1));
	assert_false(np_scratch_in_memory(NULL, 1));
	if (!np_scratch_in_memory("/dev/shm", 1))
		skip();
	assert_false(np_scratch_in_memory("/dev/shm", UINT64_MAX / 2));
}

/* $XDG_RUNTIME_DIR first, but only a directory of ours nobody else can write: one writable by
 * others could have our scratch renamed away and another tree put under its name. */
static void test_runtime_dir_trust(void **state)
{
	char priv[64], open_dir[64], out[PATH_MAX];

	(void)state;
	need_shm();
	snprintf(priv, sizeof(priv), "/dev/shm/np-run.XXXXXX");
	assert_non_null(mkdtemp(priv));
	snprintf(open_dir, sizeof(open_dir), "/dev/shm/np-run.XXXXXX");
	assert_non_null(mkdtemp(open_dir));
	assert_int_equal(chmod(open_dir, 0777), 0);

	setenv("XDG_RUNTIME_DIR", priv, 1);
	assert_int_equal(np_scratch_dir_mem(out, sizeof(out), 1 << 20), 0);
	assert_int_equal(strncmp(out, priv, strlen(priv)), 0);
	np_scratch_remove(out);

	setenv("XDG_RUNTIME_DIR", open_dir, 1);
	assert_int_equal(np_scratch_dir_mem(out, sizeof(out), 1 << 20), 0);
	assert_int_equal(strncmp(out, "/dev/shm/netpath.", 17), 0);
	np_scratch_remove(out);

	setenv("TMPDIR", "/dev/shm", 1);
	assert_int_equal(np_scratch_dir_mem(out, sizeof(out), 1 << 20), -ENOENT);
	assert_string_equal(out, "");
	rmdir(priv);
	rmdir(open_dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_small_in_memory, setup, teardown),
		cmocka_unit_test_setup_teardown(test_big_falls_back_to_disk, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tmpdir_wins, setup, teardown),
		cmocka_unit_test_setup_teardown(test_in_memory_rules, setup, teardown),
		cmocka_unit_test_setup_teardown(test_runtime_dir_trust, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
