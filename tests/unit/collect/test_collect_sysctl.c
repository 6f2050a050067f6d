// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sysctl collector on a --root tree built in a temporary directory: net keys and
 * vm.min_free_kbytes (sys/vm, outside net), missing keys recorded as ENOENT, and the concrete
 * nic.alloc-failures remedy that vm.min_free_kbytes makes possible.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "tree_put.h"

#include "check.h"
#include "collect.h"
#include "overlay.h"
#include "ctx.h"
#include "parse_util.h"

struct tree {
	char root[256];
};

static void put(const struct tree *t, const char *rel, const char *text)
{
	tree_put(t->root, rel, text);
}

static int tree_setup(void **state)
{
	struct tree *t = calloc(1, sizeof(*t));

	if (!t)
		return -1;
	snprintf(t->root, sizeof(t->root), "/tmp/np-sysctl-XXXXXX");
	if (!mkdtemp(t->root)) {
		free(t);
		return -1;
	}
	*state = t;
	return 0;
}

static int tree_teardown(void **state)
{
	struct tree *t = *state;
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->root);
	if (system(cmd) != 0)
		return -1;
	free(t);
	return 0;
}

static void collect(const struct tree *t, struct np_snapshot *s)
{
	struct np_ctx ctx;

	np_snapshot_init(s);
	snprintf(s->ifname, sizeof(s->ifname), "eth0");
	assert_int_equal(np_ctx_open(&ctx, t->root), 0);
	np_collect_sysctls(&ctx, s);
	np_ctx_close(&ctx);
}

static bool only_alloc(const struct np_check *c, void *arg)
{
	(void)arg;
	return strcmp(c->id, "nic.alloc-failures") == 0;
}

static void test_min_free_kbytes(void **state)
{
	const struct tree *t = *state;
	struct np_snapshot s;
	struct np_options opt = { .interval = 0, .rtt_ms = NAN, .bandwidth_bps = NAN };
	struct np_analysis a = { .cur = &s, .opt = &opt };
	struct np_report r = { 0 };
	const struct np_sysctl *e;
	bool ok;

	put(t, "proc/sys/net/core/netdev_budget", "300\n");
	put(t, "proc/sys/vm/min_free_kbytes", "67584\n");
	collect(t, &s);
	assert_true(np_src_ok(&s, NP_SRC_SYSCTL));
	assert_int_equal(np_sysctl_int(&s, NP_SYSCTL_MIN_FREE_KBYTES, 0, &ok), 67584);
	assert_true(ok);
	assert_int_equal(np_sysctl_int(&s, NP_SYSCTL_NETDEV_BUDGET, 0, &ok), 300);
	/* Not in this tree: recorded as absent, never 0. */
	e = np_sysctl_find(&s, NP_SYSCTL_NETDEV_BUDGET_USECS);
	assert_non_null(e);
	assert_int_equal(e->err, ENOENT);

	/* The check that needs it now names the value to set. */
	np_srcp(&s, NP_SRC_DRIVER_STATS)->status = NP_SRC_OK;
	snprintf(s.eth.driver, sizeof(s.eth.driver), "mlx5_core");
	assert_int_equal(np_counters_set(&s.eth.drv_stats, "rx_buff_alloc_err", 12), 0);
	np_analysis_derive(&a);
	assert_int_equal(np_analyze(&a, &r, only_alloc, NULL), 0);
	assert_int_equal(r.n, 1);
	assert_non_null(strstr(r.f[0].remedy, "sysctl -w vm.min_free_kbytes=135168"));
	np_report_free(&r);
	np_snapshot_free(&s);
}

static void test_min_free_kbytes_missing(void **state)
{
	const struct tree *t = *state;
	struct np_snapshot s;
	const struct np_sysctl *e;
	char path[300];

	snprintf(path, sizeof(path), "%s/proc/sys/vm/min_free_kbytes", t->root);
	unlink(path);
	put(t, "proc/sys/net/core/netdev_budget", "300\n");
	collect(t, &s);
	e = np_sysctl_find(&s, NP_SYSCTL_MIN_FREE_KBYTES);
	assert_non_null(e);
	assert_int_equal(e->err, ENOENT);
	np_snapshot_free(&s);
}

