// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sysctls a check asks for must be ones the collector reads: these go from files on disk
 * through the collector to a check's verdict, never adding a key by hand.
 *
 * - irq.gro on an IPv6-only router: LRO on, net.ipv4.ip_forward 0, net.ipv6.conf.all.forwarding
 *   1 (a sosreport, so sysctl -a is where the keys come from). The check must warn.
 * - Keys whose value is the host's (owner HOST in sysctl_registry.h) but whose file every
 *   namespace has on recent kernels (a 0444 mirror): net.core.{r,w}mem_{max,default},
 *   nf_conntrack_max/buckets, tcp_allowed_congestion_control. An older kernel's child
 *   namespace has no file for them: --netns borrows the initial namespace's value, a capture
 *   carries it in host_sysctls, and without --netns the skip says the key is host-wide.
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
#include <cmocka.h>

#include "tree_put.h"

#include "check.h"
#include "check_util.h"
#include "collect.h"
#include "ctx.h"
#include "overlay.h"
#include "sos.h"

#define SOS4 NP_FIXTURES "/sos/sos4.0-debian12-virtio"

/* The host-owned keys a namespace has a file for only on recent kernels, with a host value. */
static const struct {
	enum np_sysctl_id id;
	const char *path;	/* under proc/ */
	const char *value;
} mirrored[] = {
	{ NP_SYSCTL_RMEM_MAX, "sys/net/core/rmem_max", "8388608" },
	{ NP_SYSCTL_WMEM_MAX, "sys/net/core/wmem_max", "4194304" },
	{ NP_SYSCTL_RMEM_DEFAULT, "sys/net/core/rmem_default", "262144" },
	{ NP_SYSCTL_WMEM_DEFAULT, "sys/net/core/wmem_default", "131072" },
	{ NP_SYSCTL_NF_CONNTRACK_MAX, "sys/net/netfilter/nf_conntrack_max", "262144" },
	{ NP_SYSCTL_NF_CONNTRACK_BUCKETS, "sys/net/netfilter/nf_conntrack_buckets", "65536" },
	{ NP_SYSCTL_TCP_ALLOWED_CONGESTION_CONTROL,
	  "sys/net/ipv4/tcp_allowed_congestion_control", "reno cubic bbr" },
};

#define NMIRRORED (sizeof(mirrored) / sizeof(mirrored[0]))

static int tmp_setup(void **state)
{
	*state = tree_new("/tmp/np-sysctl-use-XXXXXX");
	return *state ? 0 : -1;
}

static int tmp_teardown(void **state)
{
	return tree_free(*state);
}

/* Replace the line of file that starts with prefix by line (sed, on a copy of a fixture). */
static void set_line(const char *root, const char *rel, const char *prefix, const char *line)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "sed -i 's|^%s.*$|%s|' '%s/%s' && grep -qx '%s' '%s/%s'",
		 prefix, line, root, rel, line, root, rel);
	assert_int_equal(system(cmd), 0);
}

static bool only(const struct np_check *c, void *arg)
{
	return strcmp(c->id, (const char *)arg) == 0;
}

/* Run one check over s; the report is the caller's to free. */
static void judge(struct np_snapshot *s, const char *id, struct np_report *r)
{
	struct np_options opt = { .interval = 0, .rtt_ms = NAN, .bandwidth_bps = NAN };
	struct np_analysis a = { .cur = s, .opt = &opt };

	memset(r, 0, sizeof(*r));
	np_analysis_derive(&a);
	assert_int_equal(np_analyze(&a, r, only, (void *)id), 0);
}

/* The sysctls of the tree at root, with host's files standing in where it has none (o). */
static void collect_ns(const char *root, struct np_overlay *o, struct np_snapshot *s)
{
	struct np_ctx ctx;

	np_snapshot_init(s);
	snprintf(s->ifname, sizeof(s->ifname), "eth0");
	assert_int_equal(np_ctx_open(&ctx, root), 0);
	ctx.overlay = o;
	np_collect_sysctls(&ctx, s);
	np_ctx_close(&ctx);
}

static void test_lro_on_ipv6_router(void **state)
{
	const char *root = *state;
	char cmd[512];
	struct np_snapshot s;
	struct np_report r;
	struct np_ctx ctx;

	snprintf(cmd, sizeof(cmd), "cp -a '%s/.' '%s/'", SOS4, root);
	assert_int_equal(system(cmd), 0);
	set_line(root, NP_SOS_SYSCTL_A, "net.ipv4.ip_forward =", "net.ipv4.ip_forward = 0");
	set_line(root, NP_SOS_SYSCTL_A, "net.ipv6.conf.all.forwarding =",
		 "net.ipv6.conf.all.forwarding = 1");
	set_line(root, "sos_commands/networking/ethtool_-k_eth0", "large-receive-offload:",
		 "large-receive-offload: on");

	assert_int_equal(np_ctx_open(&ctx, root), 0);
	np_sos_detect(&ctx);
	assert_int_equal(np_collect(&ctx, "eth0", NULL, &s), 0);
	np_ctx_close(&ctx);
	judge(&s, "irq.gro", &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.f[0].severity, NP_SEV_WARNING);
	assert_non_null(strstr(r.f[0].summary, "LRO is on for eth0 and this host forwards IP"));
	np_report_free(&r);
	np_snapshot_free(&s);
}

