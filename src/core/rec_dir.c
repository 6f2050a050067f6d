// SPDX-License-Identifier: GPL-2.0-only
/* A flight recording's directory: opened only when it is the recorder's alone, and its
 * segments listed in order (rec_block.h). */
#include "rec_block.h"
#include "conffile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int np_rec_dir_open(const char *dir, bool create, int *dirfd, char *err, size_t errlen)
{
	struct stat st;
	uid_t euid = geteuid();
	int fd;

	if (create && mkdir(dir, 0700) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "cannot create recording directory %s: %s", dir,
			 strerror(errno));
		return -errno;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		snprintf(err, errlen, "cannot open recording directory %s: %s", dir,
			 e == ELOOP ? "it is a symbolic link" : strerror(e));
		return -e;
	}
	if (fstat(fd, &st) < 0) {
		int e = errno;

		close(fd);
		snprintf(err, errlen, "cannot stat recording directory %s: %s", dir, strerror(e));
		return -e;
	}
	/* As a settings file's directory is judged (conffile_trust.c), but stricter: the sticky
	 * bit does not help, as others could still add segments a reader would believe. */
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) ||
	    np_config_dir_trust(st.st_uid, st.st_mode & ~(mode_t)S_ISVTX, euid) != NP_TRUST_OK) {
		if (st.st_mode & (S_IWGRP | S_IWOTH))
			snprintf(err, errlen, "recording directory %s refused: %s can write to it "
				 "(chmod 0700 %s)", dir, st.st_mode & S_IWOTH ? "anyone" :
				 "its group", dir);
		else
			snprintf(err, errlen, "recording directory %s refused: it is owned by uid "
				 "%u, neither root nor you (uid %u)", dir, (unsigned)st.st_uid,
				 (unsigned)euid);
		close(fd);
		return -EPERM;
	}
	*dirfd = fd;
	return 0;
}

static int by_seq(const void *a, const void *b)
{
	const struct np_rec_seg *x = a, *y = b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int np_rec_dir_list(int dirfd, struct np_rec_seg **segs, size_t *n)
{
	struct np_rec_seg *v = NULL;
	size_t len = 0, cap = 0;
	struct dirent *e;
	int fd = dup(dirfd);
	DIR *d;

	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -errno;
	}
	rewinddir(d);
	while ((e = readdir(d))) {
		struct np_rec_seg s = { 0 };
		struct stat st;

		if (!np_rec_seg_parse(e->d_name, &s.seq, &s.wall_s) ||
		    strlen(e->d_name) >= sizeof(s.name) ||
		    fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode))
			continue;
		snprintf(s.name, sizeof(s.name), "%s", e->d_name);
		s.bytes = (uint64_t)st.st_size;
		if (len == cap) {
			struct np_rec_seg *p = realloc(v, (cap ? cap * 2 : 64) * sizeof(*v));

			if (!p) {
				free(v);
				closedir(d);
				return -ENOMEM;
			}
			v = p;
			cap = cap ? cap * 2 : 64;
		}
		v[len++] = s;
	}
	closedir(d);
	if (len)
		qsort(v, len, sizeof(*v), by_seq);
	*segs = v;
	*n = len;
	return 0;
}
