// SPDX-License-Identifier: GPL-2.0-only
/* Whether a settings file may be trusted: its owner and mode, and every directory a lookup of
 * its path goes through, judged as sudo and sshd judge theirs (conffile.h). */
#include "conffile.h"
#include "log.h"
#include "strjoin.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum np_config_trust np_config_file_trust(uid_t owner, mode_t mode, uid_t euid)
{
	if (mode & S_IWOTH)
		return NP_TRUST_WORLD_WRITABLE;
	if (mode & S_IWGRP)
		return NP_TRUST_GROUP_WRITABLE;
	if (euid == 0 && owner != 0)
		return NP_TRUST_NOT_ROOT_OWNED;
	if (euid != 0 && owner != 0 && owner != euid)
		return NP_TRUST_FOREIGN_OWNER;
	return NP_TRUST_OK;
}

enum np_config_trust np_config_dir_trust(uid_t owner, mode_t mode, uid_t euid)
{
	if (owner != 0 && owner != euid)
		return NP_TRUST_DIR_FOREIGN_OWNER;
	/* Sticky: others may add names but not rename or remove ours (/tmp). */
	if (mode & S_ISVTX)
		return NP_TRUST_OK;
	if (mode & S_IWOTH)
		return NP_TRUST_DIR_WORLD_WRITABLE;
	if (mode & S_IWGRP)
		return NP_TRUST_DIR_GROUP_WRITABLE;
	return NP_TRUST_OK;
}

/* Why dir (a directory path would go through) does not do, into err; -EPERM. */
static int dir_refused(const char *path, const char *dir, const struct stat *st, uid_t euid,
		       char *err, size_t errlen)
{
	switch (np_config_dir_trust(st->st_uid, st->st_mode, euid)) {
	case NP_TRUST_DIR_FOREIGN_OWNER:
		if (euid == 0)
			snprintf(err, errlen, "config file %s not used: the directory %s on its way "
				 "is owned by uid %u, not root, who alone may hold root's settings",
				 path, dir, (unsigned)st->st_uid);
		else
			snprintf(err, errlen, "config file %s not used: the directory %s on its way "
				 "is owned by uid %u, neither root nor you (uid %u)", path, dir,
				 (unsigned)st->st_uid, (unsigned)euid);
		break;
	case NP_TRUST_DIR_GROUP_WRITABLE:
		snprintf(err, errlen, "config file %s not used: the directory %s on its way is "
			 "group-writable without the sticky bit, so its group could replace the file "
			 "(chmod g-w %s)", path, dir, dir);
		break;
	default:
		snprintf(err, errlen, "config file %s not used: the directory %s on its way is "
			 "world-writable without the sticky bit, so anyone could replace the file",
			 path, dir);
		break;
	}
	return -EPERM;
}

/* dir + "/" + name into out ("/" + name at the top). -ENAMETOOLONG if it does not fit. */
static int join(char *out, size_t size, const char *dir, const char *name, size_t namelen)
{
	size_t n = (size_t)np_strjoin(out, size, strcmp(dir, "/") ? dir : "", "/");

	/* snprintf's "%s/%.*s", cut the same way: ~10 lookups per config file (issue #35) */
	namelen = strnlen(name, namelen);
	if (n < size) {
		size_t k = namelen < size - 1 - n ? namelen : size - 1 - n;

		memcpy(out + n, name, k);
		out[n + k] = '\0';
	}
	return n + namelen >= size ? -ENAMETOOLONG : 0;
}

#define NP_CONFIG_MAX_LINKS 40
/* What walk() returns when a name met did not fit its buffers of cap < PATH_MAX bytes: the walk
 * is done again with PATH_MAX ones, which give what it would have given from the start. */
#define WALK_TOO_SMALL 1
/* The first walk's buffers: config paths are short, and five PATH_MAX buffers (20 KB) made
 * this the deepest frame of a doctor run, three stack pages below every other. */
#define WALK_SMALL 256

