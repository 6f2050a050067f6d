// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading the in-memory table (tar_mem.h) as the confined readers read the unpacked tree:
 * path resolution beneath a base directory with openat2(RESOLVE_BENEATH)'s rules, and
 * directory listings in place of readdir().
 */
#include "tar_mem.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The top of the archive: a directory with no entry of its own. */
static const struct np_tmem_entry top = { .path = (char *)"", .kind = NP_TMEM_DIR };

static const struct np_tmem_entry *at(const struct np_tmem *t, const char *path)
{
	return *path ? np_tmem_get(t, path) : &top;
}

/* Drop the last component of cur, never below its first floor bytes (base). */
static void pop(char *cur, size_t floor)
{
	char *slash = strrchr(cur, '/');

	if (slash && (size_t)(slash - cur) >= floor)
		*slash = '\0';
	else
		cur[floor] = '\0';
}

/* Append component c (n bytes) to the resolved path cur: 0 or -ENAMETOOLONG. */
static int push(char *cur, size_t size, const char *c, size_t n)
{
	size_t l = strlen(cur);

	if (l + !!l + n >= size)
		return -ENAMETOOLONG;
	if (l)
		cur[l++] = '/';
	memcpy(cur + l, c, n);
	cur[l + n] = '\0';
	return 0;
}

int np_tmem_resolve(const struct np_tmem *t, const char *base, const char *path, bool follow,
		    const struct np_tmem_entry **out)
{
	char cur[NP_TAR_MAX_PATH], pending[2 * NP_TAR_MAX_PATH], c[256];
	size_t floor = strlen(base);
	const char *p = pending;
	unsigned hops = 0;
	const struct np_tmem_entry *e = at(t, base);

	if (!e || !*path)
		return -ENOENT;		/* "" names nothing, as for openat2() */
	if (e->kind != NP_TMEM_DIR)
		return -ENOTDIR;
	if (floor >= sizeof(cur) || strlen(path) >= sizeof(pending) || path[0] == '/')
		return path[0] == '/' ? -EXDEV : -ENAMETOOLONG;
	memcpy(cur, base, floor + 1);
	memcpy(pending, path, strlen(path) + 1);
	while (*p) {
		size_t n = strcspn(p, "/");
		const char *rest = p + n + (p[n] == '/');
		bool last = !*rest || !rest[strspn(rest, "/")];
		/* "name/": a directory (or a link to one), as the kernel reads a trailing slash. */
		bool dir_only = p[n] == '/';

		if (n >= sizeof(c))
			return -ENAMETOOLONG;
		memcpy(c, p, n);
		c[n] = '\0';
		p = rest;
		if (!n || !strcmp(c, "."))
			continue;
		if (!strcmp(c, "..")) {
			/* Above base: RESOLVE_BENEATH says EXDEV. */
			if (strlen(cur) <= floor)
				return -EXDEV;
			pop(cur, floor);
			continue;
		}
		if (push(cur, sizeof(cur), c, n) < 0)
			return -ENAMETOOLONG;
		e = at(t, cur);
		if (!e)
			return -ENOENT;
		if (e->kind == NP_TMEM_LINK && (!last || follow || dir_only)) {
			char next[sizeof(pending)];
			size_t tl = e->len, rl = strlen(p);

			if (++hops > NP_TMEM_HOPS)
				return -ELOOP;
			if (e->data[0] == '/')
				return -EXDEV;
			if (tl + 1 + rl >= sizeof(next))
				return -ENAMETOOLONG;
			/* target/rest, the trailing slash kept: "target/" only when there was one. */
			memcpy(next, e->data, tl);
			next[tl] = '/';
			memcpy(next + tl + 1, p, rl + 1);
			if (!rl && !dir_only)
				next[tl] = '\0';
			memcpy(pending, next, tl + 1 + rl + 1);
			p = pending;
			/* The link's own name leaves the path: its target is read from its directory. */
			pop(cur, floor);
			continue;
		}
		if ((!last || dir_only) && e->kind != NP_TMEM_DIR)
			return -ENOTDIR;
	}
	*out = at(t, cur);
	return *out ? 0 : -ENOENT;
}

/* The first entry in path order not below key. */
static size_t lower_bound(const struct np_tmem *t, const char *key)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(t->e[t->order[mid]].path, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int np_tmem_list(const struct np_tmem *t, const char *dir, np_tmem_each_fn fn, void *arg)
{
	char key[NP_TAR_MAX_PATH + 2];
	size_t dl = strlen(dir), i;
	const struct np_tmem_entry *d = at(t, dir);

	if (!d)
		return -ENOENT;
	if (d->kind != NP_TMEM_DIR)
		return -ENOTDIR;
	if (dl + 2 >= sizeof(key))
		return -ENAMETOOLONG;
	memcpy(key, dir, dl);
	if (dl)
		key[dl++] = '/';
	key[dl] = '\0';
	i = lower_bound(t, key);
	while (i < t->n) {
		const struct np_tmem_entry *e = &t->e[t->order[i]];
		const char *name = e->path + dl;
		size_t nl;
		int r;

		if (strncmp(e->path, key, dl) || !*e->path)
			break;
		nl = strcspn(name, "/");
		if (name[nl]) {
			/* Below a child: jump past that child's subtree ('0' follows '/'). */
			if (dl + nl + 2 >= sizeof(key))
				return -ENAMETOOLONG;
			memcpy(key + dl, name, nl);
			memcpy(key + dl + nl, "0", 2);
			i = lower_bound(t, key);
			key[dl] = '\0';
			continue;
		}
		r = fn(name, e, arg);
		if (r)
			return r;
		i++;
	}
	return 0;
}
