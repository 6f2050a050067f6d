/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The byte stream inside an archive file: gzip (zlib), xz (liblzma, when built with it) or
 * none, recognised by magic bytes. tar_read.c's input; kept apart from the extraction rules.
 */
#ifndef NP_TAR_SOURCE_H
#define NP_TAR_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct np_tar_source;

/*
 * Read the first bytes of fd and set up the matching decompressor. NULL with a one-line reason
 * in err and *code = -ENOTSUP (a compression netpath does not read), -EBADMSG (not a tar
 * archive, nor a compressed one), -ENOMEM or the -errno of read().
 */
struct np_tar_source *np_tar_source_open(int fd, int *code, char *err, size_t errlen);
/* The name of the compression ("gzip", "xz", "none"). */
const char *np_tar_source_kind(const struct np_tar_source *s);
/*
 * Up to len decompressed bytes: the count, 0 at the end of the stream, or -errno with err set
 * (-EBADMSG for corrupt or truncated compressed data).
 */
ssize_t np_tar_source_read(struct np_tar_source *s, void *buf, size_t len, char *err,
			   size_t errlen);
void np_tar_source_close(struct np_tar_source *s);

#endif
