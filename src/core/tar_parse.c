// SPDX-License-Identifier: GPL-2.0-only
/* Tar headers, block by block: ustar, pax 'x'/'g', GNU 'L'/'K' and old sparse; no I/O. */
#include "tar_parse.h"
#include "tar.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ustar header fields: offset and length. */
#define F_NAME		0, 100
#define F_MODE		100, 8
#define F_SIZE		124, 12
#define F_MTIME		136, 12
#define F_CHKSUM	148, 8
#define F_TYPE		156
#define F_LINK		157, 100
#define F_MAGIC		257
#define F_PREFIX	345, 155
/* GNU old sparse: "is extended" flag in the header and in each extension block. */
#define GNU_ISEXT	482
#define GNU_EXT_ISEXT	504

void np_tar_parser_init(struct np_tar_parser *p)
{
	memset(p, 0, sizeof(*p));
}

static void clear_overrides(struct np_tar_parser *p)
{
	free(p->ov_path);
	free(p->ov_link);
	p->ov_path = p->ov_link = NULL;
	p->ov_have_size = false;
	p->pending = false;
}

void np_tar_parser_free(struct np_tar_parser *p)
{
	clear_overrides(p);
	free(p->meta);
	p->meta = NULL;
}

uint64_t np_tar_padded(uint64_t n)
{
	if (n > UINT64_MAX - (NP_TAR_BLOCK - 1))
		return UINT64_MAX;
	return (n + NP_TAR_BLOCK - 1) / NP_TAR_BLOCK * NP_TAR_BLOCK;
}

void np_tar_parse_skip(struct np_tar_parser *p, uint64_t bytes)
{
	p->offset += bytes;
	p->in_member = false;
}

/*
 * A numeric field: octal digits, optionally surrounded by spaces and ended by NUL or space;
 * or GNU's base-256 (first byte 0x80, big-endian after it) for values octal cannot hold.
 * Negative base-256 values (0xff) are refused: no field netpath reads may be negative.
 */
static int number(const uint8_t *blk, size_t off, size_t len, uint64_t *out)
{
	const uint8_t *f = blk + off;
	uint64_t v = 0;
	size_t i = 0;

	if (f[0] & 0x80) {
		if (f[0] != 0x80)
			return -1;
		for (i = 1; i < len; i++) {
			if (v >> 56)
				return -1;
			v = v << 8 | f[i];
		}
		*out = v;
		return 0;
	}
	while (i < len && f[i] == ' ')
		i++;
	for (; i < len && f[i] >= '0' && f[i] <= '7'; i++) {
		if (v >> 61)
			return -1;
		v = v << 3 | (uint64_t)(f[i] - '0');
	}
	/* The rest: terminators only. */
	for (; i < len; i++)
		if (f[i] != ' ' && f[i] != '\0')
			return -1;
	*out = v;
	return 0;
}

static bool all_zero(const uint8_t *blk)
{
	for (size_t i = 0; i < NP_TAR_BLOCK; i++)
		if (blk[i])
			return false;
	return true;
}

/* The unsigned sum of a block's 512 bytes, and *high the count of those >= 0x80, eight bytes
 * at a time (byte pairs added in 16-bit lanes: 64 words x 2 x 255 fits). The per-byte loop it
 * replaces was 13% of a `doctor --root CAPTURE`'s instructions. */
static uint32_t block_sum(const uint8_t *blk, uint32_t *high)
{
	const uint64_t pairs = 0x00FF00FF00FF00FFull, ones = 0x0101010101010101ull;
	uint64_t lanes = 0, hi = 0;

	for (size_t i = 0; i < NP_TAR_BLOCK; i += 8) {
		uint64_t x;

		memcpy(&x, blk + i, sizeof(x));
		lanes += (x & pairs) + ((x >> 8) & pairs);
		hi += (x >> 7) & ones;		/* at most 64 in each byte lane */
	}
	hi = (hi & pairs) + ((hi >> 8) & pairs);
	*high = (uint32_t)((hi * 0x0001000100010001ull) >> 48);	/* at most 512 */
	/* Up to 512 x 255 = 130,560 in all: folded to two 32-bit lanes, not summed in 16 bits. */
	lanes = (lanes & 0x0000FFFF0000FFFFull) + ((lanes >> 16) & 0x0000FFFF0000FFFFull);
	return (uint32_t)lanes + (uint32_t)(lanes >> 32);
}

