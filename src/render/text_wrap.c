// SPDX-License-Identifier: GPL-2.0-only
/* Wrapping text at the terminal's width: see text_wrap.h. */
#include "text_wrap.h"
#include "outbuf.h"
#include "textenc.h"
#include "word8.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Bytes of the escape sequence at s (ESC [ ... final byte), 0 when s starts none. */
static size_t esc_len(const char *s, size_t n)
{
	size_t i = 2;

	if (n < 2 || s[0] != '\033' || s[1] != '[')
		return 0;
	while (i < n && !((unsigned char)s[i] >= 0x40 && (unsigned char)s[i] <= 0x7e))
		i++;
	return i < n ? i + 1 : n;
}

/* Bytes of s[0..n) that start a character (not UTF-8 continuation bytes 10xxxxxx), eight at a
 * time: with no escape and no ASCII rewriting, that is the width. */
static size_t char_starts(const char *s, size_t n)
{
	size_t cols = 0, i = 0;
	uint64_t any = 0;

	/* All ASCII, most lines: a column a byte, known from one OR a word (the last word
	 * loaded overlapping the one before it, for the bytes past a multiple of eight). */
	if (n >= 8) {
		for (; i + 8 <= n; i += 8)
			any |= np_le64(s + i);
		any |= np_le64(s + n - 8);
		if (!(any & 0x8080808080808080ULL))
			return n;
		i = 0;
	}
	for (; i + 8 <= n; i += 8) {
		uint64_t w, cont;

		memcpy(&w, s + i, 8);
		cont = w & ~(w << 1) & 0x8080808080808080ULL;	/* bit 7 set, bit 6 clear */
		cols += 8 - (size_t)(((cont >> 7) * 0x0101010101010101ULL) >> 56);
	}
	for (; i < n; i++)
		cols += ((unsigned char)s[i] & 0xc0) != 0x80;
	return cols;
}

size_t np_text_cols(const char *s, size_t n)
{
	bool ascii = np_text_cols_ascii_on();	/* once: it is a call into another file */
	size_t cols = 0;

	if (!ascii && !memchr(s, '\033', n))
		return char_starts(s, n);

	for (size_t i = 0; i < n;) {
		size_t e = s[i] == '\033' ? esc_len(s + i, n - i) : 0, len;
		const char *a;

		if (e) {
			i += e;
			continue;
		}
		if (ascii && ((unsigned char)s[i] & 0x80)) {
			/* What the ASCII stream will write for it: "->" for the arrow is two
			 * columns, and a line measured as one would overflow by one. */
			a = np_glyph_ascii(s + i, n - i, &len);
			cols += a ? strlen(a) : 1;
			i += len ? len : n - i;	/* an incomplete sequence at the end: "?" */
			continue;
		}
		cols += ((unsigned char)s[i] & 0xc0) != 0x80;
		i++;
	}
	return cols;
}

static size_t lead_blanks(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && s[i] == ' ')
		i++;
	return i;
}

/* The columns of line[0..at): at itself when each byte of the line is a column (unit). */
static size_t cols_to(const char *line, size_t at, bool unit)
{
	return unit ? at : np_text_cols(line, at);
}

/* Byte offset of the text continuation lines hang under (see np_wrap_hang); unit: each byte
 * of the line is a column (no escape, no multi-byte character, no ASCII rewriting). */
