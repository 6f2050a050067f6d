// SPDX-License-Identifier: GPL-2.0-only
/*
 * The device's IRQs found by the device, over temporary --root trees shaped like real ones:
 * MSI vectors in sysfs, a legacy INTx line, /proc/irq/N handler directories, and names as the
 * last resort (token-exact: veth1 is not eth1's, eth10 is not eth1's). Also the interface
 * state and speed the collector reports for a down link and for virtual devices, and the CPU
 * count taken from the data when cpu/online is missing.
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
	*state = tree_new("/tmp/np-irq-XXXXXX");
	return *state ? 0 : -1;
}

static int teardown(void **state)
{
	return tree_free(*state);
}

static void collect(const char *root, const char *ifname, struct np_snapshot *s)
{
	struct np_ctx ctx;

	assert_int_equal(np_ctx_open(&ctx, root), 0);
	np_collect(&ctx, ifname, NULL, s);
	np_ctx_close(&ctx);
}

static const struct np_irq_line *line(const struct np_snapshot *s, unsigned irq)
{
	for (size_t i = 0; i < s->irqs.n; i++)
		if (s->irqs.lines[i].irq == irq)
			return &s->irqs.lines[i];
	return NULL;
}

static void link_to(const char *root, const char *rel, const char *target)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	assert_int_equal(symlink(target, path), 0);
}

/* Names only (a /proc-only capture): token boundaries and every real naming style. */
static void test_by_name(void **state)
{
	const char *root = *state;
	struct np_snapshot s;

	tree_put(root, "proc/interrupts",
		 "           CPU0       CPU1\n"
		 " 10:        100          0   IO-APIC  11-fasteoi   uhci_hcd:usb1, eth1\n"
		 " 20:        100          0   PCI-MSI 1-edge      veth1-TxRx-0\n"
		 " 21:        100          0   PCI-MSI 2-edge      eth10-TxRx-0\n"
		 " 22:        100          0   PCI-MSI 3-edge      i40e-eth1-TxRx-0\n"
		 " 23:        100          0   PCI-MSI 4-edge      eth1-rx-0\n"
		 " 24:        100          0   PCI-MSI 5-edge      eth1-tx-0\n"
		 " 25:        100          0   PCI-MSI 6-edge      i40e-0000:03:00.0:misc\n"
		 " 26:        100          0   PCI-MSI 7-edge      xeth1\n"
		 " 27:        100          0   PCI-MSI 8-edge      ice-eth10-TxRx-0\n");
	collect(root, "eth1", &s);
	assert_int_equal(np_srcp(&s, NP_SRC_INTERRUPTS)->status, NP_SRC_OK);
	assert_non_null(line(&s, 10));		/* shared INTx: "..., eth1" */
	assert_non_null(line(&s, 22));
	assert_non_null(line(&s, 23));
	assert_non_null(line(&s, 24));
	assert_null(line(&s, 20));		/* veth1 */
	assert_null(line(&s, 21));		/* eth10 */
	assert_null(line(&s, 25));		/* no PCI address known for eth1 */
	assert_null(line(&s, 26));
	assert_null(line(&s, 27));
	assert_int_equal(line(&s, 23)->role, NP_IRQ_RX);
	assert_int_equal(line(&s, 24)->role, NP_IRQ_TX);
	/* Queue vectors exist, so the shared INTx line stays what its name says. */
	assert_int_equal(line(&s, 10)->role, NP_IRQ_OTHER);
	assert_int_equal(s.hs->host.ncpu_online, 2);
	np_snapshot_free(&s);
}

