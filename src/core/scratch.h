/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A private scratch directory for the length of one command: where `doctor --root FILE`
 * unpacks an archive. Removed by np_scratch_remove, and by the signal guard (cleanup.h) if a
 * signal (SIGINT, SIGTERM, SIGHUP, SIGPIPE, ...) ends the process first.
 */
#ifndef NP_SCRATCH_H
#define NP_SCRATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Create "$TMPDIR/netpath.XXXXXX" (/tmp when TMPDIR is unset, empty or not absolute), mode
 * 0700, and write its absolute path to out. 0, -ENAMETOOLONG when out is too small, or the
 * -errno of mkdtemp.
 */
int np_scratch_dir(char *out, size_t size);
/*
 * The same in memory, for a scratch of at most need bytes: under $XDG_RUNTIME_DIR, else
 * /dev/shm, the first that np_scratch_in_memory() accepts. Only when TMPDIR is unset or empty:
 * a TMPDIR set is the user's choice of where scratch goes. -ENOENT when no such place (the
 * caller uses np_scratch_dir), else as np_scratch_dir.
 */
int np_scratch_dir_mem(char *out, size_t size, uint64_t need);
/* dir is an absolute path on a tmpfs (never ramfs: it has no size limit) with at least
 * 2 * need bytes free to this user. */
bool np_scratch_in_memory(const char *dir, uint64_t need);
/* Remove dir and everything in it, never following a symlink (np_rmtree), and forget it. */
void np_scratch_remove(const char *dir);

#endif
