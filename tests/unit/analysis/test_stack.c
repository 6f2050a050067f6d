// SPDX-License-Identifier: GPL-2.0-only
/*
 * doctor over a device stack, from sysfs trees shaped as the kernel lays them out (a bond's
 * bonding/ directory and lower_* links, the members' device/ links and msi_irqs): a VLAN on a
 * bond of two NICs is judged on the NICs for link, pcie, nic and irq, once for the namespace
 * otherwise, and every finding names its device. Bonding is a module this test machine lacks,
 * so the tree stands in for the kernel here; the integration test builds what the kernel has.
 */
#include "golden.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "doctor_stack.h"
#include "../collect/tree_put.h"

static char *root_dir;

static void put(const char *rel, const char *text)
{
	tree_put(root_dir, rel, text);
}

static void link_to(const char *rel, const char *target)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root_dir, rel);
	assert_int_equal(symlink(target, path), 0);
}

/* A physical NIC: device link, driver, MSI vectors, speed, state. */
static void nic(const char *name, const char *bdf, const char *speed, const char *state,
		unsigned first_irq, const char *rx_packets)
{
	char rel[256], buf[64];

	snprintf(rel, sizeof(rel), "sys/devices/pci0000:00/%s/vendor", bdf);
	put(rel, "0x8086\n");
	for (unsigned q = 0; q < 4; q++) {
		snprintf(rel, sizeof(rel), "sys/devices/pci0000:00/%s/msi_irqs/%u", bdf,
			 first_irq + q);
		put(rel, "msix\n");
	}
	snprintf(rel, sizeof(rel), "sys/class/net/%s/speed", name);
	put(rel, speed);
	snprintf(rel, sizeof(rel), "sys/class/net/%s/operstate", name);
	put(rel, state);
	snprintf(rel, sizeof(rel), "sys/class/net/%s/carrier", name);
	put(rel, strcmp(state, "up\n") ? "0\n" : "1\n");
	snprintf(rel, sizeof(rel), "sys/class/net/%s/flags", name);
	put(rel, "0x1803\n");
	snprintf(rel, sizeof(rel), "sys/class/net/%s/mtu", name);
	put(rel, "1500\n");
	snprintf(rel, sizeof(rel), "sys/class/net/%s/statistics/rx_packets", name);
	put(rel, rx_packets);
	snprintf(rel, sizeof(rel), "sys/class/net/%s/device", name);
	snprintf(buf, sizeof(buf), "../../../devices/pci0000:00/%s", bdf);
	link_to(rel, buf);
	snprintf(rel, sizeof(rel), "sys/class/net/%s/master", name);
	link_to(rel, "../bond0");
}

