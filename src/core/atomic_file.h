/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Atomic file replacement for `-o FILE`: write a temporary file in FILE's own directory, then
 * rename it over FILE, so a reader (node_exporter's textfile collector) sees the old content or
 * the new one, never half a file. The only file netpath ever writes.
 */
#ifndef NP_ATOMIC_FILE_H
#define NP_ATOMIC_FILE_H

#include <stddef.h>
#include <stdio.h>

/*
 * Create "DIR/.BASE.XXXXXX" beside path (mode 0644 less the umask, close-on-exec) and return it
 * open for writing; its name goes to tmp. NULL with errno set when: path is empty, ends in '/'
 * or names "." or ".." (EINVAL); its directory does not exist (ENOENT) or is not a directory
 * (ENOTDIR); path exists but is not a regular file: a symlink (ELOOP; it is never followed, and
 * never replaced), a directory (EISDIR), a device, FIFO or socket (EINVAL); tmp too small
 * (ENAMETOOLONG); or creating the file failed.
 */
FILE *np_atomic_open(const char *path, char *tmp, size_t tmpsize);
/*
 * Flush, fsync and close f, then rename tmp over path (and fsync the directory, best effort).
 * Returns 0, or -errno after removing tmp: path keeps its old content on any error, including
 * a write error that stdio had deferred (ENOSPC, EFBIG) and a path that stopped being a regular
 * file meanwhile.
 */
/* The same with the file mode given (less the umask): 0600 for what names processes. */
FILE *np_atomic_open_mode(const char *path, char *tmp, size_t tmpsize, unsigned mode);
int np_atomic_commit(FILE *f, const char *tmp, const char *path);
/* Give up: close f (may be NULL) and remove tmp. path is untouched. */
void np_atomic_abort(FILE *f, const char *tmp);

#endif