static size_t hang_at(const char *line, size_t len, int width, bool unit)
{
	size_t lead = lead_blanks(line, len), at = 0, room;

	/* A comment (a plan's files): under its text, after the "#" np_wrap_line repeats. */
	if (lead < len && line[lead] == '#') {
		at = lead + 1;
		while (at < len && line[at] == ' ')
			at++;
		return at < len && cols_to(line, at, unit) < (size_t)width / 2 ? at : lead + 2;
	}
	if (lead + 2 <= len && strchr("-*", line[lead]) && line[lead + 1] == ' ')
		at = lead + 2;
	if (!at && lead + 4 <= len && !memcmp(line + lead, "\xe2\x80\xa2 ", 4))	/* "• " */
		at = lead + 4;
	/* A table row: the last column that starts on the first line. With a column a byte,
	 * that is the last end of two blanks or more before the width, found from there back
	 * (the blanks after lead, as the loop below finds them, end at lead + 2 at the least). */
	if (!at && unit) {
		size_t lim = len < (size_t)width ? len : (size_t)width;	/* the end j < lim */

		/* Two blanks side by side put one on every other byte: only those are looked
		 * at, from lim - 2 (the last blank of a run that ends before lim) back. */
		for (ptrdiff_t kk = (ptrdiff_t)lim - 2; kk > (ptrdiff_t)lead; kk -= 2) {
			size_t k = (size_t)kk, a = k, j = k;

			if (line[k] != ' ' || (line[k - 1] != ' ' && line[k + 1] != ' '))
				continue;
			while (j < len && line[j] == ' ')
				j++;
			if (j < lim) {
				at = j;
				break;
			}
			while (line[a - 1] == ' ')	/* stops at lead at the latest */
				a--;
			kk = (ptrdiff_t)a;	/* a run that ends at lim or later: on below it */
		}
	}
	/* Otherwise forward (the blanks found with memchr rather than byte by byte). */
	for (size_t i = lead, marker = at || unit; !marker && i + 2 < len; i++) {
		const char *b = memchr(line + i, ' ', len - 2 - i);
		size_t j;

		if (!b)
			break;
		i = j = (size_t)(b - line);
		if (line[i + 1] != ' ')
			continue;
		while (j < len && line[j] == ' ')
			j++;
		if (j < len && np_text_cols(line, j) < (size_t)width)
			at = j;
		i = j - 1;
	}
	/* "label: text": short labels of a word or three. */
	if (!at) {
		size_t words = 0;

		for (size_t i = lead; i + 1 < len && i - lead < 32; i++) {
			if (line[i] == ' ' && ++words > 2)
				break;
			if (line[i] == ':' && line[i + 1] == ' ') {
				at = i + 2;
				while (at < len && line[at] == ' ')
					at++;
				break;
			}
		}
	}
	if (!at)
		return lead;
	room = cols_to(line, at, unit);
	room = room < (size_t)width ? (size_t)width - room : 0;
	if (room >= (size_t)width / 3)
		return at;
	/* Too far right: a little in from the row, so the continuation reads as one. */
	return lead + 4 <= len && (size_t)width > 3 * (lead + 4) / 2 ? lead + 4 : lead;
}

size_t np_wrap_hang(const char *line, size_t len, int width)
{
	return np_text_cols(line, hang_at(line, len, width, false));
}

/* n blanks, as fprintf("%*s", n, "") writes them: a negative n pads to -n. */
static void blanks(struct np_ob *out, int n)
{
	np_ob_blanks(out, n < 0 ? -(long)n : n);
}

static void newline_indent(struct np_ob *out, int n)
{
	np_ob_putc(out, '\n');
	blanks(out, n);
}

static bool has_high(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] & 0x80)
			return true;
	return false;
}

/* Writes line[0..len) wrapped; a newline after it when nl. The text goes through a buffer of
 * our own (outbuf.h): a wrapped report was hundreds of small stdio writes. */
