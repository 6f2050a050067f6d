/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An archive unpacked into memory instead of a scratch directory (issue 35): a table of its
 * files, directories and symlinks keyed by clean path, built by the same rules np_tar_extract
 * applies on disk (tar_read.c) - refused paths, parents made as directories, nothing replaced
 * that an earlier member planted except a regular file by a regular file, the same caps - so
 * that a reader of the table sees what a reader of the unpacked directory would.
 *
 * NOT WIRED IN YET: built into the unit tests only, until ctx.c, root.c and the np_opendir()
 * callers can read from it (see the k35-root report).
 */
#ifndef NP_TAR_MEM_H
#define NP_TAR_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tar.h"

/* Symlinks followed in one lookup, as the kernel's own limit (MAXSYMLINKS). */
#define NP_TMEM_HOPS 40

enum np_tmem_kind { NP_TMEM_FILE, NP_TMEM_DIR, NP_TMEM_LINK };

struct np_tmem_entry {
	char *path;		/* clean, relative, no trailing '/' ("" is the top) */
	enum np_tmem_kind kind;
	char *data;		/* a file's content or a link's target, NUL-terminated */
	size_t len;
};

struct np_tmem {
	struct np_tmem_entry *e;
	size_t n, cap;
	size_t *slot;		/* open-addressing hash of entry index + 1 (0: empty) */
	size_t nslot;
	size_t *order;		/* entry indexes sorted by path (listings), built at the end */
};

/*
 * Read the archive on fd (gzip, xz or plain tar) into t under the caps of lim (max_total counts
 * as np_tar_extract counts disk blocks, so memory is bounded the same way). 0, or -errno with a
 * one-line reason in err, as np_tar_extract: -EFBIG for a cap, -EBADMSG for a corrupt archive.
 * st, when not NULL, counts as np_tar_extract's does.
 */
int np_tmem_load(struct np_tmem *t, int fd, const struct np_tar_limits *lim,
		 struct np_tar_stats *st, char *err, size_t errlen);
void np_tmem_free(struct np_tmem *t);

/* The entry at exactly path (clean, relative), no link followed; NULL when none. */
const struct np_tmem_entry *np_tmem_get(const struct np_tmem *t, const char *path);

/*
 * Resolve path beneath the directory base ("" for the top), as openat2(RESOLVE_BENEATH) does
 * on the unpacked tree: symlinks followed inside the table only (the last component too when
 * follow), at most NP_TMEM_HOPS of them (-ELOOP), an absolute target or a ".." above base is
 * -EXDEV, a missing entry -ENOENT, a file used as a directory -ENOTDIR. 0 with *out set.
 */
int np_tmem_resolve(const struct np_tmem *t, const char *base, const char *path, bool follow,
		    const struct np_tmem_entry **out);

/* Each entry directly inside the directory entry dir (not resolved again), in path order:
 * fn(name, entry, arg) returns 0 to go on or a value returned at once. */
typedef int (*np_tmem_each_fn)(const char *name, const struct np_tmem_entry *e, void *arg);
int np_tmem_list(const struct np_tmem *t, const char *dir, np_tmem_each_fn fn, void *arg);

#endif
