// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unpacking an archive from another machine into one directory: only files, directories and
 * symlinks, every path walked component by component without following a symlink, nothing
 * replaced that an earlier member planted, caps on what is read (the decompressed stream, the
 * members) and on what lands on disk (directories, blocks).
 */
#include "tar.h"
#include "tar_parse.h"
#include "tar_source.h"
#include "log.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tar_extract.h"

/* A member path fit for a one-line message: control bytes escaped, long ones cut. */
static const char *shown(const char *path, char *out, size_t size)
{
	return np_sanitize(path, out, size);
}

/*
 * Exactly len bytes of the stream (fewer only at its end): the count, or -errno. Every byte of
 * the decompressed stream passes here, skipped members' data included: the place to bound the
 * work a small compressed file can ask for.
 */
static ssize_t read_full(struct extract *x, void *buf, size_t len)
{
	size_t got = 0;

	if (x->lim && x->lim->max_inflated && len > x->lim->max_inflated - x->st->inflated) {
		char v[32];

		snprintf(x->err, x->errlen, "the decompressed-size cap (%s of tar data) is reached",
			 np_tarx_amount(x->lim->max_inflated, v, sizeof(v)));
		return -EFBIG;
	}
	while (got < len) {
		ssize_t n = np_tar_source_read(x->src, (uint8_t *)buf + got, len - got, x->err,
					       x->errlen);

		if (n < 0)
			return n;
		if (!n)
			break;
		got += (size_t)n;
		x->st->inflated += (uint64_t)n;
	}
	return (ssize_t)got;
}

/* Consume n bytes of member data; a short read is a truncated archive. */
static int skip(struct extract *x, uint64_t n)
{
	while (n) {
		size_t want = n > CHUNK ? CHUNK : (size_t)n;
		ssize_t got = read_full(x, x->buf, want);

		if (got < 0)
			return (int)got;
		if ((size_t)got < want)
			return np_tar_parse_eof(&x->p, 0, x->err, x->errlen);
		n -= want;
	}
	return 0;
}

/*
 * The directory that will hold path's last component, created as needed (0700), never
 * through a symlink: an fd the caller must not close, and *leaf. -ELOOP when a component is a
 * symlink or not a directory; other -errno from the filesystem.
 */
static int parent_dir(struct extract *x, const char *path, const char **leaf)
{
	const char *slash = strrchr(path, '/');
	size_t plen = slash ? (size_t)(slash - path) : 0;
	char comp[256];
	const char *s = path;
	int fd = x->root;

	*leaf = slash ? slash + 1 : path;
	if (!plen)
		return x->root;
	if (x->parent_fd >= 0) {
		size_t clen = strlen(x->parent);

		if (clen == plen && !memcmp(x->parent, path, plen))
			return x->parent_fd;
		/* Below the last directory (archives list a directory, then what is in it):
		 * walk on from there rather than from the top. */
		if (clen < plen && path[clen] == '/' && !memcmp(x->parent, path, clen)) {
			fd = x->parent_fd;
			s = path + clen + 1;
		}
	}
	while (s < path + plen) {
		const char *e = memchr(s, '/', (size_t)(path + plen - s));
		size_t n = e ? (size_t)(e - s) : (size_t)(path + plen - s);
		int next;

		/* Clean paths: components are non-empty and below 256 bytes. */
		memcpy(comp, s, n);
		comp[n] = '\0';
		next = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0 && errno == ENOENT) {
			/* Parents count like listed directories: a member a/b/.../f may make 63. */
			int r = np_tarx_dir_room(x, path);

			if (r < 0) {
				if (fd != x->root && fd != x->parent_fd)
					close(fd);
				return r;
			}
			if (mkdirat(fd, comp, 0700) == 0)
				np_tarx_dir_made(x);
			next = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		}
		if (next < 0) {
			int r = errno == ENOTDIR ? -ELOOP : -errno;

			if (fd != x->root && fd != x->parent_fd)
				close(fd);
			return r;
		}
		if (fd != x->root && fd != x->parent_fd)
			close(fd);
		fd = next;
		s += n + 1;
	}
	if (x->parent_fd >= 0)
		close(x->parent_fd);
	memcpy(x->parent, path, plen);
	x->parent[plen] = '\0';
	x->parent_fd = fd;
	return fd;
}

static int fs_error(struct extract *x, const char *what, const char *path, int r)
{
	char s[128];

	if (r == -EFBIG && x->err[0])
		return r;	/* a cap, already said */

	snprintf(x->err, x->errlen, "cannot %s %s: %s", what, shown(path, s, sizeof(s)),
		 strerror(-r));
	return r;
}

/*
 * Create leaf in dir for writing, exclusively and without following a symlink. A regular file
 * of the same name (a member listed twice) is replaced, as tar does; a symlink or anything
 * else is left alone: 1 (refused).
 */
