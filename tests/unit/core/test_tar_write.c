// SPDX-License-Identifier: GPL-2.0-only
/*
 * The capture writer, through the reader: plain and gzip archives round-trip every member,
 * including paths past ustar's 100 + 155 bytes and symlink targets past 100 (pax records),
 * contents at block boundaries and binary bytes. The raw bytes are checked too: ustar magic,
 * pax headers only where needed, whole 10 KiB records.
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
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "tar.h"

/* 135 bytes: too long for ustar's name, fits prefix + name (no pax header). */
#define SYSFS "sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:00.0/0000:03:00.0/" \
	      "0000:04:00.0/0000:05:00.0/net/eth0/queues/rx-0/rps_cpus"

static int setup(void **state)
{
	return np_test_dir_setup(state, "/tmp/np-tar-write.XXXXXX");
}

static int teardown(void **state)
{
	return np_test_dir_teardown(state);
}

static char very_long[400];	/* 3 components of ~100: no ustar split fits */
static char long_target[200];
static uint8_t binary[513];
static char block[512];

static void make_names(void)
{
	memset(very_long, 'v', 300);
	very_long[100] = very_long[200] = '/';
	very_long[300] = '\0';
	snprintf(long_target, sizeof(long_target), "../../%s", SYSFS);
	for (size_t i = 0; i < sizeof(binary); i++)
		binary[i] = (uint8_t)(i * 7);
	memset(block, 'b', sizeof(block));
}

/* The archive written to a memfd, rewound. */
static int write_archive(bool gzip)
{
	int fd = memfd_create("tar", MFD_CLOEXEC), err = 1;
	struct np_tar_out *o = np_tar_out_open(fd, gzip, &err);

	assert_non_null(o);
	assert_int_equal(err, 0);
	assert_int_equal(np_tar_out_dir(o, "proc", 0755, 1700000000), 0);
	assert_int_equal(np_tar_out_file(o, "proc/version", "Linux\n", 6, 0644, 1700000000), 0);
	assert_int_equal(np_tar_out_file(o, "/proc/empty", "", 0, 0644, 1700000000), 0);
	assert_int_equal(np_tar_out_file(o, "bin/513", binary, sizeof(binary), 0600, 0), 0);
	assert_int_equal(np_tar_out_file(o, "bin/512", block, sizeof(block), 0600, -5), 0);
	assert_int_equal(np_tar_out_file(o, SYSFS, "ff\n", 3, 0644, 1700000000), 0);
	assert_int_equal(np_tar_out_file(o, very_long, "deep\n", 5, 0644, 1700000000), 0);
	assert_int_equal(np_tar_out_symlink(o, "sys/class/net/eth0", long_target, 1700000000), 0);
	assert_int_equal(np_tar_out_symlink(o, "short", "proc/version", 1700000000), 0);
	assert_int_equal(np_tar_out_close(o), 0);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	return fd;
}

static void expect(const struct dir *d, const char *rel, const void *data, size_t len)
{
	uint8_t buf[1024];
	ssize_t n;
	int fd = openat(d->fd, rel, O_RDONLY | O_NOFOLLOW);

	if (fd < 0)
		fail_msg("%s: %s", rel, strerror(errno));
	n = read(fd, buf, sizeof(buf));
	close(fd);
	assert_int_equal(n, (ssize_t)len);
	assert_memory_equal(buf, data, len);
}

static void round_trip(struct dir *d, bool gzip)
{
	struct np_tar_stats st;
	char err[256], link[256];
	int fd = write_archive(gzip);
	ssize_t n;

	assert_int_equal(np_tar_extract(fd, d->fd, NULL, NULL, NULL, &st, err, sizeof(err)), 0);
	close(fd);
	assert_int_equal(st.files, 6);
	assert_int_equal(st.symlinks, 2);
	assert_int_equal(st.refused_path, 0);
	assert_int_equal(st.bytes, 6 + 0 + 513 + 512 + 3 + 5);
	expect(d, "proc/version", "Linux\n", 6);
	expect(d, "proc/empty", "", 0);
	expect(d, "bin/513", binary, sizeof(binary));
	expect(d, "bin/512", block, sizeof(block));
	expect(d, SYSFS, "ff\n", 3);
	expect(d, very_long, "deep\n", 5);
	n = readlinkat(d->fd, "sys/class/net/eth0", link, sizeof(link) - 1);
	assert_true(n > 0);
	link[n] = '\0';
	assert_string_equal(link, long_target);
	n = readlinkat(d->fd, "short", link, sizeof(link) - 1);
	assert_int_equal(n, 12);
}

static void test_round_trip_plain(void **state)
{
	round_trip(*state, false);
}

