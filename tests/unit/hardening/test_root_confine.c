// SPDX-License-Identifier: GPL-2.0-only
/*
 * --root confinement: a hostile tree's symlinks (absolute, "..", a symlinked directory, a
 * symlinked proc/ or sys/ itself) never lead a read outside the tree, and a source refused that
 * way says so instead of "absent"; a FIFO in the tree is not waited on. Each case plants a
 * target outside the tree that a read would find; the reads must fail rather than return it.
 */
#include <errno.h>
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

#include "ctx.h"
#include "snapshot.h"

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

	snprintf(path, sizeof(path), "%s/%s", base, rel);
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

	snprintf(path, sizeof(path), "%s/%s", base, rel);
	assert_int_equal(symlink(target, path), 0);
}

static void file_at(const char *base, const char *rel, const char *text)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", base, rel);
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
	*state = d;
	return 0;
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
}

/* ROOT/proc itself a symlink (to the live /proc, or anywhere): not used. */
static void test_symlinked_tree_root(void **state)
{
	struct dirs *d = *state;
	char tree2[160], path[200];
	struct np_ctx ctx;
	char *buf;
	size_t len;

	snprintf(tree2, sizeof(tree2), "%s/tree2", d->base);
	assert_int_equal(mkdir(tree2, 0755), 0);
	snprintf(path, sizeof(path), "%s/sys", tree2);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/proc", tree2);
	assert_int_equal(symlink("/proc", path), 0);
	assert_int_equal(np_ctx_open(&ctx, tree2), 0);	/* sys/ alone is a tree */
	assert_true(ctx.proc_fd < 0);
	assert_true(np_read_file(&ctx, NP_PROC, "self/status", &buf, &len) < 0);
	np_ctx_close(&ctx);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_symlinks_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_symlinked_tree_root, setup, teardown),
		cmocka_unit_test(test_refusal_detail),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