/* The walk of np_config_path_trust() in mem, 5 * cap bytes. */
static int walk(const char *path, uid_t euid, struct stat *st, char *real, size_t realsize,
		char *err, size_t errlen, char *mem, size_t cap)
{
	/* cur: the directory reached, absolute and free of links; todo: what is left to walk. */
	char *cur = mem, *next = mem + cap, *target = mem + 2 * cap, *todo = mem + 3 * cap;
	const size_t todosize = 2 * cap;
	const bool small = cap < PATH_MAX;
	const char *why = NULL;
	struct stat dst;
	int links = 0, r = 0;

	cur[0] = '/';
	cur[1] = '\0';
	/* A relative name is looked up from the working directory, found through its
	 * ancestors: walk them too (getcwd() gives the real path). */
	if (path[0] != '/') {
		if (!getcwd(next, cap)) {
			if (small && errno == ERANGE)
				return WALK_TOO_SMALL;
			r = -errno;
			why = "the working directory";
			goto fail;
		}
		r = np_strjoin(todo, todosize, next, "/", path);
	} else {
		r = np_strjoin(todo, todosize, path);
	}
	if (r < 0 || (size_t)r >= todosize) {
		if (small)
			return WALK_TOO_SMALL;
		r = -ENAMETOOLONG;
		goto fail;
	}
	memset(st, 0, sizeof(*st));
	st->st_mode = S_IFDIR;		/* "/" until a component is walked */
	for (;;) {
		const char *p = todo + strspn(todo, "/"), *rest;
		size_t len = strcspn(p, "/");

		if (!*p)
			break;
		rest = p + len;
		if (len == 1 && p[0] == '.') {
			memmove(todo, rest, strlen(rest) + 1);
			continue;
		}
		if (len == 2 && p[0] == '.' && p[1] == '.') {
			/* cur is free of links: its parent is its name's. */
			char *slash = strrchr(cur, '/');

			if (slash == cur)
				cur[1] = '\0';
			else
				*slash = '\0';
			memmove(todo, rest, strlen(rest) + 1);
			continue;
		}
		/* A lookup in cur: whoever may write cur decides what the name is. */
		if (lstat(cur, &dst) < 0) {
			r = -errno;
			why = cur;
			goto fail;
		}
		if (np_config_dir_trust(dst.st_uid, dst.st_mode, euid) != NP_TRUST_OK)
			return dir_refused(path, cur, &dst, euid, err, errlen);
		r = join(next, cap, cur, p, len);
		if (r < 0 && small)
			return WALK_TOO_SMALL;
		if (r < 0 || lstat(next, st) < 0) {
			r = r < 0 ? r : -errno;
			why = next;
			goto fail;
		}
		if (S_ISLNK(st->st_mode)) {
			ssize_t n;

			/* In a sticky directory others may create names: a link must be one's own
			 * (as fs.protected_symlinks has it). */
			if ((dst.st_mode & (S_IWGRP | S_IWOTH)) && st->st_uid != 0 &&
			    st->st_uid != euid) {
				snprintf(err, errlen, "config file %s not used: the symbolic link %s "
					 "on its way is owned by uid %u, in a directory others can write "
					 "to", path, next, (unsigned)st->st_uid);
				return -EPERM;
			}
			n = readlink(next, target, cap - 1);
			/* A text that fills the small buffer may have been cut. */
			if (small && n >= (ssize_t)cap - 1)
				return WALK_TOO_SMALL;
			if (n < 0 || ++links > NP_CONFIG_MAX_LINKS) {
				r = n < 0 ? -errno : -ELOOP;
				why = next;
				goto fail;
			}
			target[n] = '\0';
			/* The link's text, then what followed it, from "/" or from cur. */
			r = np_strjoin(next, cap, rest);
			if (r < 0 || (size_t)r >= cap ||
			    np_strjoin(todo, todosize, target, next) >= (int)todosize) {
				if (small)
					return WALK_TOO_SMALL;
				r = -ENAMETOOLONG;
				why = path;
				goto fail;
			}
			if (target[0] == '/')
				snprintf(cur, cap, "/");
			continue;
		}
		memcpy(cur, next, strlen(next) + 1);
		memmove(todo, rest, strlen(rest) + 1);
		if (todo[strspn(todo, "/")] && !S_ISDIR(st->st_mode)) {
			r = -ENOTDIR;
			why = cur;
			goto fail;
		}
	}
	if (np_strjoin(real, realsize, cur) >= (int)realsize) {
		r = -ENAMETOOLONG;
		goto fail;
	}
	return 0;
fail:
	np_strjoin(err, errlen, "cannot check config file ", path, why ? ": " : "", why ? why : "",
		   ": ", strerror(-r));
	return r;
}

/* The walk with PATH_MAX buffers, in a frame of its own that only a long name reaches. */
static __attribute__((noinline)) int walk_full(const char *path, uid_t euid, struct stat *st,
					       char *real, size_t realsize, char *err,
					       size_t errlen)
{
	char mem[5 * PATH_MAX];

	return walk(path, euid, st, real, realsize, err, errlen, mem, PATH_MAX);
}

int np_config_path_trust(const char *path, uid_t euid, struct stat *st, char *real,
			 size_t realsize, char *err, size_t errlen)
{
	char mem[5 * WALK_SMALL];
	int r = walk(path, euid, st, real, realsize, err, errlen, mem, WALK_SMALL);

	return r == WALK_TOO_SMALL ? walk_full(path, euid, st, real, realsize, err, errlen) : r;
}
