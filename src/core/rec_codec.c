// SPDX-License-Identifier: GPL-2.0-only
/* The flight recorder's frame codec: records into and out of a byte buffer (rec_codec.h). */
#include "rec_codec.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void np_rec_buf_free(struct np_rec_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

static int reserve(struct np_rec_buf *b, size_t more)
{
	size_t cap = b->cap ? b->cap : 4096;
	uint8_t *p;

	if (more > SIZE_MAX / 4 - b->len)
		return -ENOMEM;
	if (b->len + more <= b->cap)
		return 0;
	while (cap < b->len + more)
		cap *= 2;
	p = realloc(b->p, cap);
	if (!p)
		return -ENOMEM;
	b->p = p;
	b->cap = cap;
	return 0;
}

/* Callers reserve first: a frame reserves its worst case once, not per counter. */
static inline void put_varint(struct np_rec_buf *b, uint64_t v)
{
	while (v >= 0x80) {
		b->p[b->len++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	b->p[b->len++] = (uint8_t)v;
}

int np_rec_put_varint(struct np_rec_buf *b, uint64_t v)
{
	int r = reserve(b, 10);

	if (r == 0)
		put_varint(b, v);
	return r;
}

int np_rec_get_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	const uint8_t *q = *p;
	uint64_t x = 0;
	unsigned shift = 0;

	while (q < end && shift < 70) {
		uint8_t c = *q++;

		x |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80)) {
			/* The tenth byte holds one bit: more would not fit in 64. */
			if (shift == 63 && c > 1)
				return -EBADMSG;
			*p = q;
			*v = x;
			return 0;
		}
		shift += 7;
	}
	return -EBADMSG;
}

static int put_blob(struct np_rec_buf *b, enum np_rec_kind kind, size_t n, bool counted,
		    const void *blob, size_t len)
{
	int r = reserve(b, 21 + len);

	if (r < 0)
		return r;
	b->p[b->len++] = (uint8_t)kind;
	if (counted)
		put_varint(b, n);
	put_varint(b, len);
	if (len)
		memcpy(b->p + b->len, blob, len);
	b->len += len;
	return 0;
}

int np_rec_put_schema(struct np_rec_buf *b, const char *names, size_t len, size_t n)
{
	size_t seen = 0;

	/* The reader will insist: n names, each terminated, nothing after the last. */
	for (size_t i = 0; i < len; i++)
		seen += names[i] == '\0';
	if (seen != n || (len && names[len - 1] != '\0') || n > NP_REC_MAX_COUNTERS ||
	    len > NP_REC_MAX_BLOB)
		return -EINVAL;
	return put_blob(b, NP_REC_SCHEMA, n, true, names, len);
}

int np_rec_put_config(struct np_rec_buf *b, const void *blob, size_t len)
{
	if (len > NP_REC_MAX_BLOB)
		return -EINVAL;
	return put_blob(b, NP_REC_CONFIG, 0, false, blob, len);
}

void np_rec_enc_free(struct np_rec_enc *e)
{
	free(e->prev);
	free(e->prevd);
	free(e->qv);
	free(e->zz);
	memset(e, 0, sizeof(*e));
}

static int enc_size(struct np_rec_enc *e, size_t n)
{
	if (n == e->n && e->prev)
		return 0;
	free(e->prev);
	free(e->prevd);
	free(e->qv);
	free(e->zz);
	e->qv = e->zz = NULL;
	e->qn = e->qcap = 0;
	e->prev = calloc(n ? n : 1, sizeof(*e->prev));
	e->prevd = calloc(n ? n : 1, sizeof(*e->prevd));
	e->n = n;
	e->have = false;
	return e->prev && e->prevd ? 0 : -ENOMEM;
}

int np_rec_enc_flush(struct np_rec_enc *e, struct np_rec_buf *b)
{
	size_t n = e->n, m = e->qn, at;
	int r;

	e->plain_at = e->plain_len = 0;
	if (!m)
		return 0;
	r = reserve(b, 1 + 10 + 20 * m + np_rec_cols_bound(n, m));
	if (r < 0)
		return r;
	b->p[b->len++] = e->mean ? NP_REC_RCOLS : NP_REC_COLS;
	put_varint(b, m);
	for (size_t f = 0; f < m; f++) {
		int64_t dm = (int64_t)((uint64_t)e->qm[f] - (uint64_t)e->pm);
		int64_t dw = (int64_t)((uint64_t)e->qw[f] - (uint64_t)e->pw);

		put_varint(b, np_zz((int64_t)((uint64_t)dm - (uint64_t)e->pdm)));
		put_varint(b, np_zz((int64_t)((uint64_t)dw - (uint64_t)e->pdw)));
		e->pdm = dm;
		e->pdw = dw;
		e->pm = e->qm[f];
		e->pw = e->qw[f];
	}
	np_rec_cols_resid(e->zz, e->qv, n, m, e->prev, e->prevd, e->mean);
	at = b->len + n;
	b->len += np_rec_cols_pack(b->p + b->len, e->zz, n, m);
	e->plain_at = at;
	e->plain_len = b->len - at;
	e->qn = 0;
	return 0;
}

