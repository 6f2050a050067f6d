/* SPDX-License-Identifier: GPL-2.0-only */
/* The tar refusal tests' fixture: a scratch source and destination directory per test, an
 * extraction of an archive built in memory, and small readers of what it left. Include after
 * cmocka.h. */
#ifndef NP_TEST_TAR_REFUSE_FIXTURE_H
#define NP_TEST_TAR_REFUSE_FIXTURE_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cleanup.h"
#include "config.h"
#include "tar.h"
#include "tar_build.h"

struct dirs {
	char base[64];		/* mkdtemp */
	char tree[128];		/* base/tree: where archives are extracted */
	char out[128];		/* base/out: outside the tree, must stay untouched */
	int treefd;
};

static inline int setup(void **state)
{
	struct dirs *d = calloc(1, sizeof(*d));

	assert_non_null(d);
	snprintf(d->base, sizeof(d->base), "/tmp/np-tar-refuse.XXXXXX");
	assert_non_null(mkdtemp(d->base));
	snprintf(d->tree, sizeof(d->tree), "%s/tree", d->base);
	snprintf(d->out, sizeof(d->out), "%s/out", d->base);
	assert_int_equal(mkdir(d->tree, 0700), 0);
	assert_int_equal(mkdir(d->out, 0700), 0);
	d->treefd = open(d->tree, O_RDONLY | O_DIRECTORY);
	assert_true(d->treefd >= 0);
	*state = d;
	return 0;
}

static inline int teardown(void **state)
{
	struct dirs *d = *state;

	close(d->treefd);
	np_rmtree(d->base);
	free(d);
	return 0;
}

static inline int extract(struct dirs *d, struct ar *a, const struct np_tar_limits *lim,
			  struct np_tar_stats *st, char *err, size_t errlen)
{
	int fd = ar_fd(a), r;

	r = np_tar_extract(fd, d->treefd, lim, NULL, NULL, st, err, errlen);
	close(fd);
	return r;
}

static inline bool exists(const char *base, const char *rel)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", base, rel);
	return lstat(path, &st) == 0;
}

static inline mode_t type_of(const char *base, const char *rel)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", base, rel);
	return lstat(path, &st) == 0 ? st.st_mode & S_IFMT : 0;
}

static inline char *slurp(const char *base, const char *rel)
{
	static char buf[4096];
	char path[512];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", base, rel);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

#endif
