// SPDX-License-Identifier: GPL-2.0-only
/* --root: a tree, a capture or a sosreport, unpacked first when it is an archive. */
#include "root.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collect.h"
#include "fsrec.h"
#include "overlay.h"
#include "ktape.h"
#include "parse.h"
#include "snapshot.h"
#include "scratch.h"
#include "sos.h"
#include "tar.h"

static bool has(int dfd, const char *name)
{
	struct stat st;

	return fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

/* An archive of a tree usually holds one top directory (sosreport-host-date/, capture/): the
 * tree is that directory (its name in rel) when the top itself has nothing of one. Only a real
 * directory: d_type tells a symlink apart, and it is opened with O_NOFOLLOW later. */
static void descend_single(const char *dir, char *rel, size_t size)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
	char only[NAME_MAX + 1] = "";
	struct dirent *e;
	int n = 0;
	DIR *d;

	if (dfd < 0)
		return;
	if (has(dfd, "proc") || has(dfd, "sys") || has(dfd, NP_CAPTURE_META) ||
	    has(dfd, "sos_commands") || !(d = fdopendir(dfd))) {
		close(dfd);
		return;
	}
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			n++;
			if (e->d_type == DT_DIR)
				snprintf(only, sizeof(only), "%s", e->d_name);
			else
				only[0] = '\0';
		}
	closedir(d);
	if (n == 1 && only[0] && strlen(only) < size)
		snprintf(rel, size, "%s", only);
}