/* --netns: a host-wide key the namespace lacks comes from the host's set; a per-namespace key
 * that is missing stays missing, and a key the namespace has keeps its own value. */
static void test_host_wide_fallback(void **state)
{
	const struct tree *t = *state;
	char root[300];
	struct np_sysctls host = { 0 };
	struct np_overlay host_files = { 0 };
	struct np_snapshot s;
	struct np_ctx ctx;
	const struct np_sysctl *e;
	bool ok;

	/* The "host": its own tree, read as the loader does before setns(). */
	snprintf(root, sizeof(root), "%s/host", t->root);
	put(t, "host/proc/sys/net/core/netdev_max_backlog", "4096\n");
	put(t, "host/proc/sys/net/ipv4/tcp_mem", "1000 2000 3000\n");
	put(t, "host/proc/sys/net/core/somaxconn", "999\n");
	put(t, "host/proc/sys/net/core/netdev_budget", "600\n");
	assert_int_equal(np_ctx_open(&ctx, root), 0);
	np_collect_host_sysctls(&ctx, &host);
	np_ctx_close(&ctx);
	/* Only host-wide keys are taken: somaxconn is per namespace. */
	for (size_t i = 0; i < host.n; i++)
		assert_string_not_equal(host.e[i].key, "net.core.somaxconn");

	/* The "namespace": somaxconn and netdev_budget of its own, no netdev_max_backlog. */
	put(t, "ns/proc/sys/net/core/somaxconn", "128\n");
	put(t, "ns/proc/sys/net/core/netdev_budget", "300\n");
	snprintf(root, sizeof(root), "%s/ns", t->root);
	np_snapshot_init(&s);
	assert_int_equal(np_ctx_open(&ctx, root), 0);
	assert_int_equal(np_host_sysctls_overlay(&host, &host_files), 0);
	ctx.overlay = &host_files;
	np_collect_sysctls(&ctx, &s);
	np_ctx_close(&ctx);
	assert_int_equal(np_sysctl_int(&s, NP_SYSCTL_NETDEV_MAX_BACKLOG, 0, &ok), 4096);
	assert_true(ok);
	/* Borrowed values stay marked host-wide; per-namespace keys are not. */
	assert_true(np_sysctl_find(&s, NP_SYSCTL_NETDEV_MAX_BACKLOG)->host_wide);
	assert_false(np_sysctl_find(&s, NP_SYSCTL_SOMAXCONN)->host_wide);
	assert_int_equal(np_sysctl_int(&s, NP_SYSCTL_TCP_MEM, 2, &ok), 3000);
	assert_true(ok);
	assert_int_equal(np_sysctl_int(&s, NP_SYSCTL_NETDEV_BUDGET, 0, &ok), 300);
	assert_int_equal(np_sysctl_int(&s, NP_SYSCTL_SOMAXCONN, 0, &ok), 128);
	e = np_sysctl_find(&s, NP_SYSCTL_UDP_MEM);	/* on neither side */
	assert_non_null(e);
	assert_int_equal(e->err, ENOENT);
	assert_non_null(strstr(np_srcp(&s, NP_SRC_SYSCTL)->detail, "2 host-wide keys"));
	np_snapshot_free(&s);
	free(host.e);
	np_overlay_free(&host_files);
}

/* A --netns capture's host_sysctls file: only host-wide keys with a value are kept (the first
 * line of a key counts), written back in the collector's order; its files answer only where the
 * tree has none, and only those answers count as read in the initial namespace. */
