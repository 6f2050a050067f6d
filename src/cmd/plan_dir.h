/* SPDX-License-Identifier: GPL-2.0-only */
/* plan --write's DIR: normalised, judged, opened (plan_dir.c), for plan_write.c only. */
#ifndef NP_PLAN_DIR_H
#define NP_PLAN_DIR_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * DIR as the directory it names: trailing slashes and "/." dropped, so "link/" and "link/."
 * are judged as "link" (the kernel would follow the link for them), then split into the
 * directory that holds it (opened by path: the user's own way there) and its last name.
 */
struct where {
	char shown[PATH_MAX];	/* DIR normalised, for messages and the "wrote" lines */
	char parent[PATH_MAX];
	char name[NAME_MAX + 1];
};

/* w from dir: 0 or -ENAMETOOLONG. */
int np_plan_dir_split(const char *dir, struct where *w);
/* Why the open of name in dfd with O_NOFOLLOW | O_DIRECTORY failed (err), in words. */
const char *np_plan_dir_not_dir_why(int dfd, const char *name, int err);
/* fd (opened with O_NOFOLLOW) is a directory a plan may write into: owned by root or the
 * caller, not writable by group or others. 0, or -1 with a reason naming shown in err. */
int np_plan_dir_judge(int fd, const char *shown, char *err, size_t errlen);
/* Open DIR (w) without following a link in its last name; create it (0755) first when missing
 * and create is set (*made then true). *parent is the directory holding it. The fd, -2 when it
 * does not exist and create is not set, or -1 with err. */
int np_plan_dir_open_top(const struct where *w, bool create, int *parent, bool *made, char *err,
			 size_t errlen);

#endif