static void wrap_line(struct np_ob *out, const char *line, size_t len, int width, bool nl)
{
	size_t hang_b, hang, lead, s = 0, col = 0, total = 0, pre = 0;	/* pre: columns before s */
	bool first = true, comment, additive, unit, ascii = np_text_cols_ascii_on(), esc = false;

	/* A line of no more bytes than columns fits: a character takes a column at most per
	 * byte (escapes none); only the ASCII forms are measured, to be sure. Escapes are
	 * looked for once (np_text_cols would, and the test below again). */
	if (width > 0 && !(len <= (size_t)width && !ascii)) {
		esc = memchr(line, '\033', len) != NULL;
		total = !ascii && !esc ? char_starts(line, len) : np_text_cols(line, len);
	}
	if (total <= (size_t)width) {
		np_ob_write(out, line, len);
		if (nl)
			np_ob_putc(out, '\n');
		return;
	}
	/* Without escapes, and without glyphs the ASCII stream rewrites, a line's columns are
	 * the sum of its pieces' at any byte: each candidate break then costs only the piece
	 * since the last one (measuring from the start each time was quadratic in the line). */
	additive = !esc && !(ascii && has_high(line, len));
	/* Additive, and no byte that continues a character: each byte is a column. */
	unit = additive && total == len;
	hang_b = hang_at(line, len, width, unit);
	hang = cols_to(line, hang_b, unit);
	lead = lead_blanks(line, len);
	comment = lead < len && line[lead] == '#' && hang > lead;
	while (s < len) {
		/* The last blank where the line may break: past the hang on the first line (the
		 * columns before it stay together), past the first word on the others. */
		size_t from = first ? (hang_b > s ? hang_b : s) : s, brk = 0, end;

		size_t at = s, acc = 0;	/* acc: np_text_cols(line + s, at - s) when additive */

		bool rest_fits;

		rest_fits = col + (additive ? total - pre : np_text_cols(line + s, len - s)) <=
			    (size_t)width;
		/* A column a byte: the blanks that fit are those up to s + width - col, and the
		 * last of them (a blank not after another) is found from there back. On a
		 * continuation line s starts a word, so the first blank from s is where the
		 * first word ends: looking down to s finds the same, without finding it first. */
		if (unit && !rest_fits && col <= (size_t)width) {
			size_t i = s + (size_t)width - col < len ? s + (size_t)width - col + 1 : len;

			while (i-- > (first ? from : s))
				if (line[i] == ' ' && !(i > 0 && line[i - 1] == ' ')) {
					brk = i;
					break;
				}
		}
		while (!first && !rest_fits && !brk && from < len && line[from] != ' ')
			from++;
		for (size_t i = from; !unit && !rest_fits && i < len; i++) {
			if (line[i] != ' ' || (i > 0 && line[i - 1] == ' '))
				continue;
			if (additive) {
				/* = np_text_cols here */
				acc += char_starts(line + at, i - at);
				at = i;
			} else {
				acc = np_text_cols(line + s, i - s);
			}
			if (col + acc > (size_t)width)
				break;
			brk = i;
		}
		if (rest_fits) {
			brk = len;
		} else if (!brk) {
			/* Nothing fits: the next word whole (never cut), then break after it. */
			brk = from;
			while (first && brk < len && line[brk] == ' ')
				brk++;
			while (first && brk < len && line[brk] != ' ')
				brk++;
		}
		end = brk;
		while (end > s && line[end - 1] == ' ')
			end--;
		np_ob_write(out, line + s, end - s);
		if (additive)
			pre += unit ? brk - s : char_starts(line + s, brk - s);
		s = brk;
		while (s < len && line[s] == ' ')
			s++;
		pre += s - brk;	/* a column per blank skipped: pre stays the columns before s */
		if (s >= len)
			break;
		/* A comment's continuation is still a comment. */
		newline_indent(out, (int)(comment ? lead : hang));
		if (comment) {
			np_ob_putc(out, '#');
			blanks(out, (int)(hang - lead - 1));
		}
		col = hang;
		first = false;
	}
	if (nl)
		np_ob_putc(out, '\n');
}

void np_wrap_line(FILE *out, const char *line, size_t len, int width)
{
	struct np_ob ob;

	np_ob_init(&ob, out);
	wrap_line(&ob, line, len, width, true);
	np_ob_flush(&ob);
}

void np_wrap_text(FILE *out, const char *text, int width)
{
	const char *p = text;
	struct np_ob ob;

	np_ob_init(&ob, out);
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		wrap_line(&ob, p, len, width, nl != NULL);
		p += len + (nl != NULL);
	}
	np_ob_flush(&ob);
}

