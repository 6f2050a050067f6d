/* SPDX-License-Identifier: GPL-2.0-only */
/* For renderer tests: text rendered at a width has no line wider than it, save one long word
 * (a path, a command) after a short indent or label, which np_wrap_line never cuts. */
#ifndef NP_TEST_FITS_WIDTH_H
#define NP_TEST_FITS_WIDTH_H

#include <string.h>

#include "text_wrap.h"

static inline void np_assert_fits(const char *text, int width)
{
	for (const char *p = text; *p;) {
		size_t len = strcspn(p, "\n"), cols = np_text_cols(p, len), head = len;

		while (head && p[head - 1] != ' ')
			head--;
		if (cols > (size_t)width &&
		    !(np_text_cols(p + head, len - head) > (size_t)width / 2 &&
		      np_text_cols(p, head) <= (size_t)width / 2))
			fail_msg("a line of %zu columns at width %d: '%.*s'", cols, width, (int)len, p);
		p += len + (p[len] == '\n');
	}
}

#endif
