// SPDX-License-Identifier: GPL-2.0-only
/* The kernel tape: recording, replay and the file form of netlink and ioctl exchanges. */
#include "ktape.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/netlink.h>

static const char magic[8] = { 'N', 'P', 'K', 'T', 'A', 'P', 'E', '1' };

static bool is_netlink(uint32_t bus)
{
	return bus == NP_KT_GENL || bus == NP_KT_RTNL || bus == NP_KT_SOCK_DIAG ||
	       bus == NP_KT_NFNETLINK;
}

void np_ktape_init(struct np_ktape *t, bool recording)
{
	memset(t, 0, sizeof(*t));
	t->recording = recording;
}

static void xchg_free(struct np_ktape_xchg *x)
{
	for (uint32_t i = 0; i < x->nchunks; i++)
		free(x->chunk[i].p);
	free(x->chunk);
	free(x->req);
	memset(x, 0, sizeof(*x));
}

void np_ktape_free(struct np_ktape *t)
{
	for (size_t i = 0; i < t->n; i++)
		xchg_free(&t->x[i]);
	free(t->x);
	np_ktape_init(t, t->recording);
}

/* A request as a key: a netlink header's sequence number and port id differ run to run. */
static void normalize(uint32_t bus, uint8_t *req, size_t len)
{
	struct nlmsghdr h;

	if (!is_netlink(bus) || len < sizeof(h))
		return;
	memcpy(&h, req, sizeof(h));
	h.nlmsg_seq = 0;
	h.nlmsg_pid = 0;
	memcpy(req, &h, sizeof(h));
}

static struct np_ktape_xchg *grow(struct np_ktape *t)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 32;
		struct np_ktape_xchg *x;

		if (cap > NP_KTAPE_MAX_EXCHANGES)
			cap = NP_KTAPE_MAX_EXCHANGES;
		if (t->n >= cap)
			return NULL;
		x = realloc(t->x, cap * sizeof(*x));
		if (!x)
			return NULL;
		t->x = x;
		t->cap = cap;
	}
	memset(&t->x[t->n], 0, sizeof(t->x[0]));
	return &t->x[t->n];
}

void np_ktape_begin(struct np_ktape *t, enum np_ktape_bus bus, const void *req, size_t len)
{
	struct np_ktape_xchg *x;

	t->open = NULL;
	if (!t->recording || len > NP_KTAPE_MAX_CHUNK || !(x = grow(t)))
		return;
	x->req = malloc(len ? len : 1);
	if (!x->req)
		return;
	memcpy(x->req, req, len);
	normalize(bus, x->req, len);
	x->req_len = (uint32_t)len;
	x->bus = bus;
	t->n++;
	t->open = x;
}

void np_ktape_chunk(struct np_ktape *t, const void *buf, size_t len)
{
	struct np_ktape_xchg *x = t->open;
	struct np_ktape_chunk *c;

	if (!x || (x->flags & NP_KTAPE_CAPPED))
		return;
	if (len > NP_KTAPE_MAX_CHUNK ||
	    (x->bus == NP_KT_SOCK_DIAG &&
	     t->sock_bytes + len > (t->sock_cap ? t->sock_cap : NP_KTAPE_SOCK_BYTES))) {
		x->flags |= NP_KTAPE_CAPPED;
		t->capped++;
		return;
	}
	c = realloc(x->chunk, (x->nchunks + 1) * sizeof(*c));
	if (!c)
		goto capped;
	x->chunk = c;
	c[x->nchunks].p = malloc(len ? len : 1);
	if (!c[x->nchunks].p)
		goto capped;
	memcpy(c[x->nchunks].p, buf, len);
	c[x->nchunks].len = (uint32_t)len;
	x->nchunks++;
	if (x->bus == NP_KT_SOCK_DIAG)
		t->sock_bytes += len;
	return;
capped:
	x->flags |= NP_KTAPE_CAPPED;
	t->capped++;
}

void np_ktape_end(struct np_ktape *t, int err)
{
	if (t->open)
		t->open->err = err;
	t->open = NULL;
}

