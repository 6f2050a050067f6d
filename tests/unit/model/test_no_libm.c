// SPDX-License-Identifier: GPL-2.0-only
/*
 * What replaced libm in netpath, against libm itself. The RTT histogram's buckets and quantiles
 * (integer exponents, a table of 2^(j/4), a short series) against log2() and pow(): every bucket
 * edge, every value up to 2^20 µs, random values up to 2^32; quantiles to 1e-12 relative. And
 * np_round() against round() on halves, near-halves, negatives and huge values.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "render.h"
#include "sockets.h"

static unsigned bucket_by_libm(uint32_t us)
{
	unsigned b;

	if (us <= 1)
		return 0;
	b = (unsigned)floor(NP_SOCK_RTT_SUB * log2((double)us));
	return b < NP_SOCK_RTT_BUCKETS ? b : NP_SOCK_RTT_BUCKETS - 1;
}

static void test_buckets_match_log2(void **state)
{
	(void)state;
	for (uint32_t us = 0; us <= (1u << 20); us++)
		assert_int_equal(np_sockets_rtt_bucket(us), bucket_by_libm(us));
	srand(7);
	for (int i = 0; i < 2000000; i++) {
		uint32_t us = ((uint32_t)rand() << 16) ^ (uint32_t)rand();

		assert_int_equal(np_sockets_rtt_bucket(us), bucket_by_libm(us));
	}
	/* Both sides of every edge 2^(k/4) µs. */
	for (unsigned k = 4; k < NP_SOCK_RTT_BUCKETS; k++) {
		double edge = pow(2.0, (double)k / NP_SOCK_RTT_SUB);
		uint32_t lo = (uint32_t)floor(edge), hi = lo + 1;

		assert_int_equal(np_sockets_rtt_bucket(lo), bucket_by_libm(lo));
		if (hi)
			assert_int_equal(np_sockets_rtt_bucket(hi), bucket_by_libm(hi));
	}
	assert_int_equal(np_sockets_rtt_bucket(UINT32_MAX), NP_SOCK_RTT_BUCKETS - 1);
}

static void test_quantiles_match_pow(void **state)
{
	uint32_t hist[NP_SOCK_RTT_BUCKETS] = { 0 };
	uint64_t n = 0;

	(void)state;
	srand(11);
	for (unsigned i = 0; i < NP_SOCK_RTT_BUCKETS; i++) {
		hist[i] = (uint32_t)(rand() % 50);
		n += hist[i];
	}
	for (double q = 0.001; q <= 1.0; q += 0.001) {
		double target = q * (double)n, cum = 0, want = NAN;

		for (unsigned i = 0; i < NP_SOCK_RTT_BUCKETS; i++) {
			if (hist[i] > 0 && cum + hist[i] >= target) {
				want = pow(2.0, ((double)i + (target - cum) / hist[i]) /
					   NP_SOCK_RTT_SUB) / 1000.0;
				break;
			}
			cum += hist[i];
		}
		assert_true(fabs(np_sockets_quantile_ms(hist, n, q) - want) <= 1e-12 * want);
	}
	assert_true(isnan(np_sockets_quantile_ms(hist, 0, 0.5)));
}

static void test_round_matches_libm(void **state)
{
	static const double cases[] = {
		0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, 0.49999999999999994, -0.49999999999999994,
		99.5, 100.4999, 1e15 + 0.5, 4503599627370495.5, 4503599627370497.0, 1e300, -1e300,
		123456.789, -98765.4321,
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_true(np_round(cases[i]) == round(cases[i]));
	srand(3);
	for (int i = 0; i < 1000000; i++) {
		double v = ((double)rand() - RAND_MAX / 2) / 1000.0;

		assert_true(np_round(v) == round(v));
	}
	assert_true(isnan(np_round(NAN)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buckets_match_log2),
		cmocka_unit_test(test_quantiles_match_pow),
		cmocka_unit_test(test_round_matches_libm),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
