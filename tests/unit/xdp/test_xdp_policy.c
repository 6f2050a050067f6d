// SPDX-License-Identifier: GPL-2.0-only
/* trace --xdp: the attach decision for every driver we know, unknown drivers, existing
 * programs, and the folding of per-CPU counter values. Pure functions, no root. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <linux/if_link.h>

#include "xdp_attach.h"
#include "xdp_count.h"

/* The drivers issue 6 and receive-path.md section 8 name as rebuilding rings or resetting. */
static const char *const disruptive[] = {
	"mlx5_core", "i40e", "ixgbe", "igb", "igc", "bnxt_en", "ice", "ena", "e1000e",
	"virtio_net",
};

static int plan(const char *driver, enum np_xdp_mode mode, bool accept, int lro, int gro_hw,
		struct np_xdp_plan *p)
{
	struct np_xdp_plan_in in = { .ifname = "eth9", .driver = driver, .mode = mode,
				     .accept_reset = accept, .lro = lro, .gro_hw = gro_hw };

	return np_xdp_plan(&in, p);
}

static void assert_has(const char *haystack, const char *needle)
{
	if (!strstr(haystack, needle))
		fail_msg("\"%s\" not in: %s", needle, haystack);
}

/* Every disruptive driver: refused without the acknowledgement in every mode whose cost is a
 * reset, with words that say what would happen; allowed with it. */
static void test_disruptive_need_ack(void **state)
{
	struct np_xdp_plan p;

	(void)state;
	for (size_t i = 0; i < sizeof(disruptive) / sizeof(disruptive[0]); i++) {
		const char *d = disruptive[i];

		assert_int_equal(np_xdp_driver_lookup(d)->risk, NP_XDP_RISK_DISRUPTS);
		/* Auto and native: the native attach is what resets. Offloads state unknown. */
		for (int m = NP_XDP_MODE_AUTO; m <= NP_XDP_MODE_NATIVE; m++) {
			assert_int_equal(plan(d, m, false, -1, -1, &p), -ECANCELED);
			assert_false(p.allowed);
			assert_has(p.msg, "refusing to attach XDP to eth9");
			assert_has(p.msg, d);
			assert_has(p.msg, "--xdp-accept-reset");
			assert_has(p.msg, "traffic");
			assert_int_equal(plan(d, m, true, -1, -1, &p), 0);
			assert_true(p.allowed);
			assert_true(p.acknowledged);
			assert_int_equal(p.first, NP_XDP_MODE_NATIVE);
			assert_has(p.msg, d);
		}
		/* Generic with LRO on: turned off (a reconfiguration), never turned back on. */
		assert_int_equal(plan(d, NP_XDP_MODE_GENERIC, false, 1, 0, &p), -ECANCELED);
		assert_has(p.msg, "LRO");
		assert_has(p.msg, "does not turn it back on");
		assert_has(p.msg, "ethtool -K eth9 lro on");
		/* Generic with offloads unknown: no promise either. */
		assert_int_equal(plan(d, NP_XDP_MODE_GENERIC, false, -1, -1, &p), -ECANCELED);
		assert_int_equal(plan(d, NP_XDP_MODE_GENERIC, true, 1, 1, &p), 0);
		assert_int_equal(p.first, NP_XDP_MODE_GENERIC);
		assert_has(p.msg, "LRO and hardware GRO");
		assert_has(p.msg, "lro on rx-gro-hw on");
	}
}

/* The example, word for word where it matters. */
static void test_i40e_plain_words(void **state)
{
	struct np_xdp_plan p;

	(void)state;
	assert_int_equal(plan("i40e", NP_XDP_MODE_AUTO, false, 0, 0, &p), -ECANCELED);
	assert_has(p.msg, "attaching an XDP program to eth9 makes the i40e driver reset the "
		   "device");
	assert_has(p.msg, "the link goes down for seconds and traffic is lost");
	/* Offloads known off: the refusal points at the generic mode that leaves it alone. */
	assert_has(p.msg, "--xdp-mode generic");
	assert_int_equal(plan("i40e", NP_XDP_MODE_AUTO, false, -1, 0, &p), -ECANCELED);
	assert_null(strstr(p.msg, "--xdp-mode generic"));
	assert_has(plan("mlx5_core", NP_XDP_MODE_AUTO, false, -1, -1, &p) ? p.msg : "",
		   "1 to 10 seconds");
	assert_has(plan("ixgbe", NP_XDP_MODE_NATIVE, false, -1, -1, &p) ? p.msg : "",
		   "close and reopen the device");
}

