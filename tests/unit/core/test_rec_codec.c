// SPDX-License-Identifier: GPL-2.0-only
/* The flight recorder's frame codec (rec_codec.c): frames round-trip exactly through key and
 * delta records (static, steady, bursty, wrapping and reset counters), a schema change, a
 * configuration; malformed records are refused. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdlib.h>

#include "rec_codec.h"
#include "rec_fixture.h"

static void roundtrip(void **state)
{
	struct np_rec_enc e = { 0 };
	struct np_rec_dec d = { 0 };
	struct np_rec_buf b = { 0 };
	struct frame_buf fb;
	const uint8_t *p, *end;
	enum np_rec_kind kind;
	int64_t t;

	(void)state;
	mk(&fb, 0, 10, false);
	assert_int_equal(np_rec_put_schema(&b, fb.names, fb.s.names_len, 10), 0);
	assert_int_equal(np_rec_put_config(&b, "cfg", 3), 0);
	for (t = 0; t < 200; t++) {
		mk(&fb, t, 10, false);
		if (t == 100)
			fb.v[1] = 0;	/* a reset */
		assert_int_equal(np_rec_put_frame(&e, &b, fb.s.mono_ns, fb.s.wall_ns, fb.v, 10), 0);
	}
	p = b.p;
	end = b.p + b.len;
	assert_int_equal(np_rec_get(&d, &p, end, &kind), 0);
	assert_int_equal(kind, NP_REC_SCHEMA);
	assert_string_equal(d.name[9], "c9");
	assert_int_equal(np_rec_get(&d, &p, end, &kind), 0);
	assert_int_equal(kind, NP_REC_CONFIG);
	assert_memory_equal(d.config, "cfg", 3);
	for (t = 0; t < 200; t++) {
		assert_int_equal(np_rec_get(&d, &p, end, &kind), 0);
		assert_int_equal(kind, t ? NP_REC_DELTA : NP_REC_KEY);
		assert_true(d.mono == BASE_M + t * SEC && d.wall == BASE_W + t * SEC);
		for (size_t i = 0; i < 10; i++)
			assert_true(d.val[i] == (t == 100 && i == 1 ? 0 : val(i, t)));
	}
	assert_ptr_equal(p, end);
	/* Mostly static and steady counters: far below a byte per counter and frame. */
	assert_true(b.len < 200 * 10);
	np_rec_enc_free(&e);
	np_rec_dec_free(&d);
	np_rec_buf_free(&b);
}

static void refuses_malformed(void **state)
{
	static const uint8_t delta_first[] = { NP_REC_DELTA, 0, 0, 1 };
	static const uint8_t unterminated[] = { NP_REC_SCHEMA, 1, 2, 'a', 'b' };
	static const uint8_t long_varint[] = { NP_REC_CONFIG, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
					       0xff, 0xff, 0xff, 0x7f };
	static const uint8_t bad_kind[] = { 9 };
	static const uint8_t key_miscount[] = { NP_REC_SCHEMA, 1, 2, 'a', 0, NP_REC_KEY, 0, 0, 2,
						1, 1 };
	const uint8_t *cases[] = { delta_first, unterminated, long_varint, bad_kind,
				   key_miscount };
	size_t lens[] = { sizeof(delta_first), sizeof(unterminated), sizeof(long_varint),
			  sizeof(bad_kind), sizeof(key_miscount) };

	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct np_rec_dec d = { 0 };
		const uint8_t *p = cases[c], *end = cases[c] + lens[c];
		enum np_rec_kind kind;
		int r = 0;

		while (r == 0 && p < end)
			r = np_rec_get(&d, &p, end, &kind);
		assert_int_equal(r, -EBADMSG);
		np_rec_dec_free(&d);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(roundtrip),
		cmocka_unit_test(refuses_malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
