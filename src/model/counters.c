// SPDX-License-Identifier: GPL-2.0-only
/* Name -> u64 table, sorted once and looked up with bsearch. */
#include "counters.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_counter(const void *a, const void *b)
{
	return strcmp(((const struct np_counter *)a)->name, ((const struct np_counter *)b)->name);
}

/* snprintf(dst, NP_COUNTER_NAME_MAX, "%s", src) without the format machinery: tables are
 * filled and searched by name hundreds of times per snapshot. */
static void copy_name(char *dst, const char *src)
{
	size_t n = strnlen(src, NP_COUNTER_NAME_MAX - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

static struct np_counter *find(const struct np_counters *c, const char *name)
{
	struct np_counter key;

	if (!c->n)
		return NULL;
	if (!c->sorted) {
		for (size_t i = 0; i < c->n; i++)
			if (strcmp(c->e[i].name, name) == 0)
				return &c->e[i];
		return NULL;
	}
	copy_name(key.name, name);
	return bsearch(&key, c->e, c->n, sizeof(*c->e), cmp_counter);
}

void np_counters_sort(struct np_counters *c)
{
	if (c->n && !c->sorted)
		qsort(c->e, c->n, sizeof(*c->e), cmp_counter);
	c->sorted = 1;
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
	copy_name(c->e[c->n].name, name);
	c->e[c->n].value = value;
	c->n++;
	c->sorted = 0;
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

void np_counters_free(struct np_counters *c)
{
	free(c->e);
	memset(c, 0, sizeof(*c));
}
