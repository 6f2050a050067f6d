/* SPDX-License-Identifier: GPL-2.0-only */
/* Gzip members for archives built in tests (tar_build.h): a small file whose stream is huge.
 * Include after cmocka.h and tar_build.h. */
#ifndef NP_TEST_GZIP_BUILD_H
#define NP_TEST_GZIP_BUILD_H

#include <stdint.h>
#include <zlib.h>

/* A gzip member holding the n bytes at data, appended to a (gzip allows members one after
 * the other: a reader inflates them as one stream). */
static inline void gzip_append(struct ar *a, const void *data, size_t n)
{
	z_stream z = { 0 };
	uint8_t out[64 * 1024];
	int r;

	assert_int_equal(deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (uint8_t *)data;
	z.avail_in = (uInt)n;
	do {
		z.next_out = out;
		z.avail_out = sizeof(out);
		r = deflate(&z, Z_FINISH);
		assert_true(r == Z_OK || r == Z_STREAM_END || r == Z_BUF_ERROR);
		ar_put(a, out, sizeof(out) - z.avail_out);
	} while (r != Z_STREAM_END);
	deflateEnd(&z);
}

#endif
