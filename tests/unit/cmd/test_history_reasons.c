// SPDX-License-Identifier: GPL-2.0-only
/*
 * history's top drop reason per second (history_reasons.c) over frames as `record --drops`
 * writes them: a reason's name appears in the frame after its first drop, so the second it
 * appears in is rated from 0 (the burst's first second was lost to it), never across a gap,
 * and a count that went down (the program loaded again) is no rate.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "history_reasons.h"

static const char *const none[] = { "link/x" };
static const char *const one[] = { "link/x", "drops/SOCKET_RCVBUFF" };
static const char *const two[] = { "link/x", "drops/SOCKET_RCVBUFF", "drops/NO_SOCKET" };

static struct np_rec_frame frame(const char *const *name, size_t n, const uint64_t *v,
				 unsigned flags)
{
	struct np_rec_frame f = { .n = n, .v = v, .name = name, .flags = flags };

	return f;
}

static void test_first_appearance_rated_from_zero(void **state)
{
	struct np_history h = { 0 };
	struct np_reason_track rt = { 0 };
	struct np_history_sec s;
	uint64_t v0[] = { 1 }, v1[] = { 2, 500 }, v2[] = { 3, 800, 40 };
	struct np_rec_frame f;

	(void)state;
	f = frame(none, 1, v0, NP_REC_F_FIRST);
	assert_int_equal(np_history_reasons(&h, &rt, &f, false, 0, &s), 0);
	assert_int_equal(s.reason, -1);
	/* The flood's first second: the name is new, its 500 drops all happened in it. */
	f = frame(one, 2, v1, NP_REC_F_SCHEMA);
	assert_int_equal(np_history_reasons(&h, &rt, &f, true, 1.0, &s), 0);
	assert_int_equal(s.reason, 0);
	assert_string_equal(h.reason[s.reason], "SOCKET_RCVBUFF");
	assert_true(s.reason_rate > 499.9f && s.reason_rate < 500.1f);
	assert_true(h.has_reasons);
	/* Then differenced: 300 more, and a new reason's 40 from 0. */
	f = frame(two, 3, v2, NP_REC_F_SCHEMA);
	assert_int_equal(np_history_reasons(&h, &rt, &f, true, 1.0, &s), 0);
	assert_string_equal(h.reason[s.reason], "SOCKET_RCVBUFF");
	assert_true(s.reason_rate > 299.9f && s.reason_rate < 300.1f);
	np_reason_track_free(&rt);
	free(h.reason);
}

static void test_never_across_a_gap_or_a_reload(void **state)
{
	struct np_history h = { 0 };
	struct np_reason_track rt = { 0 };
	struct np_history_sec s;
	uint64_t v1[] = { 2, 500 }, v2[] = { 3, 9000 }, v3[] = { 4, 10 };
	struct np_rec_frame f;

	(void)state;
	f = frame(one, 2, v1, NP_REC_F_FIRST);
	assert_int_equal(np_history_reasons(&h, &rt, &f, false, 0, &s), 0);
	assert_int_equal(s.reason, -1);		/* no frame before: no rate */
	f = frame(one, 2, v2, NP_REC_F_GAP);
	assert_int_equal(np_history_reasons(&h, &rt, &f, false, 30.0, &s), 0);
	assert_int_equal(s.reason, -1);		/* across a gap: no rate */
	f = frame(one, 2, v3, 0);
	assert_int_equal(np_history_reasons(&h, &rt, &f, true, 1.0, &s), 0);
	assert_int_equal(s.reason, -1);		/* went down: loaded again, no rate */
	np_reason_track_free(&rt);
	free(h.reason);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_appearance_rated_from_zero),
		cmocka_unit_test(test_never_across_a_gap_or_a_reload),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
