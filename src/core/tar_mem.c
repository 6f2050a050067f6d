// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unpacking an archive into a table in memory (tar_mem.h): the member rules of tar_read.c,
 * decision for decision, with the table standing for the scratch directory, so that the
 * syscalls of a disk unpack (an open, a write and an unlink per member) are not paid.
 */
#include "tar_mem.h"
#include "tar_extract.h"
#include "log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct load {
	struct extract x;	/* the caps (tar_caps.c) and the stream; x.root unused */
	struct np_tmem *t;
	/* The parent directory of the last member, known to be one: archives list a directory's
	 * files together, so most members skip the walk (as tar_read.c's parent_dir() does). */
	char parent[NP_TAR_MAX_PATH];
	size_t parent_len;
	bool have_parent;
};

static size_t hash(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)s[i]) * 1099511628211ull;
	return (size_t)h;
}

/* The slot holding path (first n bytes), or the empty one where it would go. */
static size_t *find_slot(const struct np_tmem *t, const char *path, size_t n)
{
	size_t i = hash(path, n) & (t->nslot - 1);

	for (;; i = (i + 1) & (t->nslot - 1)) {
		size_t k = t->slot[i];

		/* strncmp: an entry's path may be shorter than n (memcmp would read past it). */
		if (!k || (!strncmp(t->e[k - 1].path, path, n) && t->e[k - 1].path[n] == '\0'))
			return &t->slot[i];
	}
}

static struct np_tmem_entry *get_n(const struct np_tmem *t, const char *path, size_t n)
{
	size_t k;

	if (!t->nslot)
		return NULL;
	k = *find_slot(t, path, n);
	return k ? &t->e[k - 1] : NULL;
}

const struct np_tmem_entry *np_tmem_get(const struct np_tmem *t, const char *path)
{
	return get_n(t, path, strlen(path));
}

static int grow(struct np_tmem *t)
{
	size_t nslot = t->nslot ? t->nslot * 2 : 256, *slot;

	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 128;
		struct np_tmem_entry *e = realloc(t->e, cap * sizeof(*e));

		if (!e)
			return -ENOMEM;
		t->e = e;
		t->cap = cap;
	}
	if ((t->n + 1) * 2 <= t->nslot)
		return 0;
	slot = calloc(nslot, sizeof(*slot));
	if (!slot)
		return -ENOMEM;
	free(t->slot);
	t->slot = slot;
	t->nslot = nslot;
	for (size_t k = 0; k < t->n; k++)
		*find_slot(t, t->e[k].path, strlen(t->e[k].path)) = k + 1;
	return 0;
}

/* A new entry for the first n bytes of path (absent from the table): it, or NULL (ENOMEM). */
static struct np_tmem_entry *add(struct np_tmem *t, const char *path, size_t n,
				 enum np_tmem_kind kind)
{
	struct np_tmem_entry *e;

	if (grow(t) < 0)
		return NULL;
	e = &t->e[t->n];
	memset(e, 0, sizeof(*e));
	e->path = strndup(path, n);
	if (!e->path)
		return NULL;
	e->kind = kind;
	*find_slot(t, path, n) = ++t->n;
	return e;
}

/*
 * The parents of path made as directories where absent (counted as tar_read.c's parent_dir()
 * counts them): 0, -ELOOP when one is a file or a symlink (refused), -EFBIG or -ENOMEM.
 */
static int parents(struct load *l, const char *path)
{
	const char *s = path, *slash, *leaf = strrchr(path, '/');
	size_t plen = leaf ? (size_t)(leaf - path) : 0;

	if (!leaf)
		return 0;
	/* A directory entry is never replaced: a parent once checked stays one. */
	if (l->have_parent && plen == l->parent_len && !memcmp(l->parent, path, plen))
		return 0;
	while ((slash = strchr(s, '/'))) {
		size_t n = (size_t)(slash - path);
		struct np_tmem_entry *e = get_n(l->t, path, n);

		if (e && e->kind != NP_TMEM_DIR)
			return -ELOOP;
		if (!e) {
			int r = np_tarx_dir_room(&l->x, path);

			if (r < 0)
				return r;
			if (!add(l->t, path, n, NP_TMEM_DIR))
				return -ENOMEM;
			np_tarx_dir_made(&l->x);
		}
		s = slash + 1;
	}
	memcpy(l->parent, path, plen);
	l->parent_len = plen;
	l->have_parent = true;
	return 0;
}

