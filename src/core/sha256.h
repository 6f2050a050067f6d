/* SPDX-License-Identifier: GPL-2.0-only */
/* SHA-256 (FIPS 180-4), for `netpath path`'s HMAC: small, no library, no allocation. */
#ifndef NP_SHA256_H
#define NP_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define NP_SHA256_LEN 32
#define NP_SHA256_BLOCK 64

struct np_sha256 {
	uint32_t h[8];
	uint64_t len;			/* bytes hashed so far */
	uint8_t buf[NP_SHA256_BLOCK];
	size_t nbuf;
};

void np_sha256_init(struct np_sha256 *c);
void np_sha256_update(struct np_sha256 *c, const void *data, size_t n);
void np_sha256_final(struct np_sha256 *c, uint8_t out[NP_SHA256_LEN]);
/* The digest of one buffer. */
void np_sha256(const void *data, size_t n, uint8_t out[NP_SHA256_LEN]);

#endif
