// SPDX-License-Identifier: GPL-2.0-only
/*
 * A streaming tar writer for `netpath capture`: POSIX ustar headers, a pax 'x' header before
 * any member whose path or link target does not fit them, optionally gzip-compressed (zlib).
 */
#include "tar.h"
#include "tar_parse.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

/* tar's traditional record: 20 blocks. GNU tar and Python pad the archive to it. */
#define RECORD (20 * NP_TAR_BLOCK)
/* Largest value of an 11-digit octal field (8 GiB - 1 for sizes). */
#define OCTAL11_MAX 077777777777ULL

struct np_tar_out {
	int fd;
	bool gzip;
	int err;		/* the first error; every later call returns it */
	uint64_t written;	/* uncompressed bytes, for the record padding */
	z_stream z;
	unsigned char zbuf[64 * 1024];
};

int np_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Push bytes through the compressor (flush: Z_NO_FLUSH or Z_FINISH), writing what it emits. */
static int deflate_out(struct np_tar_out *o, const void *data, size_t len, int flush)
{
	int zr;

	o->z.next_in = (Bytef *)(uintptr_t)data;
	o->z.avail_in = (uInt)len;
	do {
		size_t have;
		int r;

		o->z.next_out = o->zbuf;
		o->z.avail_out = sizeof(o->zbuf);
		zr = deflate(&o->z, flush);
		if (zr == Z_STREAM_ERROR)
			return -EIO;
		have = sizeof(o->zbuf) - o->z.avail_out;
		r = have ? np_write_all(o->fd, o->zbuf, have) : 0;
		if (r < 0)
			return r;
	} while (o->z.avail_out == 0 || (flush == Z_FINISH && zr != Z_STREAM_END));
	return 0;
}

static int out(struct np_tar_out *o, const void *data, size_t len)
{
	int r = 0;

	if (o->err)
		return o->err;
	/* zlib counts in uInt: feed huge buffers in slices. */
	while (!r && len) {
		size_t n = len > (1u << 30) ? (1u << 30) : len;

		r = o->gzip ? deflate_out(o, data, n, Z_NO_FLUSH) : np_write_all(o->fd, data, n);
		data = (const char *)data + n;
		len -= n;
		o->written += n;
	}
	if (r < 0)
		o->err = r;
	return r;
}

static int pad(struct np_tar_out *o, uint64_t len)
{
	static const char zeros[NP_TAR_BLOCK];
	size_t n = (size_t)(np_tar_padded(len) - len);

	return n ? out(o, zeros, n) : 0;
}

struct np_tar_out *np_tar_out_open(int fd, bool gzip, int *err)
{
	struct np_tar_out *o;
	int dummy;