static int create_file(int dir, const char *leaf, int *fdp)
{
	struct stat st;
	int fd;

	fd = openat(dir, leaf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 && errno == EEXIST && fstatat(dir, leaf, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISREG(st.st_mode) && unlinkat(dir, leaf, 0) == 0)
		fd = openat(dir, leaf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return errno == EEXIST || errno == ELOOP ? 1 : -errno;
	*fdp = fd;
	return 0;
}

/*
 * Copy size bytes into fd, from the archive (from < 0) or from the file from (a hardlink's
 * target), then consume tail bytes of the archive (padding, a hardlink's own data). On any
 * failure the caller removes the file.
 */
static int fill(struct extract *x, int fd, int from, uint64_t size, uint64_t tail)
{
	uint64_t left = size;
	int r;

	while (left) {
		size_t want = left > CHUNK ? CHUNK : (size_t)left;
		ssize_t got = from < 0 ? read_full(x, x->buf, want) : read(from, x->buf, want);

		if (got < 0)
			return from < 0 ? (int)got : -errno;
		if ((size_t)got < want) {
			if (from >= 0)
				return -EIO;	/* the target shrank: impossible in a private dir */
			return np_tar_parse_eof(&x->p, 0, x->err, x->errlen);
		}
		r = np_write_all(fd, x->buf, want);
		if (r < 0)
			return r;
		left -= want;
		x->st->bytes += want;
	}
	return skip(x, tail);
}

/* A regular file of size bytes, from the archive or (from >= 0) a copy of an extracted one;
 * tail: archive bytes to consume after it. */
static int extract_file(struct extract *x, const char *path, int from, uint64_t size,
			uint64_t tail)
{
	const char *leaf;
	int dir, fd = -1, r;

	r = np_tarx_check_size(x, path, size);
	if (r < 0)
		return r;
	dir = parent_dir(x, path, &leaf);
	if (dir >= 0)
		r = create_file(dir, leaf, &fd);
	if (dir == -ELOOP || r == 1) {
		x->st->refused_path++;
		return skip(x, from < 0 ? size + tail : tail);
	}
	if (dir < 0 || r < 0)
		return fs_error(x, "create", path, dir < 0 ? dir : r);
	x->st->disk += np_tarx_blocks_of(size);
	r = fill(x, fd, from, size, tail);
	close(fd);
	if (r < 0) {
		/* Never leave a file cut short looking complete. */
		unlinkat(dir, leaf, 0);
		if (r != -EBADMSG && r != -EFBIG && !x->err[0])
			fs_error(x, "write", path, r);
		return r;
	}
	x->st->files++;
	return 0;
}

/* A hardlink becomes a copy of its target, if that is a regular file extracted already. */
static int extract_hardlink(struct extract *x, const char *path, const struct np_tar_member *m)
{
	char target[NP_TAR_MAX_PATH];
	const char *leaf;
	struct stat st;
	int dir, from, r;

	if (np_tar_clean_path(m->linkpath, target, sizeof(target)) != 0)
		goto skipped;
	dir = parent_dir(x, target, &leaf);
	if (dir == -EFBIG)
		return dir;
	if (dir < 0)
		goto skipped;
	from = openat(dir, leaf, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (from < 0)
		goto skipped;
	if (fstat(from, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(from);
		goto skipped;
	}
	r = extract_file(x, path, from, (uint64_t)st.st_size, np_tar_padded(m->data));
	close(from);
	return r;
skipped:
	x->st->skipped_type++;
	return skip(x, np_tar_padded(m->data));
}

static int extract_dir(struct extract *x, const char *path)
{
	const char *leaf;
	struct stat st;
	int dir, r;

	dir = parent_dir(x, path, &leaf);
	if (dir == -ELOOP)
		goto refused;
	if (dir < 0)
		return fs_error(x, "create", path, dir);
	if (fstatat(dir, leaf, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		/* Listed twice, or created already as a parent: fine. Anything else is a clash. */
		if (S_ISDIR(st.st_mode))
			return 0;
		goto refused;
	}
	r = np_tarx_dir_room(x, path);
	if (r < 0)
		return r;
	if (mkdirat(dir, leaf, 0700) < 0)
		return fs_error(x, "create", path, -errno);
	np_tarx_dir_made(x);
	return 0;
refused:
	x->st->refused_path++;
	return 0;
}

static int extract_symlink(struct extract *x, const char *path, const char *target)
{
	const char *leaf;
	int dir, r;

	/* Where it points is not checked: nothing here follows it, and --root readers confine
	 * every lookup to the tree themselves. */
	if (!*target)
		goto refused;
	dir = parent_dir(x, path, &leaf);
	if (dir == -ELOOP)
		goto refused;
	if (dir < 0)
		return fs_error(x, "create", path, dir);
	r = np_tarx_disk_room(x, path, 0);
	if (r < 0)
		return r;
	if (symlinkat(target, dir, leaf) < 0) {
		/* Never replace what is there: an earlier member decided it. A target longer
		 * than the kernel takes is the archive's problem, not a reason to stop. */
		if (errno == EEXIST || errno == ENAMETOOLONG)
			goto refused;
		return fs_error(x, "create", path, -errno);
	}
	x->st->symlinks++;
	x->st->disk += NP_TAR_DISK_BLOCK;
	return 0;
refused:
	x->st->refused_path++;
	return 0;
}

static int member(struct extract *x)
{
	const struct np_tar_member *m = &x->p.m;
	uint64_t padded = np_tar_padded(m->data);
	char path[NP_TAR_MAX_PATH];
	int r;

	x->st->members++;
	if (x->lim && x->lim->max_members && x->st->members > x->lim->max_members) {
		char v[48];

		snprintf(v, sizeof(v), "%zu members", x->lim->max_members);
		return np_tarx_cap_hit(x, "member-count", v, m->path);
	}
	r = np_tar_clean_path(m->path, path, sizeof(path));
	if (r == 1 && m->type == NP_TAR_DIR)
		return skip(x, padded);		/* "./", the archive's top: dirfd itself */
	if (r != 0) {
		x->st->refused_path++;
		return skip(x, padded);
	}
	if (x->want && !x->want(path, x->arg)) {
		x->st->skipped_unwanted++;
		return skip(x, padded);
	}
	switch (m->type) {
	case NP_TAR_FILE:
		/* Bigger than the reader would ever read (a sosreport's journal): not written,
		 * only its data consumed, which max_inflated bounds. */
		if (x->lim && x->lim->skip_over && m->data > x->lim->skip_over) {
			x->st->skipped_big++;
			return skip(x, padded);
		}
		return extract_file(x, path, -1, m->data, padded - m->data);
	case NP_TAR_DIR:
		r = extract_dir(x, path);
		break;
	case NP_TAR_SYMLINK:
		r = extract_symlink(x, path, m->linkpath);
		break;
	case NP_TAR_HARDLINK:
		return extract_hardlink(x, path, m);
	default:
		/* Devices, FIFOs, sockets: never created from an archive. */
		x->st->skipped_type++;
		r = 0;
		break;
	}
	return r < 0 ? r : skip(x, padded);
}

int np_tar_extract(int archive_fd, int dirfd, const struct np_tar_limits *lim,
		   np_tar_want_fn want, void *arg, struct np_tar_stats *st,
		   char *err, size_t errlen)
{
	static char dummy[1];
	struct extract *x;
	uint8_t blk[NP_TAR_BLOCK];
	int r = 0;

	if (!err || !errlen) {
		err = dummy;
		errlen = sizeof(dummy);
	}
	err[0] = '\0';
	if (st)
		memset(st, 0, sizeof(*st));
	if (archive_fd < 0 || dirfd < 0) {
		snprintf(err, errlen, "bad file descriptor");
		return -EBADF;
	}
	x = calloc(1, sizeof(*x));
	if (!x) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	x->root = dirfd;
	x->parent_fd = -1;
	x->lim = lim;
	x->want = want;
	x->arg = arg;
	x->st = st ? st : &x->own;
	x->err = err;
	x->errlen = errlen;
	np_tar_parser_init(&x->p);
	x->src = np_tar_source_open(archive_fd, &r, err, errlen);
	while (x->src) {
		ssize_t got = read_full(x, blk, sizeof(blk));

		if (got < 0) {
			r = (int)got;
			break;
		}
		if ((size_t)got < sizeof(blk)) {
			r = np_tar_parse_eof(&x->p, (size_t)got, err, errlen);
			break;
		}
		/* Compressed, but something else inside: say so rather than "bad checksum". */
		if (x->p.offset == 0 && strcmp(np_tar_source_kind(x->src), "none") &&
		    !np_tar_is_header(blk) && blk[0]) {
			snprintf(err, errlen, "%s-compressed, but not a tar archive inside",
				 np_tar_source_kind(x->src));
			r = -EBADMSG;
			break;
		}
		r = np_tar_parse_block(&x->p, blk, err, errlen);
		if (r < 0)
			break;
		if (r == NP_TAR_END) {
			r = 0;
			break;
		}
		if (r == NP_TAR_MEMBER) {
			r = member(x);
			if (r < 0)
				break;
			np_tar_parse_skip(&x->p, np_tar_padded(x->p.m.data));
		}
	}
	if (r < 0 && !err[0])
		snprintf(err, errlen, "%s", strerror(-r));
	np_tar_source_close(x->src);
	np_tar_parser_free(&x->p);
	if (x->parent_fd >= 0)
		close(x->parent_fd);
	free(x);
	return r;
}
