// SPDX-License-Identifier: GPL-2.0-only
/*
 * SHA-256 against FIPS 180-4's examples (NIST CSRC "Examples with intermediate values",
 * SHA256.pdf: "abc", the 448-bit message, one million 'a') and HMAC-SHA256 against RFC 4231's
 * test cases 1-4, 6 and 7 (case 5 truncates the output, which netpath never does).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "hmac.h"
#include "sha256.h"

static void hex(const uint8_t *d, char *out)
{
	for (int i = 0; i < NP_SHA256_LEN; i++)
		sprintf(out + 2 * i, "%02x", d[i]);
}

static void check_sha(const void *m, size_t n, const char *want)
{
	uint8_t d[NP_SHA256_LEN];
	char h[2 * NP_SHA256_LEN + 1];

	np_sha256(m, n, d);
	hex(d, h);
	assert_string_equal(h, want);
}

static void sha256_fips(void **state)
{
	static char million[1000000];
	struct np_sha256 c;
	uint8_t d[NP_SHA256_LEN];
	char h[2 * NP_SHA256_LEN + 1];

	(void)state;
	check_sha("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	check_sha("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	check_sha("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	memset(million, 'a', sizeof(million));
	check_sha(million, sizeof(million),
		  "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	/* Fed in uneven pieces: the same digest. */
	np_sha256_init(&c);
	for (size_t off = 0, k = 1; off < sizeof(million); off += k, k = k * 3 % 997 + 1)
		np_sha256_update(&c, million + off, off + k > sizeof(million) ?
				 sizeof(million) - off : k);
	np_sha256_final(&c, d);
	hex(d, h);
	assert_string_equal(h, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

static void check_hmac(const uint8_t *k, size_t kl, const void *m, size_t ml, const char *want)
{
	uint8_t d[NP_SHA256_LEN];
	char h[2 * NP_SHA256_LEN + 1];

	np_hmac_sha256(k, kl, m, ml, d);
	hex(d, h);
	assert_string_equal(h, want);
}

static void hmac_rfc4231(void **state)
{
	uint8_t k[131];
	uint8_t m[50];

	(void)state;
	memset(k, 0x0b, 20);	/* case 1 */
	check_hmac(k, 20, "Hi There", 8,
		   "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
	check_hmac((const uint8_t *)"Jefe", 4, "what do ya want for nothing?", 28,	/* case 2 */
		   "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
	memset(k, 0xaa, 20);	/* case 3 */
	memset(m, 0xdd, 50);
	check_hmac(k, 20, m, 50,
		   "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe");
	for (int i = 0; i < 25; i++)	/* case 4 */
		k[i] = (uint8_t)(i + 1);
	memset(m, 0xcd, 50);
	check_hmac(k, 25, m, 50,
		   "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b");
	memset(k, 0xaa, 131);	/* case 6: a key longer than a block is hashed first */
	check_hmac(k, 131, "Test Using Larger Than Block-Size Key - Hash Key First", 54,
		   "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
	check_hmac(k, 131,	/* case 7 */
		   "This is a test using a larger than block-size key and a larger than "
		   "block-size data. The key needs to be hashed before being used by the HMAC "
		   "algorithm.", 152,
		   "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2");
}

static void ct_equal(void **state)
{
	(void)state;
	assert_true(np_ct_equal("abcd", "abcd", 4));
	assert_false(np_ct_equal("abcd", "abce", 4));
	assert_false(np_ct_equal("xbcd", "abcd", 4));
	assert_true(np_ct_equal("", "", 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sha256_fips),
		cmocka_unit_test(hmac_rfc4231),
		cmocka_unit_test(ct_equal),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
