// SPDX-License-Identifier: GPL-2.0-only
/* Private temporary directories, removed on every exit path netpath controls. */
#include "scratch.h"
#include "cleanup.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int np_scratch_dir(char *out, size_t size)
{
	const char *tmp = getenv("TMPDIR");

	if (!out || !size)
		return -EINVAL;
	/* The signal handler removes the directory by this path: it must not depend on the
	 * working directory. */
	if (!tmp || tmp[0] != '/')
		tmp = "/tmp";
	if ((size_t)snprintf(out, size, "%s/netpath.XXXXXX", tmp) >= size) {
		out[0] = '\0';
		return -ENAMETOOLONG;
	}
	/* mkdtemp creates 0700 whatever the umask. */
	if (!mkdtemp(out)) {
		int r = -errno;

		out[0] = '\0';
		return r;
	}
	/* Best effort: without a free slot the directory is still removed on every ordinary
	 * path, only not by a signal. */
	(void)np_cleanup_add(out, NP_CLEANUP_TREE);
	return 0;
}

void np_scratch_remove(const char *dir)
{
	if (!dir || !*dir)
		return;
	(void)np_rmtree(dir);
	np_cleanup_drop(dir);
}
