// SPDX-License-Identifier: GPL-2.0-only
/* HMAC-SHA256: H((K ^ opad) || H((K ^ ipad) || m)), a key longer than a block hashed first. */
#include <string.h>

#include "hmac.h"

void np_hmac_sha256_v(const void *key, size_t klen, const void *const *parts,
		      const size_t *lens, size_t n, uint8_t out[NP_SHA256_LEN])
{
	uint8_t k[NP_SHA256_BLOCK] = { 0 }, pad[NP_SHA256_BLOCK], inner[NP_SHA256_LEN];
	struct np_sha256 c;

	if (klen > NP_SHA256_BLOCK)
		np_sha256(key, klen, k);
	else if (klen > 0)
		memcpy(k, key, klen);
	for (size_t i = 0; i < sizeof(pad); i++)
		pad[i] = k[i] ^ 0x36;
	np_sha256_init(&c);
	np_sha256_update(&c, pad, sizeof(pad));
	for (size_t i = 0; i < n; i++)
		np_sha256_update(&c, parts[i], lens[i]);
	np_sha256_final(&c, inner);
	for (size_t i = 0; i < sizeof(pad); i++)
		pad[i] = k[i] ^ 0x5c;
	np_sha256_init(&c);
	np_sha256_update(&c, pad, sizeof(pad));
	np_sha256_update(&c, inner, sizeof(inner));
	np_sha256_final(&c, out);
	/* The key's traces do not outlive the call. */
	memset(k, 0, sizeof(k));
	memset(pad, 0, sizeof(pad));
}

void np_hmac_sha256(const void *key, size_t klen, const void *msg, size_t mlen,
		    uint8_t out[NP_SHA256_LEN])
{
	const void *parts[1] = { msg };
	size_t lens[1] = { mlen };

	np_hmac_sha256_v(key, klen, parts, lens, 1, out);
}

bool np_ct_equal(const void *a, const void *b, size_t n)
{
	const volatile uint8_t *x = a, *y = b;
	uint8_t d = 0;

	for (size_t i = 0; i < n; i++)
		d |= x[i] ^ y[i];
	return d == 0;
}
