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

struct np_counters {
	size_t n, cap;
	struct np_counter *e;
	int sorted;
};

/* Adds or, if the name exists, adds to the value (conntrack sums per-CPU rows). -ENOMEM. */
int np_counters_add(struct np_counters *c, const char *name, uint64_t value);
/* Sets (replaces) a value. */
int np_counters_set(struct np_counters *c, const char *name, uint64_t value);
/* Appends without looking for an existing name: for parsers whose names are unique. */
int np_counters_append(struct np_counters *c, const char *name, uint64_t value);
/* Room for n entries in all, in one allocation: a parser that knows its count up front spares
 * the doubling reallocations (each copy touches fresh pages). */
int np_counters_reserve(struct np_counters *c, size_t n);
/* Collectors sort once when done so lookups are bsearch; unsorted tables are scanned. */
void np_counters_sort(struct np_counters *c);
/* NP_NA when absent. */
uint64_t np_counters_get(const struct np_counters *c, const char *name);
void np_counters_free(struct np_counters *c);

#endif
