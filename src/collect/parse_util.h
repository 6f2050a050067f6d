/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Line and token scanning shared by the parse_*.c parsers. Buffers are not NUL-terminated
 * (procfs reads hand over a length), so everything works on (pointer, length) pairs and never
 * reads past them; the robustness tests feed truncated and random bytes through all of it.
 * Number helpers accept exactly the token (no sign, no spaces, no "0x") and refuse rather than
 * wrap on overflow: a value we cannot represent is a malformed file, not a smaller number.
 */
#ifndef NP_PARSE_UTIL_H
#define NP_PARSE_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "word8.h"

/* Any C-locale white space, '\n' included, for the NUL-terminated one-value files. */
bool np_is_space(char c);
/* The value of a hex digit of either case, or -1. */
int np_hex_digit(char c);

/*
 * The next line of buf[0..len) from *pos: *l, *ll the line without its '\n' (the last line
 * may lack one), *pos moved past it. False once the buffer is used up.
 */
bool np_line_next(const char *buf, size_t len, size_t *pos, const char **l, size_t *ll);
/*
 * The first token of a "Label:" line (snmp "Tcp:", interrupts "24:"): *p, *pl the label without
 * its colon, *i just past the token. False when the first token is not such a label.
 */
bool np_line_label(const char *l, size_t ll, const char **p, size_t *pl, size_t *i);
/*
 * The "CPU0 CPU1 ..." header of /proc/interrupts and /proc/softirqs into cpu[], one entry per
 * token (size it with np_tok_count); false when a token is not "CPUn" with n < NP_MAX_CPUS.
 */
bool np_line_cpus(const char *l, size_t ll, int *cpu);

/* Space within a line: ' ', '\t', '\r', '\v', '\f' ('\n' ends the line instead). Not
 * isblank()/isspace(): those depend on the locale and take an int, not a plain char. Inline
 * for the scanning loops (an exported function called once per byte was most of the cost of
 * a /proc/interrupts with thousands of CPU columns); most bytes are letters and digits, which
 * the first comparison rejects. */
static inline bool np_blank(char c)
{
	return (unsigned char)c <= ' ' &&
	       (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f');
}

/*
 * Where the token that goes on at l[k] ends: the first blank at or after k, or ll. Eight bytes
 * at a time where the line has eight: every token of every parsed /proc file is scanned, and a
 * byte at a time that was most of their cost. A flagged byte (below '!') is checked, and
 * stepped over when no blank (a control character). The line's last bytes go one by one.
 */
static inline size_t np_tok_end(const char *l, size_t ll, size_t k)
{
	while (ll - k >= 8) {
		uint64_t m = np_word_below(np_le64(l + k), '!');

		if (!m) {
			k += 8;
			continue;
		}
		k += np_word_first(m);
		if (np_blank(l[k]))
			return k;
		k++;
	}
	while (k < ll && !np_blank(l[k]))
		k++;
	return k;
}

/* The next blank-separated token of l[0..ll) from *i; false at the end of the line. */
bool np_tok_next(const char *l, size_t ll, size_t *i, const char **t, size_t *tl);
/* How many tokens l[i..ll) holds. */
size_t np_tok_count(const char *l, size_t ll, size_t i);
/* The token is exactly s (tl == strlen(s) and the same bytes). Inline, and without the strlen:
 * parsers test most tokens against several names, and most differ at the first byte. Never
 * reads s past its NUL or t past tl. */
static inline bool np_tok_eq(const char *t, size_t tl, const char *s)
{
	size_t k;

	for (k = 0; k < tl; k++)
		if (s[k] != t[k] || !s[k])
			return false;
	return !s[k];
}

/*
 * "sys/" + key[0..len) with every '.' turned '/' into path[0..size) ("net.core.x" ->
 * "sys/net/core/x"), NUL-terminated; a key that does not fit is cut to what does (size 5 or
 * less: as much of "sys/" as fits). Eight bytes per step: a sample reads some fifty keys.
 */
void np_sysctl_key_path(const char *key, size_t len, char *path, size_t size);

/* Unsigned decimal; false for an empty token, a non-digit or a value past UINT64_MAX. */
bool np_tok_u64(const char *t, size_t tl, uint64_t *v);
/* Up to max tokens from i that np_tok_u64() accepts, converted into vals (NULL: only
 * skipped); the first other token ends the run. Returns where the last of them ends (i if
 * none) and their number in *n. One tight pass for wide rows (/proc/interrupts). */
size_t np_tok_u64s(const char *l, size_t ll, size_t i, size_t max, uint64_t *vals, size_t *n);
/* 1 to 8 hex digits: the kernel's %x / %08x of a u32 (softnet_stat, route tables). */
bool np_tok_hex32(const char *t, size_t tl, uint32_t *v);
/* 1 to 16 hex digits (nf_conntrack stat). */
bool np_tok_hex64(const char *t, size_t tl, uint64_t *v);

#endif
