// SPDX-License-Identifier: GPL-2.0-only
/*
 * `netpath plan --write DIR`: DIR judged and opened once, everything beneath it created from
 * that descriptor one name at a time (never a path string after the open, so a symbolic link
 * swapped in for DIR or a directory beneath it during the run cannot take a file elsewhere),
 * and the plan put in place whole or not at all.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "plan_dir.h"
#include "plan_write.h"
#include "render_plan.h"

/* The directories a plan writes into (DIR, etc, etc/sysctl.d, etc/systemd, ...: 8 today). */
#define MAX_DIRS 16
#define MAX_FILES (3 + 2 * NP_PLAN_DEVS)
#define REL_MAX 96

/* ---- The plan, all or nothing ---- */

struct staged {
	int dir;			/* index into txn.dirs */
	char rel[REL_MAX];		/* beneath DIR, for the "wrote" line */
	const char *name;		/* the last name of rel */
	char tmp[NAME_MAX + 1];		/* the new content until renamed over name */
	char old[NAME_MAX + 1];		/* a second link to the file it replaces, for undo */
	bool placed;
};

struct txn {
	const struct where *w;
	int parent;			/* the directory that holds DIR */
	bool top_made;
	size_t ndirs, nmade, nfiles;
	struct {
		char rel[REL_MAX];	/* "" is DIR */
		int fd;
	} dirs[MAX_DIRS];
	struct {
		size_t parent;		/* index into dirs */
		char name[NAME_MAX + 1];
	} made[MAX_DIRS];		/* created by this run, in order */
	struct staged f[MAX_FILES];
	char *err;
	size_t errlen;
};

/* A name beside base in dfd that did not exist: ".BASE.XXXXXX". Random, as mkstemp's. */
static void hidden_name(const char *base, char *out, size_t size)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	static unsigned long counter;
	unsigned char rnd[6];
	char suffix[7];

	if (getrandom(rnd, sizeof(rnd), GRND_NONBLOCK) != (ssize_t)sizeof(rnd)) {
		unsigned long x = (unsigned long)getpid() * 2654435761UL ^
				  (unsigned long)time(NULL) ^ ++counter * 40503UL;

		for (size_t i = 0; i < sizeof(rnd); i++, x >>= 5)
			rnd[i] = (unsigned char)x;
	}
	for (size_t i = 0; i < sizeof(rnd); i++)
		suffix[i] = set[rnd[i] % (sizeof(set) - 1)];
	suffix[6] = '\0';
	snprintf(out, size, ".%.*s.%s", NAME_MAX - 9, base, suffix);
}

/* The directory rel (beneath DIR) open, each name on the way opened from its parent's fd
 * with O_NOFOLLOW, created (0755) when missing and checked as DIR is. Its index, or -1. */
static int open_sub(struct txn *t, const char *rel)
{
	char prefix[REL_MAX];
	size_t at = 0, len = strlen(rel);

	for (size_t end = 0; end <= len; end++) {
		char name[NAME_MAX + 1];
		size_t i, nlen;
		int fd = -1;

		if (end < len && rel[end] != '/')
			continue;
		snprintf(prefix, sizeof(prefix), "%.*s", (int)end, rel);
		for (i = 0; i < t->ndirs && strcmp(t->dirs[i].rel, prefix); i++)
			;
		if (i < t->ndirs) {
			at = i;
			continue;
		}
		nlen = end - (at ? strlen(t->dirs[at].rel) + 1 : 0);
		snprintf(name, sizeof(name), "%.*s", (int)nlen, rel + end - nlen);
		if (!name[0] || !strcmp(name, ".") || !strcmp(name, "..") || t->ndirs >= MAX_DIRS) {
			snprintf(t->err, t->errlen, "--write: bad path %s", rel);
			return -1;
		}
		for (int tries = 0; tries < 2; tries++) {
			fd = openat(t->dirs[at].fd, name,
				    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (fd >= 0 || errno != ENOENT)
				break;
			if (mkdirat(t->dirs[at].fd, name, 0755) == 0) {
				t->made[t->nmade].parent = at;
				snprintf(t->made[t->nmade].name, sizeof(t->made[0].name), "%s", name);
				t->nmade++;
			} else if (errno != EEXIST) {
				snprintf(t->err, t->errlen, "cannot create %s/%s: %s", t->w->shown,
					 prefix, strerror(errno));
				return -1;
			}
		}
		if (fd < 0) {
			snprintf(t->err, t->errlen, "%s/%s %s: refused", t->w->shown, prefix,
				 np_plan_dir_not_dir_why(t->dirs[at].fd, name, errno));
			return -1;
		}
		snprintf(t->dirs[t->ndirs].rel, sizeof(t->dirs[0].rel), "%s", prefix);
		t->dirs[t->ndirs].fd = fd;
		at = t->ndirs++;
		{
			char shown[PATH_MAX + REL_MAX];

			snprintf(shown, sizeof(shown), "%s/%s", t->w->shown, prefix);
			if (np_plan_dir_judge(fd, shown, t->err, t->errlen) < 0)
				return -1;
		}
	}
	return (int)at;
}

/* What stands at name now: 0 nothing, 1 a regular file (to be replaced), -1 refused. */
static int target(struct txn *t, int dfd, const char *name, const char *rel)
{
	struct stat st;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno == ENOENT)
			return 0;
		snprintf(t->err, t->errlen, "%s/%s: %s", t->w->shown, rel, strerror(errno));
		return -1;
	}
	if (S_ISREG(st.st_mode))
		return 1;
	/* A link is never followed (its target may be anywhere) nor replaced. */
	snprintf(t->err, t->errlen, "%s/%s %s: refused", t->w->shown, rel,
		 S_ISLNK(st.st_mode) ? "is a symbolic link" :
		 S_ISDIR(st.st_mode) ? "is a directory" : "is not a regular file");
	return -1;
}

