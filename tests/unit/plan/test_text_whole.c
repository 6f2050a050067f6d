// SPDX-License-Identifier: GPL-2.0-only
/*
 * Every sentence netpath writes into a fixed buffer (a finding's summary, detail, remedy and
 * evidence text, a skip reason, a plan line's reason, cost and note) is whole: `netpath plan`
 * once printed "...a longer queue only delays the l". src/core/textcut.c counts every text it
 * had to cut; here the count must stay 0 over every fixture tree and real capture, under
 * every plan profile, with the path given at both extremes (a LAN and a 400G long haul), and
 * again with the device renamed to the longest name Linux allows, the renderers run on each.
 */
#include "plan_fixture.h"
#include "textcut.h"

#include <stdio.h>

/* 15 characters: IF_NAMESIZE - 1. */
#define LONGEST_NAME "enp129s0f1np1vx"

static const struct {
	const char *tree, *ifname;
} trees[] = {
	{ "x710-server", "eth0" }, { "vm-virtio", "eth0" }, { "old-kernel-5.4", "eth0" },
	{ "lan-10g", "enp1s0f0" }, { "arm-board", "enp1s0" }, { "pop-a", "eth0" },
	{ "pop-b", "eth0" },
};

static const struct {
	const char *dir, *ifname;
} captures[] = {
	{ "real/bigsys-480cpu-rhel6", "eth0" },
	{ "real/e1000e-single-msi-8cpu", "enp0s25" },
	{ "real/ena-3nics-x86-4cpu", "eth1" },
	{ "real/igb-kernel3.13-4cpu-all-on-cpu0", "eth0" },
	{ "real/intx-shared-ens3-1cpu-i686", "ens3" },
	{ "real/mlx5-12cpu-pinned", "enp1s0f0np0" },
	{ "real/rhel6-eth0-txrx-16cpu-spread", "eth0" },
	{ "real/virtio-kvm-4cpu", "eth0" },
	{ "real/xen-netfront-eth0-8cpu", "eth0" },
};

/* The path: not given, a LAN, and the longest haul at the highest rate. */
static const double paths[][2] = { { NAN, NAN }, { 0.05, 1e8 }, { 300, 4e11 } };

static void assert_whole(unsigned long before, const char *what, const char *tree)
{
	if (np_textcut_count() != before)
		fail_msg("%lu text(s) cut in %s of %s", np_textcut_count() - before, what, tree);
}

/* Every profile's plan over g's analysis, rendered as text and JSON. */
static void plans(struct golden *g, const char *tree)
{
	for (int prof = 0; prof < NP_PROFILE__COUNT; prof++) {
		unsigned long before = np_textcut_count();
		struct np_plan p;
		char what[64];

		assert_int_equal(np_plan_build(&g->a, &g->rep, (enum np_profile)prof, NULL, &p), 0);
		free(render(&p, false));
		free(render(&p, true));
		np_plan_free(&p);
		snprintf(what, sizeof(what), "the %s plan", np_profile_name((enum np_profile)prof));
		assert_whole(before, what, tree);
	}
}

/* The analysis again, the device under the longest name (the checks write it into texts). */
static void reanalyze_renamed(struct golden *g)
{
	snprintf(g->cur.ifname, sizeof(g->cur.ifname), "%s", LONGEST_NAME);
	snprintf(g->cur.dev.name, sizeof(g->cur.dev.name), "%s", LONGEST_NAME);
	if (g->a.prev) {
		snprintf(g->prev.ifname, sizeof(g->prev.ifname), "%s", LONGEST_NAME);
		snprintf(g->prev.dev.name, sizeof(g->prev.dev.name), "%s", LONGEST_NAME);
	}
	np_report_free(&g->rep);
	memset(&g->rep, 0, sizeof(g->rep));
	assert_int_equal(np_analyze(&g->a, &g->rep, NULL, NULL), 0);
	np_funnel_build(&g->a, &g->fn);
	np_coverage_build(&g->a, &g->rep, &g->cov);
}

static void one(void **state, struct golden *g, const char *tree)
{
	unsigned long before = np_textcut_count();

	(void)state;
	check_renderers(g);
	assert_whole(before, "doctor's findings", tree);
	plans(g, tree);
	before = np_textcut_count();
	reanalyze_renamed(g);
	check_renderers(g);
	assert_whole(before, "doctor's findings (device " LONGEST_NAME ")", tree);
	plans(g, tree);
}

static void test_trees(void **state)
{
	for (size_t i = 0; i < sizeof(trees) / sizeof(trees[0]); i++)
		for (size_t k = 0; k < sizeof(paths) / sizeof(paths[0]); k++) {
			struct golden *g = golden_run_path(state, trees[i].tree, trees[i].ifname,
							   paths[k][0], paths[k][1]);

			one(state, g, trees[i].tree);
			golden_teardown(state);
		}
}

static void test_real_captures(void **state)
{
	for (size_t i = 0; i < sizeof(captures) / sizeof(captures[0]); i++) {
		struct golden *g = golden_run_single(state, captures[i].dir, captures[i].ifname);

		one(state, g, captures[i].dir);
		golden_teardown(state);
	}
}

/* The counter itself can fail: a sentence longer than its buffer is cut at a word and
 * counted; what was in the buffer before stays whole. */
static void test_cut_counted(void **state)
{
	unsigned long before = np_textcut_count();
	char buf[24] = "Raise it.";

	(void)state;
	assert_true(np_textcut_append(buf, sizeof(buf), " %s", "ok"));
	assert_int_equal(np_textcut_count(), before);
	assert_false(np_textcut_append(buf, sizeof(buf), " %s", "a longer queue only delays"));
	assert_int_equal(np_textcut_count(), before + 1);
	assert_string_equal(buf, "Raise it. ok a...");
	strcpy(buf, "twenty-three characters");
	buf[23] = '\0';
	assert_false(np_textcut_append(buf, sizeof(buf), "%s", "x"));
	assert_int_equal(np_textcut_count(), before + 2);
	strcpy(buf, "Raise it.");
	assert_false(np_textcut_append(buf, sizeof(buf), " %s", "unbreakablewordthatislong"));
	assert_string_equal(buf, "Raise it.");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cut_counted),
		cmocka_unit_test_teardown(test_trees, golden_teardown),
		cmocka_unit_test_teardown(test_real_captures, golden_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