/* mlx4_en: "eth6-0".."eth6-3" carry the rings, "mlx4-async@pci:..." is management. */
static void test_mlx4_ring_names(void **state)
{
	const char *root = *state;
	struct np_snapshot s;

	tree_put(root, "proc/interrupts",
		 "           CPU0       CPU1       CPU2       CPU3\n"
		 " 60:         10          0          0          0   PCI-MSI-edge      mlx4-async@pci:0000:04:00.0\n"
		 " 61:       5000          0          0          0   PCI-MSI-edge      eth6-0\n"
		 " 62:       5000          0          0          0   PCI-MSI-edge      eth6-1\n"
		 " 63:       5000          0          0          0   PCI-MSI-edge      eth6-2\n"
		 " 64:       5000          0          0          0   PCI-MSI-edge      eth6-3\n");
	tree_put(root, "sys/class/net/eth6/device/msi_irqs/60", "msix\n");
	tree_put(root, "sys/class/net/eth6/device/msi_irqs/61", "msix\n");
	tree_put(root, "sys/class/net/eth6/device/msi_irqs/62", "msix\n");
	tree_put(root, "sys/class/net/eth6/device/msi_irqs/63", "msix\n");
	tree_put(root, "sys/class/net/eth6/device/msi_irqs/64", "msix\n");
	collect(root, "eth6", &s);
	assert_int_equal(s.irqs.n, 5);
	assert_int_equal(line(&s, 60)->role, NP_IRQ_OTHER);
	for (unsigned irq = 61; irq <= 64; irq++)
		assert_int_equal(line(&s, irq)->role, NP_IRQ_TXRX);
	assert_string_equal(np_srcp(&s, NP_SRC_INTERRUPTS)->detail,
			    "by the device's MSI vectors or INTx line in sysfs");
	np_snapshot_free(&s);
}

/* e1000e with one MSI vector named after the interface, and a legacy INTx "eth0": the only
 * vector carries the traffic. igb's "eth0" beside "eth0-TxRx-N" does not. */
static void test_single_vector(void **state)
{
	const char *root = *state;
	struct np_snapshot s;

	tree_put(root, "proc/interrupts",
		 "           CPU0       CPU1\n"
		 " 29:    3249898     727145   IR-PCI-MSI 409600-edge      enp0s25\n"
		 " 16:        999          0   IO-APIC  16-fasteoi   eth0\n");
	tree_put(root, "sys/class/net/enp0s25/device/msi_irqs/29", "msi\n");
	tree_put(root, "sys/class/net/eth0/device/irq", "16\n");
	collect(root, "enp0s25", &s);
	assert_int_equal(s.irqs.n, 1);
	assert_int_equal(s.irqs.lines[0].role, NP_IRQ_TXRX);
	np_snapshot_free(&s);
	collect(root, "eth0", &s);
	assert_int_equal(s.irqs.n, 1);
	assert_int_equal(s.irqs.lines[0].irq, 16);
	assert_int_equal(s.irqs.lines[0].role, NP_IRQ_TXRX);
	np_snapshot_free(&s);
}

/* A container's veth named like the host's NIC takes none of its IRQs (names are host-wide);
 * a NIC named mgmt0 is no management vector. */
static void test_virtual_and_odd_names(void **state)
{
	const char *root = *state;
	struct np_snapshot s;

	tree_put(root, "proc/interrupts",
		 "           CPU0       CPU1\n"
		 " 45:        100        900   PCI-MSI 1-edge      eth0-TxRx-0\n"
		 " 46:        100        900   PCI-MSI 2-edge      mgmt0\n");
	tree_put(root, "sys/class/net/eth0/ifindex", "3\n");
	tree_put(root, "sys/class/net/eth0/iflink", "12\n");	/* a veth */
	tree_put(root, "sys/class/net/mgmt0/device/msi_irqs/46", "msi\n");
	collect(root, "eth0", &s);
	assert_int_equal(s.dev.is_virtual, 1);
	assert_int_equal(s.irqs.n, 0);
	np_snapshot_free(&s);
	collect(root, "mgmt0", &s);
	assert_int_equal(s.irqs.n, 1);
	assert_int_equal(s.irqs.lines[0].role, NP_IRQ_TXRX);
	np_snapshot_free(&s);
}

