// SPDX-License-Identifier: GPL-2.0-only
/* The flows map's fast path (flow_fast, bpf/drops.bpf.c): per CPU, one (flow, count) slot per
 * reason. A slot's key never changes once taken, so its count only grows: read whole, or as
 * the growth since the last read for the periods of `record --drops`. */
#include "trace_flowfast.h"
#include "trace_dropfast.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "netpath_bpf.h"

static int add_flow(struct np_trace_raw_flow **flows, size_t *n, const struct np_flow_key *k,
		    uint64_t count)
{
	struct np_trace_raw_flow *nf;

	for (size_t i = 0; i < *n; i++)
		if (memcmp(&(*flows)[i].key, k, sizeof(*k)) == 0) {
			(*flows)[i].count += count;
			return 0;
		}
	nf = realloc(*flows, (*n + 1) * sizeof(*nf));
	if (!nf)
		return -ENOMEM;
	*flows = nf;
	nf[*n].key = *k;
	nf[(*n)++].count = count;
	return 0;
}

int np_trace_read_flow_fast(int fd, uint64_t **taken_p, struct np_trace_raw_flow **flows,
			    size_t *n)
{
	int cpus = libbpf_num_possible_cpus();
	unsigned int ncpu = cpus > 0 ? (unsigned int)cpus : 0;
	size_t nslots = (size_t)NP_BPF_MAX_REASONS * ncpu;
	struct np_flow_slot *vals;
	uint64_t *taken = NULL;
	int r;

	if (cpus <= 0)
		return cpus < 0 ? cpus : -EINVAL;
	if (taken_p && !*taken_p)
		*taken_p = calloc(nslots, sizeof(**taken_p));	/* fixed: possible CPUs */
	if (taken_p && !*taken_p)
		return -ENOMEM;
	if (taken_p)
		taken = *taken_p;
	vals = calloc(nslots, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	r = np_trace_read_reason_array(fd, ncpu, vals, sizeof(*vals));
	for (size_t i = 0; r == 0 && i < nslots; i++) {
		uint64_t c = vals[i].count;

		if (taken) {
			/* A count never goes down; the guard keeps a bogus read harmless. */
			c = c > taken[i] ? c - taken[i] : 0;
			taken[i] = vals[i].count > taken[i] ? vals[i].count : taken[i];
		}
		if (c)
			r = add_flow(flows, n, &vals[i].key, c);
	}
	free(vals);
	return r;
}

int np_trace_read_flow_other(int fd, struct np_trace_raw *out)
{
	uint64_t *vals = calloc(out->ncpu, sizeof(*vals));
	int r = 0;

	if (!vals)
		return -ENOMEM;
	for (uint32_t key = 0; key < NP_BPF_MAX_REASONS; key++) {
		struct np_trace_raw_other *no;
		uint64_t sum = 0;

		if (bpf_map_lookup_elem(fd, &key, vals)) {
			r = -errno;
			break;
		}
		for (unsigned int c = 0; c < out->ncpu; c++)
			sum += vals[c];
		if (!sum)
			continue;
		no = realloc(out->other, (out->nother + 1) * sizeof(*no));
		if (!no) {
			r = -ENOMEM;
			break;
		}
		out->other = no;
		no[out->nother].reason = key;
		no[out->nother++].count = sum;
	}
	free(vals);
	return r;
}

