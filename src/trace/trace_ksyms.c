// SPDX-License-Identifier: GPL-2.0-only
/* A sorted table of kernel text symbols and a binary search over it: pure, fed with text. */
#include "trace_ksyms.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_addr(const void *a, const void *b)
{
	const struct np_ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* One line: "ADDR TYPE NAME[\t[MODULE]]". Returns 1 for a text symbol, 0 to skip it. */
static int parse_line(const char *p, const char *end, uint64_t *addr, const char **name,
		      size_t *nlen)
{
	char *q;

	*addr = strtoull(p, &q, 16);
	if (q == p || q + 3 > end || q[0] != ' ' || q[2] != ' ')
		return 0;
	if (q[1] != 't' && q[1] != 'T')
		return 0;
	*name = q + 3;
	*nlen = (size_t)(end - *name);
	/* "name\t[module]" → "name [module]" below; a bare name has no tab. */
	return *nlen > 0;
}

int np_ksyms_parse(const char *text, size_t len, struct np_ksyms *k)
{
	const char *p = text, *end = text + len;
	size_t cap = 0;
	bool any_addr = false;

	memset(k, 0, sizeof(*k));
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p)), *name;
		uint64_t addr;
		size_t nlen;

		if (!eol)
			eol = end;
		if (parse_line(p, eol, &addr, &name, &nlen) && addr) {
			struct np_ksym *s;
			char *tab;

			any_addr = true;
			if (k->n == cap) {
				size_t ncap = cap ? cap * 2 : 4096;
				struct np_ksym *ns = realloc(k->s, ncap * sizeof(*ns));

				if (!ns)
					goto nomem;
				k->s = ns;
				cap = ncap;
			}
			s = &k->s[k->n];
			s->addr = addr;
			s->name = strndup(name, nlen);
			if (!s->name)
				goto nomem;
			tab = strchr(s->name, '\t');
			if (tab)
				*tab = ' ';
			k->n++;
		}
		p = eol + 1;
	}
	if (!any_addr) {
		np_ksyms_free(k);
		return -ENOENT;
	}
	qsort(k->s, k->n, sizeof(*k->s), cmp_addr);
	return 0;
nomem:
	np_ksyms_free(k);
	return -ENOMEM;
}

const struct np_ksym *np_ksyms_find(const struct np_ksyms *k, uint64_t addr, uint64_t *off)
{
	size_t lo = 0, hi = k ? k->n : 0;

	/* The last symbol whose address is <= addr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->s[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	if (off)
		*off = addr - k->s[lo - 1].addr;
	return &k->s[lo - 1];
}

const char *np_ksyms_format(const struct np_ksyms *k, uint64_t addr, char *buf, size_t size)
{
	uint64_t off = 0;
	const struct np_ksym *s = np_ksyms_find(k, addr, &off);

	if (s)
		snprintf(buf, size, "%s+0x%" PRIx64, s->name, off);
	else
		snprintf(buf, size, "0x%" PRIx64, addr);
	return buf;
}

void np_ksyms_free(struct np_ksyms *k)
{
	for (size_t i = 0; i < k->n; i++)
		free(k->s[i].name);
	free(k->s);
	memset(k, 0, sizeof(*k));
}