/* Generic mode on a known driver with LRO and hardware GRO off never calls the driver. */
static void test_generic_offloads_off_is_safe(void **state)
{
	struct np_xdp_plan p;

	(void)state;
	assert_int_equal(plan("mlx5_core", NP_XDP_MODE_GENERIC, false, 0, 0, &p), 0);
	assert_true(p.allowed);
	assert_int_equal(p.first, NP_XDP_MODE_GENERIC);
	assert_int_equal(p.fallback, NP_XDP_MODE_AUTO);
	assert_has(p.msg, "leaves eth9 alone");
	assert_has(p.msg, "costs CPU");
	assert_false(p.acknowledged);
	/* The acknowledgement given anyway is not reported as needed. */
	assert_int_equal(plan("mlx5_core", NP_XDP_MODE_GENERIC, true, 0, 0, &p), 0);
	assert_false(p.acknowledged);
	/* Hardware GRO on is enough to need the acknowledgement. */
	assert_int_equal(plan("mlx5_core", NP_XDP_MODE_GENERIC, false, 0, 1, &p), -ECANCELED);
	assert_has(p.msg, "hardware GRO");
	assert_has(p.msg, "rx-gro-hw on");
}

/* A driver we do not know (or could not read) is assumed to reset, in every mode, whatever
 * its offloads say: it may be an upper device whose change reaches the devices below. */
static void test_unknown_driver(void **state)
{
	static const char *const unknown[] = { "bonding", "sfc", "", NULL };
	struct np_xdp_plan p;

	(void)state;
	for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
		assert_int_equal(np_xdp_driver_lookup(unknown[i])->risk, NP_XDP_RISK_UNKNOWN);
		for (int m = NP_XDP_MODE_AUTO; m <= NP_XDP_MODE_GENERIC; m++) {
			assert_int_equal(plan(unknown[i], m, false, 0, 0, &p), -ECANCELED);
			assert_has(p.msg, "--xdp-accept-reset");
			assert_has(p.msg, "traffic is lost");
		}
		assert_int_equal(plan(unknown[i], NP_XDP_MODE_AUTO, true, -1, -1, &p), 0);
		assert_true(p.acknowledged);
		assert_int_equal(p.first, NP_XDP_MODE_NATIVE);
		/* Native abilities unknown: fall back to generic, which the ack covers too. */
		assert_int_equal(p.fallback, NP_XDP_MODE_GENERIC);
		assert_has(p.msg, "if it has no native XDP");
	}
	assert_int_equal(plan("sfc", NP_XDP_MODE_AUTO, false, -1, -1, &p), -ECANCELED);
	assert_has(p.msg, "(driver sfc)");
	assert_has(p.msg, "netpath does not know this driver");
	assert_int_equal(plan("", NP_XDP_MODE_NATIVE, false, -1, -1, &p), -ECANCELED);
	assert_has(p.msg, "could not be read");
}

static void test_veth(void **state)
{
	struct np_xdp_plan p;

	(void)state;
	assert_int_equal(np_xdp_driver_lookup("veth")->risk, NP_XDP_RISK_NONE);
	assert_int_equal(plan("veth", NP_XDP_MODE_AUTO, false, -1, -1, &p), 0);
	assert_true(p.allowed);
	assert_int_equal(p.first, NP_XDP_MODE_NATIVE);
	assert_int_equal(p.fallback, NP_XDP_MODE_AUTO);
	assert_has(p.msg, "NAPI mode");
	assert_has(p.msg, "nothing is reset");
	assert_false(p.acknowledged);
	assert_int_equal(plan("veth", NP_XDP_MODE_NATIVE, false, 0, 0, &p), 0);
	assert_int_equal(p.first, NP_XDP_MODE_NATIVE);
	/* Generic leaves veth's NAPI mode alone: nothing to say. */
	assert_int_equal(plan("veth", NP_XDP_MODE_GENERIC, false, -1, -1, &p), 0);
	assert_int_equal(p.first, NP_XDP_MODE_GENERIC);
	assert_string_equal(p.msg, "");
	/* A software device with LRO on (a lasting change) still needs the acknowledgement. */
	assert_int_equal(plan("veth", NP_XDP_MODE_GENERIC, false, 1, -1, &p), -ECANCELED);
	assert_int_equal(plan("tun", NP_XDP_MODE_AUTO, false, -1, -1, &p), 0);
	assert_int_equal(p.first, NP_XDP_MODE_NATIVE);
}