/* Members named in a hostile tree: control bytes, "..", too long are not interface names. */
static void test_member_names(void **state)
{
	const char *root = *state;
	struct np_snapshot s;

	tree_put(root, "sys/class/net/br9/bridge/stp_state", "0\n");
	tree_put(root, "sys/class/net/br9/brif/eth3/x", "");
	tree_put(root, "sys/class/net/br9/brif/\x1b]0;owned\x07/x", "");
	tree_put(root, "sys/class/net/br9/brif/averyveryverylongname0/x", "");
	tree_put(root, "sys/class/net/bond9/bonding/slaves", ".. eth4 \x1b[2J eth5\n");
	collect(root, "br9", &s);
	assert_int_equal(s.dev.n_lower, 1);
	assert_string_equal(s.dev.lower[0], "eth3");
	np_snapshot_free(&s);
	/* File contents are defanged as they are read (ESC becomes '?'): "..", no ESC left. */
	collect(root, "bond9", &s);
	assert_int_equal(s.dev.n_lower, 3);
	for (size_t i = 0; i < s.dev.n_lower; i++) {
		assert_null(strchr(s.dev.lower[i], 0x1b));
		assert_string_not_equal(s.dev.lower[i], "..");
	}
	assert_string_equal(s.dev.lower[1], "eth4");
	assert_string_equal(s.dev.lower[2], "eth5");
	np_snapshot_free(&s);
}

/* A capture with /proc/irq but no device directory: the handler directories name the IRQs. */
static void test_proc_irq_dirs(void **state)
{
	const char *root = *state;
	struct np_snapshot s;

	tree_put(root, "proc/interrupts",
		 "           CPU0       CPU1\n"
		 " 45:        100        900   PCI-MSI 1-edge      eth0-TxRx-0\n"
		 " 46:        100        900   PCI-MSI 2-edge      eth0-TxRx-1\n"
		 " 47:        100        900   PCI-MSI 3-edge      nvme0q1\n");
	tree_put(root, "proc/irq/45/eth0-TxRx-0/.keep", "");
	tree_put(root, "proc/irq/45/smp_affinity_list", "1\n");
	tree_put(root, "proc/irq/46/eth0-TxRx-1/.keep", "");
	tree_put(root, "proc/irq/46/smp_affinity_list", "0-1\n");
	tree_put(root, "proc/irq/47/nvme0q1/.keep", "");
	tree_put(root, "sys/class/net/eth0/operstate", "up\n");
	collect(root, "eth0", &s);
	assert_int_equal(s.irqs.n, 2);
	assert_string_equal(np_srcp(&s, NP_SRC_INTERRUPTS)->detail, "by handler name in /proc/irq");
	assert_true(line(&s, 45)->has_affinity);
	np_snapshot_free(&s);
}

/* Down, administratively down, and a veth whose 10000 Mbit/s is nominal; a VLAN on a
 * physical NIC takes its speed. */
