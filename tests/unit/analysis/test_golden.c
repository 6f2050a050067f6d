// SPDX-License-Identifier: GPL-2.0-only
/*
 * Golden tests: the whole analysis of `netpath doctor --root AFTER --before BEFORE` (collectors on
 * two captured trees, rates between them, every check, the funnel, the JSON and text renderers)
 * over each tree of tests/fixtures/trees. Each tree's findings must equal its expected.txt (one
 * "id severity" line per finding, sorted), and facts specific to the fixture prove that the
 * collectors and checks are right, not merely stable.
 *
 * NP_GOLDEN_UPDATE=1 rewrites expected.txt instead of comparing: read every changed line and
 * make sure the fixture justifies it before committing.
 */
#include "golden.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* ---- x710-server: generated, 16 CPUs, i40e at 10G, 4 queues pinned to CPUs 0-3 ---- */

static void test_x710_server(void **state)
{
	struct golden *g = golden_run(state, "x710-server", "eth0");
	const struct np_snapshot *s = &g->cur;
	const struct np_finding *f;
	const struct np_funnel_row *row;
	const struct np_evidence *e;

	compare_expected(g, "x710-server");
	assert_near(g->a.dt, 10.0);
	assert_string_equal(s->hs->host.kernel, "5.15.0-91-generic");
	assert_int_equal(s->hs->host.ncpu_online, 16);
	assert_string_equal(s->dev.driver, "i40e");
	assert_string_equal(s->dev.bus_id, "0000:3b:00.0");
	/* 15-column softnet_stat (6.4+ layout): CPU ids from column 13. */
	assert_int_equal(s->hs->softnet.ncols, 15);
	assert_true(s->hs->softnet.cpu_from_column);
	assert_int_equal(s->hs->softnet.n, 16);

	/* PCIe: link attributes and the config space's PCI Express capability (at 0xa0, behind
	 * PM, MSI and MSI-X): MPS 256 of 512, MRRS 512. 256 is not the 128 pcie.mps is about. */
	assert_true(np_src_ok(s, NP_SRC_PCIE_LINK));
	assert_true(np_src_ok(s, NP_SRC_PCIE_CONFIG));
	assert_int_equal(s->pcie.cur_speed, 8000);
	assert_int_equal(s->pcie.cur_width, 8);
	assert_int_equal(s->pcie.mps, 256);
	assert_int_equal(s->pcie.mps_supported, 512);
	assert_int_equal(s->pcie.mrrs, 512);
	assert_int_equal(result(g, "pcie.mps")->state, NP_CHECK_PASSED);
	assert_int_equal(result(g, "pcie.link-degraded")->state, NP_CHECK_PASSED);

	/* Backlog drops: 3,000/s on each of CPUs 0-3, nowhere else. */
	f = finding(g, "softnet.backlog-drops");
	assert_int_equal(f->severity, NP_SEV_CRITICAL);
	assert_contains(f->summary, "12,000 packets/s");
	assert_contains(f->summary, "CPU 0: 3,000/s");
	assert_contains(f->summary, "CPU 1: 3,000/s");
	assert_contains(f->summary, "CPU 2: 3,000/s");
	assert_contains(f->summary, "CPU 3: 3,000/s");
	assert_lacks(f->summary, "CPU 4");
	assert_contains(f->summary, "netdev_max_backlog=1000");
	e = need_ev(f, "dropped");
	assert_true(e->sampled);
	assert_near(e->rate, 12000);
	assert_near(e->delta, 120000);
	assert_near(need_ev(f, "cpu0.dropped")->rate, 3000);
	assert_null(evidence(f, "cpu4.dropped"));

	/* The four queue IRQs (not the misc vector 99) sit on the four dropping CPUs. */
	f = finding(g, "irq.affinity");
	assert_int_equal(f->severity, NP_SEV_CRITICAL);
	assert_string_equal(need_ev(f, "irq_cpu_list")->text, "0-3");
	assert_near(need_ev(f, "queue_irqs")->value, 4);
	assert_near(need_ev(f, "softnet_drops_on_irq_cpus")->value, 12000);
	/* Each queue IRQ already owns its CPU: echo lines would change nothing. The fix is more
	 * queues or RPS to the other CPUs. */
	for (unsigned irq = 99; irq <= 103; irq++) {
		char needle[64];

		snprintf(needle, sizeof(needle), "/proc/irq/%u/", irq);
		assert_lacks(f->remedy, needle);
	}
	assert_contains(f->detail, "pinning will not help");
	assert_contains(f->remedy, "rps_cpus");
	assert_contains(f->remedy, "ethtool -L eth0 combined 8");
	assert_int_equal(irq_line(s, 99)->role, NP_IRQ_OTHER);
	assert_int_equal(irq_line(s, 100)->role, NP_IRQ_TXRX);

	/* NIC ring overflow: 9,000 missed/s of 1.65 Mpps. */
	f = finding(g, "nic.missed");
	assert_int_equal(f->severity, NP_SEV_CRITICAL);
	assert_near(need_ev(f, "rx_missed_errors")->rate, 9000);

	/* ~294 packets per NET_RX run against a budget of 300: the packet budget binds; both
	 * sysctls were read (no "_assumed" keys). */
	f = finding(g, "softnet.time-squeeze");
	assert_int_equal(f->severity, NP_SEV_WARNING);
	assert_contains(f->summary, "packet budget");
	assert_near(need_ev(f, "netdev_budget_usecs")->value, 2000);
	assert_null(evidence(f, "netdev_budget_usecs_assumed"));
	assert_near(need_ev(f, "time_squeeze")->rate, 1600);

	/* The funnel: per second over the 10 s between the captures. */
	row = funnel_row(g, NP_STAGE_SOFTNET);
	assert_true(row->drop.sampled);
	assert_near(row->drop.rate, 12000);
	assert_near(row->in.rate, 4 * 400000 + 12 * 100);
	row = funnel_row(g, NP_STAGE_NIC);
	assert_near(row->drop.rate, 9000);
	assert_near(row->in.rate, 1650000);
	row = funnel_row(g, NP_STAGE_IP);
	assert_near(row->in.rate, 1600000);
	assert_near(row->drop.rate, 0);
	/* No conntrack in this tree, but the IPv4 balance is taken: nothing vanished. */
	row = funnel_row(g, NP_STAGE_INGRESS);
	assert_true(row->drop.present && row->drop.sampled);
	assert_near(row->drop.rate, 0);
	assert_int_equal(result(g, "ingress.conntrack-full")->state, NP_CHECK_SKIPPED);

	assert_int_equal(g->exit_code, NP_EXIT_CRITICAL);
	check_findings_complete(g);
	check_renderers(g);
}

