/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The file recorder of `netpath capture`: every /proc and /sys read that goes through the root
 * context (ctx.c) while capturing is kept here, so a capture holds exactly what the collectors
 * read — the list cannot drift from them.
 *
 * Files are kept at their real place in the tree, with the symbolic links met on the way kept
 * as links (sys/class/net/eth0 -> ../../devices/.../net/eth0, proc/net -> self/net): the same
 * relative paths then resolve the same way beneath the capture, and a link that is both read
 * (its target names the driver or the PCI address) and walked through (files beneath it) is
 * both. Directory listings keep their entries (links as links, the rest as empty placeholders
 * that a read replaces), and reads that failed keep their error by the path asked, so a
 * replay fails them the same way (a down link's speed: EINVAL, not "empty").
 *
 * A replaying recorder (np_fsrec_load_errors) answers only those errors.
 */
#ifndef NP_FSREC_H
#define NP_FSREC_H

#include <stdbool.h>
#include <stddef.h>

#include "ctx.h"

struct np_fsrec;

struct np_fsrec *np_fsrec_new(void);
void np_fsrec_free(struct np_fsrec *r);

/* Hooks of ctx.c (ctx->rec set, live tree). Paths are the ones asked, relative to the tree. */
void np_fsrec_content(struct np_fsrec *r, const struct np_ctx *ctx, enum np_tree t,
		      const char *path, const void *data, size_t len);
void np_fsrec_opened(struct np_fsrec *r, const struct np_ctx *ctx, enum np_tree t,
		     const char *path, int fd, int flags);
void np_fsrec_link(struct np_fsrec *r, const struct np_ctx *ctx, enum np_tree t,
		   const char *path);
void np_fsrec_error(struct np_fsrec *r, enum np_tree t, const char *path, int err);

/* What was recorded, each member once, directories before what they hold. type: 'f' file, 'd'
 * directory, 'l' symbolic link (data = target). The errors come as one file, "errors"
 * (lines "proc|sys TAB path TAB errno"). Stops at and returns the first non-zero fn result. */
typedef int (*np_fsrec_emit_fn)(void *arg, char type, const char *path, const void *data,
				size_t len);
int np_fsrec_emit(const struct np_fsrec *r, np_fsrec_emit_fn fn, void *arg);
/* Files, directories, links and errors recorded; bytes of file content. */
void np_fsrec_counts(const struct np_fsrec *r, size_t *members, size_t *errors,
		     size_t *bytes);

/* Replay: parse an "errors" file (untrusted: bad lines are skipped) and answer by path. */
int np_fsrec_load_errors(struct np_fsrec *r, const char *text, size_t len);
/* The recorded -errno of path, or 0. */
int np_fsrec_error_of(const struct np_fsrec *r, enum np_tree t, const char *path);

#endif