/* Software devices without native XDP: auto means generic; native is refused as impossible. */
static void test_generic_only_devices(void **state)
{
	static const char *const sw[] = { "loopback", "dummy" };
	struct np_xdp_plan p;

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		assert_int_equal(plan(sw[i], NP_XDP_MODE_AUTO, false, -1, -1, &p), 0);
		assert_int_equal(p.first, NP_XDP_MODE_GENERIC);
		assert_has(p.msg, "generic mode");
		assert_int_equal(plan(sw[i], NP_XDP_MODE_NATIVE, true, -1, -1, &p), -EOPNOTSUPP);
		assert_false(p.allowed);
		assert_has(p.msg, "has no native XDP");
	}
}

static void test_table(void **state)
{
	size_t n;
	const struct np_xdp_driver *t = np_xdp_driver_table(&n);

	(void)state;
	assert_true(n > 10);
	/* The last entry is the unknown one; every other is findable by its name. */
	assert_string_equal(t[n - 1].name, "");
	for (size_t i = 0; i + 1 < n; i++) {
		assert_ptr_equal(np_xdp_driver_lookup(t[i].name), &t[i]);
		assert_true(strlen(t[i].effect) > 20);
		assert_int_not_equal(t[i].risk, NP_XDP_RISK_UNKNOWN);
	}
	/* Every combination gives a decision in words that fit (none cut short). */
	for (size_t i = 0; i < n; i++)
		for (int m = NP_XDP_MODE_AUTO; m <= NP_XDP_MODE_GENERIC; m++)
			for (int bits = 0; bits < 18; bits++) {
				struct np_xdp_plan p;
				int r = plan(t[i].name, m, bits & 1, (bits >> 1) % 3 - 1,
					     (bits / 6) % 3 - 1, &p);

				assert_true(strlen(p.msg) + 1 < sizeof(p.msg));
				assert_int_equal(r == 0, p.allowed);
				assert_true(r == 0 || r == -ECANCELED || r == -EOPNOTSUPP);
				if (r == 0)
					assert_int_not_equal(p.first, NP_XDP_MODE_AUTO);
				else
					assert_non_null(strstr(p.msg, "refusing"));
			}
}

static void test_modes(void **state)
{
	enum np_xdp_mode m = NP_XDP_MODE_AUTO;

	(void)state;
	for (int i = NP_XDP_MODE_AUTO; i <= NP_XDP_MODE_GENERIC; i++) {
		assert_int_equal(np_xdp_mode_parse(np_xdp_mode_name(i), &m), 0);
		assert_int_equal(m, i);
	}
	assert_int_equal(np_xdp_mode_parse("drv", &m), -EINVAL);
	assert_int_equal(np_xdp_mode_parse(NULL, &m), -EINVAL);
	assert_has(np_xdp_mode_explain(NP_XDP_MODE_GENERIC), "after GRO");
	assert_has(np_xdp_mode_explain(NP_XDP_MODE_GENERIC), "linearizes");
	assert_has(np_xdp_mode_explain(NP_XDP_MODE_NATIVE), "reached the rx ring");
}

