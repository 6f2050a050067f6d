// SPDX-License-Identifier: GPL-2.0-only
/*
 * doctor --root over captures of real machines that other projects published
 * (tests/fixtures/real/SOURCES.md says where each came from). They hold what those projects
 * copied, often /proc/interrupts alone: the verdicts must stand on that evidence, name the
 * device's IRQs however the driver named them, count the CPUs from the data, and say which
 * stages could not be judged instead of "OK".
 */
#include "golden.h"
#include "doctor_stack.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static size_t queue_irqs(const struct golden *g)
{
	size_t n = 0;

	for (size_t i = 0; i < g->cur.irqs.n; i++)
		n += g->cur.irqs.lines[i].role == NP_IRQ_RX || g->cur.irqs.lines[i].role == NP_IRQ_TXRX;
	return n;
}

static enum np_cov_status cov(const struct golden *g, enum np_stage st)
{
	return g->cov.st[st].status;
}

/* The common outline: the IRQ stage judged on n queue IRQs, CPUs counted from the columns,
 * the stages the capture has no files for said to be not judged, never "OK" for them. */
static void assert_irq_only_capture(const struct golden *g, size_t nq, unsigned ncpu)
{
	assert_int_equal(queue_irqs(g), nq);
	assert_int_equal(g->cur.hs->host.ncpu_online, ncpu);
	assert_string_equal(g->cur.hs->host.ncpu_from, "/proc/interrupts columns");
	assert_true(cov(g, NP_STAGE_IRQ) == NP_COV_JUDGED || cov(g, NP_STAGE_IRQ) == NP_COV_PARTIAL);
	assert_int_equal(cov(g, NP_STAGE_SOFTNET), NP_COV_NOT_JUDGED);
	assert_contains(g->cov.st[NP_STAGE_SOFTNET].reason, "not in this capture");
	assert_int_equal(cov(g, NP_STAGE_IP), NP_COV_NOT_JUDGED);
	assert_int_equal(g->cov.judged, 1);
	assert_int_not_equal(g->exit_code, 3);
	check_renderers(g);
}

/* Kernel 3.13, igb: four queue IRQs "eth0-TxRx-N" plus the link vector "eth0", all served on
 * CPU 0 of 4 since boot. */
static void test_igb_all_on_cpu0(void **state)
{
	struct golden *g = golden_run_single(state, "real/igb-kernel3.13-4cpu-all-on-cpu0", "eth0");
	const struct np_finding *f;

	assert_irq_only_capture(g, 4, 4);
	assert_int_equal(g->cur.irqs.n, 5);		/* "eth0" is the link vector: not a queue */
	f = finding(g, "irq.cpu-rate");
	assert_int_equal(f->severity, NP_SEV_INFO);
	assert_contains(f->summary, "Since boot 100% of eth0's queue interrupts (4 queue IRQs)");
	assert_contains(f->summary, "CPU 0 of 4");
	assert_near(need_ev(f, "cpu0.interrupts")->value, 863649703.0 + 986285573 + 45 + 394);
	assert_contains(f->remedy, "/proc/irq/67/smp_affinity_list");
}

/* Xen netfront: one event channel named exactly "eth0" ("xen-dyn-event eth0"), 8 CPUs. */
static void test_xen_single_channel(void **state)
{
	struct golden *g = golden_run_single(state, "real/xen-netfront-eth0-8cpu", "eth0");
	const struct np_finding *f;

	assert_irq_only_capture(g, 1, 8);
	assert_int_equal(g->cur.irqs.lines[0].irq, 114);
	f = finding(g, "irq.cpu-rate");
	assert_int_equal(f->severity, NP_SEV_INFO);
	assert_contains(f->summary, "landed on CPU 0 of 8");
	assert_contains(f->detail, "one queue IRQ");
}

/* e1000e with a single MSI vector named after the interface; irqbalance moved it around: 69%
 * on CPU 0 is no concentration worth a finding, but the stage is judged. */
static void test_e1000e_single_msi(void **state)
{
	struct golden *g = golden_run_single(state, "real/e1000e-single-msi-8cpu", "enp0s25");

	assert_irq_only_capture(g, 1, 8);
	assert_int_equal(g->cur.irqs.lines[0].irq, 29);
	assert_int_equal(result(g, "irq.cpu-rate")->state, NP_CHECK_PASSED);
}

/* A legacy INTx line shared with USB ("uhci_hcd:usb1, ens3") on a 1-CPU i686 guest. */
static void test_intx_shared(void **state)
{
	struct golden *g = golden_run_single(state, "real/intx-shared-ens3-1cpu-i686", "ens3");

	assert_irq_only_capture(g, 1, 1);
	assert_int_equal(g->cur.irqs.lines[0].irq, 11);
	assert_int_equal(result(g, "irq.cpu-rate")->state, NP_CHECK_PASSED);
}

