// SPDX-License-Identifier: GPL-2.0-only
/* model/word8.h: words loaded in text order on any host, and the byte tests built on them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "word8.h"

/* The text's first byte is the word's lowest: what every scan relies on (a plain load on a
 * big-endian host would fail this). */
static void test_le64_text_order(void **state)
{
	const unsigned char b[8] = { 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08 };

	(void)state;
	assert_true(np_le64(b) == 0x0807060504030201ULL);
}

/* The first byte below c, for every position and every such byte, whatever follows it (bytes
 * after the first flagged one may be flagged falsely by a borrow; the first never is). */
static void test_first_below(void **state)
{
	(void)state;
	for (unsigned pos = 0; pos < 8; pos++)
		for (unsigned low = 0; low < '!'; low++)
			for (unsigned after = 0; after < 256; after += 17) {
				unsigned char b[8];
				uint64_t z;

				memset(b, 'a', sizeof(b));
				b[pos] = (unsigned char)low;
				for (unsigned k = pos + 1; k < 8; k++)
					b[k] = (unsigned char)(after + k);
				z = np_word_below(np_le64(b), '!');
				assert_true(z != 0);
				assert_int_equal(np_word_first(z), pos);
			}
	/* No byte below: no flag, including the top of the range. */
	assert_true(np_word_below(np_le64("!~\x7f\x80\xff" "abc"), '!') == 0);
	/* A NUL test (c = 1), as the counter index uses. */
	assert_int_equal(np_word_first(np_word_below(np_le64("name\0xyz"), 1)), 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_le64_text_order),
		cmocka_unit_test(test_first_below),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
