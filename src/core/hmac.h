/* SPDX-License-Identifier: GPL-2.0-only */
/* HMAC-SHA256 (RFC 2104, RFC 4231), and a comparison of digests that takes constant time. */
#ifndef NP_HMAC_H
#define NP_HMAC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sha256.h"

/* HMAC-SHA256 of the concatenation of the n parts (parts[i], lens[i]) under key. */
void np_hmac_sha256_v(const void *key, size_t klen, const void *const *parts,
		      const size_t *lens, size_t n, uint8_t out[NP_SHA256_LEN]);
void np_hmac_sha256(const void *key, size_t klen, const void *msg, size_t mlen,
		    uint8_t out[NP_SHA256_LEN]);
/* Equal, in time that does not depend on where they differ. */
bool np_ct_equal(const void *a, const void *b, size_t n);

#endif
