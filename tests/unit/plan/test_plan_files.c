// SPDX-License-Identifier: GPL-2.0-only
/*
 * netpath plan's I/O: --write DIR (refused for / and /etc however spelled, files beneath DIR
 * with the install paths, atomic, a planted symbolic link refused) and what the kernel ships
 * (lib/modules/RELEASE read through the root: built in, module, absent, unknown).
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "collect.h"
#include "kmods.h"
#include "parse.h"
#include "plan_priv.h"
#include "plan_write.h"
#include "render_plan.h"
#include "small_plan.h"

static char tmpdir[64];

static int setup(void **state)
{
	(void)state;
	/* --write refuses directories others may write to: the ones made here must not be. */
	umask(022);
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/np-plan-test.XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static void put(const char *rel, const char *text)
{
	char path[PATH_MAX], cmd[PATH_MAX + 32];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void assert_refused(const char *dir, const char *why)
{
	char err[512] = "";

	assert_int_equal(np_plan_dir_check(dir, err, sizeof(err)), -1);
	if (!strstr(err, why))
		fail_msg("%s: '%s' lacks '%s'", dir, err, why);
}

static void test_write_refuses_system_dirs(void **state)
{
	char link[PATH_MAX], file[PATH_MAX], err[512], dots[PATH_MAX];

	(void)state;
	assert_refused("/", "refusing to write into /");
	assert_refused("/etc", "refusing to write into /etc");
	assert_refused("/etc/sysctl.d", "refusing");
	assert_refused("/etc/no/such/dir", "refusing");
	assert_refused("//etc/", "refusing");
	assert_refused("/tmp/../etc/x", "refusing");
	assert_refused("", "needs a directory");
	/* A symbolic link to /etc is /etc. */
	snprintf(link, sizeof(link), "%s/etclink", tmpdir);
	assert_int_equal(symlink("/etc", link), 0);
	snprintf(dots, sizeof(dots), "%s/etclink/sub", tmpdir);
	assert_refused(dots, "refusing to write into /etc/sub");
	/* ".." in the part that does not exist yet cannot be resolved: refused. */
	snprintf(dots, sizeof(dots), "%s/new/../../../etc", tmpdir);
	assert_refused(dots, "'..'");
	/* A file is not a directory. */
	snprintf(file, sizeof(file), "%s/afile", tmpdir);
	put("afile", "x");
	assert_refused(file, "not a directory");
	/* An ordinary new directory is fine. */
	snprintf(dots, sizeof(dots), "%s/out/plan", tmpdir);
	assert_int_equal(np_plan_dir_check(dots, err, sizeof(err)), 0);
}

static void assert_file(const char *rel, const char *needle, unsigned mode)
{
	char path[PATH_MAX], buf[8192];
	struct stat st;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/out/%s", tmpdir, rel);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 0111 ? 0111 : 0, mode & 0111);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	if (!strstr(buf, needle))
		fail_msg("%s lacks '%s'", rel, needle);
}

static void test_write_files(void **state)
{
	struct np_plan p;
	char dir[PATH_MAX], err[512] = "", *listing = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&listing, &len);

	(void)state;
	small_plan(&p);
	snprintf(dir, sizeof(dir), "%s/out", tmpdir);
	assert_non_null(out);
	if (np_plan_write(&p, dir, out, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	fclose(out);
	assert_file("etc/sysctl.d/90-netpath.conf", "\nnet.ipv4.tcp_mtu_probing = 1\n", 0644);
	assert_file("etc/systemd/network/10-netpath-eth0.link", "\nRxBufferSize=4096\n", 0644);
	assert_file("etc/udev/rules.d/70-netpath-eth0.rules",
		    "KERNEL==\"eth0\", RUN+=\"/usr/sbin/ethtool -G $name rx 4096\"\n", 0644);
	assert_file("etc/modules-load.d/netpath.conf", "\ntcp_bbr\n", 0644);
	assert_file("netpath-apply-now.sh", "\nrun /usr/sbin/ethtool -G eth0 rx 4096\n", 0755);
	assert_file("netpath-apply-now.sh", "\nrun modprobe tcp_bbr\n", 0755);
	assert_file("netpath-apply-now.sh", "\nexit $fail\n", 0755);
	assert_non_null(strstr(listing, "/out/etc/sysctl.d/90-netpath.conf\n"));
	free(listing);
	/* Written again over the first: the same files, atomically replaced. */
	assert_int_equal(np_plan_write(&p, dir, NULL, err, sizeof(err)), 0);
	np_plan_free(&p);
}

/* The apply-now script on a kernel without the module it loads: every later step still runs,
 * the failure is said, and the exit status is 1 (under set -e it stopped at the modprobe, the
 * sysctls and NIC settings undone). Run with stand-in commands that only log. */
static void test_apply_now_goes_on(void **state)
{
	static const char *const stubs[][2] = {
		{ "modprobe", "echo \"modprobe $*\" >> \"$LOG\"; exit 1" },
		{ "sysctl", "echo \"sysctl $*\" >> \"$LOG\"" },
		{ "ethtool", "echo \"ethtool $*\" >> \"$LOG\"" },
		{ "tc", "echo \"tc $*\" >> \"$LOG\"" },
	};
	struct np_plan p;
	char dir[PATH_MAX], err[512] = "", cmd[4 * PATH_MAX], log[4096] = "";
	FILE *f;
	size_t n;
	int rc;

	(void)state;
	small_plan(&p);
	snprintf(dir, sizeof(dir), "%s/out", tmpdir);
	if (np_plan_write(&p, dir, NULL, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	np_plan_free(&p);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/bin", tmpdir);
	assert_int_equal(system(cmd), 0);
	for (size_t i = 0; i < sizeof(stubs) / sizeof(stubs[0]); i++) {
		snprintf(cmd, sizeof(cmd), "%s/bin/%s", tmpdir, stubs[i][0]);
		f = fopen(cmd, "w");
		assert_non_null(f);
		fprintf(f, "#!/bin/sh\n%s\n", stubs[i][1]);
		fclose(f);
		assert_int_equal(chmod(cmd, 0755), 0);
	}
	/* The script names ethtool by its full path (as udev needs): the stand-in takes it. */
	snprintf(cmd, sizeof(cmd), "sed 's|/usr/sbin/||g' %s/netpath-apply-now.sh > %s/now.sh && "
		 "LOG=%s/log PATH=%s/bin /bin/sh %s/now.sh 2> %s/err", dir, tmpdir, tmpdir, tmpdir,
		 tmpdir, tmpdir);
	rc = system(cmd);
	assert_true(WIFEXITED(rc));
	assert_int_equal(WEXITSTATUS(rc), 1);
	snprintf(cmd, sizeof(cmd), "%s/log", tmpdir);
	f = fopen(cmd, "r");
	assert_non_null(f);
	n = fread(log, 1, sizeof(log) - 1, f);
	log[n] = '\0';
	fclose(f);
	assert_non_null(strstr(log, "modprobe tcp_bbr\n"));
	assert_non_null(strstr(log, "sysctl -p /etc/sysctl.d/90-netpath.conf\n"));
	assert_non_null(strstr(log, "ethtool -G eth0 rx 4096\n"));
	snprintf(cmd, sizeof(cmd), "grep -q 'netpath: failed: modprobe tcp_bbr' %s/err", tmpdir);
	assert_int_equal(system(cmd), 0);
}

/* A symbolic link planted beneath DIR (DIR/etc -> /etc) would take the files into the system:
 * refused, nothing written through it. */
static void test_write_refuses_planted_link(void **state)
{
	struct np_plan p;
	char dir[PATH_MAX], link[PATH_MAX], target[PATH_MAX], err[512] = "";
	struct stat st;

	(void)state;
	small_plan(&p);
	snprintf(dir, sizeof(dir), "%s/trap", tmpdir);
	snprintf(target, sizeof(target), "%s/elsewhere", tmpdir);
	assert_int_equal(mkdir(dir, 0755), 0);
	assert_int_equal(mkdir(target, 0755), 0);
	snprintf(link, sizeof(link), "%s/trap/etc", tmpdir);
	assert_int_equal(symlink(target, link), 0);
	assert_int_equal(np_plan_write(&p, dir, NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "symbolic link"));
	snprintf(target, sizeof(target), "%s/elsewhere/sysctl.d", tmpdir);
	assert_int_equal(stat(target, &st), -1);
	np_plan_free(&p);
}

/* What `ls -A` of tmpdir/rel would say, with each regular file's content: a snapshot. */
static void snap(const char *rel, char *buf, size_t size)
{
	char cmd[PATH_MAX + 160];
	FILE *f;
	size_t n;

	snprintf(cmd, sizeof(cmd), "cd '%s/%s' && find . -printf '%%p %%y %%m\\n' "
		 "-type f -exec cat {} + 2>&1", tmpdir, rel);
	f = popen(cmd, "r");
	assert_non_null(f);
	n = fread(buf, 1, size - 1, f);
	buf[n] = '\0';
	pclose(f);
}

/* DIR named through a symbolic link, however spelled: refused, the link's target untouched
 * (the old check was an lstat() of "link/", which follows the link). */
static void test_write_refuses_link_dir(void **state)
{
	static const char *const tails[] = { "", "/", "/.", "//./", "/./." };
	char other[PATH_MAX / 2], link[PATH_MAX / 2], dir[PATH_MAX], before[4096], after[4096];
	char err[512];
	struct np_plan p;

	(void)state;
	small_plan(&p);
	put("other/netpath-apply-now.sh", "the admin's own\n");
	snprintf(other, sizeof(other), "%s/other", tmpdir);
	snprintf(link, sizeof(link), "%s/link", tmpdir);
	assert_int_equal(symlink(other, link), 0);
	snap("other", before, sizeof(before));
	for (size_t i = 0; i < sizeof(tails) / sizeof(tails[0]); i++) {
		snprintf(dir, sizeof(dir), "%s%s", link, tails[i]);
		err[0] = '\0';
		assert_int_equal(np_plan_dir_check(dir, err, sizeof(err)), -1);
		if (!strstr(err, "symbolic link"))
			fail_msg("check of %s: '%s'", dir, err);
		err[0] = '\0';
		assert_int_equal(np_plan_write(&p, dir, NULL, err, sizeof(err)), -1);
		if (!strstr(err, "symbolic link"))
			fail_msg("write to %s: '%s'", dir, err);
		snap("other", after, sizeof(after));
		assert_string_equal(before, after);
	}
	/* The real directory, spelled with a trailing "/." too, is fine. */
	snprintf(dir, sizeof(dir), "%s/.", other);
	if (np_plan_write(&p, dir, NULL, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	np_plan_free(&p);
}

/* A DIR others may write to, or a directory beneath it the plan writes into: refused, and
 * nothing written in it. */
static void test_write_refuses_loose_dirs(void **state)
{
	static const unsigned modes[] = { 0775, 0757, 01777 };
	char dir[PATH_MAX], err[512], listing[4096];
	struct np_plan p;

	(void)state;
	small_plan(&p);
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		snprintf(dir, sizeof(dir), "%s/loose%zu", tmpdir, i);
		assert_int_equal(mkdir(dir, 0755), 0);
		assert_int_equal(chmod(dir, modes[i]), 0);
		err[0] = '\0';
		assert_int_equal(np_plan_write(&p, dir, NULL, err, sizeof(err)), -1);
		if (!strstr(err, "writable by"))
			fail_msg("mode %o: '%s'", modes[i], err);
		snprintf(dir, sizeof(dir), "loose%zu", i);
		snap(dir, listing, sizeof(listing));
		/* Only "." itself. */
		assert_ptr_equal(strchr(listing, '\n'), listing + strlen(listing) - 1);
	}
	snprintf(dir, sizeof(dir), "%s/subloose/etc", tmpdir);
	put("subloose/keep", "");
	assert_int_equal(mkdir(dir, 0755), 0);
	assert_int_equal(chmod(dir, 0777), 0);
	snprintf(dir, sizeof(dir), "%s/subloose", tmpdir);
	assert_int_equal(np_plan_write(&p, dir, NULL, err, sizeof(err)), -1);
	if (!strstr(err, "subloose/etc: writable by others"))
		fail_msg("'%s'", err);
	snap("subloose", listing, sizeof(listing));
	assert_null(strstr(listing, "netpath"));
	np_plan_free(&p);
}

/* A plan that cannot be written whole leaves DIR as it was: an earlier plan's files (edited
 * since) untouched, no temporary file, no directory of the failed run. */
static void test_write_all_or_nothing(void **state)
{
	char dir[PATH_MAX], err[512], before[8192], after[8192];
	struct np_plan p;

	(void)state;
	small_plan(&p);
	snprintf(dir, sizeof(dir), "%s/out", tmpdir);
	if (np_plan_write(&p, dir, NULL, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	put("out/etc/sysctl.d/90-netpath.conf", "edited\n");
	put("out/etc/modules-load.d/netpath.conf", "edited\n");
	/* The last file the plan writes is a directory now: its rename would fail. */
	snprintf(dir, sizeof(dir), "%s/out/netpath-apply-now.sh", tmpdir);
	assert_int_equal(unlink(dir), 0);
	assert_int_equal(mkdir(dir, 0755), 0);
	snap("out", before, sizeof(before));
	snprintf(dir, sizeof(dir), "%s/out", tmpdir);
	assert_int_equal(np_plan_write(&p, dir, NULL, err, sizeof(err)), -1);
	if (!strstr(err, "netpath-apply-now.sh is a directory"))
		fail_msg("'%s'", err);
	snap("out", after, sizeof(after));
	assert_string_equal(before, after);
	/* The same in a DIR that does not exist yet but for what is in the way. */
	put("fresh/etc/udev", "a file where a directory goes\n");
	snap("fresh", before, sizeof(before));
	snprintf(dir, sizeof(dir), "%s/fresh", tmpdir);
	assert_int_equal(np_plan_write(&p, dir, NULL, err, sizeof(err)), -1);
	if (!strstr(err, "fresh/etc/udev not a directory"))
		fail_msg("'%s'", err);
	snap("fresh", after, sizeof(after));
	assert_string_equal(before, after);
	np_plan_free(&p);
}

static void test_kmod_listed(void **state)
{
	static const char builtin[] = "kernel/net/ipv4/tcp_cubic.ko\nkernel/net/ipv4/tcp_bbr.ko\n";
	static const char dep[] = "kernel/net/sched/sch_fq.ko.zst:\n"
				  "kernel/net/ipv4/tcp_bbr2.ko: kernel/x.ko\n";
	static const char nul[] = "a\0b\nkernel/net/ipv4/tcp_bbr.ko.xz";

	(void)state;
	assert_int_equal(np_parse_kmod_listed(builtin, strlen(builtin),
					      "kernel/net/ipv4/tcp_bbr"), 1);
	assert_int_equal(np_parse_kmod_listed(builtin, strlen(builtin),
					      "kernel/net/sched/sch_fq"), 0);
	assert_int_equal(np_parse_kmod_listed(dep, strlen(dep), "kernel/net/sched/sch_fq"), 1);
	/* tcp_bbr2.ko is not tcp_bbr, and a dependency is not a listed module. */
	assert_int_equal(np_parse_kmod_listed(dep, strlen(dep), "kernel/net/ipv4/tcp_bbr"), 0);
	assert_int_equal(np_parse_kmod_listed(dep, strlen(dep), "kernel/x"), 0);
	assert_int_equal(np_parse_kmod_listed("", 0, "kernel/net/ipv4/tcp_bbr"), 0);
	assert_int_equal(np_parse_kmod_listed(dep, strlen(dep), ""), -EINVAL);
	/* Without a final newline, and with a NUL inside. */
	assert_int_equal(np_parse_kmod_listed(nul, sizeof(nul) - 1, "kernel/net/ipv4/tcp_bbr"), 1);
}

static void collect_kmods(const char *release, struct np_kmods *km)
{
	struct np_ctx ctx;

	assert_int_equal(np_ctx_open(&ctx, tmpdir), 0);
	np_collect_kmods(&ctx, release, km);
	np_ctx_close(&ctx);
}

static void test_collect_kmods(void **state)
{
	struct np_kmods km;

	(void)state;
	put("proc/version", "Linux\n");
	/* No lib/modules in the tree (most captures): unknown, and why. */
	collect_kmods("6.1.0-18-arm64", &km);
	assert_int_equal(km.tcp_bbr, NP_KMOD_UNKNOWN);
	assert_non_null(strstr(km.from, "no /lib/modules/6.1.0-18-arm64 in this tree"));
	/* depmod's two lists: built in, a module, absent. */
	put("lib/modules/6.1.0-18-arm64/modules.builtin", "kernel/net/ipv4/tcp_bbr.ko\n");
	put("lib/modules/6.1.0-18-arm64/modules.dep", "kernel/net/sched/sch_fq.ko.xz:\n");
	collect_kmods("6.1.0-18-arm64", &km);
	assert_int_equal(km.tcp_bbr, NP_KMOD_BUILTIN);
	assert_int_equal(km.sch_fq, NP_KMOD_MODULE);
	put("lib/modules/6.1.0-18-arm64/modules.builtin", "kernel/net/ipv4/tcp_cubic.ko\n");
	collect_kmods("6.1.0-18-arm64", &km);
	assert_int_equal(km.tcp_bbr, NP_KMOD_ABSENT);
	/* Without depmod's lists, the module file itself. */
	put("lib/modules/6.8.0/kernel/net/ipv4/tcp_bbr.ko.zst", "");
	collect_kmods("6.8.0", &km);
	assert_int_equal(km.tcp_bbr, NP_KMOD_MODULE);
	assert_int_equal(km.sch_fq, NP_KMOD_UNKNOWN);
	/* A release that is not one never becomes a path. */
	collect_kmods("../../etc", &km);
	assert_int_equal(km.tcp_bbr, NP_KMOD_UNKNOWN);
	assert_string_equal(km.release, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_refuses_system_dirs),
		cmocka_unit_test(test_write_files),
		cmocka_unit_test(test_apply_now_goes_on),
		cmocka_unit_test(test_write_refuses_planted_link),
		cmocka_unit_test(test_write_refuses_link_dir),
		cmocka_unit_test(test_write_refuses_loose_dirs),
		cmocka_unit_test(test_write_all_or_nothing),
		cmocka_unit_test(test_kmod_listed),
		cmocka_unit_test(test_collect_kmods),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
