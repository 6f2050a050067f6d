// SPDX-License-Identifier: GPL-2.0-only
/* Stand-in files for a tree: a short list searched by path (a few dozen entries at most). */
#include "overlay.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const struct np_overlay_file *np_overlay_find(const struct np_overlay *o, enum np_tree t,
					      const char *path)
{
	for (size_t i = 0; o && i < o->n; i++)
		if (o->f[i].tree == t && !strcmp(o->f[i].path, path))
			return &o->f[i];
	return NULL;
}

int np_overlay_add(struct np_overlay *o, enum np_tree t, const char *path, const char *text,
		   size_t len)
{
	struct np_overlay_file *f;
	char *p, *x;

	if (np_overlay_find(o, t, path))
		return 0;
	if (o->n == o->cap) {
		size_t cap = o->cap ? o->cap * 2 : 16;

		f = realloc(o->f, cap * sizeof(*f));
		if (!f)
			return -ENOMEM;
		o->f = f;
		o->cap = cap;
	}
	p = strdup(path);
	x = malloc(len + 1);
	if (!p || !x) {
		free(p);
		free(x);
		return -ENOMEM;
	}
	memcpy(x, text, len);
	x[len] = '\0';
	o->f[o->n++] = (struct np_overlay_file){ .tree = t, .path = p, .text = x, .len = len };
	return 0;
}

void np_overlay_free(struct np_overlay *o)
{
	for (size_t i = 0; i < o->n; i++) {
		free(o->f[i].path);
		free(o->f[i].text);
	}
	free(o->f);
	memset(o, 0, sizeof(*o));
}