static int queue_frame(struct np_rec_enc *e, struct np_rec_buf *b, int64_t mono_ns,
		       int64_t wall_ns, const uint64_t *v)
{
	size_t n = e->n;
	int r;

	if (e->qn >= NP_REC_COLS_MAX_FRAMES ||
	    (e->qn && (e->qn + 1) * n > NP_REC_COLS_MAX_VALUES)) {
		r = np_rec_enc_flush(e, b);
		if (r < 0)
			return r;
	}
	if (e->qn == e->qcap) {
		size_t cap = e->qcap ? e->qcap * 2 : 8, sz = (n ? n : 1) * sizeof(uint64_t);
		uint64_t *qv, *zz;

		if (cap > NP_REC_COLS_MAX_FRAMES)
			cap = NP_REC_COLS_MAX_FRAMES;
		qv = realloc(e->qv, cap * sz);
		if (qv)
			e->qv = qv;
		zz = realloc(e->zz, cap * sz);
		if (zz)
			e->zz = zz;
		if (!qv || !zz)
			return -ENOMEM;
		e->qcap = cap;
	}
	if (n)
		memcpy(e->qv + e->qn * n, v, n * sizeof(*v));
	e->qm[e->qn] = mono_ns;
	e->qw[e->qn] = wall_ns;
	e->qn++;
	return 0;
}

int np_rec_put_frame(struct np_rec_enc *e, struct np_rec_buf *b, int64_t mono_ns,
		     int64_t wall_ns, const uint64_t *v, size_t n)
{
	int r;

	if (n > NP_REC_MAX_COUNTERS)
		return -EINVAL;
	if (e->have && e->cols && n == e->n)
		return queue_frame(e, b, mono_ns, wall_ns, v);
	/* A key frame (or a new count) ends the column record before it. */
	r = np_rec_enc_flush(e, b);
	if (r == 0)
		r = enc_size(e, n);
	if (r == 0)
		r = reserve(b, 1 + 4 * 10 + 2 * 10 * n);
	if (r < 0)
		return r;
	if (!e->have) {
		b->p[b->len++] = NP_REC_KEY;
		put_varint(b, np_zz(mono_ns));
		put_varint(b, np_zz(wall_ns));
		put_varint(b, n);
		for (size_t i = 0; i < n; i++) {
			put_varint(b, v[i]);
			e->prev[i] = v[i];
			e->prevd[i] = 0;
		}
		e->pdm = e->pdw = 0;
	} else {
		int64_t dm = (int64_t)((uint64_t)mono_ns - (uint64_t)e->pm);
		int64_t dw = (int64_t)((uint64_t)wall_ns - (uint64_t)e->pw);
		size_t i;

		b->p[b->len++] = NP_REC_DELTA;
		put_varint(b, np_zz((int64_t)((uint64_t)dm - (uint64_t)e->pdm)));
		put_varint(b, np_zz((int64_t)((uint64_t)dw - (uint64_t)e->pdw)));
		e->pdm = dm;
		e->pdw = dw;
		/* Modular arithmetic: a counter that resets or wraps round-trips exactly. The
		 * positions that moved off their pace come first (zero runs: the same from frame
		 * to frame, which deflate finds in its window), their values after (noise). */
		size_t k = 0, at = b->len + 10, run = 0;

		b->len = at;
		for (i = 0; i < n; i++) {
			if (v[i] - e->prev[i] - e->prevd[i]) {
				put_varint(b, run);
				run = 0;
				k++;
			} else {
				run++;
			}
		}
		/* The count goes before the runs: shift them up behind it. */
		{
			uint8_t tmp[10];
			struct np_rec_buf t = { tmp, 0, sizeof(tmp) };
			size_t runs = b->len - at;

			put_varint(&t, k);
			memmove(b->p + at - 10 + t.len, b->p + at, runs);
			memcpy(b->p + at - 10, tmp, t.len);
			b->len = at - 10 + t.len + runs;
		}
		for (i = 0; i < n; i++) {
			uint64_t d = v[i] - e->prev[i];

			if (d - e->prevd[i])
				put_varint(b, np_zz((int64_t)(d - e->prevd[i])));
			e->prevd[i] = d;
			e->prev[i] = v[i];
		}
	}
	e->pm = mono_ns;
	e->pw = wall_ns;
	e->have = true;
	return 0;
}