/* Unpack into a new scratch directory, in memory or on disk; the tar error, why says why. */
static int extract_into_scratch(struct np_root *r, int fd, bool memory,
				const struct np_tar_limits *lim, char *why, size_t whylen)
{
	struct np_tar_stats st;
	int dfd, e;

	e = memory ? np_scratch_dir_mem(r->scratch, sizeof(r->scratch), lim->max_total)
		   : np_scratch_dir(r->scratch, sizeof(r->scratch));
	if (e < 0) {
		if (!memory)
			snprintf(why, whylen, "cannot make a directory to unpack it into: %s",
				 strerror(-e));
		r->scratch[0] = '\0';
		return e;
	}
	dfd = open(r->scratch, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
	if (dfd < 0) {
		e = -errno;
		snprintf(why, whylen, "cannot open the directory it unpacks into: %s",
			 strerror(errno));
		return e;
	}
	e = np_tar_extract(fd, dfd, lim, NULL, NULL, &st, why, whylen);
	close(dfd);
	return e;
}

/*
 * A small archive (a capture: about 1 MiB unpacked) is unpacked in memory: on a disk file
 * system creating and removing its ~600 files costs 15-20 times the CPU of a live doctor
 * pass (bench/results/root_capture_cost.md), on a tmpfs next to nothing. With a cap of its
 * own, so that memory is never where a big one goes; one that reaches it, or fills the tmpfs,
 * is unpacked again on disk.
 */
static bool small_archive(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size <= NP_ROOT_MEM_ARCHIVE;
}

static int unpack(struct np_root *r, int fd, char *err, size_t errlen)
{
	struct np_tar_limits lim = {
		.max_inflated = NP_ROOT_MAX_INFLATED, .max_members = NP_ROOT_MAX_MEMBERS,
		.max_dirs = NP_ROOT_MAX_DIRS, .max_total = NP_ROOT_MEM_DISK,
		.skip_over = NP_ROOT_SKIP_OVER,
	};
	char why[256] = "";
	int e = -ENOENT;

	if (small_archive(fd)) {
		e = extract_into_scratch(r, fd, true, &lim, why, sizeof(why));
		if ((e == -EFBIG || e == -ENOSPC) && lseek(fd, 0, SEEK_SET) == 0) {
			np_scratch_remove(r->scratch);
			r->scratch[0] = '\0';
			e = -ENOENT;
		}
	}
	if (e == -ENOENT && !r->scratch[0]) {
		lim.max_total = NP_ROOT_MAX_DISK;
		why[0] = '\0';
		e = extract_into_scratch(r, fd, false, &lim, why, sizeof(why));
	}
	if (e == -EFBIG) {
		/* The caps guard against hostile archives; a real one this big is unpacked by
		 * hand, and a directory is read without them. */
		snprintf(err, errlen, "%s: %s; to read an archive this big, unpack it (tar xf) and "
			 "name the directory instead", r->shown, why);
		return -1;
	}
	if (e < 0) {
		snprintf(err, errlen, "%s: %s", r->shown, why[0] ? why : strerror(-e));
		return -1;
	}
	snprintf(r->top, sizeof(r->top), "%s", r->scratch);
	descend_single(r->scratch, r->dir_rel, sizeof(r->dir_rel));
	/* Shown only (opened through top and dir_rel); the scratch path is short. */
	snprintf(r->dir, sizeof(r->dir), "%.*s%s%s", (int)(sizeof(r->dir) - sizeof(r->dir_rel) - 2),
		 r->scratch, r->dir_rel[0] ? "/" : "", r->dir_rel);
	return 0;
}

static int read_small(int dfd, const char *name, char *buf, size_t size)
{
	int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	struct stat st;
	ssize_t n;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return (int)n;
}

/*
 * Open rel (relative, "" for top itself) beneath top one directory at a time with O_NOFOLLOW:
 * top may be a link (the user named it), nothing below it may be. An fd or -errno; -ELOOP for
 * a symlink on the way.
 */
static int open_beneath_top(const char *top, const char *rel)
{
	int fd = open(top, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	const char *p = rel;

	if (fd < 0)
		return -errno;
	while (*p) {
		char name[NAME_MAX + 1];
		size_t len = strcspn(p, "/");
		int sub;

		if (len == 0 || len > NAME_MAX) {
			close(fd);
			return -EINVAL;
		}
		memcpy(name, p, len);
		name[len] = '\0';
		p += len + (p[len] == '/');
		sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0) {
			struct stat st;
			int e = errno;

			/* O_NOFOLLOW|O_DIRECTORY on a link says ELOOP or ENOTDIR: say which. */
			if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
				e = ELOOP;
			close(fd);
			return -e;
		}
		close(fd);
		fd = sub;
	}
	return fd;
}

static int append_rel(char *rel, size_t size, const char *base, const char *name)
{
	int n = snprintf(rel, size, "%s%s%s", base, base[0] ? "/" : "", name);

	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

/* A sample member of a capture: 1 a directory of it, 0 absent, -1 refused (err said why). */
static int sample_member(int dfd, const char *name, const struct np_root *r, char *err,
			 size_t errlen)
{
	struct stat st;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return 0;
	if (S_ISDIR(st.st_mode))
		return 1;
	snprintf(err, errlen, "%s: %s is %s, not a sample directory of the capture: refused",
		 r->shown, name, S_ISLNK(st.st_mode) ? "a symbolic link" : "not a directory");
	return -1;
}

/* A capture: META names the format; the samples are s1 (first) and s2 (last). */
static int open_capture(struct np_root *r, char *err, size_t errlen)
{
	int dfd = open_beneath_top(r->top, r->dir_rel);
	char meta[4096], top[PATH_MAX], rel[sizeof(r->dir_rel)];
	int n, s1, s2;

	if (dfd < 0)
		return 0;	/* check_sample() will say why */
	n = read_small(dfd, NP_CAPTURE_META, meta, sizeof(meta));
	if (n < 0) {
		close(dfd);
		return 0;	/* not a capture: a plain tree or a sosreport */
	}
	if (np_capture_meta_parse(meta, (size_t)n, r) < 0) {
		close(dfd);
		snprintf(err, errlen, "%s: %s is not a netpath capture this version reads "
			 "(want \"format: %s\")", r->shown, NP_CAPTURE_META, NP_CAPTURE_FORMAT);
		return -1;
	}
	s1 = sample_member(dfd, "s1", r, err, errlen);
	s2 = s1 < 0 ? -1 : sample_member(dfd, "s2", r, err, errlen);
	close(dfd);
	if (s1 < 0 || s2 < 0)
		return -1;
	if (!s1) {
		snprintf(err, errlen, "%s: a capture without samples (no s1/)", r->shown);
		return -1;
	}
	snprintf(top, sizeof(top), "%s", r->dir);
	snprintf(rel, sizeof(rel), "%s", r->dir_rel);
	if ((s2 && (append_rel(r->dir_rel, sizeof(r->dir_rel), rel, "s2") < 0 ||
		    append_rel(r->before_rel, sizeof(r->before_rel), rel, "s1") < 0)) ||
	    (!s2 && append_rel(r->dir_rel, sizeof(r->dir_rel), rel, "s1") < 0)) {
		snprintf(err, errlen, "%.64s...: path too long", r->shown);
		return -1;
	}
	if (s2) {
		snprintf(r->dir, sizeof(r->dir), "%.*s/s2", (int)sizeof(r->dir) - 4, top);
		snprintf(r->before, sizeof(r->before), "%.*s/s1", (int)sizeof(r->before) - 4, top);
	} else {
		snprintf(r->dir, sizeof(r->dir), "%.*s/s1", (int)sizeof(r->dir) - 4, top);
	}
	r->capture = true;
	r->origin.kind = NP_ORIGIN_CAPTURE;
	return 0;
}

/*
 * The sample (or tree) at rel opens as a tree: not a link, and proc/, sys/, run/ beneath it.
 * Checked once here so that every command says the same one line; np_root_ctx_open() opens it
 * the same way again. 0, or -1 with the reason in err.
 */
/* A directory of `netpath record` segments (SEQ-WALLSEC.nprec): said as such, not as a tree
 * that lacks proc/. */
static bool holds_recording(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool found = false;

	while (d && !found && (e = readdir(d))) {
		size_t n = strlen(e->d_name);

		found = n > 6 && !strcmp(e->d_name + n - 6, ".nprec");
	}
	if (d)
		closedir(d);
	return found;
}

static int check_sample(const struct np_root *r, const char *rel, char *err, size_t errlen)
{
	const char *slash = strrchr(rel, '/'), *bad = NULL;
	char where[NAME_MAX + 8] = "";
	struct np_ctx ctx;
	int fd, e;

	/* The capture's own names ("s2/") in messages, not the scratch directory's. */
	if (r->capture)
		snprintf(where, sizeof(where), "%s/", slash ? slash + 1 : rel);
	fd = open_beneath_top(r->top, rel);
	if (fd < 0) {
		if (fd == -ELOOP)
			snprintf(err, errlen, "%s: %s is a symbolic link, not a directory of it: "
				 "refused", r->shown, where[0] ? where : rel);
		else
			snprintf(err, errlen, "cannot open %s: %s", r->shown, strerror(-fd));
		return -1;
	}
	e = np_ctx_open_dir(&ctx, fd, r->shown, &bad);
	close(fd);
	if (e == 0) {
		np_ctx_close(&ctx);
		return 0;
	}
	if (bad)
		snprintf(err, errlen, "%s: %s%s leads outside the tree (a symbolic link): refused",
			 r->shown, where, bad);
	else if ((e == -ENOENT || e == -ENOTDIR) && r->capture)
		snprintf(err, errlen, "%s: its sample %sholds no proc/ or sys/", r->shown, where);
	else if ((e == -ENOENT || e == -ENOTDIR) && holds_recording(r->top))
		snprintf(err, errlen, "%s is a recording of netpath record: judge a window of it "
			 "with --at TIME, or read it with netpath history", r->shown);
	else if (e == -ENOENT || e == -ENOTDIR)
		snprintf(err, errlen, "%s: not a capture, sosreport or tree of /proc and /sys: "
			 "no proc/ or sys/ inside", r->shown);
	else
		snprintf(err, errlen, "cannot open %s: %s", r->shown, strerror(-e));
	return -1;
}

_Static_assert(offsetof(struct np_root, before) == offsetof(struct np_root, dir) + PATH_MAX &&
	       offsetof(struct np_root, scratch) == offsetof(struct np_root, before) + PATH_MAX &&
	       offsetof(struct np_root, top) == offsetof(struct np_root, scratch) + PATH_MAX &&
	       offsetof(struct np_root, top) + PATH_MAX == sizeof(struct np_root),
	       "the path buffers np_root_clear leaves out are the root's last bytes");

void np_root_clear(struct np_root *r)
{
	memset(r, 0, offsetof(struct np_root, dir));
}

int np_root_resolve(struct np_root *r, const char *path, char *err, size_t errlen)
{
	struct stat st;
	int fd;

	memset(r, 0, sizeof(*r));
	r->resolved = true;	/* the buffers are empty strings now; np_root_release reads them */
	snprintf(r->shown, sizeof(r->shown), "%s", path);
	if (strlen(path) >= sizeof(r->dir)) {
		snprintf(err, errlen, "%.64s...: path too long", path);
		return -1;
	}
	/* O_NONBLOCK: a FIFO named here must not block the open. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 || fstat(fd, &st) < 0) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		snprintf(r->dir, sizeof(r->dir), "%s", path);
		snprintf(r->top, sizeof(r->top), "%s", path);
	} else if (S_ISREG(st.st_mode)) {
		int e = unpack(r, fd, err, errlen);

		close(fd);
		if (e < 0) {
			np_root_release(r);
			return -1;
		}
	} else {
		close(fd);
		snprintf(err, errlen, "%s is neither a directory nor an archive file", path);
		return -1;
	}
	r->origin.kind = NP_ORIGIN_TREE;
	if (open_capture(r, err, errlen) < 0 || check_sample(r, r->dir_rel, err, errlen) < 0 ||
	    (r->before[0] && check_sample(r, r->before_rel, err, errlen) < 0)) {
		np_root_release(r);
		return -1;
	}
	return 0;
}

void np_root_release(struct np_root *r)
{
	if (!r->resolved)
		return;
	if (r->scratch[0])
		np_scratch_remove(r->scratch);
	r->scratch[0] = '\0';
}

/* A --netns capture's host-wide sysctls, as stand-in files the ctx owns. */
static void load_host_sysctls(struct np_ctx *ctx, const char *text, size_t len)
{
	struct np_overlay *o = calloc(1, sizeof(*o));

	if (!o)
		return;
	np_host_sysctls_load(o, text, len);
	ctx->overlay = o;
	ctx->owns_overlay = true;
}

int np_root_ctx_open(struct np_ctx *ctx, const struct np_root *r, const char *dir)
{
	const char *rel = dir == r->before || (r->before[0] && !strcmp(dir, r->before)) ?
			  r->before_rel : dir == r->dir || !strcmp(dir, r->dir) ? r->dir_rel : NULL;
	char *buf;
	size_t len;
	int e, fd;

	memset(ctx, 0, sizeof(*ctx));
	ctx->proc_fd = ctx->sys_fd = ctx->top_fd = ctx->run_fd = -1;
	if (!rel)
		return -EINVAL;
	fd = open_beneath_top(r->top, rel);
	if (fd < 0)
		return fd;
	e = np_ctx_open_dir(ctx, fd, dir, NULL);
	close(fd);
	if (e < 0)
		return e;
	snprintf(ctx->root, sizeof(ctx->root), "%s", r->shown);
	ctx->origin = malloc(sizeof(*ctx->origin));
	if (!ctx->origin) {
		np_ctx_close(ctx);
		return -ENOMEM;
	}
	*ctx->origin = r->origin;
	ctx->page_size = r->page_size;
	if (!r->capture) {
		np_sos_detect(ctx);	/* a sosreport says so in its origin */
		return 0;
	}
	/* The sample's kernel answers and read errors; a sample without them replays as a
	 * kernel that answered nothing (every NIC source then says it was not captured). */
	ctx->tape = calloc(1, sizeof(*ctx->tape));
	ctx->rec = np_fsrec_new();
	if (!ctx->tape || !ctx->rec) {
		np_root_ctx_close(ctx);
		return -ENOMEM;
	}
	np_ktape_init(ctx->tape, false);
	if (np_read_file(ctx, NP_TOP, "kernel.tape", &buf, &len) == 0) {
		e = np_ktape_load(ctx->tape, buf, len);
		free(buf);
		if (e < 0) {
			np_root_ctx_close(ctx);
			return e;
		}
	}
	if (np_read_file(ctx, NP_TOP, "errors", &buf, &len) == 0) {
		np_fsrec_load_errors(ctx->rec, buf, len);
		free(buf);
	}
	if (np_read_file(ctx, NP_TOP, NP_CAPTURE_HOST_SYSCTLS, &buf, &len) == 0) {
		load_host_sysctls(ctx, buf, len);
		free(buf);
	}
	return 0;
}

void np_root_ctx_close(struct np_ctx *ctx)
{
	if (ctx->tape) {
		np_ktape_free(ctx->tape);
		free(ctx->tape);
	}
	np_fsrec_free(ctx->rec);
	if (ctx->owns_overlay && ctx->overlay) {
		np_overlay_free((struct np_overlay *)ctx->overlay);
		free((struct np_overlay *)ctx->overlay);
	}
	ctx->overlay = NULL;
	ctx->owns_overlay = false;
	ctx->tape = NULL;
	ctx->rec = NULL;
	np_ctx_close(ctx);
}

static void field(char *dst, size_t size, const char *v)
{
	size_t n = strlen(v);

	while (n && (v[n - 1] == ' ' || v[n - 1] == '\t' || v[n - 1] == '\r'))
		n--;
	if (n >= size)
		n = size - 1;
	/* Shown on terminals: control bytes from a hostile capture become '?'. */
	for (size_t i = 0; i < n; i++)
		dst[i] = (unsigned char)v[i] < 0x20 || v[i] == 0x7f ? '?' : v[i];
	dst[n] = '\0';
}

int np_capture_meta_parse(const char *text, size_t len, struct np_root *r)
{
	bool format = false;
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char line[600], *colon, *v;

		if (l < sizeof(line)) {
			memcpy(line, p, l);
			line[l] = '\0';
			colon = strchr(line, ':');
			if (colon) {
				*colon = '\0';
				for (v = colon + 1; *v == ' ' || *v == '\t'; v++)
					;
				if (strcmp(line, "format") == 0) {
					char f[64];

					field(f, sizeof(f), v);
					format = strcmp(f, NP_CAPTURE_FORMAT) == 0;
				} else if (strcmp(line, "netpath") == 0) {
					char ver[24];

					/* "netpath 0.1.0", as a sosreport's is "sos 4.0". */
					field(ver, sizeof(ver), v);
					snprintf(r->origin.tool_version,
						 sizeof(r->origin.tool_version), "netpath %s", ver);
				} else if (strcmp(line, "hostname") == 0) {
					field(r->origin.hostname, sizeof(r->origin.hostname), v);
				} else if (strcmp(line, "kernel") == 0) {
					field(r->origin.kernel, sizeof(r->origin.kernel), v);
				} else if (strcmp(line, "taken") == 0) {
					field(r->origin.taken, sizeof(r->origin.taken), v);
				} else if (strcmp(line, "lacks") == 0) {
					field(r->origin.lacks, sizeof(r->origin.lacks), v);
				} else if (strcmp(line, "interfaces") == 0) {
					field(r->interfaces, sizeof(r->interfaces), v);
				} else if (strcmp(line, "page_size") == 0) {
					long ps = strtol(v, NULL, 10);

					/* Powers of two from 4 KiB to 1 MiB are page sizes. */
					r->page_size = ps >= 4096 && ps <= (1 << 20) && !(ps & (ps - 1)) ?
						       (unsigned)ps : 0;
				} else if (strcmp(line, "interval") == 0) {
					double d = strtod(v, NULL);

					r->interval = d > 0 && d < 1e6 ? d : 0;
				}
			}
		}
		p += l + 1;
	}
	return format ? 0 : -EINVAL;
}
