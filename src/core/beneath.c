// SPDX-License-Identifier: GPL-2.0-only
/* A path walked component by component beneath a directory fd: openat2's RESOLVE_BENEATH by hand. */
#include "beneath.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The directories walked so far: dir[0] is the caller's (never closed), dir[depth] the current. */
struct walk {
	int dir[NP_BENEATH_MAX_DEPTH];
	int depth;
};

static void walk_release(struct walk *w)
{
	while (w->depth > 0)
		close(w->dir[w->depth--]);
}

/*
 * The path still to walk, in pending; *rest points into it just past the current component
 * (at '/' or the end). A symlink's target replaces the component: pending becomes
 * target + rest, walked from the link's directory.
 */
static int splice_target(char *pending, size_t size, const char **rest, const char *target,
			 size_t tlen)
{
	size_t rlen = strlen(*rest);

	if (tlen == 0)
		return -ENOENT;		/* as the kernel does with an empty target */
	if (target[0] == '/')
		return -EXDEV;		/* absolute: outside the tree by definition */
	if (tlen + rlen + 1 > size)
		return -ENAMETOOLONG;
	memmove(pending + tlen, *rest, rlen + 1);
	memcpy(pending, target, tlen);
	*rest = pending;
	return 0;
}

/* The object a final open names, before opening it: only files and directories are read. */
static bool openable(const struct stat *st, int flags)
{
	return (flags & O_PATH) || S_ISREG(st->st_mode) || S_ISDIR(st->st_mode);
}

enum step { STEP_DESCENDED, STEP_LINK, STEP_OPENED };

/*
 * One component, name, in the current directory: a directory the walk descends into, a
 * symlink whose target is now spliced into pending, or the last component, now open in *out.
 * Returns an enum step or -errno.
 */
static int step(struct walk *w, const char *name, bool last, int flags, char *pending,
		size_t size, const char **rest, int *links, int *out)
{
	int cur = w->dir[w->depth], fd, r;
	char target[PATH_MAX];
	struct stat st;
	ssize_t n;

	fd = openat(cur, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		r = -errno;
		close(fd);
		return r;
	}
	if (S_ISLNK(st.st_mode)) {
		if (++*links > NP_BENEATH_MAX_LINKS) {
			close(fd);
			return -ELOOP;
		}
		/* "" reads the link the O_PATH fd holds: the one just checked, not a rename. */
		n = readlinkat(fd, "", target, sizeof(target));
		r = n < 0 ? -errno : 0;
		close(fd);
		if (r < 0)
			return r;
		if ((size_t)n >= sizeof(target))
			return -ENAMETOOLONG;
		r = splice_target(pending, size, rest, target, (size_t)n);
		return r < 0 ? r : STEP_LINK;
	}
	if (last) {
		close(fd);
		if (!openable(&st, flags))
			return -EINVAL;
		/* The name again, never followed: if it turned into a symlink meanwhile, the
		 * open fails (or, with O_PATH, holds the link itself) instead of leaving. */
		*out = openat(cur, name, flags | O_NOFOLLOW);
		return *out < 0 ? -errno : STEP_OPENED;
	}
	if (!S_ISDIR(st.st_mode)) {
		close(fd);
		return -ENOTDIR;
	}
	if (w->depth + 1 >= NP_BENEATH_MAX_DEPTH) {
		close(fd);
		return -ENAMETOOLONG;
	}
	w->dir[++w->depth] = fd;
	return STEP_DESCENDED;
}

static int walk(struct walk *w, char *pending, size_t size, int flags, int *links)
{
	const char *p = pending;
	char name[NAME_MAX + 1];
	int fd, r;

	for (;;) {
		size_t len;

		while (*p == '/')
			p++;
		if (!*p)	/* "", "." or a trailing '/': the directory reached itself */
			break;
		len = strcspn(p, "/");
		if (len > NAME_MAX)
			return -ENAMETOOLONG;
		memcpy(name, p, len);
		name[len] = '\0';
		p += len;
		if (!strcmp(name, "."))
			continue;
		if (!strcmp(name, "..")) {
			/* Back to the fd we came from; at the top this would leave the tree. */
			if (w->depth == 0)
				return -EXDEV;
			close(w->dir[w->depth--]);
			continue;
		}
		r = step(w, name, *p == '\0', flags, pending, size, &p, links, &fd);
		if (r < 0)
			return r;
		if (r == STEP_OPENED)
			return fd;
	}
	r = openat(w->dir[w->depth], ".", flags);
	return r < 0 ? -errno : r;
}

int np_beneath_open_counted(int dfd, const char *path, int flags, int *links)
{
	struct walk w = { .dir = { dfd }, .depth = 0 };
	char pending[PATH_MAX];
	int r;

	*links = 0;
	if (flags & O_CREAT)
		return -EINVAL;
	if (!path[0])
		return -ENOENT;
	if (path[0] == '/')
		return -EXDEV;
	if (strlen(path) >= sizeof(pending))
		return -ENAMETOOLONG;
	strcpy(pending, path);
	r = walk(&w, pending, sizeof(pending), flags, links);
	walk_release(&w);
	return r;
}

int np_beneath_open(int dfd, const char *path, int flags)
{
	int links;

	return np_beneath_open_counted(dfd, path, flags, &links);
}
