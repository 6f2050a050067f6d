// SPDX-License-Identifier: GPL-2.0-only
/* Segment and block headers, their CRCs, the walk over a segment, and block (de)compression
 * for the flight recorder (rec_block.h). */
#include "rec_block.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const uint8_t seg_magic[8] = { 'N', 'P', 'R', 'E', 'C', '\r', '\n', 0x1a };
static const uint8_t blk_magic[4] = { 'N', 'P', 'R', 'B' };

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

void np_rec_seghdr_pack(const struct np_rec_seghdr *h, uint8_t out[NP_REC_SEG_HDR])
{
	memset(out, 0, NP_REC_SEG_HDR);
	memcpy(out, seg_magic, sizeof(seg_magic));
	put32(out + 8, h->version ? h->version : NP_REC_VERSION);
	put32(out + 12, NP_REC_SEG_HDR);
	put64(out + 16, h->session);
	put64(out + 24, h->seq);
	put64(out + 32, (uint64_t)h->wall_ns);
	put64(out + 40, (uint64_t)h->mono_ns);
	put32(out + 48, h->interval_ms);
	put32(out + 52, h->flags);
	put32(out + 60, (uint32_t)crc32(0, out, 60));
}

int np_rec_seghdr_unpack(const uint8_t in[NP_REC_SEG_HDR], struct np_rec_seghdr *h)
{
	if (memcmp(in, seg_magic, sizeof(seg_magic)) ||
	    get32(in + 60) != (uint32_t)crc32(0, in, 60))
		return -EBADMSG;
	if (get32(in + 8) < NP_REC_VERSION_MIN || get32(in + 8) > NP_REC_VERSION ||
	    get32(in + 12) != NP_REC_SEG_HDR)
		return -ENOTSUP;
	h->version = get32(in + 8);
	h->session = get64(in + 16);
	h->seq = get64(in + 24);
	h->wall_ns = (int64_t)get64(in + 32);
	h->mono_ns = (int64_t)get64(in + 40);
	h->interval_ms = get32(in + 48);
	h->flags = get32(in + 52);
	return 0;
}

/* Header bytes with the CRC field (20..23) zero, then the payload. */
static uint32_t blk_crc(const uint8_t hdr[NP_REC_BLK_HDR], const uint8_t *payload, size_t len)
{
	uint8_t tmp[NP_REC_BLK_HDR];
	uLong c;

	memcpy(tmp, hdr, sizeof(tmp));
	memset(tmp + 20, 0, 4);
	c = crc32(0, tmp, sizeof(tmp));
	return (uint32_t)crc32(c, payload, (uInt)len);
}

void np_rec_blkhdr_pack(const struct np_rec_blkhdr *h, const uint8_t *payload,
			uint8_t out[NP_REC_BLK_HDR])
{
	memcpy(out, blk_magic, 4);
	put32(out + 4, h->flags);
	put32(out + 8, h->stored);
	put32(out + 12, h->raw);
	put32(out + 16, h->nframes);
	put32(out + 20, 0);
	put64(out + 24, (uint64_t)h->first_wall);
	put64(out + 32, (uint64_t)h->last_wall);
	put64(out + 40, (uint64_t)h->last_mono);
	put32(out + 20, blk_crc(out, payload, h->stored));
}

static int blkhdr_unpack(const uint8_t in[NP_REC_BLK_HDR], struct np_rec_blkhdr *h)
{
	if (memcmp(in, blk_magic, 4))
		return -EBADMSG;
	h->flags = get32(in + 4);
	h->stored = get32(in + 8);
	h->raw = get32(in + 12);
	h->nframes = get32(in + 16);
	h->first_wall = (int64_t)get64(in + 24);
	h->last_wall = (int64_t)get64(in + 32);
	h->last_mono = (int64_t)get64(in + 40);
	if (h->stored > NP_REC_BLK_MAX || h->raw > NP_REC_BLK_MAX || !h->stored)
		return -EBADMSG;
	return 0;
}

int np_rec_seg_name(char *out, size_t size, uint64_t seq, int64_t wall_ns)
{
	int64_t s = wall_ns / 1000000000;
	int n = snprintf(out, size, "%012" PRIu64 "-%" PRId64 NP_REC_SEG_SUFFIX, seq, s);

	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

bool np_rec_seg_parse(const char *name, uint64_t *seq, int64_t *wall_s)
{
	char *end;
	size_t len = strlen(name), sl = strlen(NP_REC_SEG_SUFFIX);

	if (len <= sl || strcmp(name + len - sl, NP_REC_SEG_SUFFIX) || name[0] < '0' ||
	    name[0] > '9')
		return false;
	errno = 0;
	*seq = strtoull(name, &end, 10);
	if (errno || *end != '-')
		return false;
	*wall_s = strtoll(end + 1, &end, 10);
	return !errno && end == name + len - sl;
}

static int pread_all(int fd, void *buf, size_t len, off_t off)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = pread(fd, (uint8_t *)buf + got, len - got, off + (off_t)got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EBADMSG;
		got += (size_t)n;
	}
	return 0;
}

int np_rec_block_read(int fd, off_t off, off_t size, struct np_rec_blkhdr *h,
		      struct np_rec_buf *buf)
{
	uint8_t hdr[NP_REC_BLK_HDR];
	int r;

