// SPDX-License-Identifier: GPL-2.0-only
/*
 * --root confinement, symlinks: a hostile tree's symlinks (absolute, "..", chains and loops, a
 * symlinked directory, a symlinked proc/ or sys/ itself, /proc's magic links) never lead a read
 * outside the tree, while relative links inside it resolve. Each case plants a target outside
 * the tree that a read would find; the reads must fail rather than return it.
 *
 * Every test runs with openat2() (when the kernel has it), with the pre-5.6 resolver
 * (beneath.c) forced through np_ctx_seam, and on a busy host, and checks that the path it meant
 * to test answered. (Special files, long paths, the resolver switch: test_root_confine_files.c.)
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

static void test_symlinks_refused(void **state)
{
	struct dirs *d = *state;
	struct np_ctx ctx;
	char *buf, name[64];
	size_t len;

	assert_int_equal(np_ctx_open(&ctx, d->tree), 0);
	assert_true(ctx.confined);
	/* The in-tree file reads; every way out is refused. */
	assert_int_equal(np_read_file(&ctx, NP_PROC, "net/sockstat", &buf, &len), 0);
	free(buf);
	assert_int_equal(np_read_file(&ctx, NP_PROC, "net/snmp", &buf, &len), -EXDEV);
	assert_null(buf);
	assert_int_equal(np_read_file(&ctx, NP_PROC, "net/netstat", &buf, &len), -EXDEV);
	assert_int_equal(np_read_file(&ctx, NP_PROC, "net/stat/nf_conntrack", &buf, &len), -EXDEV);
	assert_true(np_read_file(&ctx, NP_PROC, "net/route", &buf, &len) < 0);
	assert_int_equal(np_read_file(&ctx, NP_PROC, "../out/snmp", &buf, &len), -EXDEV);
	assert_int_equal(np_read_file(&ctx, NP_PROC, "/etc/passwd", &buf, &len), -EXDEV);
	assert_false(np_exists(&ctx, NP_SYS, "class/net/eth0"));
	/* A FIFO in the tree: refused at once, not a read that waits for a writer forever. */
	alarm(10);
	assert_int_equal(np_read_file(&ctx, NP_PROC, "net/snmp6", &buf, &len), -EINVAL);
	alarm(0);
	/* readlinkat() follows the path's directories: "eth0" leads out, so no answer (this
	 * returned "virtio7" from outside the tree before). */
	assert_true(np_read_link_base(&ctx, NP_SYS, "class/net/eth0/device", name,
				      sizeof(name)) < 0);
	/* An in-tree relative link is fine. */
	assert_int_equal(np_read_link_base(&ctx, NP_SYS, "class/net/eth1/device", name,
					   sizeof(name)), 0);
	assert_string_equal(name, "virtio3");
	np_ctx_close(&ctx);
	assert_resolver_used();
}

static void test_chains_and_loops(void **state)
{
	struct dirs *d = *state;
	struct np_ctx ctx;
	char *buf;
	size_t len;

	assert_int_equal(np_ctx_open(&ctx, d->tree), 0);
	assert_reads(&ctx, NP_PROC, "net/chain_a", "sockets: used 1\n");
	assert_int_equal(np_read_file(&ctx, NP_PROC, "net/esc_a", &buf, &len), -EXDEV);
	assert_int_equal(np_read_file(&ctx, NP_PROC, "net/loop_a", &buf, &len), -ELOOP);
	assert_int_equal(np_read_file(&ctx, NP_PROC, "net/self_loop", &buf, &len), -ELOOP);
	assert_int_equal(np_read_file(&ctx, NP_PROC, "net/self_loop/x", &buf, &len), -ELOOP);
	/* The kernel's bound, to the link: 40 hops resolve, 41 do not. */
	assert_reads(&ctx, NP_PROC, "net/hop1", "sockets: used 1\n");
	assert_int_equal(np_read_file(&ctx, NP_PROC, "net/hop0", &buf, &len), -ELOOP);
	/* ".." is fine while it stays beneath the tree's proc/; above it, refused even when
	 * the path would come back (as RESOLVE_BENEATH does). */
	assert_reads(&ctx, NP_PROC, "net/up", "sockets: used 1\n");
	assert_reads(&ctx, NP_PROC, "net/../net/./sockstat", "sockets: used 1\n");
	assert_int_equal(np_read_file(&ctx, NP_PROC, "net/out_and_back", &buf, &len), -EXDEV);
	assert_int_equal(np_read_file(&ctx, NP_PROC, "net/../../proc/net/sockstat", &buf, &len),
			 -EXDEV);
	assert_int_equal(np_read_file(&ctx, NP_PROC, "net/sockstat/x", &buf, &len), -ENOTDIR);
	assert_int_equal(np_read_file(&ctx, NP_PROC, "net/missing", &buf, &len), -ENOENT);
	assert_int_equal(np_read_file(&ctx, NP_PROC, "", &buf, &len), -ENOENT);
	np_ctx_close(&ctx);
	assert_resolver_used();
}

