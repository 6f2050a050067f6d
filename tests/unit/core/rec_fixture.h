/* SPDX-License-Identifier: GPL-2.0-only */
/* Frames for the flight recorder's tests: counters that are a function of the second (static,
 * steady, bursty, wrapping), names, and a fake clock: second t is mono BASE_M + t s and wall
 * BASE_W + t s unless a test moves them. Include after cmocka.h. */
#ifndef NP_TEST_REC_FIXTURE_H
#define NP_TEST_REC_FIXTURE_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "rec_store.h"

#define SEC 1000000000LL
#define BASE_M (1000 * SEC)
#define BASE_W (1767225600LL * SEC)	/* 2026-01-01 00:00:00 UTC */
#define MAXN 64

static inline uint64_t val(size_t i, int64_t t)
{
	switch (i % 5) {
	case 0:
		return 1000 + i;			/* static */
	case 1:
		return (uint64_t)t * (i + 1) * 1000;	/* steady */
	case 2:
		return (uint64_t)(t / 7) * 13 + (t % 60 == 0 ? 5 : 0);	/* bursty */
	case 3:
		return UINT64_MAX - 50 + (uint64_t)t;	/* wraps at t = 51 */
	default:
		return ((uint64_t)t * 2654435761u) ^ i;	/* noise */
	}
}

struct frame_buf {
	uint64_t v[MAXN];
	char names[MAXN * 8];
	size_t names_len;
	struct np_rec_sample s;
};

/* The sample of second t with n counters named "cI" (or "xI" with alt). */
static inline struct np_rec_sample *mk(struct frame_buf *b, int64_t t, size_t n, bool alt)
{
	size_t len = 0;

	for (size_t i = 0; i < n; i++) {
		b->v[i] = val(i, t);
		len += (size_t)sprintf(b->names + len, "%c%zu", alt ? 'x' : 'c', i) + 1;
	}
	memset(&b->s, 0, sizeof(b->s));
	b->s.mono_ns = BASE_M + t * SEC;
	b->s.wall_ns = BASE_W + t * SEC;
	b->s.v = b->v;
	b->s.n = n;
	b->s.names = b->names;
	b->s.names_len = len;
	return &b->s;
}

/* The frame read is second t's. */
static inline void expect_frame(const struct np_rec_frame *f, int64_t t, size_t n)
{
	assert_int_equal(f->n, n);
	for (size_t i = 0; i < n; i++)
		assert_true(f->v[i] == val(i, t));
}

#endif