	if (size - off < NP_REC_BLK_HDR)
		return -EBADMSG;
	r = pread_all(fd, hdr, sizeof(hdr), off);
	if (r == 0)
		r = blkhdr_unpack(hdr, h);
	if (r < 0)
		return r;
	if (size - off - NP_REC_BLK_HDR < (off_t)h->stored)
		return -EBADMSG;
	if (buf->cap < h->stored) {
		uint8_t *p = realloc(buf->p, h->stored);

		if (!p)
			return -ENOMEM;
		buf->p = p;
		buf->cap = h->stored;
	}
	r = pread_all(fd, buf->p, h->stored, off + NP_REC_BLK_HDR);
	if (r < 0)
		return r;
	buf->len = h->stored;
	return get32(hdr + 20) == blk_crc(hdr, buf->p, h->stored) ? 0 : -EBADMSG;
}

off_t np_rec_next_good(int fd, off_t off, off_t size)
{
	struct np_rec_buf buf = { 0 };
	struct np_rec_blkhdr h;
	uint8_t chunk[4096 + 3];
	off_t found = -1;

	/* Chunks overlap by three bytes: a magic across two chunks is still seen. */
	for (off_t at = off + 1; at < size && found < 0; at += 4096) {
		ssize_t n = pread(fd, chunk, sizeof(chunk), at);

		for (ssize_t i = 0; n > 3 && i < n - 3 && found < 0; i++)
			if (!memcmp(chunk + i, "NPRB", 4) &&
			    np_rec_block_read(fd, at + i, size, &h, &buf) == 0)
				found = at + i;
	}
	np_rec_buf_free(&buf);
	return found;
}

int np_rec_segment_walk(int fd, off_t from, off_t size, np_rec_block_cb cb, void *arg,
			off_t *end, bool *torn)
{
	struct np_rec_buf buf = { 0 };
	struct np_rec_blkhdr h;
	off_t off = from;
	int r = 0;

	while (off < size) {
		r = np_rec_block_read(fd, off, size, &h, &buf);
		if (r == -EBADMSG) {
			r = 0;
			break;
		}
		if (r < 0)
			break;
		if (cb) {
			r = cb(arg, &h, off, buf.p);
			if (r)
				break;
		}
		off += NP_REC_BLK_HDR + (off_t)h.stored;
	}
	np_rec_buf_free(&buf);
	*end = off;
	*torn = off < size && r == 0;
	return r;
}

int np_rec_deflate_init(z_stream *z, int level)
{
	memset(z, 0, sizeof(*z));
	/* Raw deflate, a 32 KiB window, memLevel 8: zlib's defaults but for the header. */
	return deflateInit2(z, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) == Z_OK ? 0 : -ENOMEM;
}

/* Deflate len bytes of in with flush; 0 or -EIO. */
static int run(z_stream *z, const uint8_t *in, size_t len, int flush)
{
	int r;

	z->next_in = (Bytef *)in;
	z->avail_in = (uInt)len;
	r = deflate(z, flush);
	if ((r != Z_OK && r != Z_BUF_ERROR) || z->avail_in || !z->avail_out)
		return -EIO;
	return 0;
}

int np_rec_deflate_block(z_stream *z, int level, const uint8_t *in, size_t len,
			 size_t plain_at, size_t plain_len, struct np_rec_buf *out)
{
	/* Room for the worst case and for the stored blocks' headers around the plain part. */
	size_t room = deflateBound(z, (uLong)len) + 64;
	int r;

	if (plain_at > len || plain_len > len - plain_at)
		return -EIO;
	if (out->cap - out->len < room) {
		uint8_t *p = realloc(out->p, out->len + room);

		if (!p)
			return -ENOMEM;
		out->p = p;
		out->cap = out->len + room;
	}
	z->next_out = out->p + out->len;
	z->avail_out = (uInt)(out->cap - out->len);
	if (plain_len) {
		/* Level 0 stores: deflateParams ends the compressed part first (Z_BLOCK). */
		r = run(z, in, plain_at, Z_NO_FLUSH);
		if (r == 0 && deflateParams(z, 0, Z_DEFAULT_STRATEGY) != Z_OK)
			r = -EIO;
		if (r == 0)
			r = run(z, in + plain_at, plain_len, Z_NO_FLUSH);
		if (r == 0 && deflateParams(z, level, Z_DEFAULT_STRATEGY) != Z_OK)
			r = -EIO;
		if (r < 0)
			return r;
		in += plain_at + plain_len;
		len -= plain_at + plain_len;
	}
	r = run(z, in, len, Z_SYNC_FLUSH);
	if (r < 0)
		return r;
	out->len = out->cap - z->avail_out;
	return 0;
}

int np_rec_inflate_init(z_stream *z)
{
	memset(z, 0, sizeof(*z));
	return inflateInit2(z, -15) == Z_OK ? 0 : -ENOMEM;
}

int np_rec_inflate_block(z_stream *z, const uint8_t *in, size_t len, size_t raw,
			 struct np_rec_buf *out)
{
	int r;

	if (out->cap < raw + 1) {
		uint8_t *p = realloc(out->p, raw + 1);

		if (!p)
			return -ENOMEM;
		out->p = p;
		out->cap = raw + 1;
	}
	z->next_in = (Bytef *)in;
	z->avail_in = (uInt)len;
	z->next_out = out->p;
	/* One byte more than the header says: a block that inflates longer is damaged. */
	z->avail_out = (uInt)(raw + 1);
	r = inflate(z, Z_SYNC_FLUSH);
	if ((r != Z_OK && r != Z_STREAM_END && r != Z_BUF_ERROR) || z->avail_in ||
	    z->avail_out != 1)
		return -EBADMSG;
	out->len = raw;
	return 0;
}