/* What a sosreport or a copied sysfs holds: relative links inside the tree resolve. */
static void test_in_tree_links(void **state)
{
	struct dirs *d = *state;
	char sos[160], name[64];
	struct np_ctx ctx;
	DIR *dir;

	assert_int_equal(np_ctx_open(&ctx, d->tree), 0);
	assert_int_equal(np_read_str(&ctx, NP_SYS, "class/net/eth2/mtu", name, sizeof(name)), 4);
	assert_string_equal(name, "1500");
	/* readlinkat()'s directory part goes through a symlinked directory. */
	assert_int_equal(np_read_link_base(&ctx, NP_SYS, "class/net/eth2/device", name,
					   sizeof(name)), 0);
	assert_string_equal(name, "0000:00:03.0");
	assert_int_equal(np_opendir(&ctx, NP_SYS, "class/net/eth2", &dir), 0);
	closedir(dir);
	assert_true(np_exists(&ctx, NP_SYS, "class/net/eth2/device/net/eth2/mtu"));
	np_ctx_close(&ctx);

	/* A sosreport: proc/net -> self/net, and ROOT/sys a relative link inside ROOT. */
	snprintf(sos, sizeof(sos), "%s/sos", d->base);
	mkdirs(d->base, "sos/proc/self/net");
	mkdirs(d->base, "sos/data/sys/class/net");
	file_at(sos, "proc/self/net/snmp", "Ip: 1\n");
	file_at(sos, "data/sys/class/net/x", "y\n");
	link_at("self/net", sos, "proc/net");
	link_at("data/sys", sos, "sys");
	assert_int_equal(np_ctx_open(&ctx, sos), 0);
	assert_true(ctx.sys_fd >= 0);
	assert_reads(&ctx, NP_PROC, "net/snmp", "Ip: 1\n");
	assert_reads(&ctx, NP_SYS, "class/net/x", "y\n");
	assert_reads(&ctx, NP_TOP, "data/sys/class/net/x", "y\n");
	np_ctx_close(&ctx);
	assert_resolver_used();
}

/* ROOT/sys a relative link out of ROOT: the tree refused like with an absolute one. */
static void test_relative_tree_escape(void **state)
{
	struct dirs *d = *state;
	char tree3[160];
	struct np_ctx ctx;

	snprintf(tree3, sizeof(tree3), "%s/tree3", d->base);
	mkdirs(d->base, "tree3/proc");
	link_at("../tree/sys", tree3, "sys");
	assert_int_equal(np_ctx_open(&ctx, tree3), -EXDEV);
	assert_int_equal(ctx.proc_fd, -1);
	assert_int_equal(ctx.sys_fd, -1);
	assert_resolver_used();
}

/*
 * Real magic links: a context confined to the live /proc. "self" is an ordinary relative link
 * (to the pid) and resolves; self/root, self/cwd, self/exe and self/fd/N are magic and must
 * not be followed, whatever their text says.
 */