	if (!err)
		err = &dummy;
	if (fd < 0) {
		*err = -EINVAL;
		return NULL;
	}
	o = calloc(1, sizeof(*o));
	if (!o) {
		*err = -ENOMEM;
		return NULL;
	}
	o->fd = fd;
	o->gzip = gzip;
	/* windowBits 15 + 16: a gzip wrapper (header mtime 0, so equal input gives equal
	 * output). Level 3, not gzip's default 6: levels 4-9 search lazily for longer matches,
	 * which was 62-71% of a capture's instructions (20.6 M of 28.6 M on a virtio VM) for a
	 * file 14% smaller (21.3 kB against 24.4 kB there); level 3 is 9.5 M. */
	if (gzip && deflateInit2(&o->z, 3, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		free(o);
		*err = -ENOMEM;
		return NULL;
	}
	*err = 0;
	return o;
}

/* An octal field of len bytes: len-1 digits and a NUL, as GNU tar writes them. */
static void octal(char *f, size_t len, uint64_t v)
{
	/* snprintf("%0*llo") by hand (hundreds of headers a capture, five fields each); the
	 * callers' values fit len - 1 digits, more significant digits would be dropped. */
	f[len - 1] = '\0';
	for (size_t i = len - 1; i-- > 0; v >>= 3)
		f[i] = (char)('0' + (v & 7));
}

/* Split path into ustar's prefix (<= 155) and name (<= 100) at a '/'; false when impossible. */
static bool ustar_split(const char *path, size_t len, size_t *cut)
{
	if (len <= 100) {
		*cut = 0;
		return true;
	}
	/* The rightmost '/' that leaves a prefix of at most 155 bytes and a name of at most 100. */
	for (size_t i = len - 1; i > 0; i--) {
		if (path[i] != '/')
			continue;
		if (i <= 155 && len - i - 1 <= 100 && len - i - 1 > 0) {
			*cut = i;
			return true;
		}
		if (len - i - 1 > 100)
			break;
	}
	return false;
}

/* One "LEN key=value\n" record; LEN counts itself, so try the digit counts in turn. */
static size_t pax_record(char *buf, size_t size, const char *key, const char *value)
{
	size_t body = strlen(key) + strlen(value) + 3;	/* ' ', '=', '\n' */
	size_t digits = 1, total;

	while ((total = body + digits), snprintf(NULL, 0, "%zu", total) > (int)digits)
		digits++;
	if (total < size)
		snprintf(buf, size, "%zu %s=%s\n", total, key, value);
	return total;
}

static int header(struct np_tar_out *o, const char *path, char type, unsigned mode,
		  uint64_t size, int64_t mtime, const char *link)
{
	char h[NP_TAR_BLOCK];
	size_t plen = strlen(path), llen = link ? strlen(link) : 0, cut = 0;
	bool pax_path = !ustar_split(path, plen, &cut), pax_link = llen > 100;
	bool pax_size = size > OCTAL11_MAX;
	unsigned sum = 0;
	int r;

	if (pax_path || pax_link || pax_size) {
		/* Records for what does not fit; the ustar fields below carry a truncated form. */
		size_t need = 0, at = 0;
		char num[32], *rec;

		snprintf(num, sizeof(num), "%llu", (unsigned long long)size);
		need += pax_path ? pax_record(NULL, 0, "path", path) : 0;
		need += pax_link ? pax_record(NULL, 0, "linkpath", link) : 0;
		need += pax_size ? pax_record(NULL, 0, "size", num) : 0;
		rec = malloc(need + 1);
		if (!rec)
			return -ENOMEM;
		if (pax_path)
			at += pax_record(rec + at, need + 1 - at, "path", path);
		if (pax_link)
			at += pax_record(rec + at, need + 1 - at, "linkpath", link);
		if (pax_size)
			at += pax_record(rec + at, need + 1 - at, "size", num);
		/* The name Python's tarfile gives pax headers; readers without pax support
		 * extract it as a plain file. */
		r = header(o, "././@PaxHeader", 'x', 0644, at, mtime, NULL);
		if (!r)
			r = out(o, rec, at);
		if (!r)
			r = pad(o, at);
		free(rec);
		if (r)
			return r;
		if (pax_path)
			cut = 0;
	}

	memset(h, 0, sizeof(h));
	if (cut) {
		memcpy(h + 345, path, cut);
		memcpy(h, path + cut + 1, plen - cut - 1);
	} else {
		memcpy(h, path, plen > 100 ? 100 : plen);
	}
	octal(h + 100, 8, mode & 07777);
	octal(h + 108, 8, 0);
	octal(h + 116, 8, 0);
	octal(h + 124, 12, pax_size ? 0 : size);
	octal(h + 136, 12, mtime < 0 ? 0 : (uint64_t)mtime > OCTAL11_MAX ? OCTAL11_MAX :
	      (uint64_t)mtime);
	h[156] = type;
	if (link)
		memcpy(h + 157, link, llen > 100 ? 100 : llen);
	memcpy(h + 257, "ustar", 6);	/* with its NUL */
	memcpy(h + 263, "00", 2);
	memset(h + 148, ' ', 8);
	for (size_t i = 0; i < sizeof(h); i++)
		sum += (unsigned char)h[i];
	/* Six digits, NUL, space: the traditional checksum layout. */
	octal(h + 148, 7, sum);	/* at most 512 * 255: six octal digits */
	h[155] = ' ';
	return out(o, h, sizeof(h));
}

/*
 * The path as written: relative ("/x" becomes "x"), "." and empty components dropped, no
 * trailing '/'. Empty paths and ".." components are refused, as the reader would refuse them.
 */
static int clean(const char *path, char *buf, size_t size)
{
	int r;

	if (!path)
		return -EINVAL;
	while (*path == '/')
		path++;
	r = np_tar_clean_path(path, buf, size);
	if (r == -ENAMETOOLONG)
		return r;
	return r ? -EINVAL : 0;
}

int np_tar_out_file(struct np_tar_out *o, const char *path, const void *data, size_t len,
		    unsigned mode, int64_t mtime)
{
	char rel[4096];
	int r;

	if (!o || (len && !data))
		return -EINVAL;
	if (o->err)
		return o->err;
	r = clean(path, rel, sizeof(rel));
	if (r < 0)
		return r;
	r = header(o, rel, '0', mode, len, mtime, NULL);
	if (!r && len)
		r = out(o, data, len);
	if (!r)
		r = pad(o, len);
	return r;
}

int np_tar_out_dir(struct np_tar_out *o, const char *path, unsigned mode, int64_t mtime)
{
	char rel[4096 + 1];
	int r;

	if (!o)
		return -EINVAL;
	if (o->err)
		return o->err;
	r = clean(path, rel, sizeof(rel) - 1);
	if (r < 0)
		return r;
	/* Directories end in '/', as GNU tar and Python write them. */
	strcat(rel, "/");
	return header(o, rel, '5', mode, 0, mtime, NULL);
}

int np_tar_out_symlink(struct np_tar_out *o, const char *path, const char *target,
		       int64_t mtime)
{
	char rel[4096];
	int r;

	if (!o || !target || !*target)
		return -EINVAL;
	if (o->err)
		return o->err;
	r = clean(path, rel, sizeof(rel));
	if (r < 0)
		return r;
	return header(o, rel, '2', 0777, 0, mtime, target);
}

int np_tar_out_close(struct np_tar_out *o)
{
	static const char zeros[2 * NP_TAR_BLOCK];
	int r;

	if (!o)
		return 0;
	r = out(o, zeros, sizeof(zeros));
	/* The rest of the record, a block pair at a time. */
	while (!r && o->written % RECORD)
		r = out(o, zeros, RECORD - o->written % RECORD > sizeof(zeros) ?
			sizeof(zeros) : RECORD - o->written % RECORD);
	if (!r && o->gzip)
		r = deflate_out(o, NULL, 0, Z_FINISH);
	if (o->gzip)
		deflateEnd(&o->z);
	if (!r)
		r = o->err;
	free(o);
	return r;
}
