// SPDX-License-Identifier: GPL-2.0-only
/*
 * Whether irqbalance runs, over temporary --root trees: systemd's cgroup answers alone; then its
 * socket in /run/irqbalance or its pid file (with the PID alive); a systemd host with none of
 * them has none running; any other tree cannot tell, and no process is ever scanned (planted
 * irqbalance processes that a scan would find prove it).
 */
#include <errno.h>
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

#include "collect.h"
#include "ctx.h"

static int setup(void **state)
{
	char *root = tree_new("/tmp/np-host-XXXXXX");

	if (!root)
		return -1;
	tree_put(root, "sys/devices/system/cpu/online", "0-1\n");
	*state = root;
	return 0;
}

static int teardown(void **state)
{
	return tree_free(*state);
}

static char how[128];		/* the processes source's detail of the last irqbalance_of() */

static int irqbalance_of(const char *root)
{
	struct np_snapshot s;
	struct np_ctx ctx;
	int r;

	np_snapshot_init(&s);
	assert_int_equal(np_ctx_open(&ctx, root), 0);
	np_collect_host(&ctx, &s);
	np_ctx_close(&ctx);
	r = s.hs->host.irqbalance;
	snprintf(how, sizeof(how), "%s", np_srcp(&s, NP_SRC_PROCESSES)->detail);
	np_snapshot_free(&s);
	return r;
}

/* No process directories at all: only the cgroup can answer, and it does. */
static void test_cgroup_v2(void **state)
{
	const char *root = *state;

	tree_put(root, "proc/sys/kernel/osrelease", "6.1.0\n");
	assert_int_equal(irqbalance_of(root), -1);
	tree_put(root, "sys/fs/cgroup/system.slice/irqbalance.service/cgroup.procs", "731\n");
	assert_int_equal(irqbalance_of(root), 1);
}

/* A v1/hybrid host: the systemd named hierarchy. */
static void test_cgroup_v1(void **state)
{
	const char *root = *state;

	tree_put(root, "proc/sys/kernel/osrelease", "4.19.0\n");
	tree_put(root, "sys/fs/cgroup/systemd/system.slice/irqbalance.service/cgroup.procs", "88\n");
	assert_int_equal(irqbalance_of(root), 1);
}

/* The unit exists but is stopped (empty cgroup.procs), no systemd host marker, a hand-started
 * irqbalance among the processes: "unknown", never a scan of every process. */
static void test_stopped_unit_no_scan(void **state)
{
	const char *root = *state;

	tree_put(root, "sys/fs/cgroup/system.slice/irqbalance.service/cgroup.procs", "");
	tree_put(root, "proc/1/comm", "systemd\n");
	tree_put(root, "proc/412/comm", "sshd\n");
	tree_put(root, "proc/977/comm", "irqbalance\n");	/* started by hand */
	assert_int_equal(irqbalance_of(root), -1);
	assert_non_null(strstr(how, "not scanned"));
}

/* sysvinit and upstart start it with --pid=/var/run/irqbalance.pid: a live irqbalance behind
 * the pid file answers; a stale one (the PID reused) does not, and without systemd nothing
 * else can. */
static void test_pidfile(void **state)
{
	const char *root = *state;

	tree_put(root, "run/irqbalance.pid", "1864\n");
	tree_put(root, "proc/1864/comm", "irqbalance\n");
	assert_int_equal(irqbalance_of(root), 1);
	assert_non_null(strstr(how, "pid file"));
	tree_put(root, "proc/1864/comm", "bash\n");
	tree_put(root, "proc/977/comm", "irqbalance\n");
	assert_int_equal(irqbalance_of(root), -1);
	tree_put(root, "run/systemd/system/.keep", "");
	assert_int_equal(irqbalance_of(root), 0);
}

/* irqbalance 1.5+: its socket names its PID, which must still be irqbalance (a killed daemon
 * leaves the socket). A decoy process proves the answer did not come from a scan. */
static void test_socket(void **state)
{
	const char *root = *state;

	tree_put(root, "run/irqbalance/irqbalance731.sock", "");
	tree_put(root, "proc/731/comm", "irqbalance\n");
	assert_int_equal(irqbalance_of(root), 1);
	assert_non_null(strstr(how, "socket"));
	tree_put(root, "proc/731/comm", "bash\n");	/* the PID was reused */
	tree_put(root, "proc/977/comm", "irqbalance\n");
	assert_int_equal(irqbalance_of(root), 0);
	assert_non_null(strstr(how, "socket"));
}

/* A systemd host (/run/systemd/system) without the unit's cgroup or a socket: not running, in
 * a few reads whatever the number of processes (the planted one would be found by a scan: a
 * hand-started irqbalance without /run/irqbalance is the documented miss). */
static void test_systemd_host_no_scan(void **state)
{
	const char *root = *state;

	tree_put(root, "run/systemd/system/.keep", "");
	tree_put(root, "proc/977/comm", "irqbalance\n");
	assert_int_equal(irqbalance_of(root), 0);
	assert_non_null(strstr(how, "systemd host"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_cgroup_v2, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cgroup_v1, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stopped_unit_no_scan, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pidfile, setup, teardown),
		cmocka_unit_test_setup_teardown(test_socket, setup, teardown),
		cmocka_unit_test_setup_teardown(test_systemd_host_no_scan, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