/* Exactly len bytes of the stream (fewer only at its end), under the decompressed-size cap. */
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

/* A regular file of size bytes: read from the stream (from NULL) or a copy of from (a
 * hardlink); tail archive bytes consumed after it. */
static int put_file(struct load *l, const char *path, const char *from, uint64_t size,
		    uint64_t tail)
{
	struct extract *x = &l->x;
	struct np_tmem_entry *e;
	char *data;
	int r = np_tarx_check_size(x, path, size);

	if (r < 0)
		return r;
	r = parents(l, path);
	e = r == 0 ? get_n(l->t, path, strlen(path)) : NULL;
	if (r == -ELOOP || (e && e->kind != NP_TMEM_FILE)) {
		x->st->refused_path++;
		return skip(x, from ? tail : size + tail);
	}
	if (r < 0)
		return r;
	if ((size_t)size != size || !(data = malloc((size_t)size + 1)))
		return -ENOMEM;
	/* Counted before the data is read, as the disk unpack counts the file it created. */
	x->st->disk += np_tarx_blocks_of(size);
	if (from) {
		memcpy(data, from, (size_t)size);
	} else {
		ssize_t got = read_full(x, data, (size_t)size);

		if (got < 0 || (uint64_t)got < size) {
			free(data);
			return got < 0 ? (int)got : np_tar_parse_eof(&x->p, 0, x->err, x->errlen);
		}
	}
	data[size] = '\0';
	/* A member listed twice: the later one, as tar (and the disk unpack) does. */
	if (!e && !(e = add(l->t, path, strlen(path), NP_TMEM_FILE))) {
		free(data);
		return -ENOMEM;
	}
	free(e->data);
	e->data = data;
	e->len = (size_t)size;
	x->st->files++;
	x->st->bytes += size;
	return skip(x, tail);
}

static int put_hardlink(struct load *l, const char *path, const struct np_tar_member *m)
{
	char target[NP_TAR_MAX_PATH];
	const struct np_tmem_entry *from;
	int r;

	if (np_tar_clean_path(m->linkpath, target, sizeof(target)) != 0)
		goto skipped;
	/* The disk unpack makes the target's parents on its way to it: so does this. */
	r = parents(l, target);
	if (r == -EFBIG || r == -ENOMEM)
		return r;
	from = r == 0 ? get_n(l->t, target, strlen(target)) : NULL;
	if (!from || from->kind != NP_TMEM_FILE)
		goto skipped;
	return put_file(l, path, from->data, from->len, np_tar_padded(m->data));
skipped:
	l->x.st->skipped_type++;
	return skip(&l->x, np_tar_padded(m->data));
}

static int put_dir(struct load *l, const char *path)
{
	const struct np_tmem_entry *e;
	int r = parents(l, path);

	if (r == -ELOOP)
		goto refused;
	if (r < 0)
		return r;
	e = get_n(l->t, path, strlen(path));
	if (e)
		return e->kind == NP_TMEM_DIR ? 0 : (l->x.st->refused_path++, 0);
	r = np_tarx_dir_room(&l->x, path);
	if (r < 0)
		return r;
	if (!add(l->t, path, strlen(path), NP_TMEM_DIR))
		return -ENOMEM;
	np_tarx_dir_made(&l->x);
	return 0;
refused:
	l->x.st->refused_path++;
	return 0;
}

static int put_symlink(struct load *l, const char *path, const char *target)
{
	struct np_tmem_entry *e;
	int r;

	/* Empty, or longer than symlinkat() takes: refused as on disk. */
	if (!*target || strlen(target) >= 4096)
		goto refused;
	r = parents(l, path);
	if (r == -ELOOP)
		goto refused;
	if (r < 0)
		return r;
	r = np_tarx_disk_room(&l->x, path, 0);
	if (r < 0)
		return r;
	if (get_n(l->t, path, strlen(path)))
		goto refused;	/* never replace what an earlier member planted */
	e = add(l->t, path, strlen(path), NP_TMEM_LINK);
	if (!e || !(e->data = strdup(target)))
		return -ENOMEM;
	e->len = strlen(target);
	l->x.st->symlinks++;
	l->x.st->disk += NP_TAR_DISK_BLOCK;
	return 0;
refused:
	l->x.st->refused_path++;
	return 0;
}

