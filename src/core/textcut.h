/* SPDX-License-Identifier: GPL-2.0-only */
/* Sentences into fixed text buffers (a finding's summary, a plan line's reason): appended
 * whole, or cut at a word with "..." when the buffer is full, never in the middle of a word
 * ("a longer queue only delays the l"). Every cut is counted, so tests can prove that no text
 * netpath renders is ever cut. */
#ifndef NP_TEXTCUT_H
#define NP_TEXTCUT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/* Formats at dst + strlen(dst). True if it fit; false if it was cut (counted). */
bool np_textcut_vappend(char *dst, size_t size, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
bool np_textcut_append(char *dst, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A sentence dropped whole for want of room: counted as a cut. */
void np_textcut_lost(void);
/* Texts cut so far in this process (for tests). */
unsigned long np_textcut_count(void);

#endif