static void test_magic_links(void **state)
{
	struct np_ctx ctx = { .sys_fd = -1, .top_fd = -1, .run_fd = -1, .confined = true };
	char *buf, path[64], name[64];
	size_t len;
	int out, r;

	(void)state;
	ctx.proc_fd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(ctx.proc_fd >= 0);
	assert_int_equal(np_read_file(&ctx, NP_PROC, "self/status", &buf, &len), 0);
	assert_non_null(strstr(buf, "Pid:"));
	free(buf);
	out = open("/etc/passwd", O_RDONLY | O_CLOEXEC);
	assert_true(out >= 0);
	snprintf(path, sizeof(path), "self/fd/%d", out);
	const char *magic[] = { "self/root/etc/passwd", "self/cwd", "self/exe",
				"thread-self/root/etc/passwd", "self/root", path };
	for (size_t i = 0; i < sizeof(magic) / sizeof(magic[0]); i++) {
		r = np_read_file(&ctx, NP_PROC, magic[i], &buf, &len);
		if (r != -EXDEV && r != -ELOOP)
			fail_msg("%s: %d, want -EXDEV or -ELOOP", magic[i], r);
		assert_false(np_exists(&ctx, NP_PROC, magic[i]));
	}
	assert_true(np_read_link_base(&ctx, NP_PROC, "self/root/etc/x", name, sizeof(name)) < 0);
	close(out);
	np_ctx_close(&ctx);
	assert_resolver_used();
}

/* ROOT/proc itself a symlink (to the live /proc, or anywhere): the tree is refused, not read
 * without it (a report of "tree2" judged on its sys/ alone would not say why proc is gone). */
static void test_symlinked_tree_root(void **state)
{
	struct dirs *d = *state;
	char tree2[160], path[200];
	struct np_ctx ctx;
	const char *bad;
	int rfd;

	snprintf(tree2, sizeof(tree2), "%s/tree2", d->base);
	assert_int_equal(mkdir(tree2, 0755), 0);
	snprintf(path, sizeof(path), "%s/sys", tree2);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/proc", tree2);
	assert_int_equal(symlink("/proc", path), 0);
	assert_int_equal(np_ctx_open(&ctx, tree2), -EXDEV);
	assert_int_equal(ctx.proc_fd, -1);
	assert_int_equal(ctx.sys_fd, -1);
	rfd = open(tree2, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(rfd >= 0);
	assert_int_equal(np_ctx_open_dir(&ctx, rfd, tree2, &bad), -EXDEV);
	assert_string_equal(bad, "proc");
	assert_resolver_used();
	/* run/ too, though optional: it would point the daemons' sockets elsewhere. */
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/run", tree2);
	assert_int_equal(symlink("/run", path), 0);
	assert_int_equal(np_ctx_open_dir(&ctx, rfd, tree2, &bad), -EXDEV);
	assert_string_equal(bad, "run");
	assert_int_equal(unlink(path), 0);
	assert_int_equal(np_ctx_open_dir(&ctx, rfd, tree2, &bad), 0);
	assert_null(bad);
	np_ctx_close(&ctx);
	close(rfd);
	snprintf(path, sizeof(path), "%s/proc", tree2);
	assert_int_equal(rmdir(path), 0);
	/* Neither tree usable: an error, not the live system. */
	snprintf(path, sizeof(path), "%s/sys", tree2);
	assert_int_equal(rmdir(path), 0);
	assert_int_equal(symlink("/sys", path), 0);
	assert_true(np_ctx_open(&ctx, tree2) < 0);
}

int main(void)
{
	const struct CMUnitTest confined[] = {
		cmocka_unit_test_setup_teardown(test_symlinks_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_symlinked_tree_root, setup, teardown),
		cmocka_unit_test_setup_teardown(test_chains_and_loops, setup, teardown),
		cmocka_unit_test_setup_teardown(test_in_tree_links, setup, teardown),
		cmocka_unit_test_setup_teardown(test_relative_tree_escape, setup, teardown),
		cmocka_unit_test_setup_teardown(test_magic_links, setup, teardown),
	};

	return run_confined(confined, sizeof(confined) / sizeof(confined[0]));
}