/* ---- vm-virtio: a real capture of a 2-CPU VM's virtio_net eth0, idle ---- */

static void test_vm_virtio(void **state)
{
	struct golden *g = golden_run(state, "vm-virtio", "eth0");
	const struct np_snapshot *s = &g->cur;
	size_t rx = 0, tx = 0;

	compare_expected(g, "vm-virtio");
	assert_true(g->a.dt > 1 && g->a.dt < 60);
	/* The device is a virtio bus device; its PCI function is the parent directory. */
	assert_true(s->dev.has_device);
	assert_string_equal(s->dev.driver, "virtio_net");
	assert_string_equal(s->dev.bus_id, "0000:00:03.0");
	assert_int_equal(s->dev.n_rxq, 1);
	/* virtio reports speed -1 (unknown): not a fake number, no bandwidth. */
	assert_false(np_has(s->dev.speed_mbps));
	assert_true(isnan(g->a.bw_bps));
	/* Its sysfs duplex reads "unknown": stored as not reported, so no reader mistakes it
	 * for a value. */
	assert_string_equal(s->dev.duplex, "");

	/* Emulated PCI: no link attributes, no PCI Express capability; checks skip, never
	 * guess. */
	assert_int_equal(np_srcp(s, NP_SRC_PCIE_LINK)->status, NP_SRC_ABSENT);
	assert_false(np_src_ok(s, NP_SRC_PCIE_CONFIG));
	assert_false(np_has(s->pcie.mps));
	assert_int_equal(result(g, "pcie.link-degraded")->state, NP_CHECK_SKIPPED);
	assert_int_equal(result(g, "pcie.mps")->state, NP_CHECK_SKIPPED);
	assert_int_equal(result(g, "socket.tcp-rmem-bdp")->state, NP_CHECK_SKIPPED);

	/* IRQs from msi_irqs, classified by their virtio names. */
	assert_int_equal(s->irqs.n, 3);
	for (size_t i = 0; i < s->irqs.n; i++) {
		rx += s->irqs.lines[i].role == NP_IRQ_RX;
		tx += s->irqs.lines[i].role == NP_IRQ_TX;
	}
	assert_int_equal(rx, 1);
	assert_int_equal(tx, 1);
	assert_true(np_src_ok(s, NP_SRC_IRQ_AFFINITY));

	/* A current kernel: CPU ids from softnet_stat itself. */
	assert_int_equal(s->hs->softnet.n, 2);
	assert_true(s->hs->softnet.cpu_from_column);
	assert_int_equal(s->hs->host.ncpu_online, 2);

	/* Idle and healthy: nothing above info. */
	assert_true(np_report_worst(&g->rep) <= NP_SEV_INFO);
	assert_int_equal(g->exit_code, NP_EXIT_OK);
	assert_true(funnel_row(g, NP_STAGE_SOFTNET)->drop.sampled);
	check_findings_complete(g);
	check_renderers(g);
}