bool *np_ktape_used(const struct np_ktape *t)
{
	bool *u = t->n ? malloc(t->n * sizeof(*u)) : NULL;

	for (size_t i = 0; u && i < t->n; i++)
		u[i] = t->x[i].used;
	return u;
}

void np_ktape_set_used(struct np_ktape *t, const bool *used)
{
	for (size_t i = 0; used && i < t->n; i++)
		t->x[i].used = used[i];
}

int np_ktape_find(struct np_ktape *t, enum np_ktape_bus bus, const void *req, size_t len,
		  struct np_ktape_play *p)
{
	uint8_t *key;

	p->x = NULL;
	p->next = 0;
	if (t->recording || len > NP_KTAPE_MAX_CHUNK)
		return -ENOENT;
	key = malloc(len ? len : 1);
	if (!key)
		return -ENOMEM;
	memcpy(key, req, len);
	normalize(bus, key, len);
	for (size_t i = 0; i < t->n; i++) {
		struct np_ktape_xchg *x = &t->x[i];

		if (!x->used && x->bus == bus && x->req_len == len && memcmp(x->req, key, len) == 0) {
			x->used = true;
			p->x = x;
			break;
		}
	}
	free(key);
	return p->x ? 0 : -ENOENT;
}

/* Every message of a recorded netlink reply answers the request being replayed now. */
static void restamp(uint8_t *buf, size_t len, uint32_t seq)
{
	while (len >= sizeof(struct nlmsghdr)) {
		struct nlmsghdr h;
		size_t step;

		memcpy(&h, buf, sizeof(h));
		h.nlmsg_seq = seq;
		h.nlmsg_pid = 0;
		memcpy(buf, &h, sizeof(h));
		/* In size_t: NLMSG_ALIGN of a u32 near 4 GiB wraps to 0 (fuzz_ktape found the
		 * endless loop a recorded length of 0xfffffffe made). */
		step = ((size_t)h.nlmsg_len + NLMSG_ALIGNTO - 1) & ~(size_t)(NLMSG_ALIGNTO - 1);
		if (h.nlmsg_len < sizeof(h) || step >= len)
			return;
		buf += step;
		len -= step;
	}
}

ssize_t np_ktape_next(struct np_ktape_play *p, void *buf, size_t size, uint32_t seq)
{
	const struct np_ktape_chunk *c;

	if (!p->x)
		return -ENOENT;
	if (p->next == p->x->nchunks && (p->x->flags & NP_KTAPE_CAPPED) && is_netlink(p->x->bus) &&
	    size >= NLMSG_LENGTH(sizeof(int))) {
		/* A capped dump ends where the capture stopped keeping it: what was kept is
		 * judged (the capture's metadata says it was capped). */
		struct nlmsghdr h = {
			.nlmsg_len = NLMSG_LENGTH(sizeof(int)), .nlmsg_type = NLMSG_DONE,
			.nlmsg_flags = NLM_F_MULTI, .nlmsg_seq = seq,
		};
		int zero = 0;

		p->next++;
		memcpy(buf, &h, sizeof(h));
		memcpy((char *)buf + NLMSG_HDRLEN, &zero, sizeof(zero));
		return (ssize_t)h.nlmsg_len;
	}
	if (p->next >= p->x->nchunks)
		return p->x->err ? p->x->err : -ENODATA;
	c = &p->x->chunk[p->next++];
	if (c->len > size)
		return -EMSGSIZE;
	memcpy(buf, c->p, c->len);
	if (is_netlink(p->x->bus))
		restamp(buf, c->len, seq);
	return c->len;
}

int np_ktape_ioctl(struct np_ktape_play *p, void *buf, size_t size)
{
	if (!p->x)
		return -ENOENT;
	if (p->x->err)
		return p->x->err;
	if (p->x->nchunks != 1 || p->x->chunk[0].len != size)
		return -EBADMSG;
	memcpy(buf, p->x->chunk[0].p, size);
	return 0;
}

/* The file form. */

struct wbuf {
	char *p;
	size_t len, cap;
	bool oom;
};