/* The checksum field read as spaces: unsigned sum (POSIX), or signed (old Sun tar): a byte
 * >= 0x80 counts 256 less signed than unsigned. */
static bool checksum_ok(const uint8_t *blk)
{
	uint64_t want;
	uint32_t high, usum;

	if (number(blk, F_CHKSUM, &want) < 0)
		return false;
	usum = block_sum(blk, &high);
	for (size_t i = 148; i < 156; i++) {
		usum -= blk[i];
		high -= blk[i] >> 7;
	}
	usum += 8 * ' ';
	return want == usum || (int64_t)want == (int64_t)usum - 256 * (int64_t)high;
}

bool np_tar_is_header(const uint8_t *blk)
{
	return !all_zero(blk) && checksum_ok(blk);
}

/* Every message names the offset of the header at fault: fmt has one %llu for it. */
static int fail(char *err, size_t errlen, int code, const char *fmt, uint64_t offset)
{
	if (err && errlen)
		snprintf(err, errlen, fmt, (unsigned long long)offset);
	return code;
}

/* Copy a header string field that may fill its whole width without a NUL. */
static void field(char *out, const uint8_t *blk, size_t off, size_t len)
{
	size_t n = strnlen((const char *)blk + off, len);

	memcpy(out, blk + off, n);
	out[n] = '\0';
}

/* A copy of value[0..len) as a C string; NULL when it holds a NUL or memory runs out. */
static char *dup_value(const uint8_t *value, size_t len, int *r)
{
	char *s;

	if (memchr(value, '\0', len)) {
		*r = -EBADMSG;
		return NULL;
	}
	s = malloc(len + 1);
	if (!s) {
		*r = -ENOMEM;
		return NULL;
	}
	memcpy(s, value, len);
	s[len] = '\0';
	return s;
}

static int decimal(const uint8_t *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;

	if (!len)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9' || v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	*out = v;
	return 0;
}

/* pax records, "LEN KEY=VALUE\n" each, LEN counting the whole record. */
static int pax_records(struct np_tar_parser *p, const uint8_t *d, uint64_t len)
{
	uint64_t pos = 0;

	while (pos < len) {
		uint64_t rlen = 0, i = pos;
		const uint8_t *key, *eq, *end;
		int r = 0;

		/* Python and GNU tar pad nothing, but a NUL tail is tolerated as the end. */
		if (d[pos] == '\0')
			break;
		while (i < len && d[i] >= '0' && d[i] <= '9' && i - pos < 20)
			rlen = rlen * 10 + (uint64_t)(d[i++] - '0');
		if (i == pos || i >= len || d[i] != ' ' || rlen <= i - pos + 1 || rlen > len - pos)
			return -EBADMSG;
		key = d + i + 1;
		end = d + pos + rlen - 1;	/* the '\n' */
		if (*end != '\n')
			return -EBADMSG;
		eq = memchr(key, '=', (size_t)(end - key));
		if (!eq || eq == key)
			return -EBADMSG;
#define KEY_IS(k) ((size_t)(eq - key) == sizeof(k) - 1 && !memcmp(key, k, sizeof(k) - 1))
		if (KEY_IS("path")) {
			free(p->ov_path);
			p->ov_path = dup_value(eq + 1, (size_t)(end - eq - 1), &r);
		} else if (KEY_IS("linkpath")) {
			free(p->ov_link);
			p->ov_link = dup_value(eq + 1, (size_t)(end - eq - 1), &r);
		} else if (KEY_IS("size")) {
			if (decimal(eq + 1, (size_t)(end - eq - 1), &p->ov_size) < 0)
				return -EBADMSG;
			p->ov_have_size = true;
		}
#undef KEY_IS
		if (r < 0)
			return r;
		pos += rlen;
	}
	return 0;
}