void np_rec_dec_free(struct np_rec_dec *d)
{
	free(d->val);
	free(d->d);
	free(d->mean);
	free(d->pos);
	free(d->q);
	free(d->names);
	free(d->name);
	free(d->config);
	memset(d, 0, sizeof(*d));
}

static int get_bytes(const uint8_t **p, const uint8_t *end, size_t len, uint8_t **out)
{
	uint8_t *c;

	if (len > NP_REC_MAX_BLOB || (size_t)(end - *p) < len)
		return -EBADMSG;
	c = malloc(len ? len : 1);
	if (!c)
		return -ENOMEM;
	memcpy(c, *p, len);
	*p += len;
	*out = c;
	return 0;
}

/* Room for n counters, the old values dropped: a new schema or key frame sets them all. */
static int resize(struct np_rec_dec *d, size_t n)
{
	free(d->val);
	free(d->d);
	free(d->mean);
	free(d->pos);
	d->val = calloc(n ? n : 1, sizeof(*d->val));
	d->d = calloc(n ? n : 1, sizeof(*d->d));
	d->mean = calloc(n ? n : 1, sizeof(*d->mean));
	d->pos = calloc(n ? n : 1, sizeof(*d->pos));
	d->n = n;
	if (!d->val || !d->d || !d->mean || !d->pos) {
		d->n = 0;	/* nothing to index into until the next schema or key */
		return -ENOMEM;
	}
	return 0;
}

static int get_schema(struct np_rec_dec *d, const uint8_t **p, const uint8_t *end)
{
	uint64_t n, len;
	uint8_t *names;
	const char **name;
	size_t k = 0;
	int r;

	if (np_rec_get_varint(p, end, &n) < 0 || np_rec_get_varint(p, end, &len) < 0 ||
	    n > NP_REC_MAX_COUNTERS || n > len || (len && !n))
		return -EBADMSG;
	r = get_bytes(p, end, len, &names);
	if (r < 0)
		return r;
	name = calloc(n ? n : 1, sizeof(*name));
	if (!name) {
		free(names);
		return -ENOMEM;
	}
	/* Exactly n names, each terminated, nothing after the last. */
	for (size_t i = 0; i < len; i++)
		k += names[i] == '\0';
	if (k != n || (len && names[len - 1] != '\0')) {
		free(names);
		free(name);
		return -EBADMSG;
	}
	k = 0;
	for (size_t i = 0; i < len; i++)
		if (i == 0 || names[i - 1] == '\0')
			name[k++] = (const char *)names + i;
	free(d->names);
	free(d->name);
	d->names = (char *)names;
	d->name = name;
	d->names_len = len;
	/* A schema begins a stream: counters are matched by position from here on. */
	d->have = false;
	if (d->n != n) {
		if (resize(d, n) < 0)
			return -ENOMEM;
	}
	return 0;
}

static int get_key(struct np_rec_dec *d, const uint8_t **p, const uint8_t *end)
{
	uint64_t m, w, n;

	if (np_rec_get_varint(p, end, &m) < 0 || np_rec_get_varint(p, end, &w) < 0 ||
	    np_rec_get_varint(p, end, &n) < 0 || n > NP_REC_MAX_COUNTERS)
		return -EBADMSG;
	/* With a schema the count is its count; without one, any (but each needs a byte). */
	if ((d->names && n != d->n) || n > (uint64_t)(end - *p))
		return -EBADMSG;
	if (!d->names && n != d->n) {
		if (resize(d, n) < 0)
			return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		if (np_rec_get_varint(p, end, &d->val[i]) < 0)
			return -EBADMSG;
		d->d[i] = d->mean[i] = 0;
	}
	d->mono = np_unzz(m);
	d->wall = np_unzz(w);
	d->dm = d->dw = 0;
	d->have = true;
	d->cur = d->val;
	return 0;
}