static void test_capture_host_file(void **state)
{
	static const char file[] =
		"net.ipv4.tcp_mem\t1 2   3\r\n"
		"net.core.somaxconn\t5\n"		/* per namespace: not the host's to lend */
		"no tab here\n"
		"\t7\n"
		"net.core.netdev_max_backlog\t4096\n"
		"net.core.netdev_max_backlog\t99\n";
	const struct tree *t = *state;
	struct np_overlay o = { 0 };
	struct np_snapshot s;
	struct np_ctx ctx;
	char *text, buf[32];
	size_t len;
	bool ok, overlaid;

	assert_int_equal(np_host_sysctls_load(&o, file, sizeof(file) - 1), 0);
	assert_int_equal(o.n, 2);
	assert_int_equal(np_host_sysctls_text(&o, &text, &len), 0);
	assert_string_equal(text, "net.core.netdev_max_backlog\t4096\nnet.ipv4.tcp_mem\t1 2 3\n");
	assert_int_equal(len, strlen(text));
	free(text);

	put(t, "proc/sys/net/ipv4/tcp_mem", "10 20 30\n");
	put(t, "proc/sys/net/core/somaxconn", "128\n");
	np_snapshot_init(&s);
	assert_int_equal(np_ctx_open(&ctx, t->root), 0);
	ctx.overlay = &o;
	assert_int_equal(np_read_str_overlaid(&ctx, NP_PROC, "sys/net/core/netdev_max_backlog",
					      buf, sizeof(buf), &overlaid), 4);
	assert_true(overlaid);
	assert_string_equal(buf, "4096");
	assert_int_equal(np_read_str_overlaid(&ctx, NP_PROC, "sys/net/ipv4/tcp_mem", buf,
					      sizeof(buf), &overlaid), 8);
	assert_false(overlaid);
	assert_int_equal(np_read_file(&ctx, NP_PROC, "sys/net/core/netdev_max_backlog", &text,
				      &len), 0);
	assert_string_equal(text, "4096");
	free(text);
	/* The tree only, for the calls that answer with the tree's own files. */
	assert_false(np_exists(&ctx, NP_PROC, "sys/net/core/netdev_max_backlog"));
	np_collect_sysctls(&ctx, &s);
	np_ctx_close(&ctx);
	assert_int_equal(np_sysctl_int(&s, NP_SYSCTL_NETDEV_MAX_BACKLOG, 0, &ok), 4096);
	assert_true(ok);
	assert_int_equal(np_sysctl_int(&s, NP_SYSCTL_TCP_MEM, 2, &ok), 30);
	assert_int_equal(np_sysctl_int(&s, NP_SYSCTL_SOMAXCONN, 0, &ok), 128);
	assert_non_null(strstr(np_srcp(&s, NP_SRC_SYSCTL)->detail, "1 host-wide keys"));
	np_snapshot_free(&s);
	np_overlay_free(&o);
}

/* The word-at-a-time path builder equals the byte loop it replaced, for every key length
 * around the 8-byte steps, every buffer size that cuts it (and sizes too small for "sys/"),
 * dots anywhere, and bytes next to '.' in value (',' '-' '/' 0xae 0xee) that must stay. */
static void naive_path(const char *key, char *path, size_t size)
{
	size_t n;

	if (size < sizeof("sys/")) {	/* snprintf(path, size, "sys/") */
		for (size_t i = 0; i + 1 < size; i++)
			path[i] = "sys/"[i];
		if (size)
			path[size - 1] = '\0';
		return;
	}
	n = strnlen(key, size - sizeof("sys/"));
	memcpy(path, "sys/", 4);
	memcpy(path + 4, key, n);
	path[4 + n] = '\0';
	for (char *c = path + 4; *c; c++)
		if (*c == '.')
			*c = '/';
}

static void test_key_path(void **state)
{
	static const char alphabet[] = ".a.,-/\xae\xee.z0.";
	char key[64], want[80], got[80];

	(void)state;
	for (unsigned seed = 0; seed < 40; seed++) {
		for (size_t len = 0; len < 40; len++) {
			for (size_t i = 0; i < len; i++)
				key[i] = alphabet[(i * 7 + seed * 3 + i * i * seed) %
						  (sizeof(alphabet) - 1)];
			key[len] = '\0';
			for (size_t size = 0; size <= 50; size++) {
				memset(want, 0x5a, sizeof(want));
				memset(got, 0x5a, sizeof(got));
				naive_path(key, want, size);
				np_sysctl_key_path(key, len, got, size);
				assert_memory_equal(got, want, sizeof(want));
			}
		}
	}
	np_sysctl_key_path("net.core.netdev_max_backlog", 27, got, 128);
	assert_string_equal(got, "sys/net/core/netdev_max_backlog");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_min_free_kbytes, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_min_free_kbytes_missing, tree_setup,
						tree_teardown),
		cmocka_unit_test_setup_teardown(test_host_wide_fallback, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_capture_host_file, tree_setup, tree_teardown),
		cmocka_unit_test(test_key_path),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
