/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Text scanned eight bytes at a time (the /proc parsers, the counter index, the text wrapper).
 * A word is loaded in little-endian order whatever the host's: byte i of the text is bits
 * 8i..8i+7, so the lowest flagged byte of a test below is the first in the text, and keeping a
 * word's low bytes keeps the text's first ones. On a big-endian host (s390x, ppc64) a plain
 * load would put the first byte at the top, and the lowest flag, the only exact one, would
 * be the last byte instead of the first.
 */
#ifndef NP_WORD8_H
#define NP_WORD8_H

#include <stdint.h>
#include <string.h>

static inline uint64_t np_le64(const void *p)
{
	uint64_t w;

	memcpy(&w, p, sizeof(w));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w;
}

/* The bytes of w below c (1..0x80) flagged at their top bit. A borrow can flag bytes above a
 * flagged one too, never below: the lowest flag is exact, the ones above it may not be. */
static inline uint64_t np_word_below(uint64_t w, unsigned char c)
{
	return (w - 0x0101010101010101ULL * c) & ~w & 0x8080808080808080ULL;
}

/* The index of the lowest flagged byte of z (z != 0): the first in the text. */
static inline unsigned np_word_first(uint64_t z)
{
	return (unsigned)__builtin_ctzll(z) / 8;
}

#endif