/* One file of the plan written, synced and closed under a temporary name beside its target;
 * a second link to the file it will replace kept for undo. 0 or -1. */
static int stage(struct txn *t, const struct np_plan *p, enum np_plan_file f, size_t d)
{
	struct staged *s = &t->f[t->nfiles];
	char dirrel[REL_MAX];
	const char *slash;
	int dfd, fd = -1, had, e = 0;
	FILE *fp;

	if (t->nfiles >= MAX_FILES) {
		snprintf(t->err, t->errlen, "--write: more than %d files", MAX_FILES);
		return -1;
	}
	if (!np_plan_file_path(p, f, d, s->rel, sizeof(s->rel)))
		return 0;
	slash = strrchr(s->rel, '/');
	s->name = slash ? slash + 1 : s->rel;
	snprintf(dirrel, sizeof(dirrel), "%.*s", slash ? (int)(slash - s->rel) : 0, s->rel);
	s->dir = open_sub(t, dirrel);
	if (s->dir < 0)
		return -1;
	dfd = t->dirs[s->dir].fd;
	had = target(t, dfd, s->name, s->rel);
	if (had < 0)
		return -1;
	for (int tries = 0; fd < 0 && tries < 100; tries++) {
		hidden_name(s->name, s->tmp, sizeof(s->tmp));
		fd = openat(dfd, s->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    f == NP_PLAN_FILE_NOW ? 0755 : 0644);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		e = errno;
		s->tmp[0] = '\0';
		goto fail;
	}
	/* Counted from here: a failure below removes the temporary file too. */
	t->nfiles++;
	fp = fdopen(fd, "w");
	if (!fp) {
		e = errno;
		close(fd);
		goto fail;
	}
	np_render_plan_file(fp, p, f, d);
	/* stdio defers write errors: fflush reports them, ferror remembers earlier ones. */
	errno = 0;
	if (fflush(fp) == EOF || ferror(fp))
		e = errno ? errno : EIO;
	if (!e && fsync(fileno(fp)) < 0)
		e = errno;
	if (fclose(fp) == EOF && !e)
		e = errno ? errno : EIO;
	if (e)
		goto fail;
	for (int tries = 0; had && !s->old[0] && tries < 100; tries++) {
		hidden_name(s->name, s->old, sizeof(s->old));
		if (linkat(dfd, s->name, dfd, s->old, 0) == 0)
			break;
		s->old[0] = '\0';
		if (errno != EEXIST) {
			snprintf(t->err, t->errlen, "cannot keep %s/%s to restore it on failure: %s",
				 t->w->shown, s->rel, strerror(errno));
			return -1;
		}
	}
	return 0;
fail:
	snprintf(t->err, t->errlen, "cannot write %s/%s: %s", t->w->shown, s->rel, strerror(e));
	return -1;
}

/* Put the staged files in place: each renamed over its target, which must still be what the
 * staging saw. 0, or -1 with the renames done so far still in place (undo() reverts them). */
