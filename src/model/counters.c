// SPDX-License-Identifier: GPL-2.0-only
/* Name -> u64 table: an array, hashed while it grows, sorted once and looked up with bsearch. */
#include "counters.h"
#include "word8.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct np_counters_seam np_counters_seam;

static int cmp_counter(const void *a, const void *b)
{
	return strcmp(((const struct np_counter *)a)->name, ((const struct np_counter *)b)->name);
}

/* bsearch's comparator: counted, unlike qsort's. */
static int cmp_lookup(const void *a, const void *b)
{
	np_counters_seam.compares++;
	return cmp_counter(a, b);
}

/* snprintf(dst, NP_COUNTER_NAME_MAX, "%s", src) without the format machinery: tables are
 * filled and searched by name hundreds of times per snapshot. */
static void copy_name(char *dst, const char *src)
{
	size_t n = strnlen(src, NP_COUNTER_NAME_MAX - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

#define HASH_MUL 0xff51afd7ed558ccdULL

/* The hash's start, seeded with the index's own address so that the layout differs between
 * runs. */
static inline uint64_t hash_seed(const struct np_counters *c)
{
	return 0x9e3779b97f4a7c15ULL ^ (uint64_t)(uintptr_t)c->slot;
}

/* A whole word of the name: mixed so that the next one lands on different bits. */
static inline uint64_t hash_word(uint64_t h, uint64_t w)
{
	h = (h ^ w) * HASH_MUL;
	return h ^ (h >> 32);
}

/* The last word, holding the bytes before the NUL (0 when there are none), then a final mix so
 * that the low bits used for the slot depend on every byte. */
static inline size_t hash_end(const struct np_counters *c, uint64_t h, uint64_t w)
{
	h = (h ^ w) * HASH_MUL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return (size_t)h & (c->nslot - 1);
}

/*
 * A stored name (at most NP_COUNTER_NAME_MAX - 1 bytes and its NUL, in a buffer of
 * NP_COUNTER_NAME_MAX), eight bytes at a time, the word holding the NUL cut there (what follows
 * a name in its buffer is not part of it); *len is the name's length. A byte at a time (FNV-1a)
 * was most of an index's cost: ~150 instructions for a 20-byte name, against ~40.
 * hash_query() of the same name gives the same slot.
 */
static size_t hash_name(const struct np_counters *c, const char *name, size_t *len)
{
	uint64_t h = hash_seed(c);

	for (size_t i = 0;; i += 8) {
		uint64_t w = np_le64(name + i), z = np_word_below(w, 1);

		if (z) {
			/* The lowest flagged byte is the first NUL (flags above it may be false). */
			unsigned at = np_word_first(z);

			*len = i + at;
			return hash_end(c, h, at ? w & (~0ULL >> (64 - 8 * at)) : 0);
		}
		h = hash_word(h, w);
	}
}

/* A name as a caller gives it, len bytes (at most NP_COUNTER_NAME_MAX - 1): read in place,
 * never past its end, which spares copying it into a buffer of the table's size first. */
static size_t hash_query(const struct np_counters *c, const char *name, size_t len)
{
	uint64_t h = hash_seed(c), w = 0;
	size_t i = 0;

	for (; i + 8 <= len; i += 8)
		h = hash_word(h, np_le64(name + i));
	if (i < len && len >= 8) {
		/* The last len - i bytes, as the word ending at len holds them: no byte loop. */
		w = np_le64(name + len - 8) >> (8 * (8 - (len - i)));
	} else {
		for (size_t k = len; k-- > i;)
			w = w << 8 | (unsigned char)name[k];
	}
	return hash_end(c, h, w);
}

/* A stored name equals a caller's of len bytes (a prefix up to its NUL): len bytes, then the
 * stored NUL. Words of both where the query has them, the last one the word ending at len
 * (again over bytes already compared): memcmp() was a call a probe for 20-odd bytes. */
static inline bool same_query(const char *stored, const char *name, size_t len)
{
	size_t i = 0;

	if (len < 8)
		return !memcmp(stored, name, len) && !stored[len];
	for (; i + 8 <= len; i += 8)
		if (np_le64(stored + i) != np_le64(name + i))
			return false;
	if (i < len && np_le64(stored + len - 8) != np_le64(name + len - 8))
		return false;
	return !stored[len];
}

/* The index slot holding name (len bytes, as hashed to h), or the empty slot where it would
 * go. A stored name equals it when its first len bytes do and it ends there: names longer than
 * the table keeps compare by their kept prefix, whose NUL is at len. */
static inline __attribute__((always_inline)) uint32_t *probe(const struct np_counters *c,
							      const char *name, size_t len, size_t i)
{
	for (;; i = (i + 1) & (c->nslot - 1)) {
		uint32_t *s = &c->slot[i];
		const char *stored;

		if (!*s)
			return s;
		stored = c->e[*s - 1].name;
		np_counters_seam.compares++;
		if (same_query(stored, name, len))
			return s;
	}
}

/* Same name as stored, for a scan: names longer than the table keeps compare by their kept
 * prefix. */
static int same_name(const char *stored, const char *name)
{
	np_counters_seam.compares++;
	return strncmp(stored, name, NP_COUNTER_NAME_MAX - 1) == 0;
}

/* Indexes entry k unless an earlier entry has its name (lookups find the first, as a scan):
 * false for such a repeat. */
static inline __attribute__((always_inline)) bool index_entry(struct np_counters *c, size_t k)
{
	size_t len, h = hash_name(c, c->e[k].name, &len);
	uint32_t *s = probe(c, c->e[k].name, len, h);

	if (*s)
		return false;
	*s = (uint32_t)(k + 1);
	return true;
}

static void drop_index(struct np_counters *c)
{
	free(c->slot);
	c->slot = NULL;
	c->nslot = 0;
}

/* An index with room for `want` entries at most half full, over the current entries: how
 * many names it holds (fewer than the entries when a name repeats), or -ENOMEM. */
static long build_index(struct np_counters *c, size_t want)
{
	long named = 0;

	size_t nslot = 64;

	if (want >= UINT32_MAX / 2)
		return -ENOMEM;
	while (nslot < 2 * want)
		nslot *= 2;
	drop_index(c);
	c->slot = calloc(nslot, sizeof(*c->slot));
	if (!c->slot)
		return -ENOMEM;
	c->nslot = nslot;
	for (size_t k = 0; k < c->n; k++)
		named += index_entry(c, k);
	return named;
}

static struct np_counter *find(const struct np_counters *c, const char *name)
{
	struct np_counter key;

	if (!c->n)
		return NULL;
	if (c->sorted) {
		copy_name(key.name, name);
		return bsearch(&key, c->e, c->n, sizeof(*c->e), cmp_lookup);
	}
	if (c->slot) {
		size_t len = strnlen(name, NP_COUNTER_NAME_MAX - 1);
		uint32_t *s = probe(c, name, len, hash_query(c, name, len));

		return *s ? &c->e[*s - 1] : NULL;
	}
	for (size_t i = 0; i < c->n; i++)
		if (same_name(c->e[i].name, name))
			return &c->e[i];
	return NULL;
}

/* The first 16 bytes of a name as two big-endian words, zero after its NUL: comparing the
 * pairs as numbers orders as strcmp() does (unsigned bytes, NUL lowest), without a call per
 * comparison; only names alike in all 16 bytes go on to strcmp(). The entry's number travels
 * with its key, so that a comparison reads one array, in order. */
struct sort_key {
	uint64_t hi, lo;
	uint32_t ix;
};

static uint64_t key_word(const char *p, bool *ended)
{
	uint64_t w, z;

	if (*ended)
		return 0;
	w = np_le64(p);	/* names are NP_COUNTER_NAME_MAX (64) bytes: in bounds */
	z = np_word_below(w, 1);
	if (z) {
		/* The lowest flagged byte is the first NUL (flags above it may be false). */
		unsigned at = np_word_first(z);

		w = at ? w & (~0ULL >> (64 - 8 * at)) : 0;
		*ended = true;
	}
	return __builtin_bswap64(w);
}

/* a's name before b's (strictly: equal names keep their order, which makes the sort stable). */
static inline bool key_less(const struct sort_key *a, const struct sort_key *b,
			    const struct np_counters *c)
{
	if (a->hi != b->hi)
		return a->hi < b->hi;
	if (a->lo != b->lo)
		return a->lo < b->lo;
	/* 16 equal bytes: both names longer (a NUL among them would make them equal). */
	return (a->lo & 0xff) && strcmp(c->e[a->ix].name + 16, c->e[b->ix].name + 16) < 0;
}

/* Runs this long are sorted by insertion before the merges: fewer passes over the keys. */
#define SORT_RUN 8

/*
 * A stable sort of the keys (insertion into runs of SORT_RUN, then bottom-up merges), then the
 * entries moved once along the permutation's cycles: the order glibc's qsort (a stable merge
 * sort of these 72-byte entries) gave, at a fraction of its instructions (qsort sorted
 * pointers through a generic comparator and copied through a temporary array). False when
 * there is no memory for the keys.
 */
static bool sort_stable(struct np_counters *c)
{
	size_t n = c->n;
	struct sort_key *key = n <= UINT32_MAX ? malloc(2 * n * sizeof(*key)) : NULL, *tmp;

	if (!key)
		return false;
	tmp = key + n;
	for (size_t i = 0; i < n; i++) {
		bool ended = false;

		key[i].hi = key_word(c->e[i].name, &ended);
		key[i].lo = key_word(c->e[i].name + 8, &ended);
		key[i].ix = (uint32_t)i;
	}
	for (size_t lo = 0; lo < n; lo += SORT_RUN) {
		size_t hi = lo + SORT_RUN < n ? lo + SORT_RUN : n;

		for (size_t i = lo + 1; i < hi; i++) {
			struct sort_key x = key[i];
			size_t j = i;

			for (; j > lo && key_less(&x, &key[j - 1], c); j--)
				key[j] = key[j - 1];
			key[j] = x;
		}
	}
	for (size_t w = SORT_RUN; w < n; w *= 2) {
		struct sort_key *t;

		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
			size_t a = lo, b = mid, k = lo;

			/* The right run's entry goes first only when strictly smaller: stable. */
			while (a < mid && b < hi)
				tmp[k++] = key_less(&key[b], &key[a], c) ? key[b++] : key[a++];
			while (a < mid)
				tmp[k++] = key[a++];
			while (b < hi)
				tmp[k++] = key[b++];
		}
		t = key;
		key = tmp;
		tmp = t;
	}
	/* Entry j takes old entry key[j].ix: follow each cycle with one entry held aside. */
	for (size_t i = 0; i < n; i++) {
		struct np_counter held;
		size_t j = i;

		if (key[i].ix == i)
			continue;
		held = c->e[i];
		while (key[j].ix != i) {
			size_t k = key[j].ix;

			c->e[j] = c->e[k];
			key[j].ix = (uint32_t)j;
			j = k;
		}
		c->e[j] = held;
		key[j].ix = (uint32_t)j;
	}
	free(key < tmp ? key : tmp);
	return true;
}

void np_counters_sort(struct np_counters *c)
{
	if (c->n > 1 && !c->sorted && !sort_stable(c))
		qsort(c->e, c->n, sizeof(*c->e), cmp_counter);
	c->sorted = 1;
	drop_index(c);
}

int np_counters_push(struct np_counters *c, const char *name, uint64_t value)
{
	return np_counters_push_join(c, name, NP_COUNTER_NAME_MAX, "", 0, value);
}

int np_counters_push_join(struct np_counters *c, const char *a, size_t al, const char *b,
			  size_t bl, uint64_t value)
{
	struct np_counter *e = np_counters_next(c);
	size_t n, m;

	if (!e)
		return -ENOMEM;
	/* The name written in place: each part stops at a NUL, the whole at the size. */
	n = strnlen(a, al < NP_COUNTER_NAME_MAX - 1 ? al : NP_COUNTER_NAME_MAX - 1);
	m = bl ? strnlen(b, bl < NP_COUNTER_NAME_MAX - 1 - n ? bl : NP_COUNTER_NAME_MAX - 1 - n) : 0;
	memcpy(e->name, a, n);
	memcpy(e->name + n, b, m);
	e->name[n + m] = '\0';
	e->value = value;
	np_counters_commit(c);
	return 0;
}

struct np_counter *np_counters_grow(struct np_counters *c)
{
	if (c->n == c->cap && np_counters_reserve(c, c->cap ? c->cap * 2 : 64))
		return NULL;
	return &c->e[c->n];
}

void np_counters_unindex(struct np_counters *c)
{
	drop_index(c);
}

/* a[0..na) and b[0..nb), both sorted, into dst[0..na + nb), which may be a's or b's own array
 * (their entries at its start). From the back, so that no entry is overwritten before it is
 * read and each moves at most once; on equal names a's stays first, as a stable sort of a
 * followed by b would leave it. */
static void merge_back(struct np_counter *dst, const struct np_counter *a, size_t na,
		       const struct np_counter *b, size_t nb)
{
	size_t k = na + nb;

	while (na > 0 && nb > 0) {
		if (strcmp(a[na - 1].name, b[nb - 1].name) > 0)
			dst[--k] = a[--na];
		else
			dst[--k] = b[--nb];
	}
	while (nb > 0)
		dst[--k] = b[--nb];
	if (dst != a)
		while (na > 0)
			dst[--k] = a[--na];
}

int np_counters_merge(struct np_counters *out, struct np_counters *add)
{
	size_t total;

	np_counters_sort(add);
	if (!out->e && !out->n) {
		*out = *add;
		*add = (struct np_counters){ 0 };
		return 0;
	}
	np_counters_sort(out);
	total = out->n + add->n;
	if (out->cap < total && add->cap >= total) {
		/* add's array has the room (a parser reserves by its text's size): the merge goes
		 * there, and out's array is dropped, rather than realloc copying out's first. */
		merge_back(add->e, out->e, out->n, add->e, add->n);
		add->n = total;
		np_counters_free(out);
		*out = *add;
		*add = (struct np_counters){ 0 };
		return 0;
	}
	if (np_counters_reserve(out, total))
		return -ENOMEM;
	merge_back(out->e, out->e, out->n, add->e, add->n);
	out->n = total;
	np_counters_free(add);
	return 0;
}

void np_counters_index(struct np_counters *c)
{
	long named;

	if (c->sorted || c->n <= NP_COUNTERS_SCAN) {
		np_counters_sort(c);
		return;
	}
	named = build_index(c, c->n);
	if (named < 0 || (size_t)named != c->n)
		np_counters_sort(c);
}

int np_counters_append(struct np_counters *c, const char *name, uint64_t value)
{
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 64;
		struct np_counter *e = realloc(c->e, cap * sizeof(*e));

		if (!e)
			return -ENOMEM;
		c->e = e;
		c->cap = cap;
	}
	/* The index first, so that a failure leaves the table as it was. A sorted table has
	 * none: it gets one when an append unsorts it. */
	if (c->n + 1 > NP_COUNTERS_SCAN && 2 * (c->n + 1) > c->nslot &&
	    build_index(c, 2 * (c->n + 1)) < 0)
		return -ENOMEM;
	copy_name(c->e[c->n].name, name);
	c->e[c->n].value = value;
	c->n++;
	c->sorted = 0;
	if (c->slot)
		index_entry(c, c->n - 1);
	return 0;
}