static int member(struct load *l)
{
	struct extract *x = &l->x;
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
		return skip(x, padded);
	if (r != 0) {
		x->st->refused_path++;
		return skip(x, padded);
	}
	switch (m->type) {
	case NP_TAR_FILE:
		if (x->lim && x->lim->skip_over && m->data > x->lim->skip_over) {
			x->st->skipped_big++;
			return skip(x, padded);
		}
		return put_file(l, path, NULL, m->data, padded - m->data);
	case NP_TAR_DIR:
		r = put_dir(l, path);
		break;
	case NP_TAR_SYMLINK:
		r = put_symlink(l, path, m->linkpath);
		break;
	case NP_TAR_HARDLINK:
		return put_hardlink(l, path, m);
	default:
		x->st->skipped_type++;
		r = 0;
		break;
	}
	return r < 0 ? r : skip(x, padded);
}

static int by_path(const void *a, const void *b, void *arg)
{
	const struct np_tmem_entry *e = arg;

	return strcmp(e[*(const size_t *)a].path, e[*(const size_t *)b].path);
}

static int finish(struct np_tmem *t)
{
	t->order = malloc((t->n ? t->n : 1) * sizeof(*t->order));
	if (!t->order)
		return -ENOMEM;
	for (size_t k = 0; k < t->n; k++)
		t->order[k] = k;
	qsort_r(t->order, t->n, sizeof(*t->order), by_path, t->e);
	return 0;
}

static int stream(struct load *l, int fd)
{
	struct extract *x = &l->x;
	uint8_t blk[NP_TAR_BLOCK];
	int r = 0;

	x->src = np_tar_source_open(fd, &r, x->err, x->errlen);
	while (x->src) {
		ssize_t got = read_full(x, blk, sizeof(blk));

		if (got < 0)
			return (int)got;
		if ((size_t)got < sizeof(blk))
			return np_tar_parse_eof(&x->p, (size_t)got, x->err, x->errlen);
		if (x->p.offset == 0 && strcmp(np_tar_source_kind(x->src), "none") &&
		    !np_tar_is_header(blk) && blk[0]) {
			snprintf(x->err, x->errlen, "%s-compressed, but not a tar archive inside",
				 np_tar_source_kind(x->src));
			return -EBADMSG;
		}
		r = np_tar_parse_block(&x->p, blk, x->err, x->errlen);
		if (r < 0)
			return r;
		if (r == NP_TAR_END)
			return 0;
		if (r == NP_TAR_MEMBER) {
			r = member(l);
			if (r < 0)
				return r;
			np_tar_parse_skip(&x->p, np_tar_padded(x->p.m.data));
		}
	}
	return r;
}

int np_tmem_load(struct np_tmem *t, int fd, const struct np_tar_limits *lim,
		 struct np_tar_stats *st, char *err, size_t errlen)
{
	static char dummy[1];
	struct load *l;
	int r;

	memset(t, 0, sizeof(*t));
	if (!err || !errlen) {
		err = dummy;
		errlen = sizeof(dummy);
	}
	err[0] = '\0';
	if (st)
		memset(st, 0, sizeof(*st));
	l = calloc(1, sizeof(*l));
	if (!l) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	l->t = t;
	l->x.root = -1;
	l->x.parent_fd = -1;
	l->x.lim = lim;
	l->x.st = st ? st : &l->x.own;
	l->x.err = err;
	l->x.errlen = errlen;
	np_tar_parser_init(&l->x.p);
	r = stream(l, fd);
	if (r == 0)
		r = finish(t);
	if (r < 0 && !err[0])
		snprintf(err, errlen, "%s", strerror(-r));
	np_tar_source_close(l->x.src);
	np_tar_parser_free(&l->x.p);
	free(l);
	if (r < 0)
		np_tmem_free(t);
	return r;
}

void np_tmem_free(struct np_tmem *t)
{
	for (size_t k = 0; k < t->n; k++) {
		free(t->e[k].path);
		free(t->e[k].data);
	}
	free(t->e);
	free(t->slot);
	free(t->order);
	memset(t, 0, sizeof(*t));
}