static int setup(void **state)
{
	(void)state;
	root_dir = malloc(64);
	snprintf(root_dir, 64, "/tmp/np-stack-XXXXXX");
	if (!mkdtemp(root_dir))
		return -1;
	put("proc/interrupts",
	    "           CPU0       CPU1       CPU2       CPU3\n"
	    " 40:     900000          0          0          0   PCI-MSI 1-edge      eno1-TxRx-0\n"
	    " 41:     900000          0          0          0   PCI-MSI 2-edge      eno1-TxRx-1\n"
	    " 42:     900000          0          0          0   PCI-MSI 3-edge      eno1-TxRx-2\n"
	    " 43:     900000          0          0          0   PCI-MSI 4-edge      eno1-TxRx-3\n"
	    " 50:      10000      10000      10000      10000   PCI-MSI 5-edge      eno2-TxRx-0\n"
	    " 51:      10000      10000      10000      10000   PCI-MSI 6-edge      eno2-TxRx-1\n"
	    " 52:      10000      10000      10000      10000   PCI-MSI 7-edge      eno2-TxRx-2\n"
	    " 53:      10000      10000      10000      10000   PCI-MSI 8-edge      eno2-TxRx-3\n");
	put("proc/net/softnet_stat",
	    "00000100 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000\n"
	    "00000100 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000001\n"
	    "00000100 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000002\n"
	    "00000100 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000003\n");
	nic("eno1", "0000:03:00.0", "10000\n", "up\n", 40, "1000000\n");
	nic("eno2", "0000:03:00.1", "1000\n", "up\n", 50, "1000\n");	/* negotiated down */
	nic("eno3", "0000:04:00.0", "10000\n", "down\n", 60, "0\n");
	/* bond0: bonding/, its members as lower_*. bond0.100: a VLAN on it. */
	put("sys/class/net/bond0/bonding/mode", "802.3ad 4\n");
	put("sys/class/net/bond0/operstate", "up\n");
	put("sys/class/net/bond0/flags", "0x1403\n");
	put("sys/class/net/bond0/mtu", "1500\n");
	put("sys/class/net/bond0/ifindex", "4\n");
	put("sys/class/net/bond0/iflink", "4\n");
	link_to("sys/class/net/bond0/lower_eno1", "../eno1");
	link_to("sys/class/net/bond0/lower_eno2", "../eno2");
	link_to("sys/class/net/bond0/lower_eno3", "../eno3");
	put("sys/class/net/bond0.100/operstate", "up\n");
	put("sys/class/net/bond0.100/flags", "0x1003\n");
	put("sys/class/net/bond0.100/mtu", "1500\n");
	put("sys/class/net/bond0.100/ifindex", "5\n");
	put("sys/class/net/bond0.100/iflink", "4\n");
	link_to("sys/class/net/bond0.100/lower_bond0", "../bond0");
	/* The 8021q module's view of its devices: how a capture tells a VLAN. */
	put("proc/net/vlan/bond0.100", "bond0.100  VID: 100\t REORDER_HDR: 1  dev->priv_flags: 1\n");
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];
	int r;

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root_dir);
	r = system(cmd);
	free(root_dir);
	return r == 0 ? 0 : -1;
}

static const struct np_finding *find(const struct np_report *r, const char *id, const char *dev)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->f[i].check->id, id) && !strcmp(r->f[i].dev, dev))
			return &r->f[i];
	return NULL;
}

static void test_vlan_on_bond(void **state)
{
	const char *tops[] = { "bond0.100" };
	struct np_dev_runs *dr = calloc(1, sizeof(*dr));
	struct np_options opt = { .interval = 0, .rtt_ms = NAN, .bandwidth_bps = NAN };
	const struct np_stack *st;
	const struct np_finding *f;
	struct np_ctx ctx;

	(void)state;
	assert_non_null(dr);
	assert_int_equal(np_ctx_open(&ctx, root_dir), 0);
	np_runs_discover(dr, &ctx, tops, 1);
	np_ctx_close(&ctx);
	st = &dr->stack;

	/* bond0.100 -> bond0 -> eno1, eno2, eno3 */
	assert_int_equal(st->n, 5);
	assert_string_equal(st->dev[0].name, "bond0.100");
	assert_int_equal(st->dev[0].kind, NP_KIND_VLAN);
	assert_string_equal(st->dev[1].name, "bond0");
	assert_int_equal(st->dev[1].kind, NP_KIND_BOND);
	assert_int_equal(st->dev[1].upper, 0);
	assert_string_equal(st->dev[2].name, "eno1");
	assert_int_equal(st->dev[2].kind, NP_KIND_PHYSICAL);
	assert_int_equal(st->dev[2].upper, 1);
	assert_true(st->dev[2].judged_hw);
	assert_string_equal(st->dev[3].name, "eno2");
	assert_false(st->dev[0].judged_hw);
	assert_true(dr->run[0].has_physical_lowers);
	assert_int_equal(dr->run[1].role, NP_ROLE_MIDDLE);
	assert_int_equal(dr->run[2].role, NP_ROLE_LOWER);

	assert_int_equal(np_runs_analyze(dr, 0, &opt, NULL, NULL, NULL), 0);
	/* The NICs' hardware stages, each named: eno1's queues all on CPU 0 since boot, eno3
	 * down (a bond member: a warning, its siblings carry on). */
	f = find(&dr->run[0].rep, "irq.cpu-rate", "eno1");
	assert_non_null(f);
	assert_int_equal(f->severity, NP_SEV_INFO);
	assert_null(find(&dr->run[0].rep, "irq.cpu-rate", "eno2"));
	f = find(&dr->run[0].rep, "link.down", "eno3");
	assert_non_null(f);
	assert_int_equal(f->severity, NP_SEV_WARNING);
	assert_contains(f->detail, "member");
	/* Across the members, on the bond: eno2 negotiated 1000 where its siblings have 10000,
	 * and nearly everything arrives on eno1 (of the members that are up). */
	f = find(&dr->run[0].rep, "link.member-mismatch", "bond0");
	assert_non_null(f);
	assert_int_equal(f->severity, NP_SEV_WARNING);
	assert_contains(f->summary, "speed: eno1 10000, eno2 1000, eno3 10000");
	f = find(&dr->run[0].rep, "link.member-imbalance", "bond0");
	assert_non_null(f);
	assert_contains(f->summary, "arrive on eno1 (2 members up)");
	assert_contains(f->remedy, "xmit_hash_policy");
	/* The VLAN is not judged as a NIC: no PCIe or IRQ verdict of its own. */
	for (size_t i = 0; i < dr->run[0].rep.n; i++)
		if (dr->run[0].rep.f[i].check->stage == NP_STAGE_IRQ ||
		    dr->run[0].rep.f[i].check->stage == NP_STAGE_PCIE)
			assert_string_not_equal(dr->run[0].rep.f[i].dev, "bond0.100");
	/* The namespace's stages once: softnet judged on the primary's run only. */
	assert_int_equal(dr->run[2].rep.res[np_check_index(np_check_find("softnet.backlog-drops"))]
			 .state, NP_CHECK_NOT_RUN);
	/* Coverage folds the devices: irq judged (on the NICs). */
	assert_true(dr->run[0].cov.st[NP_STAGE_IRQ].status == NP_COV_JUDGED ||
		    dr->run[0].cov.st[NP_STAGE_IRQ].status == NP_COV_PARTIAL);
	assert_int_equal(dr->run[0].cov.st[NP_STAGE_SOFTNET].status, NP_COV_PARTIAL);
	np_runs_free(dr);
	free(dr);
}

