// SPDX-License-Identifier: GPL-2.0-only
/*
 * The tar stream parser without I/O: pax size and path records, global pax headers ignored,
 * GNU base-256 sizes and old sparse extension blocks, malformed and oversized metadata, and
 * the path rules extraction applies (np_tar_clean_path).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tar.h"
#include "tar_build.h"
#include "tar_parse.h"

/* Feed a.buf block by block until a member or the end; the step. */
static int next(struct np_tar_parser *p, const struct ar *a, size_t *pos, char *err)
{
	int r;

	do {
		assert_true(*pos + NP_TAR_BLOCK <= a->len);
		r = np_tar_parse_block(p, a->buf + *pos, err, 256);
		*pos += NP_TAR_BLOCK;
	} while (r == NP_TAR_MORE);
	return r;
}

static void skip_data(struct np_tar_parser *p, size_t *pos)
{
	uint64_t n = np_tar_padded(p->m.data);

	*pos += (size_t)n;
	np_tar_parse_skip(p, n);
}

static void refix_checksum(uint8_t *h)
{
	unsigned sum = 0;

	memset(h + 148, ' ', 8);
	for (int i = 0; i < 512; i++)
		sum += h[i];
	snprintf((char *)h + 148, 8, "%06o", sum);
	h[155] = ' ';
}

static void test_pax_records(void **state)
{
	struct np_tar_parser p;
	struct ar a = { 0 };
	char rec[512], err[256];
	size_t n, pos = 0;

	(void)state;
	n = pax_rec(rec, sizeof(rec), "comment", "ignored");
	ar_meta(&a, 'g', rec, n);			/* global: ignored */
	n = pax_rec(rec, sizeof(rec), "path", "long/path/from/pax");
	n += pax_rec(rec + n, sizeof(rec) - n, "size", "3");
	n += pax_rec(rec + n, sizeof(rec) - n, "mtime", "1700000000.5");
	ar_meta(&a, 'x', rec, n);
	ar_hdr(&a, "short", '0', 999, NULL);		/* the pax size wins */
	ar_put(&a, "abc", 3);
	ar_pad(&a);
	ar_file(&a, "plain", "xy");			/* overrides do not carry over */
	ar_end(&a);

	np_tar_parser_init(&p);
	assert_int_equal(next(&p, &a, &pos, err), NP_TAR_MEMBER);
	assert_string_equal(p.m.path, "long/path/from/pax");
	assert_int_equal(p.m.size, 3);
	assert_int_equal(p.m.data, 3);
	assert_int_equal(p.m.type, NP_TAR_FILE);
	assert_int_equal(p.m.offset, 1024);		/* the 'x' header's own offset */
	skip_data(&p, &pos);
	assert_int_equal(next(&p, &a, &pos, err), NP_TAR_MEMBER);
	assert_string_equal(p.m.path, "plain");
	assert_int_equal(p.m.size, 2);
	skip_data(&p, &pos);
	assert_int_equal(next(&p, &a, &pos, err), NP_TAR_END);
	assert_int_equal(np_tar_parse_eof(&p, 0, err, sizeof(err)), 0);
	np_tar_parser_free(&p);
	ar_free(&a);
}

static void test_gnu_base256_and_sparse(void **state)
{
	struct np_tar_parser p;
	struct ar a = { 0 };
	char err[256];
	size_t pos = 0;
	uint8_t *h;

	(void)state;
	/* A size in base-256: 0x80, then big-endian. */
	ar_hdr(&a, "big", '0', 0, NULL);
	h = a.buf;
	memset(h + 124, 0, 12);
	h[124] = 0x80;
	h[134] = 0x02;					/* 0x0200 = 512 */
	refix_checksum(h);
	for (int i = 0; i < 512; i++)
		ar_put(&a, "B", 1);
	/* Old GNU sparse: an extension block follows the header before the data. */
	ar_hdr(&a, "sparse", 'S', 5, NULL);
	h = a.buf + a.len - 512;
	h[482] = 1;
	refix_checksum(h);
	{
		uint8_t ext[512] = { 0 };

		ar_put(&a, ext, sizeof(ext));		/* byte 504 = 0: the last one */
	}
	ar_put(&a, "12345", 5);
	ar_pad(&a);
	ar_end(&a);

	np_tar_parser_init(&p);
	assert_int_equal(next(&p, &a, &pos, err), NP_TAR_MEMBER);
	assert_int_equal(p.m.size, 512);
	skip_data(&p, &pos);
	assert_int_equal(next(&p, &a, &pos, err), NP_TAR_MEMBER);
	assert_int_equal(p.m.type, NP_TAR_OTHER);
	assert_int_equal(p.m.data, 5);
	assert_int_equal(pos, 512 + 512 + 512 + 512);	/* header and extension consumed */
	skip_data(&p, &pos);
	assert_int_equal(next(&p, &a, &pos, err), NP_TAR_END);
	np_tar_parser_free(&p);
	ar_free(&a);
}

