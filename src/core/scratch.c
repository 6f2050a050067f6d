// SPDX-License-Identifier: GPL-2.0-only
/* Private temporary directories, removed on every exit path netpath controls. */
#include "scratch.h"
#include "cleanup.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/vfs.h>
#include <unistd.h>

/* linux/magic.h's TMPFS_MAGIC, spelled here to keep kernel headers out of core/. */
#define NP_TMPFS_MAGIC 0x01021994

static int make_under(const char *tmp, char *out, size_t size)
{
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

int np_scratch_dir(char *out, size_t size)
{
	const char *tmp = getenv("TMPDIR");

	if (!out || !size)
		return -EINVAL;
	/* The signal handler removes the directory by this path: it must not depend on the
	 * working directory. */
	if (!tmp || tmp[0] != '/')
		tmp = "/tmp";
	return make_under(tmp, out, size);
}

bool np_scratch_in_memory(const char *dir, uint64_t need)
{
	struct statfs fs;

	if (!dir || dir[0] != '/' || statfs(dir, &fs) < 0 || fs.f_type != NP_TMPFS_MAGIC)
		return false;
	/* Room for twice the cap: the scratch must not fill a tmpfs others use (a container's
	 * 64 MiB /dev/shm is refused for a 64 MiB cap). */
	return (uint64_t)fs.f_bavail * (uint64_t)fs.f_bsize / 2 >= need;
}

/* A place others cannot take our directory from: ours and not writable by others
 * ($XDG_RUNTIME_DIR; under sudo it may still name the user's), or root's and sticky (/dev/shm):
 * nobody else may rename the scratch and put another tree under its name. */
static bool trusted_base(const char *dir)
{
	struct stat st;

	if (lstat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return false;
	if (st.st_uid == geteuid() && !(st.st_mode & (S_IWGRP | S_IWOTH)))
		return true;
	return st.st_uid == 0 && (st.st_mode & S_ISVTX);
}

int np_scratch_dir_mem(char *out, size_t size, uint64_t need)
{
	const char *tmp = getenv("TMPDIR"), *run = getenv("XDG_RUNTIME_DIR");
	const char *where[] = { run, "/dev/shm" };

	if (!out || !size)
		return -EINVAL;
	out[0] = '\0';
	if (tmp && *tmp)
		return -ENOENT;
	for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++)
		if (np_scratch_in_memory(where[i], need) && trusted_base(where[i]) &&
		    make_under(where[i], out, size) == 0)
			return 0;
	return -ENOENT;
}

void np_scratch_remove(const char *dir)
{
	if (!dir || !*dir)
		return;
	(void)np_rmtree(dir);
	np_cleanup_drop(dir);
}
