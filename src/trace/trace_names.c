// SPDX-License-Identifier: GPL-2.0-only
/* Lookups in the drop-reason table read from BTF: pure, no libbpf needed. */
#include "trace_names.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct np_reason_name *find(const struct np_reason_name *e, size_t n, uint32_t v)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (e[mid].value == v)
			return &e[mid];
		if (e[mid].value < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const char *np_reason_name(const struct np_reason_names *n, uint32_t value, char *buf,
			   size_t size)
{
	const struct np_reason_name *r = n ? find(n->e, n->n, value) : NULL;

	if (r) {
		snprintf(buf, size, "%s", r->name);
		return buf;
	}
	if (n && n->subsys_shift && (value >> n->subsys_shift) != 0) {
		uint32_t sub = value >> n->subsys_shift;
		const struct np_reason_name *s = find(n->subsys, n->nsubsys, sub);
		uint32_t code = value & ((1u << n->subsys_shift) - 1);

		if (s)
			snprintf(buf, size, "%s:%" PRIu32, s->name, code);
		else
			snprintf(buf, size, "SUBSYS_%" PRIu32 ":%" PRIu32, sub, code);
		return buf;
	}
	snprintf(buf, size, "reason-%" PRIu32, value);
	return buf;
}

int64_t np_reason_value(const struct np_reason_names *n, const char *name)
{
	for (size_t i = 0; n && i < n->n; i++)
		if (strcmp(n->e[i].name, name) == 0)
			return n->e[i].value;
	return -1;
}

bool np_reason_is_sentinel(const char *name)
{
	return strcmp(name, "MAX") == 0 || strcmp(name, "SUBSYS_MASK") == 0;
}

void np_reason_names_free(struct np_reason_names *n)
{
	free(n->e);
	free(n->subsys);
	memset(n, 0, sizeof(*n));
}
