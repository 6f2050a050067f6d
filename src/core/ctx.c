// SPDX-License-Identifier: GPL-2.0-only
/* Root context: openat()/openat2() on directory fds so reads stay beneath --root. */
#include "ctx.h"
#include "beneath.h"
#include "fsrec.h"
#include "strjoin.h"
#include "overlay.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

struct np_ctx_seam np_ctx_seam;

/*
 * openat2() with RESOLVE_BENEATH fails with EAGAIN when a rename or a mount happened anywhere on
 * the host while the lookup went through ".." (the kernel then cannot prove the walk stayed
 * beneath), and every sysfs symlink holds "..": on a busy host that is an answer about the
 * host, not about the file. A few tries, then the resolver by hand, whose ".." goes back to a
 * directory fd it holds and so never depends on what the rest of the host renames.
 */
/* One openat2(); try is the attempt number within this open (the test seam's EAGAINs). */
static int openat2_once(int dfd, const char *path, const struct open_how *how, unsigned try)
{
	int fd;

	if (try < np_ctx_seam.openat2_eagain)
		return -EAGAIN;
	fd = (int)syscall(SYS_openat2, dfd, path, how, sizeof(*how));
	return fd < 0 ? -errno : fd;
}

/*
 * Every confined open goes through here: openat2() beneath dfd, or the same resolution done
 * by hand (beneath.c), which keeps the same guarantees, where the kernel lacks openat2()
 * (before 5.6), a seccomp profile refuses it with EPERM (older container runtimes' defaults)
 * or the host is too busy for it (EAGAIN, above). Returns an fd or -errno.
 */
static int open_beneath(int dfd, const char *path, const struct open_how *how)
{
	if (!np_ctx_seam.no_openat2) {
		for (unsigned try = 0; try < NP_CTX_OPENAT2_TRIES; try++) {
			int fd = openat2_once(dfd, path, how, try);

			if (fd == -EAGAIN || fd == -EINTR) {
				np_ctx_seam.openat2_eagains++;
				continue;
			}
			if (fd == -ENOSYS || fd == -EPERM)
				break;
			np_ctx_seam.openat2_opens++;
			return fd;
		}
	}
	np_ctx_seam.beneath_opens++;
	return np_beneath_open(dfd, path, (int)how->flags);
}

/* ROOT/proc, ROOT/sys, ROOT/run or ROOT itself ("."), beneath rfd (ROOT, opened once). Under
 * --root they must be directories of the tree: a "proc" symlink to the live /proc (or anywhere
 * else) would take every read outside it (-EXDEV). A link inside the tree (a sosreport's
 * sys -> data/sys) resolves. */
static int open_tree(int rfd, const char *sub, bool confined)
{
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
	};
	int fd;

	if (!confined) {
		fd = openat(rfd, sub, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		return fd < 0 ? -errno : fd;
	}
	return open_beneath(rfd, sub, &how);
}

/* The members of a tree that lead outside it refuse the whole tree: reading it without them
 * would judge a tree other than the one its report names. */
static const char *const members[] = { "proc", "sys", "run" };

