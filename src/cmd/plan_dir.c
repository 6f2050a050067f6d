// SPDX-License-Identifier: GPL-2.0-only
/*
 * `netpath plan --write DIR`: is DIR a place a plan may go, and DIR opened once without
 * following a link. plan_write.c writes beneath the descriptor this returns.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plan_dir.h"
#include "plan_write.h"

/* The absolute, resolved form of dir, whose tail may not exist yet: the longest existing
 * prefix resolved by realpath(), the rest appended as given (".." in it is refused). */
static int resolve(const char *dir, char *out, size_t size)
{
	char head[PATH_MAX], res[PATH_MAX];
	const char *tail = "";
	char *slash;

	if (snprintf(head, sizeof(head), "%s", dir) >= (int)sizeof(head))
		return -ENAMETOOLONG;
	for (;;) {
		if (realpath(head[0] ? head : ".", res))
			break;
		if (errno != ENOENT)
			return -errno;
		slash = strrchr(head, '/');
		if (!slash) {
			tail = dir;
			head[0] = '\0';
			continue;
		}
		tail = dir + (slash - head) + 1;
		if (slash == head) {
			head[1] = '\0';
			continue;
		}
		*slash = '\0';
	}
	if (strstr(tail, ".."))
		return -EINVAL;
	if (snprintf(out, size, "%s%s%s", res, tail[0] && strcmp(res, "/") ? "/" : "", tail) >=
	    (int)size)
		return -ENAMETOOLONG;
	return 0;
}

static bool under(const char *path, const char *top)
{
	size_t n = strlen(top);

	return !strncmp(path, top, n) && (path[n] == '\0' || path[n] == '/');
}

/*
 * DIR as the directory it names: trailing slashes and "/." dropped, so "link/" and "link/."
 * are judged as "link" (the kernel would follow the link for them), then split into the
 * directory that holds it (opened by path: the user's own way there) and its last name.
 */

int np_plan_dir_split(const char *dir, struct where *w)
{
	size_t n;
	char *slash;

	if (snprintf(w->shown, sizeof(w->shown), "%s", dir) >= (int)sizeof(w->shown))
		return -ENAMETOOLONG;
	n = strlen(w->shown);
	for (;;) {
		while (n > 1 && w->shown[n - 1] == '/')
			n--;
		if (n > 2 && w->shown[n - 1] == '.' && w->shown[n - 2] == '/')
			n -= 2;
		else
			break;
	}
	w->shown[n] = '\0';
	slash = strrchr(w->shown, '/');
	if (!slash) {
		snprintf(w->parent, sizeof(w->parent), ".");
		n = (size_t)snprintf(w->name, sizeof(w->name), "%s", w->shown);
	} else if (slash == w->shown) {
		snprintf(w->parent, sizeof(w->parent), "/");
		n = (size_t)snprintf(w->name, sizeof(w->name), "%s", slash[1] ? slash + 1 : ".");
	} else {
		snprintf(w->parent, sizeof(w->parent), "%.*s", (int)(slash - w->shown), w->shown);
		n = (size_t)snprintf(w->name, sizeof(w->name), "%s", slash + 1);
	}
	return n >= sizeof(w->name) ? -ENAMETOOLONG : 0;
}

/* Why the open of name in dfd with O_NOFOLLOW | O_DIRECTORY failed, in words. */
const char *np_plan_dir_not_dir_why(int dfd, const char *name, int err)
{
	struct stat st;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		if (S_ISLNK(st.st_mode))
			return "is a symbolic link";
		if (!S_ISDIR(st.st_mode))
			return "not a directory";
	}
	return strerror(err);
}

/*
 * A directory netpath may write into: a real directory (the caller opened it with
 * O_NOFOLLOW), owned by root or by the user running netpath, that nobody else may write to
 * (one who could would rename the plan's files, or plant links, while the admin reviews).
 */
int np_plan_dir_judge(int fd, const char *shown, char *err, size_t errlen)
{
	struct stat st;

	if (fstat(fd, &st) < 0) {
		snprintf(err, errlen, "--write %s: %s", shown, strerror(errno));
		return -1;
	}
	if (st.st_uid != 0 && st.st_uid != geteuid()) {
		snprintf(err, errlen, "--write %s: owned by uid %u, neither root nor you: refused",
			 shown, (unsigned)st.st_uid);
		return -1;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		snprintf(err, errlen, "--write %s: writable by %s (mode %04o): refused", shown,
			 st.st_mode & S_IWOTH ? "others" : "its group",
			 (unsigned)(st.st_mode & 07777));
		return -1;
	}
	return 0;
}

