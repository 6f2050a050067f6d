/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A private scratch directory for the length of one command: where `doctor --root FILE`
 * unpacks an archive. Removed by np_scratch_remove, and by the signal guard (cleanup.h) if a
 * signal (SIGINT, SIGTERM, SIGHUP, SIGPIPE, ...) ends the process first.
 */
#ifndef NP_SCRATCH_H
#define NP_SCRATCH_H

#include <stddef.h>

/*
 * Create "$TMPDIR/netpath.XXXXXX" (/tmp when TMPDIR is unset, empty or not absolute), mode
 * 0700, and write its absolute path to out. 0, -ENAMETOOLONG when out is too small, or the
 * -errno of mkdtemp.
 */
int np_scratch_dir(char *out, size_t size);
/* Remove dir and everything in it, never following a symlink (np_rmtree), and forget it. */
void np_scratch_remove(const char *dir);

#endif