/* What capture --netns writes and doctor --root reads back carries the host's rmem_max, and
 * socket.rmem-max judges it in a namespace that has no file for it. */
static void test_capture_carries_host_rmem_max(void **state)
{
	static const char host_file[] = "net.core.netdev_max_backlog\t1000\n"
					"net.core.rmem_max\t212992\n";
	const char *root = *state;
	struct np_overlay o = { 0 };
	struct np_snapshot s;
	struct np_report r;
	char *text;
	size_t len;

	assert_int_equal(np_host_sysctls_load(&o, host_file, sizeof(host_file) - 1), 0);
	assert_int_equal(np_host_sysctls_text(&o, &text, &len), 0);
	assert_non_null(strstr(text, "net.core.rmem_max\t212992\n"));
	free(text);

	/* The namespace: its own tcp_rmem, no rmem_max file. */
	tree_put(root, "proc/sys/net/ipv4/tcp_rmem", "4096\t131072\t6291456\n");
	tree_put(root, "proc/sys/net/core/somaxconn", "4096\n");
	collect_ns(root, &o, &s);
	assert_non_null(strstr(np_srcp(&s, NP_SRC_SYSCTL)->detail,
			       "2 host-wide keys read in the initial namespace"));
	judge(&s, "socket.rmem-max", &r);
	assert_int_equal(r.n, 1);
	assert_non_null(strstr(r.f[0].summary, "rmem_max 208 KiB < tcp_rmem[2]"));
	np_report_free(&r);
	np_snapshot_free(&s);
	np_overlay_free(&o);
}

/* --netns on an older kernel: every host-owned key the namespace lacks is the host's, read
 * before entering it, written to a capture's host_sysctls and marked host-wide; without --netns
 * the skip says so instead of blaming the kernel. */
static void test_old_kernel_namespace_borrows_host_owned(void **state)
{
	const char *root = *state;
	char dir[128], rel[192], why[224];
	struct np_sysctls host = { 0 };
	struct np_overlay host_files = { 0 };
	struct np_snapshot s;
	struct np_ctx ctx;
	char *text;
	size_t len;

	/* The host, read as the --netns target does before setns(). */
	tree_put(root, "host/proc/sys/net/core/netdev_max_backlog", "1000\n");
	for (size_t i = 0; i < NMIRRORED; i++) {
		snprintf(rel, sizeof(rel), "host/proc/%s", mirrored[i].path);
		tree_put(root, rel, mirrored[i].value);
	}
	snprintf(dir, sizeof(dir), "%s/host", root);
	assert_int_equal(np_ctx_open(&ctx, dir), 0);
	np_collect_host_sysctls(&ctx, &host);
	np_ctx_close(&ctx);
	assert_int_equal(np_host_sysctls_overlay(&host, &host_files), 0);
	assert_int_equal(np_host_sysctls_text(&host_files, &text, &len), 0);
	for (size_t i = 0; i < NMIRRORED; i++) {
		char line[192];

		snprintf(line, sizeof(line), "%s\t%s\n", np_sysctl_def(mirrored[i].id)->key,
			 mirrored[i].value);
		if (!strstr(text, line))
			fail_msg("host_sysctls lacks %s", line);
	}
	free(text);

	/* The namespace of an older kernel: none of those files, a somaxconn of its own. */
	tree_put(root, "ns/proc/sys/net/core/somaxconn", "128\n");
	snprintf(dir, sizeof(dir), "%s/ns", root);
	collect_ns(dir, &host_files, &s);
	for (size_t i = 0; i < NMIRRORED; i++) {
		const struct np_sysctl *e = np_sysctl_find(&s, mirrored[i].id);

		assert_non_null(e);
		if (e->err || strcmp(e->raw, mirrored[i].value))
			fail_msg("%s: err %d, \"%s\"", np_sysctl_def(mirrored[i].id)->key, e->err,
				 e->raw);
		assert_true(e->host_wide);
	}
	assert_non_null(strstr(np_srcp(&s, NP_SRC_SYSCTL)->detail, "8 host-wide keys"));
	np_snapshot_free(&s);

	/* The same namespace without --netns: the skip names the key host-wide. */
	collect_ns(dir, NULL, &s);
	for (size_t i = 0; i < NMIRRORED; i++)
		assert_non_null(strstr(np_sysctl_absence(&s, mirrored[i].id, why, sizeof(why)),
				       "is host-wide"));
	np_snapshot_free(&s);
	free(host.e);
	np_overlay_free(&host_files);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_lro_on_ipv6_router, tmp_setup, tmp_teardown),
		cmocka_unit_test_setup_teardown(test_capture_carries_host_rmem_max, tmp_setup,
						tmp_teardown),
		cmocka_unit_test_setup_teardown(test_old_kernel_namespace_borrows_host_owned,
						tmp_setup, tmp_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
