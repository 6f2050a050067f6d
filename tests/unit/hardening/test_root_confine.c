// SPDX-License-Identifier: GPL-2.0-only
/*
 * --root confinement: a hostile tree's symlinks (absolute, "..", a symlinked directory, a
 * symlinked proc/ or sys/ itself) never lead a read outside the tree, and a source refused that
 * way says so instead of "absent"; a FIFO in the tree is not waited on. Each case plants a
 * target outside the tree that a read would find; the reads must fail rather than return it.
 *
 * Every test runs twice: with openat2() (when the kernel has it) and with the pre-5.6 resolver
 * (beneath.c) forced through np_ctx_seam, and checks that the path it meant to test answered.
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

static bool kernel_has_openat2;

struct dirs {
	char base[64];		/* mkdtemp */
	char tree[128];		/* base/tree: the --root */
	char out[128];		/* base/out: what must stay unread */
};

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void mkdirs(const char *base, const char *rel)
{
	char path[512], *p;

	assert_true(snprintf(path, sizeof(path), "%s/%s", base, rel) < (int)sizeof(path));
	for (p = path + strlen(base) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	mkdir(path, 0755);
}

static void link_at(const char *target, const char *base, const char *rel)
{
	char path[512];

	assert_true(snprintf(path, sizeof(path), "%s/%s", base, rel) < (int)sizeof(path));
	assert_int_equal(symlink(target, path), 0);
}

static void file_at(const char *base, const char *rel, const char *text)
{
	char path[512];

	assert_true(snprintf(path, sizeof(path), "%s/%s", base, rel) < (int)sizeof(path));
	put(path, text);
}

/* tree/proc/net with snmp -> OUT/snmp (absolute), netstat -> ../../../out/netstat, stat -> OUT
 * (a symlinked directory), sockstat a real file; tree/sys/class/net/eth0 -> OUT/eth0 (whose
 * "device" link names a virtio device), eth1 in the tree with an in-tree device link. */
static int setup(void **state)
{
	struct dirs *d = calloc(1, sizeof(*d));
	char target[256];

	assert_non_null(d);
	snprintf(d->base, sizeof(d->base), "/tmp/np-confine.XXXXXX");
	assert_non_null(mkdtemp(d->base));
	snprintf(d->tree, sizeof(d->tree), "%s/tree", d->base);
	snprintf(d->out, sizeof(d->out), "%s/out", d->base);
	mkdirs(d->base, "tree/proc/net");
	mkdirs(d->base, "tree/sys/class/net/eth1");
	mkdirs(d->base, "tree/sys/devices/virtio3");
	mkdirs(d->base, "out/eth0");
	file_at(d->base, "out/snmp", "Ip: Forwarding\nIp: 1\n");
	file_at(d->base, "out/netstat", "TcpExt: X\nTcpExt: 1\n");
	file_at(d->base, "out/nf_conntrack", "entries\n00000001\n");
	link_at("../../virtio7", d->base, "out/eth0/device");
	file_at(d->base, "tree/proc/net/sockstat", "sockets: used 1\n");

	snprintf(target, sizeof(target), "%s/snmp", d->out);
	link_at(target, d->tree, "proc/net/snmp");
	link_at("../../../out/netstat", d->tree, "proc/net/netstat");
	link_at(d->out, d->tree, "proc/net/stat");
	snprintf(target, sizeof(target), "%s/eth0", d->out);
	link_at(target, d->tree, "sys/class/net/eth0");
	link_at("../../../devices/virtio3", d->tree, "sys/class/net/eth1/device");
	link_at("/proc/self/root/etc/passwd", d->tree, "proc/net/route");
	snprintf(target, sizeof(target), "%s/proc/net/snmp6", d->tree);
	assert_int_equal(mkfifo(target, 0644), 0);

	/* Chains: in the tree, and one whose last hop leaves it. */
	link_at("chain_b", d->tree, "proc/net/chain_a");
	link_at("./chain_c", d->tree, "proc/net/chain_b");
	link_at("sockstat", d->tree, "proc/net/chain_c");
	link_at("esc_b", d->tree, "proc/net/esc_a");
	link_at("../../../out/snmp", d->tree, "proc/net/esc_b");
	/* Loops, and a chain of exactly 41 links from hop0 (40 from hop1). */
	link_at("loop_b", d->tree, "proc/net/loop_a");
	link_at("loop_a", d->tree, "proc/net/loop_b");
	link_at("self_loop", d->tree, "proc/net/self_loop");
	for (int i = 0; i <= 40; i++) {
		char name[32], next[32];

		snprintf(name, sizeof(name), "proc/net/hop%d", i);
		snprintf(next, sizeof(next), i == 40 ? "sockstat" : "hop%d", i + 1);
		link_at(next, d->tree, name);
	}
	/* ".." that stays in the tree, and ".." that leaves it only to come back. */
	link_at("../net/sockstat", d->tree, "proc/net/up");
	link_at("../../proc/net/sockstat", d->tree, "proc/net/out_and_back");
	/* sysfs-style: class/net/eth2 is a relative link to a device directory, and that
	 * directory's "device" a relative link to its PCI function. */
	mkdirs(d->base, "tree/sys/devices/pci0000:00/0000:00:03.0/net/eth2");
	file_at(d->tree, "sys/devices/pci0000:00/0000:00:03.0/net/eth2/mtu", "1500\n");
	link_at("../../../0000:00:03.0", d->tree, "sys/devices/pci0000:00/0000:00:03.0/net/eth2/device");
	link_at("../../devices/pci0000:00/0000:00:03.0/net/eth2", d->tree, "sys/class/net/eth2");
	*state = d;
	np_ctx_seam.openat2_opens = np_ctx_seam.beneath_opens = np_ctx_seam.openat2_eagains = 0;
	return 0;
}

/* The path a group meant to test is the one that answered the test's opens. */
static void assert_resolver_used(void)
{
	if (kernel_has_openat2 && np_ctx_seam.openat2_eagain && !np_ctx_seam.no_openat2)
		assert_true(np_ctx_seam.openat2_eagains > 0);
	if (np_ctx_seam.no_openat2 || np_ctx_seam.openat2_eagain == UINT_MAX) {
		assert_int_equal(np_ctx_seam.openat2_opens, 0);
		assert_true(np_ctx_seam.beneath_opens > 0);
	} else if (kernel_has_openat2) {
		/* Beside the seam's EAGAINs a real one (a rename elsewhere on a busy host during
		 * a walk through "..") may leave an open to the resolver: only the seam's own
		 * are predictable. */
		if (!np_ctx_seam.openat2_eagain)
			assert_int_equal(np_ctx_seam.beneath_opens, 0);
		assert_true(np_ctx_seam.openat2_opens > 0);
	}
}

static void assert_reads(const struct np_ctx *ctx, enum np_tree t, const char *path,
			 const char *want)
{
	char *buf;
	size_t len;

	assert_int_equal(np_read_file(ctx, t, path, &buf, &len), 0);
	assert_string_equal(buf, want);
	free(buf);
}

static int teardown(void **state)
{
	struct dirs *d = *state;
	char cmd[160];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", d->base);
	assert_int_equal(system(cmd), 0);
	free(d);
	return 0;
}

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

/* A source refused that way says why: not "absent: Invalid cross-device link". */
static void test_refusal_detail(void **state)
{
	struct np_snapshot *s = malloc(sizeof(*s));

	(void)state;
	assert_non_null(s);
	np_snapshot_init(s);
	np_src_set(s, NP_SRC_SNMP, -EXDEV, NULL);
	assert_int_equal(s->src[NP_SRC_SNMP].status, NP_SRC_MALFORMED);
	assert_non_null(strstr(s->src[NP_SRC_SNMP].detail, "outside the --root tree"));
	np_src_set(s, NP_SRC_NETSTAT, -ELOOP, NULL);
	assert_int_equal(s->src[NP_SRC_NETSTAT].status, NP_SRC_MALFORMED);
	assert_non_null(strstr(s->src[NP_SRC_NETSTAT].detail, "symlink"));
	np_src_set(s, NP_SRC_INTERRUPTS, -EFBIG, NULL);
	assert_int_equal(s->src[NP_SRC_INTERRUPTS].status, NP_SRC_MALFORMED);
	assert_non_null(strstr(s->src[NP_SRC_INTERRUPTS].detail, "64 MiB"));
	np_snapshot_free(s);
	free(s);
}

static int with_openat2(void **state)
{
	(void)state;
	np_ctx_seam.no_openat2 = false;
	return 0;
}

static int with_fallback(void **state)
{
	(void)state;
	np_ctx_seam.no_openat2 = true;
	return 0;
}

/* A busy host (renames or mounts elsewhere during each lookup through ".."): openat2() says
 * EAGAIN twice per open, which retrying absorbs, or every time, which the resolver by hand
 * answers. Either way the same reads succeed and the same escapes are refused. */
static int with_eagain_twice(void **state)
{
	(void)state;
	np_ctx_seam.no_openat2 = false;
	np_ctx_seam.openat2_eagain = 2;
	return 0;
}

static int with_eagain_always(void **state)
{
	(void)state;
	np_ctx_seam.no_openat2 = false;
	np_ctx_seam.openat2_eagain = UINT_MAX;
	return 0;
}

static int no_eagain(void **state)
{
	(void)state;
	np_ctx_seam.openat2_eagain = 0;
	return 0;
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
		cmocka_unit_test_setup_teardown(test_special_files, setup, teardown),
		cmocka_unit_test_setup_teardown(test_long_paths, setup, teardown),
		cmocka_unit_test_setup_teardown(test_openat2_used, setup, teardown),
		cmocka_unit_test(test_live_not_confined),
	};
	const struct CMUnitTest other[] = {
		cmocka_unit_test(test_refusal_detail),
	};
	struct open_how how = { .flags = O_PATH | O_CLOEXEC };
	int fd = (int)syscall(SYS_openat2, AT_FDCWD, ".", &how, sizeof(how)), r;

	kernel_has_openat2 = fd >= 0;
	if (fd >= 0)
		close(fd);
	r = cmocka_run_group_tests_name("confined, openat2", confined, with_openat2, NULL);
	r |= cmocka_run_group_tests_name("confined, pre-5.6 resolver", confined, with_fallback,
					 NULL);
	r |= cmocka_run_group_tests_name("confined, busy host: openat2 EAGAIN twice", confined,
					 with_eagain_twice, no_eagain);
	r |= cmocka_run_group_tests_name("confined, busy host: openat2 EAGAIN always", confined,
					 with_eagain_always, no_eagain);
	r |= cmocka_run_group_tests_name("refusal detail", other, NULL, NULL);
	return r;
}