/* AWS Graviton (arm64, GICv3 ITS): ena's "eth0-Tx-Rx-N" on 7 of 8 CPUs (queues 5 and 7 share
 * CPU 7): well spread, quiet; the management vector "ena-mgmnt@pci:..." is no queue. */
static void test_ena_arm64_spread(void **state)
{
	struct golden *g = golden_run_single(state, "real/ena-arm64-graviton-8cpu", "eth0");

	assert_irq_only_capture(g, 8, 8);
	assert_int_equal(result(g, "irq.cpu-rate")->state, NP_CHECK_PASSED);
}

/* Three ENA interfaces on one host: eth1's IRQs are eth1's only. */
static void test_ena_three_nics(void **state)
{
	struct golden *g = golden_run_single(state, "real/ena-3nics-x86-4cpu", "eth1");

	for (size_t i = 0; i < g->cur.irqs.n; i++)
		assert_non_null(strstr(g->cur.irqs.lines[i].name, "eth1-"));
	assert_int_equal(queue_irqs(g), 4);
	assert_int_equal(g->cur.hs->host.ncpu_online, 4);
}

/* RHEL 6 era, 16 CPUs, "eth0-TxRx-0..7" each on a CPU of its own: quiet. */
static void test_rhel6_spread(void **state)
{
	struct golden *g = golden_run_single(state, "real/rhel6-eth0-txrx-16cpu-spread", "eth0");

	assert_int_equal(queue_irqs(g), 8);
	assert_int_equal(g->cur.hs->host.ncpu_online, 16);
	assert_int_equal(result(g, "irq.cpu-rate")->state, NP_CHECK_PASSED);
}

/* virtio_net: the IRQs are the virtio device's ("virtio0-input.0"), found through the
 * device link; virtio5 (a disk) is not the NIC's. */
static void test_virtio(void **state)
{
	struct golden *g = golden_run_single(state, "real/virtio-kvm-4cpu", "eth0");

	assert_int_equal(g->cur.irqs.n, 3);	/* config, input.0, output.0 */
	for (size_t i = 0; i < g->cur.irqs.n; i++)
		assert_non_null(strstr(g->cur.irqs.lines[i].name, "virtio0-"));
	assert_int_equal(queue_irqs(g), 1);	/* input.0 receives; output.0 is TX only */
}

/* mlx5 on 12 CPUs after set_irq_affinity_cpulist.sh 7-11: twelve completion vectors
 * ("mlx5_comp3@pci:0000:01:00.0", matched by the PCI address), busy on five CPUs; the second
 * port's vectors (0000:01:00.1) and the async one are not queues of this interface. */
static void test_mlx5_pinned(void **state)
{
	struct golden *g = golden_run_single(state, "real/mlx5-12cpu-pinned", "enp1s0f0np0");
	const struct np_finding *f;

	assert_int_equal(queue_irqs(g), 12);
	assert_int_equal(g->cur.irqs.n, 13);	/* + mlx5_async0 */
	for (size_t i = 0; i < g->cur.irqs.n; i++)
		assert_non_null(strstr(g->cur.irqs.lines[i].name, "0000:01:00.0"));
	f = finding(g, "irq.cpu-rate");
	assert_int_equal(f->severity, NP_SEV_INFO);
	/* 7 busy queue IRQs (comp11's 146k is under 5%) on 5 CPUs: the busy queues share. */
	assert_contains(f->summary, "7 busy queue IRQs landed on 5 CPUs of 12");
	assert_contains(f->remedy, "smp_affinity_list");
}

/* sysstat's test root: CPU 6 offline (the header skips it) and no cpu/online; the 7 rows of
 * its 11-column softnet_stat are CPUs 0-5 and 7, as the interrupt columns say. The single MSI
 * "enp6s0" served on CPU 3 only since boot: info. */
static void test_cpu6_offline(void **state)
{
	struct golden *g = golden_run_single(state, "real/sysstat-cpu6-offline", "enp6s0");
	const struct np_finding *f;

	assert_int_equal(g->cur.hs->softnet.ncols, 11);
	assert_int_equal(g->cur.hs->softnet.n, 7);
	assert_int_equal(g->cur.hs->softnet.rows[5].cpu, 5);
	assert_int_equal(g->cur.hs->softnet.rows[6].cpu, 7);
	assert_int_equal(g->cur.hs->host.ncpu_online, 7);
	assert_int_equal(queue_irqs(g), 1);
	assert_int_equal(cov(g, NP_STAGE_SOFTNET), NP_COV_PARTIAL);	/* no sysctls captured */
	f = finding(g, "irq.cpu-rate");
	assert_int_equal(f->severity, NP_SEV_INFO);
	assert_contains(f->summary, "landed on CPU 3 of 7");
}

