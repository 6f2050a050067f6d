/* SPDX-License-Identifier: GPL-2.0-only */
/* The --root confinement tests' fixture: a hostile tree with targets planted outside it, the
 * check that the resolver a group meant to test answered, and the runner of the confined
 * tests under each resolver (openat2(), pre-5.6, busy host). Include after cmocka.h. */
#ifndef NP_TEST_ROOT_CONFINE_FIXTURE_H
#define NP_TEST_ROOT_CONFINE_FIXTURE_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
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

static inline void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static inline void mkdirs(const char *base, const char *rel)
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

static inline void link_at(const char *target, const char *base, const char *rel)
{
	char path[512];

	assert_true(snprintf(path, sizeof(path), "%s/%s", base, rel) < (int)sizeof(path));
	assert_int_equal(symlink(target, path), 0);
}

static inline void file_at(const char *base, const char *rel, const char *text)
{
	char path[512];

	assert_true(snprintf(path, sizeof(path), "%s/%s", base, rel) < (int)sizeof(path));
	put(path, text);
}

/* tree/proc/net with snmp -> OUT/snmp (absolute), netstat -> ../../../out/netstat, stat -> OUT
 * (a symlinked directory), sockstat a real file; tree/sys/class/net/eth0 -> OUT/eth0 (whose
 * "device" link names a virtio device), eth1 in the tree with an in-tree device link. */
static inline int setup(void **state)
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
static inline void assert_resolver_used(void)
{
	if (kernel_has_openat2 && np_ctx_seam.openat2_eagain && !np_ctx_seam.no_openat2)
		assert_true(np_ctx_seam.openat2_eagains > 0);
	if (np_ctx_seam.no_openat2 || np_ctx_seam.openat2_eagain == UINT_MAX) {
		assert_int_equal(np_ctx_seam.openat2_opens, 0);
		assert_true(np_ctx_seam.beneath_opens > 0);
	} else if (kernel_has_openat2) {
		/* Without the seam an open goes to the resolver only after every try of it met a
		 * real EAGAIN (a rename elsewhere on a busy host during a walk through ".."): each
		 * such open must be paid for by that many EAGAINs counted. */
		if (!np_ctx_seam.openat2_eagain)
			assert_true(np_ctx_seam.beneath_opens * NP_CTX_OPENAT2_TRIES <=
				    np_ctx_seam.openat2_eagains);
		assert_true(np_ctx_seam.openat2_opens > 0);
	}
}

static inline void assert_reads(const struct np_ctx *ctx, enum np_tree t, const char *path,
				const char *want)
{
	char *buf;
	size_t len;

	assert_int_equal(np_read_file(ctx, t, path, &buf, &len), 0);
	assert_string_equal(buf, want);
	free(buf);
}

static inline int teardown(void **state)
{
	struct dirs *d = *state;
	char cmd[160];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", d->base);
	assert_int_equal(system(cmd), 0);
	free(d);
	return 0;
}

static inline int with_openat2(void **state)
{
	(void)state;
	np_ctx_seam.no_openat2 = false;
	return 0;
}

static inline int with_fallback(void **state)
{
	(void)state;
	np_ctx_seam.no_openat2 = true;
	return 0;
}

/* A busy host (renames or mounts elsewhere during each lookup through ".."): openat2() says
 * EAGAIN twice per open, which retrying absorbs, or every time, which the resolver by hand
 * answers. Either way the same reads succeed and the same escapes are refused. */
static inline int with_eagain_twice(void **state)
{
	(void)state;
	np_ctx_seam.no_openat2 = false;
	np_ctx_seam.openat2_eagain = 2;
	return 0;
}

static inline int with_eagain_always(void **state)
{
	(void)state;
	np_ctx_seam.no_openat2 = false;
	np_ctx_seam.openat2_eagain = UINT_MAX;
	return 0;
}

static inline int no_eagain(void **state)
{
	(void)state;
	np_ctx_seam.openat2_eagain = 0;
	return 0;
}

/* Runs the confined tests under each resolver: openat2(), the pre-5.6 resolver, and openat2()
 * on a busy host. */
static inline int run_confined(const struct CMUnitTest *confined, size_t n)
{
	struct open_how how = { .flags = O_PATH | O_CLOEXEC };
	int fd = (int)syscall(SYS_openat2, AT_FDCWD, ".", &how, sizeof(how)), r;

	kernel_has_openat2 = fd >= 0;
	if (fd >= 0)
		close(fd);
	r = _cmocka_run_group_tests("confined, openat2", confined, n, with_openat2, NULL);
	r |= _cmocka_run_group_tests("confined, pre-5.6 resolver", confined, n, with_fallback,
				     NULL);
	r |= _cmocka_run_group_tests("confined, busy host: openat2 EAGAIN twice", confined, n,
				     with_eagain_twice, no_eagain);
	r |= _cmocka_run_group_tests("confined, busy host: openat2 EAGAIN always", confined, n,
				     with_eagain_always, no_eagain);
	return r;
}

#endif