/* ---- old-kernel-5.4: generated, 8 CPUs with CPU 3 offline, 11-column softnet, igb ---- */

static void test_old_kernel(void **state)
{
	static const int cpus[] = { 0, 1, 2, 4, 5, 6, 7 };
	struct golden *g = golden_run(state, "old-kernel-5.4", "eth0");
	const struct np_snapshot *s = &g->cur;
	const struct np_sysctl *sc;
	const struct np_finding *f;
	size_t queues = 0;

	compare_expected(g, "old-kernel-5.4");
	assert_near(g->a.dt, 10.0);
	assert_string_equal(s->hs->host.kernel, "5.4.0-150-generic");
	assert_int_equal(s->hs->host.ncpu_online, 7);
	assert_false(np_cpuset_has(&s->hs->host.online, 3));

	/* 11 columns, no CPU column: row i is the i-th online CPU, so the 4th row is CPU 4. */
	assert_int_equal(s->hs->softnet.ncols, 11);
	assert_false(s->hs->softnet.cpu_from_column);
	assert_int_equal(s->hs->softnet.n, 7);
	for (size_t i = 0; i < 7; i++) {
		assert_int_equal(s->hs->softnet.rows[i].cpu, cpus[i]);
		assert_false(np_has(s->hs->softnet.rows[i].backlog_len));
		assert_int_equal(s->hs->softnet.rows[i].dropped > 0, cpus[i] == 4);
	}
	f = finding(g, "softnet.backlog-drops");
	assert_int_equal(f->severity, NP_SEV_CRITICAL);
	assert_contains(f->summary, "CPU 4: 2,500/s");
	assert_lacks(f->summary, "CPU 3");
	assert_near(need_ev(f, "cpu4.dropped")->rate, 2500);
	assert_null(evidence(f, "cpu3.dropped"));
	assert_contains(f->detail, "1 of 7 CPUs");

	/* /proc/interrupts lists online CPUs only: columns map to CPUs 0,1,2,4,5,6,7. Affinity
	 * comes from smp_affinity_list alone: this tree has no effective_affinity_list. */
	assert_int_equal(s->irqs.ncols, 7);
	for (size_t c = 0; c < 7; c++)
		assert_int_equal(s->irqs.col_cpu[c], cpus[c]);
	for (size_t i = 0; i < s->irqs.n; i++) {
		const struct np_irq_line *l = &s->irqs.lines[i];

		if (l->role != NP_IRQ_TXRX)
			continue;
		queues++;
		assert_true(l->has_affinity);
		assert_false(l->has_effective);
		assert_int_equal(np_cpuset_count(&l->affinity), 1);
	}
	assert_int_equal(queues, 4);
	assert_int_equal(result(g, "irq.affinity")->state, NP_CHECK_PASSED);

	/* No netdev_budget_usecs on this kernel: the squeeze check assumes the default and says
	 * so in the evidence key. */
	sc = np_sysctl_find(s, NP_SYSCTL_NETDEV_BUDGET_USECS);
	assert_non_null(sc);
	assert_int_equal(sc->err, ENOENT);
	f = finding(g, "softnet.time-squeeze");
	assert_near(need_ev(f, "netdev_budget_usecs_assumed")->value, 2000);
	assert_null(evidence(f, "netdev_budget_usecs"));
	assert_near(need_ev(f, "netdev_budget")->value, 300);
	assert_contains(f->summary, "CPU 4: 200/s");

	/* tcp_mem typed in bytes: 16777216 pages = 64 GiB on a 16 GiB host. */
	f = finding(g, "socket.tcp-mem");
	assert_int_equal(f->severity, NP_SEV_WARNING);
	assert_contains(f->summary, "bytes");
	assert_contains(f->summary, "64 GiB");

	/* Conntrack 65000 of 65536 with drops during the sample; "entries" is the global
	 * count repeated on each of the 8 possible CPUs' rows, not summed. */
	assert_int_equal(np_counters_get(&s->hs->conntrack, "entries"), 65000);
	f = finding(g, "ingress.conntrack-full");
	assert_int_equal(f->severity, NP_SEV_CRITICAL);
	assert_near(need_ev(f, "nf_conntrack_count")->value, 65000);
	assert_near(need_ev(f, "nf_conntrack_max")->value, 65536);
	assert_near(need_ev(f, "drop")->rate, 40);
	assert_contains(f->summary, "65000 of 65536");
	/* The funnel counts at least the 40 dropped packets/s (it also adds early_drop, which
	 * evicts entries rather than dropping packets: not asserted here). */
	assert_true(funnel_row(g, NP_STAGE_INGRESS)->drop.sampled);
	assert_true(funnel_row(g, NP_STAGE_INGRESS)->drop.rate >= 40 - 1e-9);

	/* Statistics files this kernel/driver lacks stay "not reported", not 0. */
	assert_false(np_has(s->dev.stats.rx_nohandler));
	assert_false(np_has(s->dev.stats.rx_otherhost_dropped));
	assert_true(np_has(s->dev.stats.rx_dropped));
	assert_int_equal(s->dev.speed_mbps, 1000);
	assert_string_equal(s->dev.driver, "igb");

	/* An unprivileged capture: 64 bytes of config space. The old "5 GT/s" speed format. */
	assert_int_equal(np_srcp(s, NP_SRC_PCIE_CONFIG)->status, NP_SRC_DENIED);
	assert_int_equal(result(g, "pcie.mps")->state, NP_CHECK_SKIPPED);
	assert_contains(result(g, "pcie.mps")->skip_reason, "needs root");
	assert_int_equal(s->pcie.cur_speed, 5000);
	assert_int_equal(s->pcie.max_speed, 5000);

	assert_int_equal(g->exit_code, NP_EXIT_CRITICAL);
	check_findings_complete(g);
	check_renderers(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_x710_server, golden_teardown),
		cmocka_unit_test_teardown(test_vm_virtio, golden_teardown),
		cmocka_unit_test_teardown(test_old_kernel, golden_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