/* Two tops where one lies beneath the other (--all on a host with bond0 and eno1 up): the
 * device found again is linked beneath its second parent too, so bond0 is judged through its
 * NICs, not as a NIC itself. */
static void test_shared_device(void **state)
{
	const char *tops[] = { "eno1", "bond0" };
	struct np_dev_runs *dr = calloc(1, sizeof(*dr));
	struct np_ctx ctx;
	int b;

	(void)state;
	assert_non_null(dr);
	assert_int_equal(np_ctx_open(&ctx, root_dir), 0);
	np_runs_discover(dr, &ctx, tops, 2);
	np_ctx_close(&ctx);
	b = np_stack_find(&dr->stack, "bond0");
	assert_true(b > 0);
	assert_int_equal(dr->stack.dev[b].nlower, 3);
	assert_true(dr->run[b].has_physical_lowers);
	assert_int_equal(np_stack_find(&dr->stack, "eno1"), 0);	/* judged once */
	/* Host-wide data read once per sample, into the sample's host snapshot every run points
	 * at (the second sample's into the other); np_runs_free frees each once (ASan). */
	assert_int_equal(np_ctx_open(&ctx, root_dir), 0);
	np_runs_collect_again(dr, &ctx);
	np_ctx_close(&ctx);
	assert_non_null(dr->run[0].prev.hs->softnet.rows);
	assert_ptr_equal(dr->run[0].prev.hs, dr->hprev);
	assert_ptr_equal(dr->run[0].cur.hs, dr->hcur);
	assert_ptr_not_equal(dr->run[0].cur.hs->softnet.rows, dr->run[0].prev.hs->softnet.rows);
	for (size_t i = 1; i < dr->n; i++) {
		assert_ptr_equal(dr->run[i].prev.hs, dr->hprev);
		assert_ptr_equal(dr->run[i].prev.hs->softnet.rows, dr->run[0].prev.hs->softnet.rows);
		assert_ptr_equal(dr->run[i].cur.hs->softnet.rows, dr->run[0].cur.hs->softnet.rows);
		assert_ptr_equal(dr->run[i].cur.hs->sysctl.e, dr->run[0].cur.hs->sysctl.e);
	}
	np_runs_free(dr);
	free(dr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_vlan_on_bond, setup, teardown),
		cmocka_unit_test_setup_teardown(test_shared_device, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
