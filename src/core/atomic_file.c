// SPDX-License-Identifier: GPL-2.0-only
/* Atomic replacement of the one file netpath writes (-o FILE): temp file, fsync, rename. */
#include "atomic_file.h"
#include "cleanup.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Length of path's directory part including its final '/', 0 when path has none. */
static size_t dir_len(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? (size_t)(slash - path) + 1 : 0;
}

/*
 * 0 when path may be replaced: it does not exist, or it is a regular file. A symlink is never
 * followed (its target may be in another directory) nor replaced (it may be /dev/stdout);
 * renaming over a device node or FIFO would destroy it: both refused.
 */
static int target_ok(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (S_ISLNK(st.st_mode))
		return -ELOOP;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	return S_ISREG(st.st_mode) ? 0 : -EINVAL;
}

/*
 * The temporary file while it exists: a signal between create and rename (SIGINT, SIGTERM,
 * SIGHUP, SIGPIPE, ...) removes it and then ends the process as cleanup.c says, shared with
 * the scratch directories archives are unpacked into.
 */
static void guard(const char *tmp)
{
	/* Best effort: without a free slot the file is still removed on every ordinary path. */
	(void)np_cleanup_add(tmp, NP_CLEANUP_FILE);
}

static void unguard(const char *tmp)
{
	np_cleanup_drop(tmp);
}

FILE *np_atomic_open(const char *path, char *tmp, size_t tmpsize)
{
	return np_atomic_open_mode(path, tmp, tmpsize, 0644);
}

FILE *np_atomic_open_mode(const char *path, char *tmp, size_t tmpsize, unsigned mode)
{
	size_t dlen;
	const char *base;
	char dir[4096];
	struct stat st;
	mode_t mask;
	FILE *f;
	int fd, r;

	if (tmp && tmpsize)
		tmp[0] = '\0';
	if (!path || !*path || !tmp) {
		errno = EINVAL;
		return NULL;
	}
	dlen = dir_len(path);
	base = path + dlen;
	if (!*base || !strcmp(base, ".") || !strcmp(base, "..")) {
		errno = EINVAL;
		return NULL;
	}
	/* The directory must exist already: netpath never creates directories. */
	if (dlen >= sizeof(dir)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	if (dlen)
		snprintf(dir, sizeof(dir), "%.*s", (int)dlen, path);
	else
		snprintf(dir, sizeof(dir), ".");
	if (stat(dir, &st) < 0)
		return NULL;
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return NULL;
	}
	r = target_ok(path);
	if (r < 0) {
		errno = -r;
		return NULL;
	}
	/* A hidden name beside the target: same directory, so rename() is atomic and never
	 * crosses a filesystem; the textfile collector ignores names not ending in .prom. */
	if ((size_t)snprintf(tmp, tmpsize, "%.*s.%s.XXXXXX", (int)dlen, path, base) >= tmpsize) {
		tmp[0] = '\0';
		errno = ENAMETOOLONG;
		return NULL;
	}
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		tmp[0] = '\0';
		return NULL;
	}
	guard(tmp);
	/* mkostemp creates 0600; a metrics file is world-readable like any other (mode 0644), less
	 * what the user's umask takes away. Single-threaded: reading the umask by setting it is
	 * safe. */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, (mode_t)mode & ~mask) < 0 || !(f = fdopen(fd, "w"))) {
		r = errno;
		close(fd);
		unlink(tmp);
		unguard(tmp);
		tmp[0] = '\0';
		errno = r;
		return NULL;
	}
	return f;
}

/* Make the rename itself durable. Best effort: the file is already complete and in place. */
static void sync_dir(const char *path)
{
	size_t dlen = dir_len(path);
	char dir[4096];
	int fd;

	if (dlen >= sizeof(dir))
		return;
	if (dlen)
		snprintf(dir, sizeof(dir), "%.*s", (int)dlen, path);
	else
		snprintf(dir, sizeof(dir), ".");
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	(void)fsync(fd);
	close(fd);
}

int np_atomic_commit(FILE *f, const char *tmp, const char *path)
{
	int err = 0;

	if (!f || !tmp || !*tmp || !path) {
		np_atomic_abort(f, tmp);
		return -EINVAL;
	}
	/* stdio defers write errors: fflush reports them, ferror remembers earlier ones. */
	errno = 0;
	if (fflush(f) == EOF || ferror(f))
		err = errno ? errno : EIO;
	if (!err && fsync(fileno(f)) < 0)
		err = errno;
	if (fclose(f) == EOF && !err)
		err = errno ? errno : EIO;
	/* The target may have become a symlink or a device since np_atomic_open(). */
	if (!err)
		err = -target_ok(path);
	if (!err && rename(tmp, path) < 0)
		err = errno;
	if (err) {
		unlink(tmp);
		unguard(tmp);
		return -err;
	}
	unguard(tmp);
	sync_dir(path);
	return 0;
}

void np_atomic_abort(FILE *f, const char *tmp)
{
	if (f)
		fclose(f);
	if (tmp && *tmp) {
		unlink(tmp);
		unguard(tmp);
	}
}