static void put(struct wbuf *w, const void *data, size_t len)
{
	if (w->oom)
		return;
	if (w->len + len > w->cap) {
		size_t cap = w->cap ? w->cap : 4096;
		char *q;

		while (cap < w->len + len)
			cap *= 2;
		q = realloc(w->p, cap);
		if (!q) {
			w->oom = true;
			return;
		}
		w->p = q;
		w->cap = cap;
	}
	memcpy(w->p + w->len, data, len);
	w->len += len;
}

static void put_u32(struct wbuf *w, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };

	put(w, b, 4);
}

int np_ktape_save(const struct np_ktape *t, char **buf, size_t *len)
{
	struct wbuf w = { 0 };

	put(&w, magic, sizeof(magic));
	for (size_t i = 0; i < t->n; i++) {
		const struct np_ktape_xchg *x = &t->x[i];

		put_u32(&w, x->bus);
		put_u32(&w, x->flags);
		put_u32(&w, (uint32_t)x->err);
		put_u32(&w, x->req_len);
		put(&w, x->req, x->req_len);
		put_u32(&w, x->nchunks);
		for (uint32_t c = 0; c < x->nchunks; c++) {
			put_u32(&w, x->chunk[c].len);
			put(&w, x->chunk[c].p, x->chunk[c].len);
		}
	}
	if (w.oom) {
		free(w.p);
		return -ENOMEM;
	}
	*buf = w.p;
	*len = w.len;
	return 0;
}

struct rbuf {
	const uint8_t *p;
	size_t left;
};

static int get_u32(struct rbuf *r, uint32_t *v)
{
	if (r->left < 4)
		return -EBADMSG;
	*v = (uint32_t)r->p[0] | (uint32_t)r->p[1] << 8 | (uint32_t)r->p[2] << 16 |
	     (uint32_t)r->p[3] << 24;
	r->p += 4;
	r->left -= 4;
	return 0;
}

/* A copy of the next len bytes (at most NP_KTAPE_MAX_CHUNK). */
static int get_bytes(struct rbuf *r, uint32_t len, uint8_t **out)
{
	if (len > NP_KTAPE_MAX_CHUNK || len > r->left)
		return -EBADMSG;
	*out = malloc(len ? len : 1);
	if (!*out)
		return -ENOMEM;
	memcpy(*out, r->p, len);
	r->p += len;
	r->left -= len;
	return 0;
}

static int load_xchg(struct rbuf *r, struct np_ktape_xchg *x)
{
	uint32_t err, n;
	int e;

	if ((e = get_u32(r, &x->bus)) || (e = get_u32(r, &x->flags)) || (e = get_u32(r, &err)) ||
	    (e = get_u32(r, &x->req_len)) || (e = get_bytes(r, x->req_len, &x->req)) ||
	    (e = get_u32(r, &n)))
		return e;
	x->err = (int32_t)err;
	if (x->bus == 0 || x->bus > NP_KT__MAX || x->err > 0 || x->err < -4095)
		return -EBADMSG;
	/* Each chunk takes at least its 4-byte length: a count beyond that is a lie. */
	if (n > r->left / 4)
		return -EBADMSG;
	x->chunk = calloc(n ? n : 1, sizeof(*x->chunk));
	if (!x->chunk)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t len;

		if ((e = get_u32(r, &len)) || (e = get_bytes(r, len, &x->chunk[i].p)))
			return e;
		x->chunk[i].len = len;
		x->nchunks++;
	}
	return 0;
}

int np_ktape_load(struct np_ktape *t, const void *buf, size_t len)
{
	struct rbuf r = { buf, len };
	int e = 0;

	np_ktape_init(t, false);
	if (len < sizeof(magic) || memcmp(buf, magic, sizeof(magic)) != 0)
		return -EBADMSG;
	r.p += sizeof(magic);
	r.left -= sizeof(magic);
	while (r.left) {
		struct np_ktape_xchg *x = grow(t);

		if (!x) {
			e = -EBADMSG;	/* more exchanges than any capture makes */
			break;
		}
		t->n++;
		e = load_xchg(&r, x);
		if (e)
			break;
	}
	if (e)
		np_ktape_free(t);
	return e;
}
