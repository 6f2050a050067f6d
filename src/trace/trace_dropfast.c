// SPDX-License-Identifier: GPL-2.0-only
/* The drops map's fast path (drop_fast, bpf/drops.bpf.c): per CPU, one (location, count) slot
 * per reason. Added here to the rows read from the drops hash, so that the report sees one
 * row per (reason, location) as before. */
#include "trace_dropfast.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>

#include "netpath_bpf.h"

static struct np_trace_raw_drop *find_or_add(struct np_trace_raw *out, uint32_t reason,
					     uint64_t location)
{
	struct np_trace_raw_drop *nd, *d;

	for (size_t i = 0; i < out->ndrops; i++)
		if (out->drops[i].reason == reason && out->drops[i].location == location)
			return &out->drops[i];
	nd = realloc(out->drops, (out->ndrops + 1) * sizeof(*nd));
	if (!nd)
		return NULL;
	out->drops = nd;
	d = &nd[out->ndrops];
	memset(d, 0, sizeof(*d));
	d->per_cpu = calloc(out->ncpu, sizeof(*d->per_cpu));
	if (!d->per_cpu)
		return NULL;
	out->ndrops++;
	d->reason = reason;
	d->location = location;
	return d;
}

/* The whole array in one batch call where the kernel has it (5.7+), else key by key: record
 * --drops reads it every sample. Shared with the flow slots (trace_flowfast.c). */
int np_trace_read_reason_array(int fd, unsigned int ncpu, void *vals, size_t val_size)
{
	uint32_t keys[NP_BPF_MAX_REASONS], count = NP_BPF_MAX_REASONS, next = 0;
	int r = bpf_map_lookup_batch(fd, NULL, &next, keys, vals, &count, NULL);

	if ((r == 0 || errno == ENOENT) && count == NP_BPF_MAX_REASONS)
		return 0;
	for (uint32_t k = 0; k < NP_BPF_MAX_REASONS; k++)
		if (bpf_map_lookup_elem(fd, &k, (char *)vals + (size_t)k * ncpu * val_size))
			return -errno;
	return 0;
}

int np_trace_read_drop_fast(int fd, struct np_trace_raw *out)
{
	struct np_drop_slot *vals = calloc((size_t)NP_BPF_MAX_REASONS * out->ncpu, sizeof(*vals));
	int r;

	if (!vals)
		return -ENOMEM;
	r = np_trace_read_reason_array(fd, out->ncpu, vals, sizeof(*vals));
	for (uint32_t k = 0; r == 0 && k < NP_BPF_MAX_REASONS; k++) {
		for (unsigned int c = 0; c < out->ncpu; c++) {
			const struct np_drop_slot *s = &vals[(size_t)k * out->ncpu + c];
			struct np_trace_raw_drop *d;

			if (!s->count)
				continue;
			d = find_or_add(out, k, s->location);
			if (!d) {
				r = -ENOMEM;
				break;
			}
			d->per_cpu[c] += s->count;
			d->count += s->count;
		}
	}
	free(vals);
	return r;
}