static bool same(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/*
 * Is the open directory fd "/" or inside /etc? Its ancestors walked up by "..", from the
 * descriptor: a link swapped into DIR's path after the path check cannot hide /etc.
 */
static bool in_system(int fd)
{
	struct stat root, etc, st, up;
	bool hit = false;
	int cur;

	if (stat("/", &root) < 0 || fstat(fd, &st) < 0)
		return false;
	if (same(&st, &root))
		return true;
	if (stat("/etc", &etc) < 0)
		return false;
	cur = dup(fd);
	for (int depth = 0; cur >= 0 && depth < PATH_MAX / 2; depth++) {
		int next;

		if (fstat(cur, &st) < 0 || same(&st, &root))
			break;
		if (same(&st, &etc)) {
			hit = true;
			break;
		}
		next = openat(cur, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (next < 0 || fstat(next, &up) < 0 || same(&up, &st)) {
			if (next >= 0)
				close(next);
			break;
		}
		close(cur);
		cur = next;
	}
	if (cur >= 0)
		close(cur);
	return hit;
}

/* Open DIR (w) without following a link in its last name; create it (0755) first when missing
 * and create is set. *made says it was created. The fd, or -1 with err. */
int np_plan_dir_open_top(const struct where *w, bool create, int *parent, bool *made, char *err,
			 size_t errlen)
{
	int fd = -1;

	*made = false;
	*parent = open(w->parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (*parent < 0) {
		if (!create && errno == ENOENT)
			return -2;
		snprintf(err, errlen, "--write %s: %s: %s", w->shown, w->parent, strerror(errno));
		return -1;
	}
	for (int tries = 0; fd < 0 && tries < 2; tries++) {
		fd = openat(*parent, w->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0 || errno != ENOENT)
			break;
		if (!create)
			return -2;
		if (mkdirat(*parent, w->name, 0755) == 0)
			*made = true;
		else if (errno != EEXIST) {
			snprintf(err, errlen, "cannot create %s: %s", w->shown, strerror(errno));
			return -1;
		}
	}
	if (fd < 0) {
		snprintf(err, errlen, "--write %s: %s: refused (name the directory itself)",
			 w->shown, np_plan_dir_not_dir_why(*parent, w->name, errno));
		return -1;
	}
	if (np_plan_dir_judge(fd, w->shown, err, errlen) < 0) {
		close(fd);
		return -1;
	}
	if (in_system(fd)) {
		snprintf(err, errlen, "--write %s: refusing to write into / or /etc (netpath never "
			 "changes the system: write elsewhere, review, then install)", w->shown);
		close(fd);
		return -1;
	}
	return fd;
}

int np_plan_dir_check(const char *dir, char *err, size_t errlen)
{
	char abs[PATH_MAX];
	struct where w;
	struct stat st;
	int r, parent, fd;
	bool made;

	if (!dir || !dir[0]) {
		snprintf(err, errlen, "--write needs a directory");
		return -1;
	}
	r = resolve(dir, abs, sizeof(abs));
	if (r == -EINVAL) {
		snprintf(err, errlen, "--write %s: '..' in the part that does not exist yet", dir);
		return -1;
	}
	if (r < 0) {
		snprintf(err, errlen, "--write %s: %s", dir, strerror(-r));
		return -1;
	}
	/* netpath stays read-only: the files are for review, installed by the admin. */
	if (!strcmp(abs, "/") || under(abs, "/etc")) {
		snprintf(err, errlen, "--write %s: refusing to write into %s (netpath never changes "
			 "the system: write elsewhere, review, then install)", dir, abs);
		return -1;
	}
	if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "--write %s: not a directory", dir);
		return -1;
	}
	if (np_plan_dir_split(dir, &w) < 0) {
		snprintf(err, errlen, "--write %s: %s", dir, strerror(ENAMETOOLONG));
		return -1;
	}
	/* The rules np_plan_write() applies to the open directory, early: before collecting. */
	fd = np_plan_dir_open_top(&w, false, &parent, &made, err, errlen);
	if (parent >= 0)
		close(parent);
	if (fd >= 0)
		close(fd);
	return fd == -1 ? -1 : 0;
}