void np_wrap_comments(FILE *out, const char *text, int width)
{
	const char *p = text;
	struct np_ob ob;

	np_ob_init(&ob, out);
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p), lead = lead_blanks(p, len);

		wrap_line(&ob, p, len, lead < len && p[lead] == '#' ? width : 0, nl != NULL);
		p += len + (nl != NULL);
	}
	np_ob_flush(&ob);
}

/* The word at p (up to a blank, a newline or the end, avail bytes on): its bytes, and its
 * columns in *cols, counted in the same pass when it holds no escape and nothing the ASCII
 * stream rewrites. */
static size_t word_at(const char *p, size_t avail, bool ascii, size_t *cols)
{
	size_t len = 0, starts;
	bool plain = true;
	unsigned char c;

	/* Printable ASCII, most of any text: a byte a column; eight bytes at a time while the
	 * text lasts. A byte up to ' ' wraps below zero in b - 0x21, one from 0x80 has its top
	 * bit: the lowest byte so flagged is exact (a borrow only reaches bytes above it). */
	for (; len + 8 <= avail; len += 8) {
		uint64_t w = np_le64(p + len), stop;

		stop = ((w - 0x2121212121212121ULL) | w) & 0x8080808080808080ULL;
		if (stop) {
			len += np_word_first(stop);
			break;
		}
	}
	while ((c = (unsigned char)p[len]) > ' ' && c < 0x80)
		len++;
	if (!c || c == ' ' || c == '\n') {
		*cols = len;
		return len;
	}
	for (starts = len; (c = (unsigned char)p[len]) && c != ' ' && c != '\n'; len++) {
		plain &= c != '\033' && !(ascii && (c & 0x80));
		starts += (c & 0xc0) != 0x80;
	}
	*cols = plain ? starts : np_text_cols(p, len);
	return len;
}

#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL

/* Bit 7 of each byte of w that equals c (exact: no borrow crosses bytes). */
static uint64_t bytes_eq(uint64_t w, unsigned char c)
{
	uint64_t t = w ^ (ONES * c);

	return ~(((t & ~HIGHS) + ~HIGHS) | t) & HIGHS;
}

/*
 * The words at q (q[-1] a single blank written in the run) that fit a line with 'room' bytes
 * left after that blank: the index of the blank that ends the last of them, 0 when none is
 * taken here. Only plain words qualify: ASCII from '!' to DEL (a byte a column, as word_at
 * counts them) without '#' (a lone "#" is to be noted), separated by single blanks; the scan
 * stops at anything else, which the word by word loop then takes. A word fits when it ends
 * (at a blank) no further than room, just as that loop's col + 1 + cols <= width says, so
 * the result is the same words; eight bytes at a time rather than a call a word.
 */
static size_t plain_fit(const char *q, const char *end, size_t room)
{
	size_t lim = room + 1 < (size_t)(end - q) ? room + 1 : (size_t)(end - q);	/* q[0..lim) */
	size_t i = 0, last = 0;
	const char *hash;
	/* Bit 7 when the byte before q[i] is a blank: q[-1] is, so a blank at q[0] (two side
	 * by side, which that loop writes as one) stops the scan at once. */
	uint64_t prev_blank = 0x80;
	/* The word that held the last blank so far, and where: its index is worked out once,
	 * after the scan, rather than at every word with one. */
	uint64_t last_w = 0;
	size_t last_at = 0;

	for (; i + 8 <= lim; i += 8) {
		uint64_t w, blank, bad;

		w = np_le64(q + i);
		blank = bytes_eq(w, ' ');
		bad = (~((w & ~HIGHS) + ONES * 0x60) & HIGHS) | (w & HIGHS);
		bad = (bad & ~blank) | (blank & ((blank << 8) | prev_blank));
		if (bad) {
			/* Blanks before the first bad byte only. */
			blank &= ((bad & -bad) - 1);
			lim = i;	/* no more bytes below */
		}
		last_at = blank ? i : last_at;
		last_w = blank ? blank : last_w;
		if (bad)
			break;
		prev_blank = blank >> 56;
	}
	if (last_w)
		last = last_at + (size_t)(63 - __builtin_clzll(last_w)) / 8;
	for (; i < lim; i++) {
		unsigned char c = (unsigned char)q[i];

		if (c == ' ') {
			if (prev_blank)
				break;
			last = i;
			prev_blank = 1;
			continue;
		}
		if (c < 0x21 || c > 0x7f)
			break;
		prev_blank = 0;
	}
	/* A "#" (rare): only the words before the one it is in, so a lone one is noted. */
	hash = last ? memchr(q, '#', last) : NULL;
	if (hash) {
		for (last = (size_t)(hash - q); last && q[last] != ' ';)
			last--;
	}
	return last;
}