/* orangepi-xunlong/openwrt#46: eth2 with 8 MSI queue vectors eth2-0..7 on 8 CPUs, only eth2-0
 * ever fired. Before, netpath said "100% ... landed on CPU 0 of 8" and proposed pinning the 8
 * IRQs one per CPU, which cannot help: the traffic lands in one queue. */
static void test_one_of_eight_queues(void **state)
{
	struct golden *g = golden_run_single(state, "real/eth2-1of8-queues-8cpu", "eth2");
	const struct np_finding *f;

	assert_irq_only_capture(g, 8, 8);
	f = finding(g, "irq.cpu-rate");
	assert_int_equal(f->severity, NP_SEV_INFO);
	assert_contains(f->summary, "came from one of its 8 queue IRQs (eth2-0)");
	assert_contains(f->summary, "the traffic lands in one queue");
	assert_null(strstr(f->remedy, "smp_affinity_list"));
	assert_contains(f->remedy, "rx-flow-hash");
	assert_contains(f->remedy, "rps_cpus");
}

/* A RHEL 6 box with 480 CPUs: 10-column softnet_stat, nothing else. */
static void test_bigsys_softnet_only(void **state)
{
	struct golden *g = golden_run_single(state, "real/bigsys-480cpu-rhel6", "eth0");

	assert_int_equal(g->cur.hs->softnet.ncols, 10);
	assert_int_equal(g->cur.hs->softnet.n, 480);
	assert_int_equal(g->cur.hs->host.ncpu_online, 480);
	assert_string_equal(g->cur.hs->host.ncpu_from, "/proc/net/softnet_stat rows");
	assert_int_equal(cov(g, NP_STAGE_SOFTNET), NP_COV_PARTIAL);
	assert_int_equal(g->cov.judged, 1);
	/* Flow limit came in 3.11: not applicable, not "passed". */
	assert_int_equal(result(g, "softnet.flow-limit")->state, NP_CHECK_SKIPPED);
	assert_true(result(g, "softnet.flow-limit")->not_applicable);
	assert_int_not_equal(g->exit_code, 3);
	check_renderers(g);
}

/* node_exporter's sysfs fixture: bonds that list their members only in bonding/slaves (no
 * lower_* links copied), one with none. The stack comes from what the capture holds. */
static void test_node_exporter_bonds(void **state)
{
	const char *tops[] = { "dmz" };
	struct np_dev_runs *dr = calloc(1, sizeof(*dr));
	struct np_ctx ctx;
	char dir[1024];

	(void)state;
	assert_non_null(dr);
	snprintf(dir, sizeof(dir), "%s/real/node-exporter-bonds", NP_FIXTURES);
	assert_int_equal(np_ctx_open(&ctx, dir), 0);
	np_runs_discover(dr, &ctx, tops, 1);
	assert_int_equal(dr->stack.n, 3);
	assert_int_equal(dr->stack.dev[0].kind, NP_KIND_BOND);
	assert_string_equal(dr->stack.dev[1].name, "eth0");
	assert_string_equal(dr->stack.dev[2].name, "eth4");
	assert_int_equal(dr->stack.dev[1].upper, 0);
	/* eth0's device/ link was not copied: not called physical, not called virtual. */
	assert_int_equal(dr->stack.dev[1].kind, NP_KIND_UNKNOWN);
	np_runs_free(dr);
	tops[0] = "bond0";		/* a bond without members */
	np_runs_discover(dr, &ctx, tops, 1);
	assert_int_equal(dr->stack.n, 1);
	np_runs_free(dr);
	np_ctx_close(&ctx);
	free(dr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_igb_all_on_cpu0, golden_teardown),
		cmocka_unit_test_teardown(test_xen_single_channel, golden_teardown),
		cmocka_unit_test_teardown(test_e1000e_single_msi, golden_teardown),
		cmocka_unit_test_teardown(test_intx_shared, golden_teardown),
		cmocka_unit_test_teardown(test_ena_arm64_spread, golden_teardown),
		cmocka_unit_test_teardown(test_ena_three_nics, golden_teardown),
		cmocka_unit_test_teardown(test_rhel6_spread, golden_teardown),
		cmocka_unit_test_teardown(test_virtio, golden_teardown),
		cmocka_unit_test_teardown(test_mlx5_pinned, golden_teardown),
		cmocka_unit_test_teardown(test_one_of_eight_queues, golden_teardown),
		cmocka_unit_test_teardown(test_cpu6_offline, golden_teardown),
		cmocka_unit_test_teardown(test_bigsys_softnet_only, golden_teardown),
		cmocka_unit_test(test_node_exporter_bonds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
