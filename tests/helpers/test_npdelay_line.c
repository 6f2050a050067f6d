// SPDX-License-Identifier: GPL-2.0-only
/* npdelay's shaping arithmetic (npdelay_line.c): the delay alone, the serialising bottleneck's
 * rate and tail drop, the policer's bucket. Times in ns. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "npdelay_line.h"

#define MS 1000000ull
#define T0 (1000 * MS)	/* monotonic clocks do not start at 0; 0 means "dropped" */

static void delay_only(void **state)
{
	struct np_line l;

	(void)state;
	np_line_init(&l, 30 * MS, 0, 0, 0, 0);
	assert_int_equal(np_line_admit(&l, T0, 1514), T0 + 30 * MS);
	assert_int_equal(np_line_admit(&l, T0, 1514), T0 + 30 * MS);	/* no serialisation */
	assert_int_equal(np_line_admit(&l, T0 + 5, 60), T0 + 5 + 30 * MS);
}

/* At 12 Mbit/s a 1500-byte frame takes 1 ms: back-to-back frames leave 1 ms apart, and the
 * queue of 3000 bytes holds two of them; the third finds it full and drops. */
static void bottleneck_rate_and_tail_drop(void **state)
{
	struct np_line l;

	(void)state;
	np_line_init(&l, 10 * MS, 12e6, 3000, 0, 0);
	assert_int_equal(np_line_admit(&l, T0, 1500), T0 + 1 * MS + 10 * MS);
	assert_int_equal(np_line_admit(&l, T0, 1500), T0 + 2 * MS + 10 * MS);
	assert_int_equal(np_line_admit(&l, T0, 1500), 0);
	assert_int_equal(l.drop_queue, 1);
	/* Half a millisecond later 2250 bytes still wait: no room yet; a millisecond later one
	 * frame has gone and one fits again, behind the other. */
	assert_int_equal(np_line_admit(&l, T0 + MS / 2, 1500), 0);
	assert_int_equal(np_line_admit(&l, T0 + MS, 1500), T0 + 3 * MS + 10 * MS);
	/* An idle line serialises from the arrival, not from the past. */
	assert_int_equal(np_line_admit(&l, T0 + 100 * MS, 1500), T0 + 101 * MS + 10 * MS);
}

/* Offered at twice the rate for a second, the bottleneck delivers the rate: released frames
 * span the second at 1 ms each (12 Mbit/s), about half dropped. */
static void bottleneck_delivers_its_rate(void **state)
{
	struct np_line l;
	uint64_t last = 0, passed = 0;

	(void)state;
	np_line_init(&l, 0, 12e6, 30000, 0, 0);
	for (uint64_t t = T0; t < T0 + 1000 * MS; t += MS / 2) {
		uint64_t due = np_line_admit(&l, t, 1500);

		if (due) {
			assert_true(due >= last);	/* FIFO: release times never go back */
			last = due;
			passed++;
		}
	}
	assert_in_range(passed, 1000, 1021);	/* 1000 in the second, plus the queue */
	assert_in_range(l.drop_queue, 979, 1000);
}

/* A policer at 12 Mbit/s with a 3000-byte bucket: the burst passes, the next frame drops,
 * 1 ms refills one frame; nothing is delayed beyond the line's delay. */
static void policer(void **state)
{
	struct np_line l;
	uint64_t passed = 0;

	(void)state;
	np_line_init(&l, 5 * MS, 0, 0, 12e6, 3000);
	assert_int_equal(np_line_admit(&l, T0, 1500), T0 + 5 * MS);
	assert_int_equal(np_line_admit(&l, T0, 1500), T0 + 5 * MS);
	assert_int_equal(np_line_admit(&l, T0, 1500), 0);
	assert_int_equal(l.drop_police, 1);
	assert_int_equal(np_line_admit(&l, T0 + MS, 1500), T0 + MS + 5 * MS);
	/* Offered at 24 Mbit/s for a second: 12 Mbit/s pass (1000 frames, plus the bucket). */
	for (uint64_t t = T0 + 2 * MS; t < T0 + 1002 * MS; t += MS / 2)
		passed += np_line_admit(&l, t, 1500) != 0;
	assert_in_range(passed, 999, 1003);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(delay_only),
		cmocka_unit_test(bottleneck_rate_and_tail_drop),
		cmocka_unit_test(bottleneck_delivers_its_rate),
		cmocka_unit_test(policer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