static void test_state_and_speed(void **state)
{
	const char *root = *state;
	struct np_snapshot s;

	tree_put(root, "sys/class/net/eno1/operstate", "down\n");
	tree_put(root, "sys/class/net/eno1/carrier", "0\n");
	tree_put(root, "sys/class/net/eno1/flags", "0x1003\n");
	tree_put(root, "sys/class/net/eno1/speed", "25000\n");
	tree_put(root, "sys/class/net/eno1/mtu", "1500\n");
	tree_put(root, "sys/class/net/eno1/device/vendor", "0x8086\n");
	tree_put(root, "sys/class/net/veth0/operstate", "up\n");
	tree_put(root, "sys/class/net/veth0/speed", "10000\n");
	tree_put(root, "sys/class/net/veth0/mtu", "1500\n");
	tree_put(root, "sys/class/net/veth0/flags", "0x1002\n");
	/* A veth names its peer in iflink: the evidence a capture has that it is virtual. */
	tree_put(root, "sys/class/net/veth0/ifindex", "5\n");
	tree_put(root, "sys/class/net/veth0/iflink", "6\n");
	tree_put(root, "sys/class/net/eth9/ifindex", "7\n");
	tree_put(root, "sys/class/net/eth9/iflink", "7\n");
	tree_put(root, "sys/class/net/eth9/speed", "10000\n");
	tree_put(root, "sys/class/net/eno1.100/operstate", "up\n");
	tree_put(root, "sys/class/net/eno1.100/speed", "25000\n");
	tree_put(root, "sys/class/net/eno1.100/mtu", "1500\n");
	link_to(root, "sys/class/net/eno1.100/lower_eno1", "../eno1");

	collect(root, "eno1", &s);
	assert_string_equal(s.dev.operstate, "down");
	assert_int_equal(s.dev.carrier, 0);
	assert_int_equal(s.dev.admin_up, 1);
	assert_int_equal(s.dev.speed_mbps, 25000);
	np_snapshot_free(&s);

	collect(root, "veth0", &s);
	assert_int_equal(s.dev.admin_up, 0);
	assert_false(s.dev.has_device);
	assert_int_equal(s.dev.is_virtual, 1);
	assert_int_equal(s.dev.speed_mbps, NP_NA);
	assert_int_equal(s.dev.nominal_speed_mbps, 10000);
	np_snapshot_free(&s);

	/* A capture that did not copy eth9's device link proves nothing: not called virtual, its
	 * speed kept. */
	collect(root, "eth9", &s);
	assert_int_equal(s.dev.is_virtual, -1);
	assert_int_equal(s.dev.speed_mbps, 10000);
	np_snapshot_free(&s);

	collect(root, "eno1.100", &s);
	assert_int_equal(s.dev.speed_mbps, 25000);
	assert_string_equal(s.dev.speed_from, "eno1");
	np_snapshot_free(&s);
}

/* No cpu/online: softnet rows, then interrupt columns, then /proc/stat; else unknown (0). */
static void test_cpu_count(void **state)
{
	const char *root = *state;
	struct np_snapshot s;

	tree_put(root, "proc/stat", "cpu  1 2 3\ncpu0 1 2 3\ncpu1 1 2 3\ncpu2 1 2 3\nintr 5\n");
	collect(root, "eth0", &s);
	assert_int_equal(s.hs->host.ncpu_online, 3);
	assert_string_equal(s.hs->host.ncpu_from, "/proc/stat");
	np_snapshot_free(&s);
	tree_put(root, "proc/interrupts", "   CPU0 CPU1 CPU2 CPU3 CPU5\n  1: 1 2 3 4 5 IO-APIC 1-edge i8042\n");
	collect(root, "eth0", &s);
	assert_int_equal(s.hs->host.ncpu_online, 5);
	assert_true(np_cpuset_has(&s.hs->host.online, 5));
	assert_false(np_cpuset_has(&s.hs->host.online, 4));
	np_snapshot_free(&s);
	tree_put(root, "proc/net/softnet_stat", "1 0 0 0 0 0 0 0 0 0\n2 0 0 0 0 0 0 0 0 0\n");
	collect(root, "eth0", &s);
	assert_int_equal(s.hs->host.ncpu_online, 2);
	assert_string_equal(s.hs->host.ncpu_from, "/proc/net/softnet_stat rows");
	np_snapshot_free(&s);
}

static void test_cpu_count_unknown(void **state)
{
	const char *root = *state;
	struct np_snapshot s;

	tree_put(root, "proc/net/snmp", "Ip: InReceives\nIp: 5\n");
	collect(root, "eth0", &s);
	assert_int_equal(s.hs->host.ncpu_online, 0);
	assert_null(s.hs->host.ncpu_from);
	np_snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_by_name, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mlx4_ring_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_single_vector, setup, teardown),
		cmocka_unit_test_setup_teardown(test_proc_irq_dirs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_virtual_and_odd_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_member_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_state_and_speed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cpu_count, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cpu_count_unknown, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
