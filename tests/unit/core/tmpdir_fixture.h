/* SPDX-License-Identifier: GPL-2.0-only */
/* A scratch directory per test, open as a descriptor, removed after it: the fixture of the tar
 * reader, writer and cap tests. Include after cmocka.h. */
#ifndef NP_TEST_TMPDIR_FIXTURE_H
#define NP_TEST_TMPDIR_FIXTURE_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cleanup.h"

struct dir {
	char path[64];
	int fd;
};

/* tmpl: a mkdtemp template, "/tmp/np-NAME.XXXXXX". */
static inline int np_test_dir_setup(void **state, const char *tmpl)
{
	struct dir *d = calloc(1, sizeof(*d));

	assert_non_null(d);
	snprintf(d->path, sizeof(d->path), "%s", tmpl);
	assert_non_null(mkdtemp(d->path));
	d->fd = open(d->path, O_RDONLY | O_DIRECTORY);
	assert_true(d->fd >= 0);
	*state = d;
	return 0;
}

static inline int np_test_dir_teardown(void **state)
{
	struct dir *d = *state;

	close(d->fd);
	np_rmtree(d->path);
	free(d);
	return 0;
}

#endif
