// SPDX-License-Identifier: GPL-2.0-only
/* watch's full socket walk every N frames (core/walk_cadence.c): N fixed, or from the costs. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "walk_cadence.h"

/* Run k collections: each walks when due, at the given costs; returns how many walked. */
static unsigned run(struct np_walk_cadence *c, unsigned k, double full_s, double cheap_s,
		    char *pattern)
{
	unsigned walks = 0;

	for (unsigned i = 0; i < k; i++) {
		bool full = np_walk_cadence_due(c);

		walks += full;
		if (pattern)
			pattern[i] = full ? 'W' : '.';
		np_walk_cadence_record(c, full, full ? full_s : cheap_s, (double)i);
	}
	if (pattern)
		pattern[k] = '\0';
	return walks;
}

/* --socket-walk-every 4: the first collection walks, then every fourth, whatever the costs. */
static void test_fixed(void **state)
{
	struct np_walk_cadence c;
	char pat[16];

	(void)state;
	np_walk_cadence_init(&c, 4, NP_WALK_BUDGET_S);
	assert_int_equal(run(&c, 10, 0.001, 0.001, pat), 3);
	assert_string_equal(pat, "W...W...W.");
	assert_int_equal(c.every, 4);
	assert_true(c.last_full_t == 8);
	assert_int_equal(c.since, 1);
	np_walk_cadence_init(&c, 1, NP_WALK_BUDGET_S);
	assert_int_equal(run(&c, 5, 1.0, 1.0, pat), 5);
	assert_string_equal(pat, "WWWWW");
	/* Beyond the cap: the cap. */
	np_walk_cadence_init(&c, 100000, NP_WALK_BUDGET_S);
	assert_int_equal(c.every, NP_WALK_EVERY_MAX);
}

/* Adaptive: a walk that fits the budget walks every frame (a small host sees no change). */
static void test_adaptive_cheap_walk(void **state)
{
	struct np_walk_cadence c;

	(void)state;
	np_walk_cadence_init(&c, 0, 0.040);
	assert_true(np_walk_cadence_due(&c));
	assert_int_equal(run(&c, 20, 0.005, 0.004, NULL), 20);
	assert_int_equal(c.every, 1);
	assert_true(fabs(c.full_cpu_s - 0.005) < 1e-12);
}

/* Adaptive at 200,000 sockets: a 300 ms walk and 5 ms frames between. The smallest N with
 * (300 + 5 (N - 1)) / N <= 40 is ceil(295 / 35) = 9; the average then is 37.2 ms. Before the
 * first cheap frame is measured the guess is ceil(300 / 40) = 8. */
static void test_adaptive_expensive_walk(void **state)
{
	struct np_walk_cadence c;
	char pat[40];
	unsigned walks;

	(void)state;
	np_walk_cadence_init(&c, 0, 0.040);
	np_walk_cadence_record(&c, true, 0.300, 0);
	assert_int_equal(c.every, 8);
	assert_false(np_walk_cadence_due(&c));
	np_walk_cadence_record(&c, false, 0.005, 1);
	assert_int_equal(c.every, 9);
	np_walk_cadence_init(&c, 0, 0.040);
	walks = run(&c, 28, 0.300, 0.005, pat);
	assert_string_equal(pat, "W........W........W........W");
	assert_int_equal(walks, 4);
	/* The average over whole periods stays within the budget. */
	assert_true((0.300 + 8 * 0.005) / 9 <= 0.040);
	assert_false((0.300 + 7 * 0.005) / 8 <= 0.040);
}

/* Costs change: the next N follows the last measured walk. */
static void test_adaptive_follows_costs(void **state)
{
	struct np_walk_cadence c;

	(void)state;
	np_walk_cadence_init(&c, 0, 0.040);
	np_walk_cadence_record(&c, true, 0.300, 0);
	np_walk_cadence_record(&c, false, 0.005, 1);
	assert_int_equal(c.every, 9);
	np_walk_cadence_record(&c, true, 0.030, 2);	/* the sockets went away */
	assert_int_equal(c.every, 1);
	assert_true(np_walk_cadence_due(&c));
	/* A collection not measured (NAN) keeps the last cost. */
	np_walk_cadence_record(&c, true, NAN, 3);
	assert_true(fabs(c.full_cpu_s - 0.030) < 1e-12);
	/* Even the cheap frames over the budget: as seldom as allowed. */
	np_walk_cadence_record(&c, true, 2.0, 4);
	np_walk_cadence_record(&c, false, 0.050, 5);
	assert_int_equal(c.every, NP_WALK_EVERY_MAX);
	/* A walk a thousand times the budget: capped too. */
	np_walk_cadence_record(&c, false, 0.001, 6);
	np_walk_cadence_record(&c, true, 40.0, 7);
	assert_int_equal(c.every, NP_WALK_EVERY_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixed),
		cmocka_unit_test(test_adaptive_cheap_walk),
		cmocka_unit_test(test_adaptive_expensive_walk),
		cmocka_unit_test(test_adaptive_follows_costs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
