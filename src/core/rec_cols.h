/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The flight recorder's column block (format version 2, doc/netpath-record-format.md,
 * "columns"): the second differences of m frames of n counters, stored counter by counter,
 * each counter's m zigzag values bit-packed at the width its largest needs. A static or steady
 * counter costs its width byte (0), which deflate then squeezes with the rows before it; a
 * noisy one costs the bits of its noise and nothing more: varints waste the continuation bits
 * and whole bytes that deflate cannot take back from random low bits. Pure: memory only.
 */
#ifndef NP_REC_COLS_H
#define NP_REC_COLS_H

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
 * Read what np_rec_cols_pack wrote from *p (advanced past it): the counters whose width is not
 * 0 into cols (their positions, *k of them), and their m second differences each, unzigzagged,
 * into dd (column j's at dd[j * m]). The frames are rebuilt one at a time from these by the
 * caller (rec_codec.c), so a frame costs what a version 1 one did: one pass over the counters
 * and a few operations per moving one. -EBADMSG when cut short or a width is over 64.
 */
int np_rec_cols_unpack(const uint8_t **p, const uint8_t *end, size_t n, size_t m,
		       uint32_t *cols, size_t *k, uint64_t *dd);

#endif
