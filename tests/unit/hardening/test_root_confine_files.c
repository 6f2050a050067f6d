// SPDX-License-Identifier: GPL-2.0-only
/*
 * --root confinement, everything but symlinks: a FIFO, socket or device in the tree is not
 * waited on, long paths are handled, openat2() is used where the kernel has it, the live
 * system is not confined, and a source refused says why instead of "absent".
 *
 * The confined tests run under each resolver, as in test_root_confine.c.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include "beneath.h"
#include "ctx.h"
#include "snapshot.h"
#include "root_confine_fixture.h"

/* A FIFO, a socket or a device in the tree (or a link to one) is refused at once. */
static void test_special_files(void **state)
{
	struct dirs *d = *state;
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	struct np_ctx ctx, dev = { .proc_fd = -1, .sys_fd = -1, .run_fd = -1, .confined = true };
	char *buf;
	size_t len;
	int sock;

	assert_true(strlen(d->tree) + sizeof("/proc/net/unix_sock") <= sizeof(sun.sun_path));
	memcpy(sun.sun_path, d->tree, strlen(d->tree));
	strcat(sun.sun_path, "/proc/net/unix_sock");
	sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(sock >= 0);
	assert_int_equal(bind(sock, (struct sockaddr *)&sun, sizeof(sun)), 0);
	assert_int_equal(listen(sock, 1), 0);
	link_at("snmp6", d->tree, "proc/net/to_fifo");
	assert_int_equal(np_ctx_open(&ctx, d->tree), 0);
	alarm(10);
	assert_int_equal(np_read_file(&ctx, NP_PROC, "net/snmp6", &buf, &len), -EINVAL);
	assert_int_equal(np_read_file(&ctx, NP_PROC, "net/to_fifo", &buf, &len), -EINVAL);
	assert_true(np_read_file(&ctx, NP_PROC, "net/unix_sock", &buf, &len) < 0);
	assert_true(np_opendir(&ctx, NP_PROC, "net/snmp6", &(DIR *){ NULL }) < 0);
	/* The resolver refuses before opening: even a blocking open of the FIFO returns. */
	assert_int_equal(np_beneath_open(ctx.proc_fd, "net/to_fifo", O_RDONLY), -EINVAL);
	/* A device node (no root needed to find one: /dev is a tree too). */
	dev.top_fd = open("/dev", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(dev.top_fd >= 0);
	assert_int_equal(np_read_file(&dev, NP_TOP, "null", &buf, &len), -EINVAL);
	assert_int_equal(np_read_file(&dev, NP_TOP, "zero", &buf, &len), -EINVAL);
	alarm(0);
	np_ctx_close(&dev);
	np_ctx_close(&ctx);
	close(sock);
	assert_resolver_used();
}

static void test_long_paths(void **state)
{
	struct dirs *d = *state;
	char rel[1024], *longp, *target, path[1200];
	struct np_ctx ctx;
	size_t n = 0;
	char *buf;
	size_t len;

	/* 60 directories deep: resolves (sysfs paths are about 15). */
	n = (size_t)snprintf(rel, sizeof(rel), "tree/proc/deep");
	for (int i = 0; i < 60; i++)
		n += (size_t)snprintf(rel + n, sizeof(rel) - n, "/d");
	mkdirs(d->base, rel);
	snprintf(path, sizeof(path), "%s/f", rel);
	file_at(d->base, path, "deep\n");
	assert_int_equal(np_ctx_open(&ctx, d->tree), 0);
	assert_reads(&ctx, NP_PROC, path + strlen("tree/proc/"), "deep\n");

	/* Longer than PATH_MAX, and one name longer than NAME_MAX. */
	longp = malloc(PATH_MAX + 16);
	assert_non_null(longp);
	memset(longp, 'a', PATH_MAX + 8);
	for (size_t i = 100; i < PATH_MAX + 8; i += 100)
		longp[i] = '/';
	longp[PATH_MAX + 8] = '\0';
	assert_int_equal(np_read_file(&ctx, NP_PROC, longp, &buf, &len), -ENAMETOOLONG);
	longp[NAME_MAX + 1] = '\0';
	memset(longp, 'a', NAME_MAX + 1);
	assert_int_equal(np_read_file(&ctx, NP_PROC, longp, &buf, &len), -ENAMETOOLONG);
	free(longp);

	/* A target near PATH_MAX that stays in the tree resolves; one that keeps growing
	 * ("grow" -> "./grow/x/...") ends in an error, not a crash or a hang. */
	target = malloc(PATH_MAX);
	assert_non_null(target);
	n = 0;
	while (n < PATH_MAX - 200)
		n += (size_t)snprintf(target + n, PATH_MAX - n, "./");
	snprintf(target + n, PATH_MAX - n, "sockstat");
	link_at(target, d->tree, "proc/net/long_target");
	assert_reads(&ctx, NP_PROC, "net/long_target", "sockets: used 1\n");
	n = 0;
	while (n < 2000)
		n += (size_t)snprintf(target + n, PATH_MAX - n, "./");
	snprintf(target + n, PATH_MAX - n, "grow/x");
	link_at(target, d->tree, "proc/net/grow");
	int r = np_read_file(&ctx, NP_PROC, "net/grow", &buf, &len);
	if (r != -ELOOP && r != -ENAMETOOLONG)
		fail_msg("net/grow: %d, want -ELOOP or -ENAMETOOLONG", r);
	free(target);
	np_ctx_close(&ctx);
	assert_resolver_used();
}

/* On a kernel with openat2() the confined opens are the kernel's; the seam switches them. */
static void test_openat2_used(void **state)
{
	struct dirs *d = *state;
	struct np_ctx ctx;
	char *buf;
	size_t len;

	if (!kernel_has_openat2 && !np_ctx_seam.no_openat2)
		skip();
	assert_int_equal(np_ctx_open(&ctx, d->tree), 0);
	np_ctx_seam.openat2_opens = np_ctx_seam.beneath_opens = 0;
	assert_int_equal(np_read_file(&ctx, NP_PROC, "net/sockstat", &buf, &len), 0);
	free(buf);
	if (np_ctx_seam.no_openat2 || np_ctx_seam.openat2_eagain == UINT_MAX) {
		assert_int_equal(np_ctx_seam.beneath_opens, 1);
		assert_int_equal(np_ctx_seam.openat2_opens, 0);
	} else {
		assert_int_equal(np_ctx_seam.openat2_opens, 1);
		assert_int_equal(np_ctx_seam.beneath_opens, 0);
	}
	np_ctx_close(&ctx);
}

/* The live system is not confined: plain openat(), neither path counted. */
static void test_live_not_confined(void **state)
{
	struct np_ctx ctx;
	char *buf;
	size_t len;

	(void)state;
	assert_int_equal(np_ctx_open(&ctx, NULL), 0);
	assert_false(ctx.confined);
	np_ctx_seam.openat2_opens = np_ctx_seam.beneath_opens = 0;
	assert_int_equal(np_read_file(&ctx, NP_PROC, "self/status", &buf, &len), 0);
	free(buf);
	assert_int_equal(np_ctx_seam.openat2_opens + np_ctx_seam.beneath_opens, 0);
	np_ctx_close(&ctx);
}

/* A source refused that way says why: not "absent: Invalid cross-device link". */
static void test_refusal_detail(void **state)
{
	struct np_snapshot *s = malloc(sizeof(*s));

	(void)state;
	assert_non_null(s);
	np_snapshot_init(s);
	np_src_set(s, NP_SRC_SNMP, -EXDEV, NULL);
	assert_int_equal(np_srcp(s, NP_SRC_SNMP)->status, NP_SRC_MALFORMED);
	assert_non_null(strstr(np_srcp(s, NP_SRC_SNMP)->detail, "outside the --root tree"));
	np_src_set(s, NP_SRC_NETSTAT, -ELOOP, NULL);
	assert_int_equal(np_srcp(s, NP_SRC_NETSTAT)->status, NP_SRC_MALFORMED);
	assert_non_null(strstr(np_srcp(s, NP_SRC_NETSTAT)->detail, "symlink"));
	np_src_set(s, NP_SRC_INTERRUPTS, -EFBIG, NULL);
	assert_int_equal(np_srcp(s, NP_SRC_INTERRUPTS)->status, NP_SRC_MALFORMED);
	assert_non_null(strstr(np_srcp(s, NP_SRC_INTERRUPTS)->detail, "64 MiB"));
	np_snapshot_free(s);
	free(s);
}

int main(void)
{
	const struct CMUnitTest confined[] = {
		cmocka_unit_test_setup_teardown(test_special_files, setup, teardown),
		cmocka_unit_test_setup_teardown(test_long_paths, setup, teardown),
		cmocka_unit_test_setup_teardown(test_openat2_used, setup, teardown),
		cmocka_unit_test(test_live_not_confined),
	};
	const struct CMUnitTest other[] = {
		cmocka_unit_test(test_refusal_detail),
	};
	int r = run_confined(confined, sizeof(confined) / sizeof(confined[0]));

	r |= cmocka_run_group_tests_name("refusal detail", other, NULL, NULL);
	return r;
}
