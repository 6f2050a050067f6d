/* SPDX-License-Identifier: GPL-2.0-only */
/* A name -> u64 table: MIB counters ("TcpExtListenOverflows"), conntrack stats, driver stats. */
#ifndef NP_COUNTERS_H
#define NP_COUNTERS_H

#include <stddef.h>
#include <stdint.h>

/* "Not reported" is distinct from zero everywhere in the snapshot. */
#define NP_NA UINT64_MAX
#define np_has(v) ((v) != NP_NA)

#define NP_COUNTER_NAME_MAX 64

struct np_counter {
	char name[NP_COUNTER_NAME_MAX];
	uint64_t value;
};

/*
 * While a table is unsorted and holds more than NP_COUNTERS_SCAN names, an open-addressing
 * index over e[] answers lookups (slot = entry index + 1, 0 empty; at most half full), so that
 * de-duplicating adds and parsers' repeated-name checks stay O(1) per line instead of a scan of
 * everything before it (issue #29: 4,000 repeated ethtool -S names took 47 s). Sorting drops
 * the index: sorted tables, the ones a snapshot keeps, are searched with bsearch.
 * Code may read n and e[] directly; only the functions below change a table.
 */
#define NP_COUNTERS_SCAN 16

struct np_counters {
	size_t n, cap;
	struct np_counter *e;
	int sorted;
	uint32_t *slot;
	size_t nslot;	/* a power of two, or 0 without an index */
};

/* Adds or, if the name exists, adds to the value (conntrack sums per-CPU rows). -ENOMEM. */
int np_counters_add(struct np_counters *c, const char *name, uint64_t value);
/* Sets (replaces) a value. */
int np_counters_set(struct np_counters *c, const char *name, uint64_t value);
/* Appends without looking for an existing name: for parsers whose names are unique. A repeated
 * name is kept twice; lookups of an unsorted table find the first. */
int np_counters_append(struct np_counters *c, const char *name, uint64_t value);
/* Appends without indexing: for a parser that sorts or merges the table before any lookup
 * (lookups before that scan). -ENOMEM. */
int np_counters_push(struct np_counters *c, const char *name, uint64_t value);
/* The same for a name in two parts, a[0..al) then b[0..bl) ("TcpExt" and "ListenOverflows"),
 * each stopping at a NUL, the whole cut at NP_COUNTER_NAME_MAX - 1: written in place. */
int np_counters_push_join(struct np_counters *c, const char *a, size_t al, const char *b,
			  size_t bl, uint64_t value);
/* The entry after the last, with room made for it (NULL: no memory), for a parser to write in
 * place; np_counters_commit() then counts it. Until then the table is unchanged. */
struct np_counter *np_counters_grow(struct np_counters *c);
void np_counters_unindex(struct np_counters *c);
static inline struct np_counter *np_counters_next(struct np_counters *c)
{
	return c->n < c->cap ? &c->e[c->n] : np_counters_grow(c);
}
static inline void np_counters_commit(struct np_counters *c)
{
	if (c->slot)
		np_counters_unindex(c);
	c->n++;
	c->sorted = 0;
}
/* Moves add's entries into out, both sorted (as np_counters_sort would order out then add
 * appended), and frees add. -ENOMEM leaves out sorted and complete without add's. */
int np_counters_merge(struct np_counters *out, struct np_counters *add);
/* For a table that is only looked up by name, never walked in order (doctor's MIB): a hash
 * index over it as it stands, a third of what sorting it costs. When a name repeats (or the
 * table is small, or there is no memory) it is sorted instead, so that every lookup answers
 * exactly as it would in the sorted table: which copy of a repeated name a bsearch meets. */
void np_counters_index(struct np_counters *c);
/* Room for n entries in all, in one allocation: a parser that knows its count up front spares
 * the doubling reallocations (each copy touches fresh pages). */
int np_counters_reserve(struct np_counters *c, size_t n);
/* Collectors sort once when done so lookups are bsearch; unsorted tables are scanned. */
void np_counters_sort(struct np_counters *c);
/* NP_NA when absent. */
uint64_t np_counters_get(const struct np_counters *c, const char *name);
/* Where np_counters_get finds name's value, or NULL: valid while the table keeps its entries
 * (values may change: history resolves its counters once per run of frames). */
const uint64_t *np_counters_ref(const struct np_counters *c, const char *name);
/* Drops the entries from n on (a failed batch of appends): the table is as it was at n. */
void np_counters_truncate(struct np_counters *c, size_t n, int sorted);
void np_counters_free(struct np_counters *c);

/*
 * Test seam, read by tests only: name comparisons made by lookups (scan, index probe or bsearch
 * step) since the process started. Tests bound it by a multiple of the lines parsed, which
 * shows linear work without a clock.
 */
struct np_counters_seam {
	unsigned long long compares;
};
extern struct np_counters_seam np_counters_seam;

#endif
