// SPDX-License-Identifier: GPL-2.0-only
/* A report's findings' texts and evidence, packed in chunks; the report's record array. */
#include "finding_store.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The first chunk with the store is one 4 KB malloc block: a doctor pass's findings (six on a
 * quiet host, ~4 KB of texts and evidence) fit it or spill into one more. Later chunks double,
 * up to a size malloc still takes from the heap instead of a fresh mmap. */
#define FIRST_CHUNK (4096 - 16 - sizeof(struct np_finding_store) - sizeof(struct chunk))
#define MAX_CHUNK (64 * 1024)
/* Records a report starts with: a pass emits a handful. */
#define FIRST_RECORDS 16

struct chunk {
	struct chunk *prev;
	char *lo, *hi;		/* the free space: texts grow up from lo, evidence down from hi */
	char *last;		/* the last text put at lo, which may grow in place */
};

struct np_finding_store {
	struct chunk *cur;
	size_t next;		/* data bytes of the next chunk */
	bool failed;
};

static void chunk_init(struct chunk *c, struct chunk *prev, size_t size)
{
	c->prev = prev;
	c->lo = (char *)(c + 1);
	c->hi = (char *)(((uintptr_t)c->lo + size) & ~(uintptr_t)(_Alignof(struct np_evidence) - 1));
	c->last = NULL;
}

struct np_finding_store *np_store_new(void)
{
	struct np_finding_store *st = malloc(sizeof(*st) + sizeof(struct chunk) + FIRST_CHUNK);

	if (!st)
		return NULL;
	st->cur = (struct chunk *)(st + 1);
	st->next = 2 * FIRST_CHUNK;
	st->failed = false;
	chunk_init(st->cur, NULL, FIRST_CHUNK);
	return st;
}

void np_store_free(struct np_finding_store *st)
{
	struct chunk *c, *prev;

	if (!st)
		return;
	for (c = st->cur; c && c != (struct chunk *)(st + 1); c = prev) {
		prev = c->prev;
		free(c);
	}
	free(st);
}

bool np_store_failed(const struct np_finding_store *st)
{
	return st && st->failed;
}

/* A chunk with n free bytes: the current one, else a new one (the rest of the old one stays
 * unused). NULL out of memory. */
static struct chunk *room(struct np_finding_store *st, size_t n)
{
	struct chunk *c = st->cur;
	size_t size = st->next;

	if ((size_t)(c->hi - c->lo) >= n)
		return c;
	if (size < n + _Alignof(struct np_evidence))
		size = n + _Alignof(struct np_evidence);
	c = malloc(sizeof(*c) + size);
	if (!c) {
		st->failed = true;
		return NULL;
	}
	chunk_init(c, st->cur, size);
	st->cur = c;
	if (st->next < MAX_CHUNK)
		st->next *= 2;
	return c;
}

static char *put_text(struct np_finding_store *st, const char *s, size_t len)
{
	struct chunk *c = room(st, len + 1);
	char *p;

	if (!c)
		return NULL;
	p = c->lo;
	memcpy(p, s, len);
	p[len] = '\0';
	c->lo = p + len + 1;
	c->last = p;
	return p;
}

const char *np_store_str(struct np_finding_store *st, const char *s, size_t len)
{
	return len ? put_text(st, s, len) : "";
}

int np_store_text(struct np_finding_store *st, const char **text, const char *buf, size_t keep,
		  size_t len)
{
	struct chunk *c = st->cur;
	char *p = c->last;

	/* Still the last text (a remedy's next line, a summary's tail): only the new bytes. */
	if (p && p == *text && c->lo == p + keep + 1 && (size_t)(c->hi - p) > len) {
		memcpy(p + keep, buf + keep, len - keep);
		p[len] = '\0';
		c->lo = p + len + 1;
		return 0;
	}
	p = put_text(st, buf, len);
	if (!p)
		return -1;
	*text = p;
	return 0;
}

struct np_evidence *np_store_ev(struct np_finding *f)
{
	struct np_finding_store *st = f->store;
	struct chunk *c = st->cur;
	const size_t sz = sizeof(struct np_evidence);

	/* The lowest array in the chunk (evidence of the finding being written): one slot more
	 * below it, the entries moved down one. */
	if (f->nev && (char *)f->ev == c->hi && (size_t)(c->hi - c->lo) >= sz) {
		c->hi -= sz;
		memmove(c->hi, f->ev, f->nev * sz);
		f->ev = (struct np_evidence *)(void *)c->hi;
		return &f->ev[f->nev++];
	}
	c = room(st, (f->nev + 1) * sz);
	if (!c)
		return NULL;
	c->hi -= (f->nev + 1) * sz;
	if (f->nev)
		memcpy(c->hi, f->ev, f->nev * sz);
	f->ev = (struct np_evidence *)(void *)c->hi;
	return &f->ev[f->nev++];
}

struct np_finding *np_report_slot(struct np_report *r)
{
	if (!r->store && !(r->store = np_store_new()))
		return NULL;
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : FIRST_RECORDS;
		struct np_finding *nf = realloc(r->f, cap * sizeof(*nf));

		if (!nf)
			return NULL;
		r->f = nf;
		r->cap = cap;
	}
	return &r->f[r->n];
}

int np_report_add(struct np_report *r, const struct np_finding *s)
{
	struct np_finding *d = np_report_slot(r);
	struct np_finding_store *st = r->store;
	bool failed = np_store_failed(st);

	if (!d)
		return -1;
	*d = *s;
	d->store = st;
	d->nev = 0;
	d->ev = NULL;
	if (!(d->summary = np_store_str(st, s->summary, strlen(s->summary))) ||
	    !(d->detail = np_store_str(st, s->detail, strlen(s->detail))) ||
	    !(d->remedy = np_store_str(st, s->remedy, strlen(s->remedy))))
		goto fail;
	for (size_t i = 0; i < s->nev; i++) {
		const struct np_evidence *se = &s->ev[i];
		const char *k = np_store_str(st, se->key, strlen(se->key));
		const char *u = k ? np_store_str(st, se->unit, strlen(se->unit)) : NULL;
		const char *t = u ? np_store_str(st, se->text, strlen(se->text)) : NULL;
		struct np_evidence *e = t ? np_store_ev(d) : NULL;

		if (!e)
			goto fail;
		*e = *se;
		e->key = k;
		e->unit = u;
		e->text = t;
	}
	r->n++;
	return 0;
fail:
	st->failed = failed;	/* reported by the return: r is as it was */
	return -1;
}
