/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Files that stand in for ones absent beneath a tree: path -> text, answered by np_read_str()
 * and np_read_file() (ctx.h) when the tree itself has no such file. Core knows nothing of what
 * they hold; its users do: doctor --netns keeps the initial namespace's host-wide sysctl files
 * here before entering a namespace that has none, and a capture taken that way brings them back.
 */
#ifndef NP_OVERLAY_H
#define NP_OVERLAY_H

#include <stddef.h>

#include "ctx.h"

struct np_overlay_file {
	enum np_tree tree;
	char *path;		/* relative to the tree, like np_read_str()'s: "sys/net/core/x" */
	char *text;		/* NUL-terminated */
	size_t len;
};

struct np_overlay {
	struct np_overlay_file *f;	/* in the order added */
	size_t n, cap;
};

/* Add a copy of text (len bytes) as tree/path; a path already there keeps its first text.
 * 0 or -ENOMEM. */
int np_overlay_add(struct np_overlay *o, enum np_tree t, const char *path, const char *text,
		   size_t len);
/* The file at tree/path, or NULL (o may be NULL). */
const struct np_overlay_file *np_overlay_find(const struct np_overlay *o, enum np_tree t,
					      const char *path);
void np_overlay_free(struct np_overlay *o);

#endif
