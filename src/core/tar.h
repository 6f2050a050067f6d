/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Tar archives: `netpath capture -o FILE` writes one (POSIX ustar, pax headers where a name
 * does not fit, gzip-compressed); `doctor --root FILE` unpacks a capture or a sosreport into a
 * private directory (scratch.h) and reads it as a tree. Archives come from other machines, so
 * extraction creates only files, directories and symlinks, inside one directory, and never
 * writes through a symlink.
 */
#ifndef NP_TAR_H
#define NP_TAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- writing ---------------------------------------------------------------------------- */

struct np_tar_out;

/*
 * Start an archive written to fd (which stays the caller's: close() never closes it), gzip-
 * compressed when gzip is set. NULL with *err = -ENOMEM (or -EINVAL) on failure.
 */
struct np_tar_out *np_tar_out_open(int fd, bool gzip, int *err);
/*
 * One member. path is relative ("proc/net/dev"); a leading '/' is dropped, an empty path or
 * one with a ".." component is refused (-EINVAL). Paths and targets longer than ustar's fields
 * get a pax extended header. mode keeps its permission bits only; mtime in seconds since the
 * epoch (negative values are written as 0). Owner is 0/0. 0 or -errno; after a write error
 * every later call returns that error too.
 */
int np_tar_out_file(struct np_tar_out *o, const char *path, const void *data, size_t len,
		    unsigned mode, int64_t mtime);
int np_tar_out_dir(struct np_tar_out *o, const char *path, unsigned mode, int64_t mtime);
int np_tar_out_symlink(struct np_tar_out *o, const char *path, const char *target,
		       int64_t mtime);
/* End-of-archive blocks, padding to tar's 10 KiB record, flush, free. 0 or -errno (the first
 * error of the archive's life). o may be NULL. */
int np_tar_out_close(struct np_tar_out *o);

/* ---- reading ---------------------------------------------------------------------------- */

/*
 * Caps, each 0 for "no cap". Exceeding one stops the extraction with -EFBIG and a one-line
 * message naming the cap and its value.
 *   max_inflated  bytes of the tar stream read (after decompression): headers, padding and the
 *                 data of every member, skipped or not, up to the end-of-archive block;
 *   max_members   members met in the archive, whatever becomes of them (a pax or GNU long-name
 *                 header belongs to its member);
 *   max_dirs      directories created, listed in the archive or made as a member's parents;
 *   max_total     disk use: each file's content in whole 4 KiB blocks, and every entry created
 *                 (file, directory, symlink) at least one block;
 *   max_member    a regular file (or hardlink copy) bigger than this stops extraction.
 * skip_over (0: none) is a policy, not a cap: a regular file bigger than this is consumed but
 * not written (counted in skipped_big), for files the reader would refuse anyway.
 */
struct np_tar_limits {
	uint64_t max_total;
	uint64_t max_member;
	size_t max_members;
	size_t max_dirs;
	uint64_t max_inflated;
	uint64_t skip_over;
};

/* What np_tar_extract did, also when it failed part way. */
struct np_tar_stats {
	size_t files;		/* regular files, hardlinks copied as files included */
	size_t dirs;		/* directories, parents created for a member included */
	size_t symlinks;
	size_t skipped_type;	/* devices, FIFOs, sockets, unknown types, unresolved hardlinks */
	size_t refused_path;	/* absolute, "..", too deep, through or over a symlink, clashes */
	size_t skipped_unwanted;	/* members want() declined */
	size_t skipped_big;	/* files above skip_over, not written */
	size_t members;		/* members met */
	uint64_t bytes;		/* file content written */
	uint64_t disk;		/* what counts against max_total (see above) */
	uint64_t inflated;	/* bytes of the tar stream read */
};

/* The unit of max_total: a file system block. */
#define NP_TAR_DISK_BLOCK 4096u

/* Members deeper than this many path components, or whose cleaned name (or a hardlink's
 * target) does not fit NP_TAR_MAX_PATH bytes with its NUL, are refused (counted, not created):
 * every path walk is bounded. */
#define NP_TAR_MAX_DEPTH 64
#define NP_TAR_MAX_PATH 4096

/* Called with each member's cleaned relative path ("sys/class/net/eth0/mtu"); false skips it.
 * Parents of a wanted member are created whether or not want() was asked about them. */
typedef bool (*np_tar_want_fn)(const char *path, void *arg);

/*
 * Unpack the archive read from archive_fd (from its current offset; any fd, pipes included)
 * into the directory dirfd. Compression is recognised by its magic bytes: gzip, xz (when
 * built with liblzma), or none. Files are created 0600, directories 0700; owners, modes and
 * times in the archive are ignored. want may be NULL (every member); st may be NULL.
 *
 * 0 when the whole archive was read (refused and skipped members are only counted in st).
 * Otherwise a one-line reason in err and:
 *   -ENOTSUP   a compression netpath does not read (bzip2, zstd, ...; xz without liblzma):
 *              the message says to unpack it first (tar xf FILE) and use --root DIR;
 *   -EBADMSG   not a tar archive, a bad header checksum (its offset named), a malformed
 *              header, or truncated (the message says so);
 *   -EFBIG     a cap in lim was exceeded (the message names it);
 *   -errno     reading the archive or creating files failed.
 * Whatever was extracted before an error stays; a file cut short by the error is removed.
 */
int np_tar_extract(int archive_fd, int dirfd, const struct np_tar_limits *lim,
		   np_tar_want_fn want, void *arg, struct np_tar_stats *st,
		   char *err, size_t errlen);

/* Write all of buf to fd, retrying short writes and EINTR: 0 or -errno (the writer's output,
 * the reader's extracted files). */
int np_write_all(int fd, const void *buf, size_t len);

#endif