static void test_existing(void **state)
{
	char msg[512];

	(void)state;
	assert_int_equal(np_xdp_check_existing("eth9", XDP_ATTACHED_NONE, 0, msg, sizeof(msg)),
			 0);
	assert_string_equal(msg, "");
	assert_int_equal(np_xdp_check_existing("eth9", XDP_ATTACHED_DRV, 42, msg, sizeof(msg)),
			 -EEXIST);
	assert_has(msg, "program id 42, native mode");
	assert_has(msg, "never replaces");
	assert_has(msg, "untouched");
	assert_int_equal(np_xdp_check_existing("eth9", XDP_ATTACHED_SKB, 7, msg, sizeof(msg)),
			 -EEXIST);
	assert_has(msg, "program id 7, generic mode");
	assert_int_equal(np_xdp_check_existing("eth9", XDP_ATTACHED_HW, 8, msg, sizeof(msg)),
			 -EEXIST);
	assert_int_equal(np_xdp_check_existing("eth9", XDP_ATTACHED_MULTI, 9, msg, sizeof(msg)),
			 -EEXIST);
	assert_has(msg, "several modes");
	/* The kernel did not say: no attach either. */
	assert_int_equal(np_xdp_check_existing("eth9", -1, 0, msg, sizeof(msg)), -ENODATA);
	assert_has(msg, "refusing");
	/* A short buffer stays terminated. */
	assert_int_equal(np_xdp_check_existing("eth9", XDP_ATTACHED_DRV, 42, msg, 10), -EEXIST);
	assert_int_equal(strlen(msg), 9);
}

/* Three slots (queues 0, 1 and the overflow slot) on two possible CPUs, ids 0 and 2. */
static void test_fold(void **state)
{
	struct np_xdp_slot v[NP_XDP_SLOTS * 2];
	const int cpus[2] = { 0, 2 };
	struct np_xdp_counts c;

	(void)state;
	memset(v, 0, sizeof(v));
	v[0 * 2 + 0] = (struct np_xdp_slot){ 10, 1000 };	/* queue 0, CPU 0 */
	v[0 * 2 + 1] = (struct np_xdp_slot){ 5, 500 };		/* queue 0, CPU 2 */
	v[3 * 2 + 1] = (struct np_xdp_slot){ 2, 128 };		/* queue 3, CPU 2 */
	v[NP_XDP_MAX_QUEUES * 2 + 0] = (struct np_xdp_slot){ 1, 60 };	/* queue >= 256 */
	assert_int_equal(np_xdp_counts_fold(v, NP_XDP_SLOTS, cpus, 2, &c), 0);
	assert_int_equal(c.packets, 18);
	assert_int_equal(c.bytes, 1688);
	assert_int_equal(c.nqueue, 3);
	assert_int_equal(c.per_queue[0].queue, 0);
	assert_int_equal(c.per_queue[0].cpu, -1);
	assert_int_equal(c.per_queue[0].packets, 15);
	assert_int_equal(c.per_queue[0].bytes, 1500);
	assert_int_equal(c.per_queue[1].queue, 3);
	assert_int_equal(c.per_queue[2].queue, NP_XDP_QUEUE_OVERFLOW);
	assert_int_equal(c.ncpu, 2);
	assert_int_equal(c.per_cpu[0].cpu, 0);
	assert_int_equal(c.per_cpu[0].queue, -1);
	assert_int_equal(c.per_cpu[0].packets, 11);
	assert_int_equal(c.per_cpu[1].cpu, 2);
	assert_int_equal(c.per_cpu[1].packets, 7);
	assert_int_equal(c.per_cpu[1].bytes, 628);
	assert_int_equal(c.ncell, 4);
	assert_int_equal(c.cells[1].cpu, 2);
	assert_int_equal(c.cells[1].queue, 0);
	assert_int_equal(c.cells[1].packets, 5);
	np_xdp_counts_free(&c);
	assert_null(c.per_queue);

	/* Nothing counted: empty lists, zero totals. */
	memset(v, 0, sizeof(v));
	assert_int_equal(np_xdp_counts_fold(v, NP_XDP_SLOTS, cpus, 2, &c), 0);
	assert_int_equal(c.packets, 0);
	assert_int_equal(c.nqueue + c.ncpu + c.ncell, 0);
	np_xdp_counts_free(&c);
	assert_int_equal(np_xdp_counts_fold(NULL, 3, cpus, 2, &c), -EINVAL);
	assert_int_equal(np_xdp_counts_fold(v, 3, NULL, 2, &c), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_disruptive_need_ack),
		cmocka_unit_test(test_i40e_plain_words),
		cmocka_unit_test(test_generic_offloads_off_is_safe),
		cmocka_unit_test(test_unknown_driver),
		cmocka_unit_test(test_veth),
		cmocka_unit_test(test_generic_only_devices),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_modes),
		cmocka_unit_test(test_existing),
		cmocka_unit_test(test_fold),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