static void test_bad_metadata(void **state)
{
	struct np_tar_parser p;
	struct ar a = { 0 };
	char err[256];
	size_t pos = 0;

	(void)state;
	ar_file(&a, "first", "1");
	ar_meta(&a, 'x', "99 path=x\n", 10);		/* length past the data */
	ar_file(&a, "second", "2");
	ar_end(&a);
	np_tar_parser_init(&p);
	assert_int_equal(next(&p, &a, &pos, err), NP_TAR_MEMBER);
	skip_data(&p, &pos);
	assert_int_equal(next(&p, &a, &pos, err), -EBADMSG);
	assert_non_null(strstr(err, "malformed pax header at offset 1024"));
	np_tar_parser_free(&p);
	ar_free(&a);

	/* A pax header that claims more than NP_TAR_META_MAX. */
	ar_hdr(&a, "././@PaxHeader", 'x', NP_TAR_META_MAX + 1, NULL);
	np_tar_parser_init(&p);
	assert_int_equal(np_tar_parse_block(&p, a.buf, err, sizeof(err)), -EFBIG);
	assert_non_null(strstr(err, "too big"));
	np_tar_parser_free(&p);
	ar_free(&a);

	/* A long-name header and then the end: the member it names is missing. */
	ar_meta(&a, 'L', "name", 5);
	ar_end(&a);
	pos = 0;
	np_tar_parser_init(&p);
	assert_int_equal(next(&p, &a, &pos, err), -EBADMSG);
	assert_non_null(strstr(err, "followed by the end"));
	np_tar_parser_free(&p);
	ar_free(&a);

	/* A size field with a non-octal digit. */
	ar_hdr(&a, "f", '0', 0, NULL);
	a.buf[124 + 3] = '9';
	refix_checksum(a.buf);
	np_tar_parser_init(&p);
	assert_int_equal(np_tar_parse_block(&p, a.buf, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "offset 0"));
	np_tar_parser_free(&p);
	ar_free(&a);
}

/* The header checksum against the byte-by-byte definition (POSIX unsigned sum with the field
 * read as spaces; old Sun tar's signed sum), on blocks of every shape: all 0xff (an unsigned
 * sum past 65,535), all high bytes but one, random bytes. A sum one off is refused. */
static void set_sum(uint8_t *blk, long long v)
{
	char f[24];

	assert_int_equal(snprintf(f, sizeof(f), "%06llo", v), 6);	/* <= 512 x 255 */
	memcpy(blk + 148, f, 7);	/* six digits, NUL, and the space of the eighth byte */
	blk[155] = ' ';
}

static void test_checksum_definition(void **state)
{
	uint8_t blk[512];
	unsigned seed = 12345;

	(void)state;
	for (int round = 0; round < 300; round++) {
		long long usum = 0, ssum = 0;

		for (size_t i = 0; i < sizeof(blk); i++) {
			seed = seed * 1103515245u + 12345u;
			blk[i] = round == 0 ? 0xff : round == 1 ? (i == 7 ? 0x01 : 0x80) :
				 (uint8_t)(seed >> 16);
		}
		for (size_t i = 0; i < sizeof(blk); i++) {
			uint8_t c = i >= 148 && i < 156 ? ' ' : blk[i];

			usum += c;
			ssum += (int8_t)c;
		}
		set_sum(blk, usum);
		assert_true(np_tar_is_header(blk));
		set_sum(blk, usum + 1);
		assert_false(np_tar_is_header(blk));
		set_sum(blk, usum - 1);
		assert_false(np_tar_is_header(blk));
		if (ssum >= 0 && ssum != usum) {
			set_sum(blk, ssum);
			assert_true(np_tar_is_header(blk));
		}
	}
}

static void test_clean_path(void **state)
{
	static const struct {
		const char *in, *out;
		int r;
	} cases[] = {
		{ "proc/net/dev", "proc/net/dev", 0 },
		{ "./proc/net/dev", "proc/net/dev", 0 },
		{ "././proc//net/./dev/", "proc/net/dev", 0 },
		{ "./", "", 1 },
		{ ".", "", 1 },
		{ "", "", 1 },
		{ "/etc/passwd", "", -EPERM },
		{ "..", "", -EPERM },
		{ "a/../b", "", -EPERM },
		{ "a/..", "", -EPERM },
		{ "..a/b..", "..a/b..", 0 },		/* only a whole ".." component */
	};
	char out[64], deep[2 * NP_TAR_MAX_DEPTH + 8] = "", name[300], big[300];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(np_tar_clean_path(cases[i].in, out, sizeof(out)), cases[i].r);
		if (!cases[i].r)
			assert_string_equal(out, cases[i].out);
	}
	for (int i = 0; i < NP_TAR_MAX_DEPTH; i++)
		strcat(deep, "d/");
	assert_int_equal(np_tar_clean_path(deep, big, sizeof(big)), 0);
	strcat(deep, "x");
	assert_int_equal(np_tar_clean_path(deep, big, sizeof(big)), -ELOOP);
	memset(name, 'n', 256);
	name[256] = '\0';
	assert_int_equal(np_tar_clean_path(name, big, sizeof(big)), -ENAMETOOLONG);
	assert_int_equal(np_tar_clean_path("abcdef", out, 4), -ENAMETOOLONG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pax_records),
		cmocka_unit_test(test_gnu_base256_and_sparse),
		cmocka_unit_test(test_bad_metadata),
		cmocka_unit_test(test_clean_path),
		cmocka_unit_test(test_checksum_definition),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