static int commit(struct txn *t)
{
	for (size_t i = 0; i < t->nfiles; i++) {
		struct staged *s = &t->f[i];
		int dfd = t->dirs[s->dir].fd;
		int had = target(t, dfd, s->name, s->rel);

		if (had < 0)
			return -1;
		if (had != (s->old[0] != '\0')) {
			snprintf(t->err, t->errlen, "%s/%s changed while the plan was written: "
				 "refused", t->w->shown, s->rel);
			return -1;
		}
		if (renameat(dfd, s->tmp, dfd, s->name) < 0) {
			snprintf(t->err, t->errlen, "cannot write %s/%s: %s", t->w->shown, s->rel,
				 strerror(errno));
			return -1;
		}
		s->placed = true;
	}
	return 0;
}

/* DIR as it was: the files placed taken back (the old ones renamed back over them), every
 * temporary name removed, the directories this run created removed while empty. */
static void undo(struct txn *t)
{
	for (size_t i = t->nfiles; i-- > 0;) {
		struct staged *s = &t->f[i];
		int dfd = t->dirs[s->dir].fd;

		if (s->placed) {
			/* If the old file cannot be renamed back, its second link stays: the only
			 * copy left of what the admin had. */
			if (s->old[0])
				renameat(dfd, s->old, dfd, s->name);
			else
				unlinkat(dfd, s->name, 0);
			continue;
		}
		if (s->tmp[0])
			unlinkat(dfd, s->tmp, 0);
		if (s->old[0])
			unlinkat(dfd, s->old, 0);
	}
	for (size_t i = t->nmade; i-- > 0;)
		unlinkat(t->dirs[t->made[i].parent].fd, t->made[i].name, AT_REMOVEDIR);
	if (t->top_made)
		unlinkat(t->parent, t->w->name, AT_REMOVEDIR);
}

/* Done: the copies of the replaced files dropped, every directory synced (best effort: the
 * files are complete and in place already). */
static void finish(struct txn *t)
{
	for (size_t i = 0; i < t->nfiles; i++)
		if (t->f[i].old[0])
			unlinkat(t->dirs[t->f[i].dir].fd, t->f[i].old, 0);
	for (size_t i = 0; i < t->ndirs; i++)
		(void)fsync(t->dirs[i].fd);
	if (t->top_made)
		(void)fsync(t->parent);
}

int np_plan_write(const struct np_plan *p, const char *dir, FILE *out, char *err, size_t errlen)
{
	struct where w;
	struct txn *t;
	sigset_t block, old;
	int r = -1, fd;

	if (np_plan_dir_check(dir, err, errlen) < 0)
		return -1;
	if (np_plan_dir_split(dir, &w) < 0) {
		snprintf(err, errlen, "--write %s: %s", dir, strerror(ENAMETOOLONG));
		return -1;
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	t->w = &w;
	t->err = err;
	t->errlen = errlen;
	/* SIGINT, SIGTERM, SIGHUP, SIGQUIT wait until the plan is in place or DIR is back as it
	 * was (milliseconds, or the fsyncs' time), then act as they would have. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGQUIT);
	sigprocmask(SIG_BLOCK, &block, &old);
	fd = np_plan_dir_open_top(&w, true, &t->parent, &t->top_made, err, errlen);
	if (fd < 0) {
		/* Created, then refused (a umask that left it group-writable): take it back. */
		if (t->top_made)
			unlinkat(t->parent, w.name, AT_REMOVEDIR);
		goto out;
	}
	t->dirs[0].fd = fd;
	t->ndirs = 1;
	r = 0;
	for (int f = 0; r == 0 && f < NP_PLAN_FILE__COUNT; f++)
		for (size_t d = 0; r == 0 && d < np_plan_file_count(p, (enum np_plan_file)f); d++)
			r = stage(t, p, (enum np_plan_file)f, d);
	if (r == 0)
		r = commit(t);
	if (r < 0) {
		undo(t);
		goto out;
	}
	finish(t);
	for (size_t i = 0; out && i < t->nfiles; i++)
		fprintf(out, "wrote %s/%s\n", w.shown, t->f[i].rel);
out:
	for (size_t i = 0; i < t->ndirs; i++)
		close(t->dirs[i].fd);
	if (t->parent >= 0)
		close(t->parent);
	free(t);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return r < 0 ? -1 : 0;
}