/* The metadata member is complete: fold it into the overrides. */
static int meta_done(struct np_tar_parser *p, char *err, size_t errlen)
{
	int r = 0;

	switch (p->meta_type) {
	case 'x':
		r = pax_records(p, p->meta, p->meta_size);
		if (r == -EBADMSG)
			return fail(err, errlen, r, "malformed pax header at offset %llu",
				    p->group_offset);
		break;
	case 'L':
	case 'K': {
		size_t n = strnlen((const char *)p->meta, (size_t)p->meta_size);
		char *s = malloc(n + 1);

		if (!s) {
			r = -ENOMEM;
			break;
		}
		memcpy(s, p->meta, n);
		s[n] = '\0';
		if (p->meta_type == 'L') {
			free(p->ov_path);
			p->ov_path = s;
		} else {
			free(p->ov_link);
			p->ov_link = s;
		}
		break;
	}
	default:		/* 'g': global pax records, nothing netpath uses */
		break;
	}
	free(p->meta);
	p->meta = NULL;
	p->meta_type = 0;
	if (r == -ENOMEM)
		return fail(err, errlen, r, "out of memory at offset %llu", p->group_offset);
	return r;
}

static int meta_block(struct np_tar_parser *p, const uint8_t *blk, char *err, size_t errlen)
{
	uint64_t n = p->meta_size - p->meta_len;
	int r;

	if (n > NP_TAR_BLOCK)
		n = NP_TAR_BLOCK;
	memcpy(p->meta + p->meta_len, blk, (size_t)n);
	p->meta_len += n;
	p->offset += NP_TAR_BLOCK;
	if (--p->meta_blocks)
		return NP_TAR_MORE;
	r = meta_done(p, err, errlen);
	return r < 0 ? r : NP_TAR_MORE;
}

static int start_meta(struct np_tar_parser *p, char type, uint64_t size, char *err,
		      size_t errlen)
{
	if (size > NP_TAR_META_MAX)
		return fail(err, errlen, -EFBIG, "pax or long-name header at offset %llu is "
			    "too big", p->offset);
	p->meta_type = type;
	p->meta_size = size;
	p->meta_len = 0;
	p->meta_blocks = np_tar_padded(size) / NP_TAR_BLOCK;
	p->meta = malloc(size ? (size_t)size : 1);
	if (!p->meta)
		return fail(err, errlen, -ENOMEM, "out of memory at offset %llu", p->offset);
	/* 'x', 'L', 'K' belong to the member that follows; a global 'g' to none. */
	if (type != 'g') {
		if (!p->pending)
			p->group_offset = p->offset;
		p->pending = true;
	}
	p->offset += NP_TAR_BLOCK;
	if (!p->meta_blocks) {
		int r = meta_done(p, err, errlen);

		return r < 0 ? r : NP_TAR_MORE;
	}
	return NP_TAR_MORE;
}

static enum np_tar_type type_of(char t, const char *name)
{
	switch (t) {
	case '\0':
		/* Pre-POSIX archives marked directories only by the trailing slash. */
		return name[0] && name[strlen(name) - 1] == '/' ? NP_TAR_DIR : NP_TAR_FILE;
	case '0':
	case '7':
		return NP_TAR_FILE;
	case '5':
		return NP_TAR_DIR;
	case '2':
		return NP_TAR_SYMLINK;
	case '1':
		return NP_TAR_HARDLINK;
	default:
		return NP_TAR_OTHER;
	}
}

