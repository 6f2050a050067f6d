// SPDX-License-Identifier: GPL-2.0-only
/*
 * A file line by line, read in pieces: /proc/interrupts at 4096 CPUs is 12 MiB of which a
 * device needs a few rows, so it costs its longest line (~45 KiB) in memory instead of the
 * whole file. A capture being recorded reads the file whole, since it keeps it, and a context
 * with stand-in files (--netns) goes through np_read_file(), which knows them.
 */
#include "ctx.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FIRST_CHUNK (64u << 10)

static int each_line(const char *buf, size_t len, size_t *used, np_line_fn fn, void *arg)
{
	size_t pos = 0;
	const char *nl;

	while (pos < len && (nl = memchr(buf + pos, '\n', len - pos))) {
		int r = fn(buf + pos, (size_t)(nl - (buf + pos)), arg);

		if (r < 0)
			return r;
		pos = (size_t)(nl - buf) + 1;
	}
	*used = pos;
	return 0;
}

static int whole_file(const struct np_ctx *ctx, enum np_tree t, const char *path, np_line_fn fn,
		      void *arg)
{
	size_t len, used;
	char *buf;
	int r = np_read_file(ctx, t, path, &buf, &len);

	if (r < 0)
		return r;
	r = each_line(buf, len, &used, fn, arg);
	if (r == 0 && used < len)
		r = fn(buf + used, len - used, arg);	/* a last line without newline */
	free(buf);
	return r;
}

int np_read_lines(const struct np_ctx *ctx, enum np_tree t, const char *path, np_line_fn fn,
		  void *arg)
{
	size_t cap = FIRST_CHUNK, n = 0, used;
	char *buf;
	int fd, r = 0;

	if ((ctx->rec && ctx->live) || ctx->overlay)
		return whole_file(ctx, t, path, fn, arg);
	fd = np_open(ctx, t, path, O_RDONLY);
	if (fd < 0)
		return fd;
	buf = malloc(cap);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		ssize_t got;

		if (n == cap) {		/* one line fills the buffer: make room for it */
			char *q = cap < NP_READ_MAX ? realloc(buf, cap * 2) : NULL;

			if (!q) {
				r = cap < NP_READ_MAX ? -ENOMEM : -EFBIG;
				break;
			}
			buf = q;
			cap *= 2;
		}
		got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			r = -errno;
			break;
		}
		if (got == 0) {
			if (n)
				r = fn(buf, n, arg);	/* a last line without newline */
			break;
		}
		n += (size_t)got;
		r = each_line(buf, n, &used, fn, arg);
		if (r < 0)
			break;
		memmove(buf, buf + used, n - used);
		n -= used;
	}
	free(buf);
	close(fd);
	return r;
}
