// SPDX-License-Identifier: GPL-2.0-only
/* The file recorder of `netpath capture`: what the collectors read, at its real place. */
#include "fsrec.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_HOPS 40		/* symbolic links followed per path, as the kernel's ELOOP */
#define MAX_MEMBERS 200000u	/* /proc has one directory per process: bounded all the same */

struct member {
	char *path;		/* "sys/devices/.../net/eth0/mtu" */
	char type;		/* 'f', 'd', 'l', or 'e' (an error, path as asked) */
	bool placeholder;	/* a listed file never read: content may still come */
	char *data;		/* content or link target */
	size_t len;
	int err;
};

struct np_fsrec {
	struct member *m;	/* open addressing, path hashed */
	size_t cap, n;
	size_t bytes;
};

static const char *tree_name(enum np_tree t)
{
	return t == NP_PROC ? "proc" : t == NP_SYS ? "sys" : t == NP_RUN ? "run" : "top";
}

struct np_fsrec *np_fsrec_new(void)
{
	return calloc(1, sizeof(struct np_fsrec));
}

void np_fsrec_free(struct np_fsrec *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->cap; i++) {
		free(r->m[i].path);
		free(r->m[i].data);
	}
	free(r->m);
	free(r);
}

static uint64_t hash(const char *s, char type)
{
	uint64_t h = 1469598103934665603ull ^ (uint64_t)(type == 'e');

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* Errors live beside the members under the path asked; the rest under their real path. */
static struct member *slot(struct np_fsrec *r, const char *path, char type, bool create)
{
	size_t i;

	if (create && (r->n + 1) * 2 > r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 1024;
		struct member *m;

		if (r->n >= MAX_MEMBERS || !(m = calloc(cap, sizeof(*m))))
			return NULL;
		for (size_t j = 0; j < r->cap; j++) {
			if (!r->m[j].path)
				continue;
			for (i = hash(r->m[j].path, r->m[j].type) & (cap - 1); m[i].path;
			     i = (i + 1) & (cap - 1))
				;
			m[i] = r->m[j];
		}
		free(r->m);
		r->m = m;
		r->cap = cap;
	}
	if (!r->cap)
		return NULL;
	for (i = hash(path, type) & (r->cap - 1); r->m[i].path; i = (i + 1) & (r->cap - 1))
		if ((r->m[i].type == 'e') == (type == 'e') && strcmp(r->m[i].path, path) == 0)
			return &r->m[i];
	if (!create || !(r->m[i].path = strdup(path)))
		return NULL;
	r->m[i].type = type;
	r->m[i].placeholder = true;
	r->n++;
	return &r->m[i];
}

static void put(struct np_fsrec *r, const char *path, char type, const void *data, size_t len)
{
	struct member *m = slot(r, path, type, true);
	char *copy;

	/* A read replaces a listing's placeholder; the first read of a file is kept (the
	 * collectors read a file once per sample; a second read would only move counters). */
	if (!m || !m->placeholder)
		return;
	if (type == 'd' || (type == 'f' && !data)) {
		m->type = type;
		return;		/* still a placeholder: content may come */
	}
	copy = malloc(len + 1);
	if (!copy)
		return;
	memcpy(copy, data, len);
	copy[len] = '\0';
	free(m->data);
	m->data = copy;
	m->len = len;
	m->type = type;
	m->placeholder = false;
	r->bytes += len;
}

/* snprintf(dst, size, "%s%s%s", a, b, c) without the format machinery (a capture resolves
 * thousands of path components): false when the result would not fit. */
static bool join3(char *dst, size_t size, const char *a, const char *b, const char *c)
{
	size_t la = strlen(a), lb = strlen(b), lc = strlen(c);

	if (la + lb + lc >= size)
		return false;
	memcpy(dst, a, la);
	memcpy(dst + la, b, lb);
	memcpy(dst + la + lb, c, lc + 1);
	return true;
}

/*
 * The real place of path in the live tree, as "proc/..." or "sys/...", recording each symbolic
 * link on the way. keep_last: the last component is itself wanted as a link (a readlink).
 * -ELOOP, -ENAMETOOLONG, or -EXDEV for an absolute target (not kept in a capture).
 */
static int real_path(struct np_fsrec *r, int dfd, enum np_tree t, const char *path,
		     bool keep_last, char *out, size_t size)
{
	char rest[PATH_MAX], cur[PATH_MAX], cand[PATH_MAX], target[PATH_MAX];
	int hops = 0;

	cur[0] = '\0';
	if (!join3(rest, sizeof(rest), path, "", ""))
		return -ENAMETOOLONG;
	while (rest[0]) {
		char *slash = strchr(rest, '/'), comp[NAME_MAX + 1];
		size_t clen = slash ? (size_t)(slash - rest) : strlen(rest);
		bool last;
		struct stat st;
		ssize_t n;

		if (clen > NAME_MAX)
			return -ENAMETOOLONG;
		memcpy(comp, rest, clen);
		comp[clen] = '\0';
		memmove(rest, slash ? slash + 1 : rest + clen, strlen(slash ? slash + 1 : "") + 1);
		last = rest[0] == '\0';
		if (!clen || strcmp(comp, ".") == 0)
			continue;
		if (strcmp(comp, "..") == 0) {
			char *up = strrchr(cur, '/');

			if (up)
				*up = '\0';
			else
				cur[0] = '\0';	/* never above the tree's top */
			continue;
		}
		if (!join3(cand, sizeof(cand), cur, cur[0] ? "/" : "", comp))
			return -ENAMETOOLONG;
		if ((last && keep_last) || fstatat(dfd, cand, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISLNK(st.st_mode)) {
			memcpy(cur, cand, strlen(cand) + 1);	/* not all PATH_MAX bytes */
			continue;
		}
		n = readlinkat(dfd, cand, target, sizeof(target) - 1);
		if (n < 0)
			return -errno;
		target[n] = '\0';
		if (target[0] == '/' || ++hops > MAX_HOPS)
			return target[0] == '/' ? -EXDEV : -ELOOP;
		{
			char full[PATH_MAX + 8];

			if (snprintf(full, sizeof(full), "%s/%s", tree_name(t), cand) >=
			    (int)sizeof(full))
				return -ENAMETOOLONG;
			put(r, full, 'l', target, (size_t)n);
		}
		/* Go on from the link's directory with its target, then what was left. */
		{
			char joined[2 * PATH_MAX];

			if (snprintf(joined, sizeof(joined), "%s%s%s", target, rest[0] ? "/" : "",
				     rest) >= (int)sizeof(rest))
				return -ENAMETOOLONG;
			memcpy(rest, joined, sizeof(rest));
		}
	}
	return join3(out, size, tree_name(t), cur[0] ? "/" : "", cur) ? 0 : -ENAMETOOLONG;
}

static int tree_fd(const struct np_ctx *ctx, enum np_tree t)
{
	return t == NP_PROC ? ctx->proc_fd : t == NP_SYS ? ctx->sys_fd :
	       t == NP_RUN ? ctx->run_fd : -1;
}

void np_fsrec_content(struct np_fsrec *r, const struct np_ctx *ctx, enum np_tree t,
		      const char *path, const void *data, size_t len)
{
	char where[PATH_MAX];

	if (tree_fd(ctx, t) >= 0 &&
	    real_path(r, tree_fd(ctx, t), t, path, false, where, sizeof(where)) == 0)
		put(r, where, 'f', data ? data : "", len);
}

/* The entries of a directory just opened: links as links, directories as directories, files as
 * placeholders. fd is the caller's; a second descriptor is walked so its position stays. */
static void listing(struct np_fsrec *r, const char *where, int fd)
{
	int lfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dirent *e;
	DIR *d;

	if (lfd < 0)
		return;
	d = fdopendir(lfd);
	if (!d) {
		close(lfd);
		return;
	}
	while ((e = readdir(d))) {
		char path[PATH_MAX], target[PATH_MAX];
		ssize_t n;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", where, e->d_name) >= (int)sizeof(path))
			continue;
		if (e->d_type == DT_LNK) {
			n = readlinkat(lfd, e->d_name, target, sizeof(target) - 1);
			if (n >= 0 && target[0] != '/')
				put(r, path, 'l', target, (size_t)n);
		} else if (e->d_type == DT_DIR) {
			put(r, path, 'd', NULL, 0);
		} else {
			put(r, path, 'f', NULL, 0);
		}
	}
	closedir(d);
}

void np_fsrec_opened(struct np_fsrec *r, const struct np_ctx *ctx, enum np_tree t,
		     const char *path, int fd, int flags)
{
	char where[PATH_MAX];
	struct stat st;
	int dfd = tree_fd(ctx, t);

	if (dfd < 0 || fstat(fd, &st) < 0 ||
	    real_path(r, dfd, t, path, false, where, sizeof(where)) < 0)
		return;
	if (S_ISDIR(st.st_mode)) {
		put(r, where, 'd', NULL, 0);
		if (!(flags & O_PATH))
			listing(r, where, fd);
		return;
	}
	if (!S_ISREG(st.st_mode))
		return;
	if (flags & O_PATH) {
		put(r, where, 'f', NULL, 0);
		return;
	}
	/* Opened to be read by the caller itself (PCI config space): keep the whole file, read
	 * through a descriptor of our own so the caller's position is untouched. */
	{
		char buf[8192];
		int rfd = openat(dfd, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		ssize_t n;

		if (rfd < 0)
			return;
		n = pread(rfd, buf, sizeof(buf), 0);
		close(rfd);
		if (n >= 0)
			put(r, where, 'f', buf, (size_t)n);
	}
}

void np_fsrec_link(struct np_fsrec *r, const struct np_ctx *ctx, enum np_tree t,
		   const char *path)
{
	char where[PATH_MAX], target[PATH_MAX];
	int dfd = tree_fd(ctx, t);
	ssize_t n;

	if (dfd < 0 || real_path(r, dfd, t, path, true, where, sizeof(where)) < 0)
		return;
	n = readlinkat(dfd, where + strlen(tree_name(t)) + 1, target, sizeof(target) - 1);
	if (n >= 0 && target[0] != '/')
		put(r, where, 'l', target, (size_t)n);
}

void np_fsrec_error(struct np_fsrec *r, enum np_tree t, const char *path, int err)
{
	char asked[PATH_MAX];
	struct member *m;

	/* Absence replays by itself: the capture has no such file. */
	if (err == -ENOENT || err == -ENOTDIR || t == NP_TOP || t == NP_ROOTFS || err >= 0)
		return;
	if (snprintf(asked, sizeof(asked), "%s/%s", tree_name(t), path) >= (int)sizeof(asked))
		return;
	m = slot(r, asked, 'e', true);
	if (m) {
		m->err = -err;
		m->placeholder = false;
	}
}

static int by_path(const void *a, const void *b)
{
	const struct member *const *x = a, *const *y = b;

	return strcmp((*x)->path, (*y)->path);
}

int np_fsrec_emit(const struct np_fsrec *r, np_fsrec_emit_fn fn, void *arg)
{
	struct member **v = malloc((r->n ? r->n : 1) * sizeof(*v));
	char *errs = NULL;
	size_t n = 0, elen = 0;
	FILE *ef;
	int ret = 0;

	if (!v)
		return -ENOMEM;
	ef = open_memstream(&errs, &elen);
	if (!ef) {
		free(v);
		return -ENOMEM;
	}
	for (size_t i = 0; i < r->cap; i++)
		if (r->m[i].path)
			v[n++] = &r->m[i];
	qsort(v, n, sizeof(*v), by_path);
	for (size_t i = 0; i < n && !ret; i++) {
		const struct member *m = v[i];

		if (m->type == 'e') {
			const char *slash = strchr(m->path, '/');

			fprintf(ef, "%.*s\t%s\t%d\n", (int)(slash - m->path), m->path, slash + 1,
				m->err);
			continue;
		}
		ret = fn(arg, m->type, m->path, m->data ? m->data : "", m->data ? m->len : 0);
	}
	fclose(ef);
	if (!ret)
		ret = fn(arg, 'f', "errors", errs ? errs : "", errs ? elen : 0);
	free(errs);
	free(v);
	return ret;
}

void np_fsrec_counts(const struct np_fsrec *r, size_t *members, size_t *errors, size_t *bytes)
{
	*members = *errors = 0;
	for (size_t i = 0; i < r->cap; i++)
		if (r->m[i].path)
			(*(r->m[i].type == 'e' ? errors : members))++;
	*bytes = r->bytes;
}

int np_fsrec_load_errors(struct np_fsrec *r, const char *text, size_t len)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char line[PATH_MAX + 32], tree[8], path[PATH_MAX];
		int err;

		if (l < sizeof(line)) {
			memcpy(line, p, l);
			line[l] = '\0';
			if (sscanf(line, "%7[a-z]\t%4095[^\t]\t%d", tree, path, &err) == 3 &&
			    err > 0 && err < 4096 &&
			    (strcmp(tree, "proc") == 0 || strcmp(tree, "sys") == 0 ||
			     strcmp(tree, "run") == 0)) {
				enum np_tree t = tree[0] == 'p' ? NP_PROC :
						 tree[0] == 's' ? NP_SYS : NP_RUN;

				np_fsrec_error(r, t, path, -err);
			}
		}
		p += l + 1;
	}
	return 0;
}

int np_fsrec_error_of(const struct np_fsrec *r, enum np_tree t, const char *path)
{
	char asked[PATH_MAX];
	const struct member *m;

	if (!r->n || t == NP_TOP || t == NP_ROOTFS ||
	    snprintf(asked, sizeof(asked), "%s/%s", tree_name(t), path) >= (int)sizeof(asked))
		return 0;
	m = slot((struct np_fsrec *)r, asked, 'e', false);
	return m ? -m->err : 0;
}