/* Writes run[0..run_end) and empties the run. */
static void flush_run(struct np_ob *out, const char **run, const char *run_end)
{
	np_ob_write(out, *run, (size_t)(run_end - *run));
	*run = run_end;
}

void np_wrap_prose_ob(struct np_ob *out, const char *text, int col, int indent, int width)
{
	bool ascii = np_text_cols_ascii_on();
	const char *p = text, *end = text + strlen(text);
	bool fresh = true;	/* nothing written yet on this line */
	bool comment = false;	/* past a shell comment's "#" on this line */
	/* Words written but not yet copied: the text's own run[0..run_end), words and the single
	 * blanks between them, goes out in one copy rather than a copy and a blank a word. */
	const char *run = p, *run_end = p;

	if (col < 0)
		col = 0;
	if (width > 0 && indent > width - width / 3)
		indent = width / 3;
	while (*p) {
		size_t len, cols;

		if (*p == ' ') {
			p++;
			continue;
		}
		if (*p == '\n') {
			flush_run(out, &run, run_end);
			newline_indent(out, indent);
			col = indent;
			fresh = true;
			comment = false;
			p++;
			continue;
		}
		len = word_at(p, (size_t)(end - p), ascii, &cols);
		if (!fresh && width > 0 && (size_t)col + 1 + cols > (size_t)width) {
			/* "cmd # why" broken in the why: the rest stays a comment, so the
			 * command copied with its lines runs nothing more. */
			flush_run(out, &run, run_end);
			newline_indent(out, indent);
			if (comment)
				np_ob_putc(out, '#');
			col = indent + comment;
			fresh = !comment;
		}
		if (!fresh && run < run_end && run_end + 1 == p && *run_end == ' ') {
			col++;	/* the blank before p is the text's, in the run */
		} else {
			flush_run(out, &run, run_end);
			if (!fresh) {
				np_ob_putc(out, ' ');
				col++;
			}
			run = p;
		}
		run_end = p + len;
		col += (int)cols;
		fresh = false;
		comment |= len == 1 && *p == '#';
		p += len;
		/* The plain words that follow on this line, at once. */
		if (width > 0 && *p == ' ' && col < width) {
			size_t j = plain_fit(p + 1, end, (size_t)(width - col - 1));

			if (j) {
				run_end = p + 1 + j;
				col += 1 + (int)j;
				p = run_end;
			}
		}
	}
	flush_run(out, &run, run_end);
	np_ob_putc(out, '\n');
}

void np_wrap_prose(FILE *out, const char *text, int col, int indent, int width)
{
	struct np_ob ob;

	np_ob_init(&ob, out);
	np_wrap_prose_ob(&ob, text, col, indent, width);
	np_ob_flush(&ob);
}

/* buf[len..) += s[0..n); false when memory runs out. */
static bool carry(struct np_wrap_stream *w, const char *s, size_t n)
{
	if (w->len + n > w->cap) {
		size_t cap = w->cap ? w->cap : 256;
		char *b;

		while (cap < w->len + n)
			cap *= 2;
		b = realloc(w->buf, cap);
		if (!b)
			return false;
		w->buf = b;
		w->cap = cap;
	}
	memcpy(w->buf + w->len, s, n);
	w->len += n;
	return true;
}

