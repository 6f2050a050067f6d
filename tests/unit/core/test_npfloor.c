// SPDX-License-Identifier: GPL-2.0-only
/*
 * np_floor() (core/npfloor.h), the floor() that spares every run loading libm (issue #35),
 * against libm's own on the values where a hand-made floor goes wrong: negative fractions,
 * signed zeros, the 2^52 edge where doubles stop having fractions, long long's range,
 * infinities and NaN.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "npfloor.h"

/* Same value and, for zeros, the same sign: compared bit for bit (NaN with isnan). */
static void same(double v)
{
	double want = floor(v), got = np_floor(v);

	if (isnan(want)) {
		assert_true(isnan(got));
		return;
	}
	assert_memory_equal(&got, &want, sizeof(want));
}

static void test_edges(void **state)
{
	static const double v[] = {
		0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 1.5, -1.5, 2.9999999999999996, -2.9999999999999996,
		1e-300, -1e-300, 4503599627370495.5, -4503599627370495.5, 4503599627370496.0,
		-4503599627370496.0, 9007199254740993.0, -9007199254740993.0, 9.3e18, -9.3e18,
		1e300, -1e300, 1795885821.874, -1795885821.874, 123.0, -123.0,
	};

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		same(v[i]);
	same(INFINITY);
	same(-INFINITY);
	same(NAN);
}

/* A sweep of fractions on both sides of zero and of whole numbers. */
static void test_sweep(void **state)
{
	(void)state;
	for (int i = -20000; i <= 20000; i++) {
		same(i / 64.0);
		same(i / 10.0);
		same(nextafter(i, 0));
		same(nextafter(i, i < 0 ? -INFINITY : INFINITY));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_sweep),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