static int get_delta(struct np_rec_dec *d, const uint8_t **p, const uint8_t *end)
{
	uint64_t ddm, ddw, k, z, dd;
	size_t i = 0;

	if (!d->have || d->version == 3 || np_rec_get_varint(p, end, &ddm) < 0 ||
	    np_rec_get_varint(p, end, &ddw) < 0 || np_rec_get_varint(p, end, &k) < 0 || k > d->n)
		return -EBADMSG;
	d->dm = (int64_t)((uint64_t)d->dm + (uint64_t)np_unzz(ddm));
	d->dw = (int64_t)((uint64_t)d->dw + (uint64_t)np_unzz(ddw));
	d->mono = (int64_t)((uint64_t)d->mono + (uint64_t)d->dm);
	d->wall = (int64_t)((uint64_t)d->wall + (uint64_t)d->dw);
	/* The positions first (d->pos), then their values; every other counter keeps pace. */
	for (size_t j = 0; j < k; j++) {
		if (np_rec_get_varint(p, end, &z) < 0 || z >= d->n - i)
			return -EBADMSG;
		i += z;
		d->pos[j] = (uint32_t)i++;
	}
	for (i = 0; i < d->n; i++)
		d->val[i] += d->d[i];
	for (size_t j = 0; j < k; j++) {
		if (np_rec_get_varint(p, end, &dd) < 0)
			return -EBADMSG;
		d->d[d->pos[j]] += (uint64_t)np_unzz(dd);
		d->val[d->pos[j]] += (uint64_t)np_unzz(dd);
	}
	d->cur = d->val;
	return 0;
}

/* The next frame of a column record (rec_cols.c rebuilds it). */
static void serve(struct np_rec_dec *d)
{
	size_t f = d->qi, m = d->qn;

	np_rec_cols_frame(d->val, d->d, d->rcols ? d->mean : NULL, d->n, d->pos, d->qk, d->q, m,
			  f);
	d->cur = d->val;
	d->mono = d->qm[f];
	d->wall = d->qw[f];
	d->qi++;
}

static int get_cols(struct np_rec_dec *d, const uint8_t **p, const uint8_t *end, bool rcols)
{
	int64_t dm = d->dm, dw = d->dw, mono = d->mono, wall = d->wall;
	uint64_t m, a, b;

	/* Each version has its own column record; version 0 (tests, fuzzing) reads both. */
	if (d->version == 1 || (d->version && d->version != (rcols ? 3u : 2u)) || !d->have ||
	    np_rec_get_varint(p, end, &m) < 0 || !m ||
	    m > NP_REC_COLS_MAX_FRAMES || (m > 1 && m * d->n > NP_REC_COLS_MAX_VALUES))
		return -EBADMSG;
	if (m * d->n > d->qcap || !d->q) {
		size_t want = m * d->n > 0 ? m * d->n : 1;
		uint64_t *q = realloc(d->q, want * sizeof(*q));

		if (!q)
			return -ENOMEM;
		d->q = q;
		d->qcap = m * d->n;
	}
	for (size_t f = 0; f < m; f++) {
		if (np_rec_get_varint(p, end, &a) < 0 || np_rec_get_varint(p, end, &b) < 0)
			return -EBADMSG;
		dm = (int64_t)((uint64_t)dm + (uint64_t)np_unzz(a));
		dw = (int64_t)((uint64_t)dw + (uint64_t)np_unzz(b));
		d->qm[f] = mono = (int64_t)((uint64_t)mono + (uint64_t)dm);
		d->qw[f] = wall = (int64_t)((uint64_t)wall + (uint64_t)dw);
	}
	if (np_rec_cols_unpack(p, end, d->n, m, d->pos, &d->qk, d->q) < 0)
		return -EBADMSG;
	d->dm = dm;
	d->dw = dw;
	d->qn = m;
	d->qi = 0;
	d->rcols = rcols;
	serve(d);
	return 0;
}

int np_rec_get(struct np_rec_dec *d, const uint8_t **p, const uint8_t *end,
	       enum np_rec_kind *kind)
{
	uint64_t len;
	uint8_t *blob;
	int r;

	if (np_rec_dec_queued(d)) {
		serve(d);
		*kind = NP_REC_DELTA;
		return 0;
	}
	if (*p >= end)
		return -EBADMSG;
	*kind = (enum np_rec_kind)*(*p)++;
	switch (*kind) {
	case NP_REC_SCHEMA:
		return get_schema(d, p, end);
	case NP_REC_CONFIG:
		if (np_rec_get_varint(p, end, &len) < 0)
			return -EBADMSG;
		r = get_bytes(p, end, len, &blob);
		if (r < 0)
			return r;
		free(d->config);
		d->config = blob;
		d->config_len = len;
		d->has_config = true;
		return 0;
	case NP_REC_KEY:
		return get_key(d, p, end);
	case NP_REC_DELTA:
		return get_delta(d, p, end);
	case NP_REC_COLS:
	case NP_REC_RCOLS:
		r = get_cols(d, p, end, *kind == NP_REC_RCOLS);
		*kind = NP_REC_DELTA;	/* to the caller, a frame like any after a key */
		return r;
	}
	return -EBADMSG;
}
