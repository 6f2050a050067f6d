/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Hand-made tar archives for the tests: raw ustar headers with any name, type, size, link or
 * checksum, built independently of tar_write.c, so the reader is tested against bytes the
 * writer would never produce (absolute paths, "..", devices, bad checksums, truncation).
 */
#ifndef NP_TEST_TAR_BUILD_H
#define NP_TEST_TAR_BUILD_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct ar {
	uint8_t *buf;
	size_t len, cap;
};

static inline void ar_put(struct ar *a, const void *d, size_t n)
{
	if (a->len + n > a->cap) {
		a->cap = (a->len + n) * 2 + 4096;
		a->buf = realloc(a->buf, a->cap);
		if (!a->buf)
			abort();
	}
	memcpy(a->buf + a->len, d, n);
	a->len += n;
}

static inline void ar_pad(struct ar *a)
{
	static const uint8_t zeros[512];

	if (a->len % 512)
		ar_put(a, zeros, 512 - a->len % 512);
}

/* A POSIX ustar header (name up to 100 bytes, no prefix) with a correct checksum. */
static inline void ar_hdr(struct ar *a, const char *name, char type, uint64_t size,
			  const char *link)
{
	char h[512];
	unsigned sum = 0;

	memset(h, 0, sizeof(h));
	/* ustar's name and link fields are not NUL-terminated when full: copy at most 100 bytes. */
	memcpy(h, name, strnlen(name, 100));
	snprintf(h + 100, 8, "%07o", 0644);
	snprintf(h + 108, 8, "%07o", 0);
	snprintf(h + 116, 8, "%07o", 0);
	/* 11 octal digits at most (ustar's limit); the mask also tells the compiler so. */
	snprintf(h + 124, 12, "%011llo", (unsigned long long)size & 077777777777ULL);
	snprintf(h + 136, 12, "%011o", 1700000000);
	h[156] = type;
	if (link)
		memcpy(h + 157, link, strnlen(link, 100));
	memcpy(h + 257, "ustar", 6);
	memcpy(h + 263, "00", 2);
	memset(h + 148, ' ', 8);
	for (int i = 0; i < 512; i++)
		sum += (unsigned char)h[i];
	snprintf(h + 148, 8, "%06o", sum);
	h[155] = ' ';
	ar_put(a, h, sizeof(h));
}

static inline void ar_file(struct ar *a, const char *name, const char *text)
{
	ar_hdr(a, name, '0', strlen(text), NULL);
	ar_put(a, text, strlen(text));
	ar_pad(a);
}

/* A metadata member ('x' pax records, 'L' / 'K' GNU long names) carrying text. */
static inline void ar_meta(struct ar *a, char type, const char *text, size_t len)
{
	ar_hdr(a, type == 'x' ? "././@PaxHeader" : "././@LongLink", type, len, NULL);
	ar_put(a, text, len);
	ar_pad(a);
}

/* One "LEN key=value\n" pax record. */
static inline size_t pax_rec(char *out, size_t size, const char *key, const char *value)
{
	size_t body = strlen(key) + strlen(value) + 3, n = body + 1;

	while ((size_t)snprintf(NULL, 0, "%zu", n) + body != n)
		n++;
	snprintf(out, size, "%zu %s=%s\n", n, key, value);
	return n;
}

static inline void ar_end(struct ar *a)
{
	static const uint8_t zeros[1024];

	ar_put(a, zeros, sizeof(zeros));
}

/* The first len bytes of the archive as a readable fd at offset 0. */
static inline int ar_fd_len(const struct ar *a, size_t len)
{
	int fd = memfd_create("tar", MFD_CLOEXEC);

	if (fd < 0 || (len && write(fd, a->buf, len) != (ssize_t)len) || lseek(fd, 0, SEEK_SET))
		abort();
	return fd;
}

static inline int ar_fd(const struct ar *a)
{
	return ar_fd_len(a, a->len);
}

static inline void ar_free(struct ar *a)
{
	free(a->buf);
	memset(a, 0, sizeof(*a));
}

#endif