static int header(struct np_tar_parser *p, const uint8_t *blk, char *err, size_t errlen)
{
	uint64_t size, mode, mtime, at = p->offset;
	char type = (char)blk[F_TYPE];
	struct np_tar_member *m = &p->m;

	if (!checksum_ok(blk))
		return fail(err, errlen, -EBADMSG, "bad header checksum at offset %llu "
			    "(corrupted, or not a tar archive)", at);
	if (number(blk, F_SIZE, &size) < 0 || number(blk, F_MODE, &mode) < 0)
		return fail(err, errlen, -EBADMSG, "bad number field in the header at "
			    "offset %llu", at);
	/* A bad mtime costs nothing: netpath ignores it. */
	if (number(blk, F_MTIME, &mtime) < 0 || mtime > INT64_MAX)
		mtime = 0;

	switch (type) {
	case 'x':
	case 'g':
	case 'L':
	case 'K':
		return start_meta(p, type, size, err, errlen);
	default:
		break;
	}

	/* POSIX ustar joins prefix and name; GNU's "ustar  " uses those bytes for other things. */
	if (!memcmp(blk + F_MAGIC, "ustar\0", 6) && blk[345]) {
		field(p->name, blk, F_PREFIX);
		strcat(p->name, "/");
		field(p->name + strlen(p->name), blk, F_NAME);
	} else {
		field(p->name, blk, F_NAME);
	}
	field(p->link, blk, F_LINK);

	memset(m, 0, sizeof(*m));
	m->path = p->ov_path ? p->ov_path : p->name;
	m->linkpath = p->ov_link ? p->ov_link : p->link;
	m->typeflag = type;
	m->type = type_of(type, m->path);
	m->size = p->ov_have_size ? p->ov_size : size;
	m->mode = (unsigned)(mode & 07777);
	m->mtime = (int64_t)mtime;
	m->offset = p->pending ? p->group_offset : at;
	/* Like Python's tarfile: links, devices, FIFOs and directories carry no data. */
	m->data = (m->type == NP_TAR_FILE || (m->type == NP_TAR_OTHER && (type < '1' ||
		   type > '6'))) ? m->size : 0;
	p->offset += NP_TAR_BLOCK;
	if (type == 'S' && blk[GNU_ISEXT]) {
		p->sparse_ext = true;
		return NP_TAR_MORE;
	}
	p->in_member = true;
	return NP_TAR_MEMBER;
}

int np_tar_parse_block(struct np_tar_parser *p, const uint8_t *blk, char *err, size_t errlen)
{
	if (err && errlen)
		err[0] = '\0';
	if (p->in_member)
		return fail(err, errlen, -EINVAL, "member data at offset %llu not consumed", p->offset);
	if (p->ended)
		return NP_TAR_END;
	if (p->meta_blocks)
		return meta_block(p, blk, err, errlen);
	if (p->sparse_ext) {
		/* Old GNU sparse maps: more blocks while the flag says so; then the data. */
		p->offset += NP_TAR_BLOCK;
		if (blk[GNU_EXT_ISEXT])
			return NP_TAR_MORE;
		p->sparse_ext = false;
		p->in_member = true;
		return NP_TAR_MEMBER;
	}
	if (p->m.path && !p->in_member) {
		/* The previous member is done with: its overrides are spent. */
		clear_overrides(p);
		p->m.path = NULL;
	}
	if (all_zero(blk)) {
		if (p->pending)
			return fail(err, errlen, -EBADMSG, "pax or long-name header at offset %llu "
				    "is followed by the end of the archive", p->group_offset);
		/* The first zero block ends the archive, as for Python's tarfile; GNU tar writes
		 * two and pads to a record, all ignored. */
		p->ended = true;
		p->offset += NP_TAR_BLOCK;
		return NP_TAR_END;
	}
	return header(p, blk, err, errlen);
}

int np_tar_parse_eof(const struct np_tar_parser *p, size_t partial, char *err, size_t errlen)
{
	if (p->ended)
		return 0;
	if (err && errlen) {
		if (p->in_member)
			snprintf(err, errlen, "truncated archive: the data of the member at offset "
				 "%llu ends early", (unsigned long long)p->m.offset);
		else if (p->offset == 0 && !partial)
			snprintf(err, errlen, "empty file, not a tar archive");
		else
			snprintf(err, errlen, "truncated archive: it ends at offset %llu without "
				 "the end-of-archive block", (unsigned long long)(p->offset + partial));
	}
	return -EBADMSG;
}

int np_tar_clean_path(const char *in, char *out, size_t size)
{
	size_t len = 0, depth = 0;
	const char *s = in;

	if (!size)
		return -ENAMETOOLONG;
	out[0] = '\0';
	if (in[0] == '/')
		return -EPERM;
	while (*s) {
		const char *e = strchrnul(s, '/');
		size_t n = (size_t)(e - s);

		if (n == 2 && s[0] == '.' && s[1] == '.')
			return -EPERM;
		if (n && !(n == 1 && s[0] == '.')) {
			if (n > 255 || len + (len ? 1 : 0) + n >= size)
				return -ENAMETOOLONG;
			if (++depth > NP_TAR_MAX_DEPTH)
				return -ELOOP;
			if (len)
				out[len++] = '/';
			memcpy(out + len, s, n);
			len += n;
			out[len] = '\0';
		}
		s = *e ? e + 1 : e;
	}
	return len ? 0 : 1;
}