static void test_round_trip_gzip(void **state)
{
	round_trip(*state, true);
}

static size_t count(const uint8_t *buf, size_t len, const char *needle)
{
	size_t n = 0, k = strlen(needle);

	for (size_t i = 0; i + k <= len; i++)
		if (!memcmp(buf + i, needle, k))
			n++;
	return n;
}

/* The bytes: gzip magic, ustar magic in every header, pax only for the two long names. */
static void test_raw_bytes(void **state)
{
	static uint8_t buf[64 * 1024];
	struct stat st;
	ssize_t n;
	int fd = write_archive(false);
	size_t i, found;
	char rec[512];

	(void)state;
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_size % 10240, 0);
	n = read(fd, buf, sizeof(buf));
	close(fd);
	assert_int_equal(n, st.st_size);
	assert_memory_equal(buf + 257, "ustar\0" "00", 8);
	assert_int_equal(count(buf, (size_t)n, "././@PaxHeader"), 2);
	snprintf(rec, sizeof(rec), "%zu path=%s\n", strlen(very_long) + 10, very_long);
	assert_int_equal(count(buf, (size_t)n, rec), 1);
	snprintf(rec, sizeof(rec), "linkpath=%s\n", long_target);
	assert_int_equal(count(buf, (size_t)n, rec), 1);
	/* The sysfs path went into prefix + name, split at its last '/', no pax header. */
	for (found = 0, i = 0; i + 512 <= (size_t)n; i += 512) {
		if (strcmp((char *)buf + i, "rps_cpus"))
			continue;
		assert_string_equal((char *)buf + i + 345, "sys/devices/pci0000:00/0000:00:01.0/"
				    "0000:01:00.0/0000:02:00.0/0000:03:00.0/0000:04:00.0/"
				    "0000:05:00.0/net/eth0/queues/rx-0");
		assert_int_equal(buf[i + 156], '0');
		found++;
	}
	assert_int_equal(found, 1);
	/* Directories end in '/'; the leading '/' of "/proc/empty" is gone. */
	assert_memory_equal(buf, "proc/\0", 6);
	assert_int_equal(count(buf, (size_t)n, "/proc/empty"), 0);

	fd = write_archive(true);
	n = read(fd, buf, sizeof(buf));
	close(fd);
	assert_true(n > 20);
	assert_int_equal(buf[0], 0x1f);
	assert_int_equal(buf[1], 0x8b);
}

/* Paths the reader would refuse are refused at the source; write errors stick. */
static void test_refusals_and_errors(void **state)
{
	int fd = memfd_create("tar", MFD_CLOEXEC), err, ro;
	struct np_tar_out *o = np_tar_out_open(fd, false, &err);
	char path[64];

	(void)state;
	assert_non_null(o);
	assert_int_equal(np_tar_out_file(o, "", "x", 1, 0644, 0), -EINVAL);
	assert_int_equal(np_tar_out_file(o, "/", "x", 1, 0644, 0), -EINVAL);
	assert_int_equal(np_tar_out_file(o, "a/../b", "x", 1, 0644, 0), -EINVAL);
	assert_int_equal(np_tar_out_symlink(o, "l", "", 0), -EINVAL);
	assert_int_equal(np_tar_out_file(o, NULL, "x", 1, 0644, 0), -EINVAL);
	assert_int_equal(np_tar_out_close(o), 0);
	close(fd);
	assert_null(np_tar_out_open(-1, true, &err));
	assert_int_equal(err, -EINVAL);

	/* A read-only fd: the first write fails, and every call after it says so. */
	snprintf(path, sizeof(path), "/proc/self/fd/%d", memfd_create("ro", MFD_CLOEXEC));
	ro = open(path, O_RDONLY);
	assert_true(ro >= 0);
	o = np_tar_out_open(ro, true, &err);
	assert_non_null(o);
	/* gzip buffers: the error shows at the latest on close. */
	(void)np_tar_out_file(o, "a", "x", 1, 0644, 0);
	assert_int_equal(np_tar_out_close(o), -EBADF);
	o = np_tar_out_open(ro, false, &err);
	assert_int_equal(np_tar_out_file(o, "a", "x", 1, 0644, 0), -EBADF);
	assert_int_equal(np_tar_out_dir(o, "d", 0755, 0), -EBADF);
	assert_int_equal(np_tar_out_close(o), -EBADF);
	close(ro);
	assert_int_equal(np_tar_out_close(NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_round_trip_plain, setup, teardown),
		cmocka_unit_test_setup_teardown(test_round_trip_gzip, setup, teardown),
		cmocka_unit_test(test_raw_bytes),
		cmocka_unit_test(test_refusals_and_errors),
	};

	make_names();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
