// SPDX-License-Identifier: GPL-2.0-only
/* The flight recorder's column block: bit-packed second differences (rec_cols.h). */
#include "rec_cols.h"

#include <errno.h>

static unsigned width(uint64_t x)
{
	return x ? 64u - (unsigned)__builtin_clzll(x) : 0u;
}

size_t np_rec_cols_pack(uint8_t *out, const uint64_t *zz, size_t n, size_t m)
{
	uint8_t *o = out + n;
	uint64_t acc = 0;
	unsigned have = 0;	/* bits in acc, always under 8 between values */

	for (size_t i = 0; i < n; i++) {
		uint64_t top = 0;

		for (size_t f = 0; f < m; f++)
			top |= zz[i * m + f];
		out[i] = (uint8_t)width(top);
	}
	for (size_t i = 0; i < n; i++) {
		unsigned w = out[i];

		for (size_t f = 0; w && f < m; f++) {
			uint64_t x = zz[i * m + f];
			unsigned left = w;

			/* In pieces of at most 32 bits: acc never holds more than 39. */
			while (left) {
				unsigned k = left > 32 ? 32 : left;

				acc |= (x & ((1ull << k) - 1)) << have;
				x = k < 64 ? x >> k : 0;
				have += k;
				left -= k;
				while (have >= 8) {
					*o++ = (uint8_t)acc;
					acc >>= 8;
					have -= 8;
				}
			}
		}
	}
	if (have)
		*o++ = (uint8_t)acc;
	return (size_t)(o - out);
}

struct bits {
	const uint8_t *p, *end;
	uint64_t acc;
	unsigned have;
};

/* w bits (1 to 32). -EBADMSG past the end. */
static inline int take(struct bits *b, unsigned w, uint64_t *x)
{
	while (b->have < w) {
		if (b->p == b->end)
			return -EBADMSG;
		b->acc |= (uint64_t)*b->p++ << b->have;
		b->have += 8;
	}
	*x = b->acc & ((1ull << w) - 1);
	b->acc >>= w;
	b->have -= w;
	return 0;
}

int np_rec_cols_unpack(const uint8_t **p, const uint8_t *end, size_t n, size_t m,
		       uint32_t *cols, size_t *k, uint64_t *dd)
{
	const uint8_t *wid = *p;
	struct bits b;
	size_t j = 0;

	if ((size_t)(end - *p) < n)
		return -EBADMSG;
	b.p = *p + n;
	b.end = end;
	b.acc = 0;
	b.have = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned w = wid[i];

		if (w > 64)
			return -EBADMSG;
		if (!w)
			continue;	/* static or steady: the common case, no bits */
		for (size_t f = 0; f < m; f++) {
			uint64_t x, hi = 0;

			if (take(&b, w > 32 ? 32 : w, &x) < 0 ||
			    (w > 32 && take(&b, w - 32, &hi) < 0))
				return -EBADMSG;
			x |= hi << 32;
			dd[j * m + f] = (x >> 1) ^ (0 - (x & 1));	/* unzigzag, modular */
		}
		cols[j++] = (uint32_t)i;
	}
	/* Whole bytes: what is left in acc is padding. */
	*p = b.p;
	*k = j;
	return 0;
}

void np_rec_cols_resid(uint64_t *zz, const uint64_t *qv, size_t n, size_t m, uint64_t *prev,
		       uint64_t *st, bool mean)
{
	/* Modular: a counter that resets, wraps or turns NA round-trips exactly. */
	for (size_t i = 0; i < n; i++) {
		uint64_t pv = prev[i], s = st[i];

		for (size_t f = 0; f < m; f++) {
			uint64_t x = qv[f * n + i], d = x - pv;
			uint64_t pred = mean ? np_rec_mean_pred(s) : s;

			zz[i * m + f] = ((d - pred) << 1) ^ (0 - ((d - pred) >> 63));	/* zigzag */
			s = mean ? np_rec_mean_next(s, pred, d) : d;
			pv = x;
		}
		prev[i] = pv;
		st[i] = s;
	}
}

void np_rec_cols_frame(uint64_t *val, uint64_t *d, uint64_t *mean, size_t n,
		       const uint32_t *cols, size_t k, const uint64_t *dd, size_t m, size_t f)
{
	/* Only the counters with bits change their difference; then every counter moves by
	 * its difference (one pass, as a version 1 frame). */
	for (size_t j = 0; j < k; j++) {
		size_t i = cols[j];

		if (mean) {
			uint64_t diff = d[i] + dd[j * m + f];

			mean[i] = np_rec_mean_next(mean[i], d[i], diff);
			d[i] = diff;
		} else {
			d[i] += dd[j * m + f];
		}
	}
	for (size_t i = 0; i < n; i++)
		val[i] += d[i];
	/* Version 3: what a counter without bits moves by next is its mean's prediction. */
	for (size_t j = 0; mean && j < k; j++)
		d[cols[j]] = np_rec_mean_pred(mean[cols[j]]);
}
