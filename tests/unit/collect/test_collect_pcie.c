// SPDX-License-Identifier: GPL-2.0-only
/*
 * The PCIe collector over a temporary --root tree of a PCI function that has a PCI Express
 * capability in its config space but no link files in sysfs: a copied tree (which proves nothing
 * by a missing file) walks the config space and finds MPS; read faithfully (live or a capture)
 * on 4.13+, the missing link files already say "not PCI Express" and the walk is skipped; on an
 * older kernel, whose sysfs never has them, it walks again.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "tree_put.h"

#include "collect.h"
#include "ctx.h"

static int setup(void **state)
{
	char *root = malloc(64), path[160];
	uint8_t cfg[256] = { 0 };
	FILE *f;

	if (!root)
		return -1;
	snprintf(root, 64, "/tmp/np-pcie-XXXXXX");
	if (!mkdtemp(root))
		return -1;
	tree_put(root, "sys/class/net/eth0/device/subsystem_vendor", "0x8086\n");
	cfg[0x06] = 0x10;		/* PCI_STATUS_CAP_LIST */
	cfg[0x34] = 0x40;		/* the first capability */
	cfg[0x40] = 0x10;		/* PCI_CAP_ID_EXP, last in the list */
	cfg[0x44] = 0x02;		/* DEVCAP: MPS supported 512 */
	cfg[0x48] = 0x20;		/* DEVCTL: MPS 256 */
	snprintf(path, sizeof(path), "%s/sys/class/net/eth0/device/config", root);
	f = fopen(path, "w");
	if (!f || fwrite(cfg, 1, sizeof(cfg), f) != sizeof(cfg) || fclose(f) != 0)
		return -1;
	*state = root;
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];
	int r;

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", (char *)*state);
	r = system(cmd);
	free(*state);
	return r == 0 ? 0 : -1;
}

/* The config source's status after collecting eth0's PCIe data, read as the given kernel. */
static int config_status(const char *root, bool faithful, const char *kernel, unsigned *mps)
{
	struct np_snapshot s;
	struct np_ctx ctx;
	int r;

	np_snapshot_init(&s);
	snprintf(s.ifname, sizeof(s.ifname), "eth0");
	snprintf(s.dev.bus_id, sizeof(s.dev.bus_id), "0000:00:03.0");
	snprintf(s.hs->host.kernel, sizeof(s.hs->host.kernel), "%s", kernel);
	assert_int_equal(np_ctx_open(&ctx, root), 0);
	/* Faithful: a capture's replay (the tape is what marks one; this collector never uses it). */
	if (faithful)
		ctx.tape = (struct np_ktape *)&ctx;
	np_collect_pcie(&ctx, &s);
	ctx.tape = NULL;
	np_ctx_close(&ctx);
	r = np_srcp(&s, NP_SRC_PCIE_CONFIG)->status == NP_SRC_OK ? 0 : -1;
	*mps = np_has(s.pcie.mps) ? (unsigned)s.pcie.mps : 0;
	np_snapshot_free(&s);
	return r;
}

static void test_walk_or_not(void **state)
{
	const char *root = *state;
	unsigned mps;

	assert_int_equal(config_status(root, false, "6.1.0", &mps), 0);
	assert_int_equal(mps, 256);
	assert_int_equal(config_status(root, true, "6.1.0", &mps), -1);
	assert_int_equal(mps, 0);
	assert_int_equal(config_status(root, true, "4.9.0", &mps), 0);
	assert_int_equal(mps, 256);
	/* With a link file the function is PCI Express: walked, faithful or not. */
	tree_put(root, "sys/class/net/eth0/device/current_link_speed", "8.0 GT/s PCIe\n");
	assert_int_equal(config_status(root, true, "6.1.0", &mps), 0);
	assert_int_equal(mps, 256);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_walk_or_not, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