/* What the renderer hands over (stdio's buffer when full, a large fwrite's bytes directly, or
 * a flushed np_ob): each line that ends here is wrapped at once, from these bytes when nothing
 * of it came before; the rest waits in buf. A memstream wrapped at closing, as before, zeroed
 * an 8 KiB buffer to start and copied the whole text once more.
 * When memory to hold a line runs out: false, or with spill, that line goes out as it came,
 * unwrapped (np_wrap_open's rule: unwrapped rather than not at all). */
static bool wrap_feed(struct np_wrap_stream *w, const char *s, size_t n, bool spill)
{
	const char *end = s + n, *z, *nl;

	if (w->ended)
		return true;
	z = memchr(s, '\0', n);
	if (z) {
		end = z;
		w->ended = true;
	}
	/* Lines of no more bytes than the width (without ASCII forms to measure) come out as
	 * they are (see wrap_line): those side by side, newlines included, in one copy. */
	size_t fit = np_text_cols_ascii_on() ? 0 : (size_t)w->width;
	const char *as_is = s;	/* as_is[0..p): such lines not yet written */

	for (const char *p = s; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl && !w->len && (size_t)(nl - p) <= fit)
			continue;
		np_ob_write(&w->ob, as_is, (size_t)(p - as_is));
		as_is = nl ? nl + 1 : end;
		if (nl && !w->len) {
			wrap_line(&w->ob, p, (size_t)(nl - p), w->width, true);
			continue;
		}
		if (!carry(w, p, (size_t)((nl ? nl : end) - p))) {
			if (!spill)
				return false;
			np_ob_write(&w->ob, w->buf, w->len);
			np_ob_write(&w->ob, p, (size_t)(as_is - p));	/* with its newline */
			w->len = 0;
		} else if (nl) {
			wrap_line(&w->ob, w->buf, w->len, w->width, true);
			w->len = 0;
		}
		if (!nl)
			return true;
	}
	np_ob_write(&w->ob, as_is, (size_t)(end - as_is));
	return true;
}

static ssize_t wrap_write(void *cookie, const char *s, size_t n)
{
	return wrap_feed(cookie, s, n, false) ? (ssize_t)n : -1;
}

static void wrap_sink(void *ctx, const char *s, size_t n)
{
	wrap_feed(ctx, s, n, true);
}

static void stream_init(struct np_wrap_stream *w, FILE *out, int width)
{
	/* Field by field: the buffer of w->ob needs no zeroing. */
	w->out = out;
	w->mem = NULL;
	w->buf = NULL;
	w->len = w->cap = 0;
	w->width = width;
	w->ended = false;
	np_ob_init(&w->ob, out);
}

FILE *np_wrap_open(struct np_wrap_stream *w, FILE *out, int width)
{
	cookie_io_functions_t io = { .write = wrap_write };

	stream_init(w, out, width);
	if (width > 0)
		w->mem = fopencookie(w, "w", io);
	if (w->mem)
		setvbuf(w->mem, w->io, _IOFBF, sizeof(w->io));
	return w->mem ? w->mem : out;
}

/* The held line, unended, and what is buffered for 'out'; the stream's memory freed. */
static void stream_end(struct np_wrap_stream *w, bool wrap_rest)
{
	if (wrap_rest && w->len)
		wrap_line(&w->ob, w->buf, w->len, w->width, false);
	np_ob_flush(&w->ob);
	free(w->buf);
	w->mem = NULL;
	w->buf = NULL;
	w->len = w->cap = 0;
}

void np_wrap_close(struct np_wrap_stream *w)
{
	if (w->mem)
		stream_end(w, fclose(w->mem) == 0);
}

void np_wrap_ob_open(struct np_wrap_stream *w, struct np_ob *ob, FILE *out, int width)
{
	stream_init(w, out, width);
	w->sunk = width > 0;
	if (w->sunk)
		np_ob_init_sink(ob, wrap_sink, w);
	else
		np_ob_init(ob, out);
}

void np_wrap_ob_close(struct np_wrap_stream *w, struct np_ob *ob)
{
	np_ob_flush(ob);
	if (w->sunk)
		stream_end(w, true);
}
