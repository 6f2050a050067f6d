// SPDX-License-Identifier: GPL-2.0-only
/* Decompressing reader for archives: magic-byte detection, zlib for gzip, liblzma for xz. */
#include "tar_source.h"
#include "tar_parse.h"
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#if HAVE_LZMA
#include <lzma.h>
#endif

/* Decoding what xz -9 wrote needs 65 MiB; a stream asking for more than this is refused
 * rather than let a hostile header take the memory of a box in trouble. */
#define XZ_MEMLIMIT (256ULL << 20)

enum kind { PLAIN, GZIP, XZ };

struct np_tar_source {
	int fd;
	enum kind kind;
	bool in_eof, done;
	size_t in_pos, in_len;
	z_stream z;
#if HAVE_LZMA
	lzma_stream x;
#endif
	uint8_t in[64 * 1024];
};

static ssize_t read_some(int fd, void *buf, size_t len)
{
	ssize_t n;

	do
		n = read(fd, buf, len);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

/* Refill the input buffer when it is used up. 0, or -errno. */
static int refill(struct np_tar_source *s)
{
	ssize_t n;

	if (s->in_pos < s->in_len || s->in_eof)
		return 0;
	n = read_some(s->fd, s->in, sizeof(s->in));
	if (n < 0)
		return (int)n;
	s->in_pos = 0;
	s->in_len = (size_t)n;
	if (!n)
		s->in_eof = true;
	return 0;
}

static bool starts(const struct np_tar_source *s, const char *magic, size_t n)
{
	return s->in_len >= n && !memcmp(s->in, magic, n);
}

static void say(char *err, size_t errlen, const char *msg)
{
	if (err && errlen)
		snprintf(err, errlen, "%s", msg);
}

/* Formats seen in the wild that netpath does not unpack: named, with what to do instead. */
static const struct {
	const char *magic;
	size_t len;
	const char *name;
} foreign[] = {
	{ "BZh", 3, "bzip2" },
	{ "\x28\xb5\x2f\xfd", 4, "zstd" },
	{ "\x04\x22\x4d\x18", 4, "lz4" },
	{ "LZIP", 4, "lzip" },
	{ "\x1f\x9d", 2, "compress (.Z)" },
	{ "\x5d\x00\x00", 3, "lzma" },
#if !HAVE_LZMA
	{ "\xfd" "7zXZ\0", 6, "xz (this netpath was built without liblzma)" },
#endif
};

struct np_tar_source *np_tar_source_open(int fd, int *code, char *err, size_t errlen)
{
	struct np_tar_source *s = calloc(1, sizeof(*s));
	int r = 0;

	if (!s) {
		*code = -ENOMEM;
		say(err, errlen, "out of memory");
		return NULL;
	}
	s->fd = fd;
	/* At least a header block, to tell a plain tar from anything else. */
	while (!s->in_eof && s->in_len < NP_TAR_BLOCK) {
		ssize_t n = read_some(fd, s->in + s->in_len, sizeof(s->in) - s->in_len);

		if (n < 0) {
			r = (int)n;
			if (err && errlen)
				snprintf(err, errlen, "cannot read the archive: %s", strerror(-r));
			goto fail;
		}
		s->in_eof = n == 0;
		s->in_len += (size_t)n;
	}
	if (starts(s, "\x1f\x8b", 2)) {
		s->kind = GZIP;
		/* 15 + 32: a gzip (or zlib) header, detected by zlib itself. */
		if (inflateInit2(&s->z, 15 + 32) != Z_OK)
			goto nomem;
		return s;
	}
#if HAVE_LZMA
	if (starts(s, "\xfd" "7zXZ\0", 6)) {
		s->kind = XZ;
		/* CONCATENATED: pxz / parallel xz write several streams back to back. */
		if (lzma_stream_decoder(&s->x, XZ_MEMLIMIT, LZMA_CONCATENATED) != LZMA_OK)
			goto nomem;
		return s;
	}
#endif
	for (size_t i = 0; i < sizeof(foreign) / sizeof(foreign[0]); i++) {
		if (!starts(s, foreign[i].magic, foreign[i].len))
			continue;
		r = -ENOTSUP;
		if (err && errlen)
			snprintf(err, errlen, "%s-compressed archive, which netpath does not unpack: "
				 "unpack it first (tar xf FILE) and give the directory to --root",
				 foreign[i].name);
		goto fail;
	}
	if (s->in_len >= NP_TAR_BLOCK) {
		static const uint8_t zeros[NP_TAR_BLOCK];

		/* A valid header, or the end-of-archive block of an empty archive. */
		if (np_tar_is_header(s->in) || !memcmp(s->in, zeros, NP_TAR_BLOCK)) {
			s->kind = PLAIN;
			return s;
		}
	}
	if (!s->in_len) {
		r = -EBADMSG;
		say(err, errlen, "empty file, not a tar archive");
		goto fail;
	}
	r = -EBADMSG;
	say(err, errlen, starts(s, "PK\x03\x04", 4) ? "a zip file, not a tar archive" :
	    "not a tar archive, nor a gzip- or xz-compressed one");
	goto fail;
nomem:
	r = -ENOMEM;
	say(err, errlen, "out of memory");
fail:
	*code = r;
	free(s);
	return NULL;
}

const char *np_tar_source_kind(const struct np_tar_source *s)
{
	return s->kind == GZIP ? "gzip" : s->kind == XZ ? "xz" : "none";
}

static ssize_t read_plain(struct np_tar_source *s, void *buf, size_t len)
{
	/* What detection read ahead first, then the file itself. */
	if (s->in_pos < s->in_len) {
		size_t n = s->in_len - s->in_pos < len ? s->in_len - s->in_pos : len;

		memcpy(buf, s->in + s->in_pos, n);
		s->in_pos += n;
		return (ssize_t)n;
	}
	if (s->in_eof)
		return 0;
	return read_some(s->fd, buf, len);
}

static ssize_t read_gzip(struct np_tar_source *s, uint8_t *buf, size_t len, char *err,
			 size_t errlen)
{
	s->z.next_out = buf;
	s->z.avail_out = (uInt)len;
	while (s->z.avail_out == len && !s->done) {
		int r = refill(s), zr;

		if (r < 0) {
			if (err && errlen)
				snprintf(err, errlen, "cannot read the archive: %s", strerror(-r));
			return r;
		}
		if (s->in_pos == s->in_len) {
			say(err, errlen, "truncated archive: the gzip data ends early");
			return -EBADMSG;
		}
		s->z.next_in = s->in + s->in_pos;
		s->z.avail_in = (uInt)(s->in_len - s->in_pos);
		zr = inflate(&s->z, Z_NO_FLUSH);
		s->in_pos = s->in_len - s->z.avail_in;
		if (zr == Z_STREAM_END) {
			/* Another gzip member may follow (concatenated files); anything else after
			 * the stream is ignored, as gzip -d does with a warning. */
			if (refill(s) == 0 && s->in_len - s->in_pos >= 2 &&
			    s->in[s->in_pos] == 0x1f && s->in[s->in_pos + 1] == 0x8b)
				inflateReset(&s->z);
			else
				s->done = true;
		} else if (zr == Z_MEM_ERROR) {
			say(err, errlen, "out of memory");
			return -ENOMEM;
		} else if (zr != Z_OK && zr != Z_BUF_ERROR) {
			say(err, errlen, "corrupt gzip data");
			return -EBADMSG;
		}
	}
	return (ssize_t)(len - s->z.avail_out);
}

#if HAVE_LZMA
static ssize_t read_xz(struct np_tar_source *s, uint8_t *buf, size_t len, char *err,
		       size_t errlen)
{
	s->x.next_out = buf;
	s->x.avail_out = len;
	while (s->x.avail_out == len && !s->done) {
		int r = refill(s);
		lzma_ret xr;

		if (r < 0) {
			if (err && errlen)
				snprintf(err, errlen, "cannot read the archive: %s", strerror(-r));
			return r;
		}
		s->x.next_in = s->in + s->in_pos;
		s->x.avail_in = s->in_len - s->in_pos;
		/* FINISH once the file is read: the decoder then says whether the stream was
		 * complete (STREAM_END) or cut short (BUF_ERROR). */
		xr = lzma_code(&s->x, s->in_eof ? LZMA_FINISH : LZMA_RUN);
		s->in_pos = s->in_len - s->x.avail_in;
		switch (xr) {
		case LZMA_OK:
			break;
		case LZMA_STREAM_END:
			s->done = true;
			break;
		case LZMA_BUF_ERROR:
			say(err, errlen, "truncated archive: the xz data ends early");
			return -EBADMSG;
		case LZMA_MEM_ERROR:
			say(err, errlen, "out of memory");
			return -ENOMEM;
		case LZMA_MEMLIMIT_ERROR:
			say(err, errlen, "the xz data needs more than 256 MiB to decompress");
			return -EFBIG;
		default:
			say(err, errlen, "corrupt xz data");
			return -EBADMSG;
		}
	}
	return (ssize_t)(len - s->x.avail_out);
}
#endif

ssize_t np_tar_source_read(struct np_tar_source *s, void *buf, size_t len, char *err,
			   size_t errlen)
{
	if (!len)
		return 0;
	if (len > (1u << 30))
		len = 1u << 30;
	switch (s->kind) {
	case GZIP:
		return read_gzip(s, buf, len, err, errlen);
#if HAVE_LZMA
	case XZ:
		return read_xz(s, buf, len, err, errlen);
#endif
	default: {
		ssize_t n = read_plain(s, buf, len);

		if (n < 0 && err && errlen)
			snprintf(err, errlen, "cannot read the archive: %s", strerror((int)-n));
		return n;
	}
	}
}

void np_tar_source_close(struct np_tar_source *s)
{
	if (!s)
		return;
	if (s->kind == GZIP)
		inflateEnd(&s->z);
#if HAVE_LZMA
	if (s->kind == XZ)
		lzma_end(&s->x);
#endif
	free(s);
}
