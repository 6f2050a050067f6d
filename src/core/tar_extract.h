/* SPDX-License-Identifier: GPL-2.0-only */
/* The archive unpacker's state, shared by tar_read.c (the members) and tar_caps.c (the caps). */
#ifndef NP_TAR_EXTRACT_H
#define NP_TAR_EXTRACT_H

#include <stddef.h>
#include <stdint.h>

#include "tar.h"
#include "tar_parse.h"
#include "tar_source.h"

#define CHUNK (64 * 1024)

struct extract {
	int root;
	struct np_tar_source *src;
	struct np_tar_parser p;
	const struct np_tar_limits *lim;
	np_tar_want_fn want;
	void *arg;
	struct np_tar_stats *st;	/* the caller's, or own: the caps need the counts */
	struct np_tar_stats own;
	char *err;
	size_t errlen;
	/* The directory of the last member: archives list a directory's files together, so
	 * most members skip the walk from the top. */
	char parent[4096];
	int parent_fd;
	uint8_t buf[CHUNK];
};

/* A byte count as people write it: "2 GiB", "64 MiB", else the number of bytes. */
const char *np_tarx_amount(uint64_t v, char *out, size_t size);
/* Stop on a cap: "the CAP cap (VALUE) is reached at member PATH" into x->err; -EFBIG. */
int np_tarx_cap_hit(struct extract *x, const char *cap, const char *value, const char *path);
/* Room for one more directory (explicit, or a parent of path)? 0 or -EFBIG. */
int np_tarx_dir_room(struct extract *x, const char *path);
/* Disk blocks an entry of size bytes takes, as the disk-use cap counts them: at least one. */
uint64_t np_tarx_blocks_of(uint64_t size);
/* Room on disk for an entry of size bytes (0 for a directory or a symlink)? 0 or -EFBIG. */
int np_tarx_disk_room(struct extract *x, const char *path, uint64_t size);
/* A directory was made: counted against the caps. */
void np_tarx_dir_made(struct extract *x);
/* A member of size bytes within the per-member and disk caps? 0 or -EFBIG. */
int np_tarx_check_size(struct extract *x, const char *path, uint64_t size);

#endif
