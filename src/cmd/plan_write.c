// SPDX-License-Identifier: GPL-2.0-only
/* `netpath plan --write DIR`: the checks on DIR, the directories beneath it, the files. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_file.h"
#include "plan_write.h"
#include "render_plan.h"

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

int np_plan_dir_check(const char *dir, char *err, size_t errlen)
{
	char abs[PATH_MAX];
	struct stat st;
	int r;

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
	return 0;
}

/* mkdir -p of dir/sub's directories, refusing symbolic links on the way (one planted at
 * DIR/etc would take the files into the real /etc). */
static int make_dirs(const char *dir, const char *rel, char *err, size_t errlen)
{
	char path[PATH_MAX];
	size_t base;
	struct stat st;

	if (snprintf(path, sizeof(path), "%s/%s", dir, rel) >= (int)sizeof(path)) {
		snprintf(err, errlen, "%s/%s: path too long", dir, rel);
		return -1;
	}
	base = strlen(dir);
	for (char *p = path + 1; p; p = strchr(p + 1, '/')) {
		char c = *p;

		if (c != '/' || (size_t)(p - path) < base)
			continue;
		*p = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST) {
			snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
			return -1;
		}
		if (lstat(path, &st) < 0 || !S_ISDIR(st.st_mode)) {
			snprintf(err, errlen, "%s is %s: refused", path,
				 S_ISLNK(st.st_mode) ? "a symbolic link" : "not a directory");
			return -1;
		}
		*p = c;
	}
	return 0;
}

/* One file beneath dir (nothing when the plan has nothing for it). 0 or -1. */
static int write_one(const struct np_plan *p, const char *dir, enum np_plan_file f, size_t d,
		     FILE *out, char *err, size_t errlen)
{
	char rel[96], path[PATH_MAX], tmp[PATH_MAX];
	FILE *fp;
	int r;

	if (!np_plan_file_path(p, f, d, rel, sizeof(rel)))
		return 0;
	if (make_dirs(dir, rel, err, errlen) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	fp = np_atomic_open_mode(path, tmp, sizeof(tmp), f == NP_PLAN_FILE_NOW ? 0755 : 0644);
	if (!fp) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	np_render_plan_file(fp, p, f, d);
	r = np_atomic_commit(fp, tmp, path);
	if (r < 0) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(-r));
		return -1;
	}
	if (out)
		fprintf(out, "wrote %s\n", path);
	return 0;
}

int np_plan_write(const struct np_plan *p, const char *dir, FILE *out, char *err, size_t errlen)
{
	struct stat st;

	if (np_plan_dir_check(dir, err, errlen) < 0)
		return -1;
	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "cannot create %s: %s", dir, strerror(errno));
		return -1;
	}
	if (lstat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "--write %s: not a directory", dir);
		return -1;
	}
	for (int f = 0; f < NP_PLAN_FILE__COUNT; f++)
		for (size_t d = 0; d < np_plan_file_count(p, (enum np_plan_file)f); d++)
			if (write_one(p, dir, (enum np_plan_file)f, d, out, err, errlen) < 0)
				return -1;
	return 0;
}