int np_ctx_open_dir(struct np_ctx *ctx, int rfd, const char *root, const char **bad)
{
	int *fds[] = { &ctx->proc_fd, &ctx->sys_fd, &ctx->run_fd };
	int err;

	memset(ctx, 0, sizeof(*ctx));
	ctx->proc_fd = ctx->sys_fd = ctx->top_fd = ctx->run_fd = -1;
	if (bad)
		*bad = NULL;
	ctx->live = root == NULL || strcmp(root, "/") == 0;
	ctx->confined = !ctx->live;
	snprintf(ctx->root, sizeof(ctx->root), "%s", root ? root : "/");
	if (root && strlen(root) >= sizeof(ctx->root))
		return -ENAMETOOLONG;

	for (size_t i = 0; i < sizeof(members) / sizeof(members[0]); i++) {
		*fds[i] = open_tree(rfd, members[i], ctx->confined);	/* run: optional */
		if (ctx->confined && (*fds[i] == -EXDEV || *fds[i] == -ELOOP)) {
			err = *fds[i];
			if (bad)
				*bad = members[i];
			goto fail;
		}
	}
	if (ctx->confined)
		ctx->top_fd = open_tree(rfd, ".", true);
	else
		ctx->rootfs_fd = openat(rfd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	/* A captured tree may hold only one of the two; having neither is an error. */
	if (ctx->proc_fd < 0 && ctx->sys_fd < 0) {
		err = ctx->proc_fd;
		goto fail;
	}
	return 0;
fail:
	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
		if (*fds[i] < 0)
			*fds[i] = -1;
	np_ctx_close(ctx);
	return err;
}

int np_ctx_open(struct np_ctx *ctx, const char *root)
{
	/* ROOT is opened once, following links: it is the tree the user named. */
	int rfd = open(root ? root : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int r;

	if (rfd < 0) {
		r = -errno;
		memset(ctx, 0, sizeof(*ctx));
		ctx->proc_fd = ctx->sys_fd = ctx->top_fd = ctx->run_fd = -1;
		snprintf(ctx->root, sizeof(ctx->root), "%s", root ? root : "/");
		return r;
	}
	r = np_ctx_open_dir(ctx, rfd, root, NULL);
	close(rfd);
	return r;
}

void np_ctx_close(struct np_ctx *ctx)
{
	if (ctx->proc_fd >= 0)
		close(ctx->proc_fd);
	if (ctx->sys_fd >= 0)
		close(ctx->sys_fd);
	if (ctx->top_fd >= 0)
		close(ctx->top_fd);
	if (ctx->run_fd >= 0)
		close(ctx->run_fd);
	/* Only a live context opened it (contexts built by hand leave it 0). */
	if (ctx->live && ctx->rootfs_fd > 0)
		close(ctx->rootfs_fd);
	free(ctx->origin);
	ctx->origin = NULL;
	ctx->proc_fd = ctx->sys_fd = ctx->top_fd = ctx->run_fd = -1;
	ctx->rootfs_fd = 0;
}

/* Under --root a FIFO planted in the tree would block the open (and every read) forever and a
 * device node is nothing a capture holds: only regular files and directories are read. */
static int confined_check(int fd, int flags)
{
	struct stat st;

	if (flags & O_PATH)
		return fd;
	if (fstat(fd, &st) < 0 || (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))) {
		close(fd);
		return -EINVAL;
	}
	return fd;
}

static int tree_fd(const struct np_ctx *ctx, enum np_tree t)
{
	if (t == NP_ROOTFS)
		return ctx->live ? (ctx->rootfs_fd > 0 ? ctx->rootfs_fd : -1) : ctx->top_fd;
	return t == NP_PROC ? ctx->proc_fd : t == NP_SYS ? ctx->sys_fd :
	       t == NP_RUN ? ctx->run_fd : ctx->top_fd;
}

static int open_at(const struct np_ctx *ctx, enum np_tree t, const char *path, int flags)
{
	int dfd = tree_fd(ctx, t);
	int fd;

	if (dfd < 0)
		return -ENOENT;
	/* openat2() rejects flags O_PATH does not take, so add O_NOCTTY only to real opens. */
	flags |= O_CLOEXEC | ((flags & O_PATH) ? 0 : O_NOCTTY);
	if (ctx->confined) {
		/* A hostile tree must not reach outside itself through "..", absolute or
		 * magic symlinks: openat2(), or the same resolution by hand before 5.6.
		 * O_NONBLOCK (no effect on regular files) keeps a FIFO's open from waiting for
		 * a writer. */
		struct open_how how = {
			.flags = (uint64_t)(flags | ((flags & O_PATH) ? 0 : O_NONBLOCK)),
			.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
		};

		fd = open_beneath(dfd, path, &how);
		return fd < 0 ? fd : confined_check(fd, flags);
	}
	do	/* a signal (watch's, trace's) during an open that waits: not the file's answer */
		fd = openat(dfd, path, flags);
	while (fd < 0 && errno == EINTR);
	return fd < 0 ? -errno : fd;
}

/* Capturing (ctx->rec on the live tree) keeps what is read and what fails; a capture's replay
 * (ctx->rec on its tree) fails what failed when it was taken. */
static bool recording(const struct np_ctx *ctx)
{
	return ctx->rec && ctx->live;
}

static int open_for_read(const struct np_ctx *ctx, enum np_tree t, const char *path, int flags)
{
	int fd;

	if (ctx->rec && !ctx->live) {
		int err = np_fsrec_error_of(ctx->rec, t, path);

		if (err)
			return err;
	}
	if (ctx->sos_netns[0]) {
		char alt[512];
		int k;

		/* The namespace's copy under the host's name (sos_netns.c), first found wins. */
		for (unsigned try = 0;; try++) {
			k = np_sos_netns_path(ctx, t, path, try, alt, sizeof(alt));
			if (k <= 0)
				break;
			fd = open_at(ctx, t, alt, flags);
			if (fd != -ENOENT)
				return fd;
		}
		if (k < 0)
			return k;
	}
	fd = open_at(ctx, t, path, flags);
	if (fd < 0 && recording(ctx))
		np_fsrec_error(ctx->rec, t, path, fd);
	return fd;
}

int np_open(const struct np_ctx *ctx, enum np_tree t, const char *path, int flags)
{
	int fd = open_for_read(ctx, t, path, flags);

	if (fd >= 0 && recording(ctx))
		np_fsrec_opened(ctx->rec, ctx, t, path, fd, flags);
	return fd;
}

int np_read_file(const struct np_ctx *ctx, enum np_tree t, const char *path, char **buf, size_t *len)
{
	const struct np_overlay_file *o;
	size_t cap = 4096, n = 0;
	char *p;
	int fd;

	*buf = NULL;
	*len = 0;
	fd = open_for_read(ctx, t, path, O_RDONLY);
	o = fd == -ENOENT ? np_overlay_find(ctx->overlay, t, path) : NULL;
	if (o) {
		p = malloc(o->len + 1);
		if (!p)
			return -ENOMEM;
		memcpy(p, o->text, o->len + 1);
		*buf = p;
		*len = o->len;
		return 0;
	}
	if (fd < 0)
		return fd;
	p = malloc(cap);
	if (!p) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		ssize_t r;

		if (n + 1 >= cap) {
			char *q;

			if (cap >= NP_READ_MAX) {
				free(p);
				close(fd);
				return -EFBIG;
			}
			q = realloc(p, cap * 2);
			if (!q) {
				free(p);
				close(fd);
				return -ENOMEM;
			}
			p = q;
			cap *= 2;
		}
		r = read(fd, p + n, cap - n - 1);
		if (r < 0) {
			int err = errno;

			if (err == EINTR)
				continue;
			free(p);
			close(fd);
			if (recording(ctx))
				np_fsrec_error(ctx->rec, t, path, -err);
			return -err;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	p[n] = '\0';
	*buf = p;
	*len = n;
	if (recording(ctx))
		np_fsrec_content(ctx->rec, ctx, t, path, p, n);
	return 0;
}

/* Short values end up in reports on a terminal: a hostile tree's ESC sequences (or a NUL that
 * would cut the value) become '?'. Tabs and newlines stay: sysctls separate values with them. */
static void defang(char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (((unsigned char)s[i] < 0x20 && s[i] != '\t' && s[i] != '\n') || s[i] == 0x7f)
			s[i] = '?';
}

int np_read_str_overlaid(const struct np_ctx *ctx, enum np_tree t, const char *path, char *buf,
			 size_t size, bool *overlaid)
{
	const struct np_overlay_file *o;
	ssize_t r;
	int fd;

	*overlaid = false;
	if (size == 0)
		return -EINVAL;
	buf[0] = '\0';
	fd = open_for_read(ctx, t, path, O_RDONLY);
	o = fd == -ENOENT ? np_overlay_find(ctx->overlay, t, path) : NULL;
	if (o) {
		/* Not recorded: a capture keeps the tree as it was, and the overlay apart. */
		*overlaid = true;
		r = (ssize_t)(o->len < size - 1 ? o->len : size - 1);
		memcpy(buf, o->text, (size_t)r);
		goto trim;
	}
	if (fd < 0)
		return fd;
	do
		r = read(fd, buf, size - 1);
	while (r < 0 && errno == EINTR);
	if (r < 0) {
		int err = -errno;

		close(fd);
		if (recording(ctx))
			np_fsrec_error(ctx->rec, t, path, err);
		return err;
	}
	close(fd);
	if (recording(ctx))
		np_fsrec_content(ctx->rec, ctx, t, path, buf, (size_t)r);
trim:
	while (r > 0 && (buf[r - 1] == '\n' || buf[r - 1] == ' ' || buf[r - 1] == '\t'))
		r--;
	buf[r] = '\0';
	defang(buf, (size_t)r);
	return (int)r;
}

int np_read_str(const struct np_ctx *ctx, enum np_tree t, const char *path, char *buf, size_t size)
{
	bool overlaid;

	return np_read_str_overlaid(ctx, t, path, buf, size, &overlaid);
}

int np_read_s64(const struct np_ctx *ctx, enum np_tree t, const char *path, int64_t *out)
{
	char buf[64], *end;
	long long v;
	int r;

	r = np_read_str(ctx, t, path, buf, sizeof(buf));
	if (r < 0)
		return r;
	if (r == 0)
		return -ENODATA;
	errno = 0;
	v = strtoll(buf, &end, 10);
	if (errno || end == buf || *end != '\0')
		return -EINVAL;
	*out = v;
	return 0;
}

int np_read_u64(const struct np_ctx *ctx, enum np_tree t, const char *path, uint64_t *out)
{
	char buf[64], *end;
	unsigned long long v;
	int r;

	r = np_read_str(ctx, t, path, buf, sizeof(buf));
	if (r < 0)
		return r;
	if (r == 0)
		return -ENODATA;
	if (buf[0] == '-')
		return -ERANGE;		/* e.g. speed -1: "unknown", not a huge number */
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (errno || end == buf || *end != '\0')
		return -EINVAL;
	*out = v;
	return 0;
}

int np_read_link_base(const struct np_ctx *ctx, enum np_tree t, const char *path, char *buf, size_t size)
{
	int dfd = tree_fd(ctx, t);
	char target[512];
	const char *base;
	ssize_t r;

	if (dfd < 0)
		return -ENOENT;
	if (ctx->confined) {
		/* readlinkat() follows every component but the last: resolve the directory
		 * beneath the tree first, so "class/net/eth0" -> /sys/... cannot escape. */
		const char *slash = strrchr(path, '/');
		char dir[512];
		int fd;

		if (path[0] == '/' || strstr(path, ".."))
			return -EXDEV;
		if (slash) {
			if ((size_t)(slash - path) >= sizeof(dir))
				return -ENAMETOOLONG;
			memcpy(dir, path, (size_t)(slash - path));
			dir[slash - path] = '\0';
			fd = np_open(ctx, t, dir, O_PATH | O_DIRECTORY);
			if (fd < 0)
				return fd;
			r = readlinkat(fd, slash + 1, target, sizeof(target) - 1);
			close(fd);
		} else {
			r = readlinkat(dfd, path, target, sizeof(target) - 1);
		}
	} else {
		r = readlinkat(dfd, path, target, sizeof(target) - 1);
	}
	if (r < 0)
		return -errno;
	if (recording(ctx))
		np_fsrec_link(ctx->rec, ctx, t, path);
	target[r] = '\0';
	defang(target, (size_t)r);
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (np_strjoin(buf, size, base) >= (int)size)
		return -ENAMETOOLONG;
	return 0;
}

int np_exists(const struct np_ctx *ctx, enum np_tree t, const char *path)
{
	int fd = np_open(ctx, t, path, O_PATH);

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

int np_opendir(const struct np_ctx *ctx, enum np_tree t, const char *path, DIR **out)
{
	int fd = np_open(ctx, t, path, O_RDONLY | O_DIRECTORY);

	*out = NULL;
	if (fd < 0)
		return fd;
	*out = fdopendir(fd);
	if (!*out) {
		int err = -errno;

		close(fd);
		return err;
	}
	return 0;
}