int np_counters_reserve(struct np_counters *c, size_t n)
{
	struct np_counter *e;

	if (n <= c->cap)
		return 0;
	e = realloc(c->e, n * sizeof(*e));
	if (!e)
		return -ENOMEM;
	c->e = e;
	c->cap = n;
	return 0;
}

void np_counters_truncate(struct np_counters *c, size_t n, int sorted)
{
	if (n >= c->n)
		return;
	c->n = n;
	c->sorted = sorted;
	drop_index(c);
	/* Rebuilt over what is left, or by the next append (no memory now: scans stay right). */
	if (!sorted && n > NP_COUNTERS_SCAN && build_index(c, 2 * n) < 0)
		drop_index(c);
}

int np_counters_add(struct np_counters *c, const char *name, uint64_t value)
{
	struct np_counter *e = find(c, name);

	if (e) {
		e->value += value;
		return 0;
	}
	return np_counters_append(c, name, value);
}

int np_counters_set(struct np_counters *c, const char *name, uint64_t value)
{
	struct np_counter *e = find(c, name);

	if (e) {
		e->value = value;
		return 0;
	}
	return np_counters_append(c, name, value);
}

uint64_t np_counters_get(const struct np_counters *c, const char *name)
{
	struct np_counter *e = find(c, name);

	return e ? e->value : NP_NA;
}

const uint64_t *np_counters_ref(const struct np_counters *c, const char *name)
{
	struct np_counter *e = find(c, name);

	return e ? &e->value : NULL;
}

void np_counters_free(struct np_counters *c)
{
	free(c->e);
	free(c->slot);
	memset(c, 0, sizeof(*c));
}
