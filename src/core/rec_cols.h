/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The flight recorder's column block (format versions 2 and 3, doc/netpath-record-format.md,
 * "columns"): the second differences of m frames of n counters, stored counter by counter,
 * each counter's m zigzag values bit-packed at the width its largest needs. A static or steady
 * counter costs its width byte (0), which deflate then squeezes with the rows before it; a
 * noisy one costs the bits of its noise and nothing more: varints waste the continuation bits
 * and whole bytes that deflate cannot take back from random low bits. Pure: memory only.
 *
 * Format version 3 packs the same way but predicts each difference by the running mean of the
 * counter's differences (np_rec_mean_pred) rather than by the difference before: for noise
 * that is not correlated from one second to the next, the change in rate has twice the
 * variance of the rate's distance from its mean, half a bit more a value
 * (bench/results/record_store_models.md).
 */
#ifndef NP_REC_COLS_H
#define NP_REC_COLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Frames a column record holds at most, and the values (m x n) a reader accepts in one
 * (a writer stops adding frames before either: 2 MiB of pending values). */
#define NP_REC_COLS_MAX_FRAMES 64u
#define NP_REC_COLS_MAX_VALUES (1u << 18)

/* The bytes np_rec_cols_pack may write for n counters by m frames, at most. */
static inline size_t np_rec_cols_bound(size_t n, size_t m)
{
	return n + n * m * 8 + 8;
}

/*
 * zz: the zigzag second differences, column-major (counter i's m values at zz[i * m]). Writes
 * the n widths (one byte each, 0 to 64), then the values' bits (LSB first, counter by counter)
 * to out; returns the bytes written.
 */
size_t np_rec_cols_pack(uint8_t *out, const uint64_t *zz, size_t n, size_t m);

/*
 * Version 3's predictor, per counter: m is 16 times the running mean of its differences
 * (modulo 2^64: any value, resets and wraps included, round-trips). The prediction is m / 16
 * rounded; after a difference d the mean moves by d minus the prediction (a weight of 1/16),
 * unless the miss is over a quarter of the prediction plus 64: a burst, a reset, a wrap, a
 * new rate; then the mean starts again at d, so the prediction is the difference before, as in
 * version 2, until the counter settles. Writer and reader run the same arithmetic.
 */
#define NP_REC_MEAN_SHIFT 4

static inline uint64_t np_rec_mean_pred(uint64_t m)
{
	/* Arithmetic shift of the signed mean (gcc and clang define it), rounded. */
	return (uint64_t)((int64_t)(m + (1u << (NP_REC_MEAN_SHIFT - 1))) >> NP_REC_MEAN_SHIFT);
}

static inline uint64_t np_rec_mean_next(uint64_t m, uint64_t pred, uint64_t d)
{
	uint64_t r = d - pred;
	uint64_t ar = (int64_t)r < 0 ? 0 - r : r, ap = (int64_t)pred < 0 ? 0 - pred : pred;

	return ar > (ap >> 2) + 64 ? d << NP_REC_MEAN_SHIFT : m + r;
}

/*
 * The zigzag values a column record stores for m frames of n counters (qv: frame f's counter
 * i at qv[f * n + i]) into zz, column-major (counter i's at zz[i * m]). prev: each counter's
 * value in the frame before, st: its predictor state (version 2: its difference before;
 * version 3 with mean: the running mean above); both are moved past the m frames.
 */
void np_rec_cols_resid(uint64_t *zz, const uint64_t *qv, size_t n, size_t m, uint64_t *prev,
		       uint64_t *st, bool mean);

/*
 * Read what np_rec_cols_pack wrote from *p (advanced past it): the counters whose width is not
 * 0 into cols (their positions, *k of them), and their m second differences each, unzigzagged,
 * into dd (column j's at dd[j * m]). The frames are rebuilt one at a time from these by the
 * caller (rec_codec.c), so a frame costs what a version 1 one did: one pass over the counters
 * and a few operations per moving one. -EBADMSG when cut short or a width is over 64.
 */
int np_rec_cols_unpack(const uint8_t **p, const uint8_t *end, size_t n, size_t m,
		       uint32_t *cols, size_t *k, uint64_t *dd);

/*
 * Frame f of an unpacked column record (cols, k, dd as np_rec_cols_unpack left them, m
 * frames): val (n counters) moves to the frame. d[i]: the difference a counter without bits
 * moves by (version 2: its difference before; version 3: its mean's prediction); mean: the
 * running means (version 3), NULL for version 2.
 */
void np_rec_cols_frame(uint64_t *val, uint64_t *d, uint64_t *mean, size_t n,
		       const uint32_t *cols, size_t k, const uint64_t *dd, size_t m, size_t f);

#endif
