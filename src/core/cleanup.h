/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What to remove when the process is ended by a signal (SIGINT, SIGTERM, SIGHUP, SIGPIPE,
 * SIGQUIT, SIGXCPU, SIGXFSZ): the temporary file of `-o FILE` (atomic_file.c) and the private
 * directories an archive is unpacked into (scratch.c). One handler serves every path, so the
 * two never compete for the signals.
 */
#ifndef NP_CLEANUP_H
#define NP_CLEANUP_H

#include <stdbool.h>

enum np_cleanup_kind {
	NP_CLEANUP_FILE,	/* unlink(path) */
	NP_CLEANUP_TREE,	/* np_rmtree(path): a directory and everything below it */
};

/*
 * Remember path until np_cleanup_drop(path). The first call takes over the signals above where
 * they are still at their default (a command with its own handler keeps it, an ignored one
 * stays ignored); the handler removes every remembered path, then ends the process as the
 * signal would have, or as np_cleanup_signals() said.
 * 0, -EINVAL (empty), -ENAMETOOLONG, or -ENOSPC when all slots are taken (a handful: netpath
 * holds at most one -o file and one scratch directory at a time).
 */
int np_cleanup_add(const char *path, enum np_cleanup_kind kind);
/*
 * A command's own run (doctor, diff, plan, capture): take over the signals now, so that
 * SIGTERM or SIGHUP at any moment (an archive being unpacked, a report being written) removes
 * what is remembered, says "netpath CMD: terminated by SIGTERM" on stderr and exits 3 (could
 * not diagnose). service (doctor --every): SIGTERM and SIGHUP say "stopped by" and exit 0
 * once np_cleanup_service_done() was called (a clean stop for systemd), 3 before. SIGINT is
 * always re-raised after its line ("interrupted by SIGINT"), so a shell loop stops; the other
 * signals silently.
 */
void np_cleanup_signals(const char *cmd, bool service);
/* The service's first complete report is in place: a stop from now on is a clean one. */
void np_cleanup_service_done(void);
/* Forget path (it was renamed into place or removed already). Unknown paths are ignored. */
void np_cleanup_drop(const char *path);
/* Remove every remembered path now and forget them: for a handler of its own that ends the
 * process (deadline.c). Async-signal-safe. */
void np_cleanup_now(void);

/*
 * Remove the directory path and everything below it without following a symlink anywhere
 * (a symlink inside is removed, never its target), at most NP_RMTREE_DEPTH levels deep.
 * Async-signal-safe: only open(at), getdents64, unlink(at), rmdir and close, with buffers on
 * the stack. 0, or -errno of the first failure (the rest is still attempted). A path that is a
 * file or a symlink itself is unlinked.
 */
#define NP_RMTREE_DEPTH 128
int np_rmtree(const char *path);

#endif
