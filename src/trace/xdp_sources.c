// SPDX-License-Identifier: GPL-2.0-only
/* trace --xdp: per-source counts summed over CPUs, ranked, the rest in "other". */
#include "xdp_sources.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void slot_add(struct np_xdp_slot *a, const struct np_xdp_slot *b)
{
	a->packets += b->packets;
	a->bytes += b->bytes;
}

/* Busiest first; ties by bytes, then by address, so the order never depends on the map's. */
static int by_packets(const void *pa, const void *pb)
{
	const struct np_xdp_source *a = pa, *b = pb;

	if (a->packets != b->packets)
		return a->packets > b->packets ? -1 : 1;
	if (a->bytes != b->bytes)
		return a->bytes > b->bytes ? -1 : 1;
	if (a->family != b->family)
		return a->family < b->family ? -1 : 1;
	return memcmp(a->addr, b->addr, sizeof(a->addr));
}

static int by_addr(const void *pa, const void *pb)
{
	const struct np_xdp_source *a = pa, *b = pb;

	if (a->family != b->family)
		return a->family < b->family ? -1 : 1;
	return memcmp(a->addr, b->addr, sizeof(a->addr));
}

/* The kernel's keys are unique; repeats (two reads merged) add up: sorted by address, each
 * run of one address becomes one entry. Returns the new count. */
static size_t merge(struct np_xdp_source *all, size_t n)
{
	size_t w = 0;

	qsort(all, n, sizeof(*all), by_addr);
	for (size_t i = 0; i < n; i++) {
		if (w && !by_addr(&all[w - 1], &all[i])) {
			all[w - 1].packets += all[i].packets;
			all[w - 1].bytes += all[i].bytes;
		} else {
			all[w++] = all[i];
		}
	}
	return w;
}

int np_xdp_sources_fold(const struct np_xdp_src_key *keys, const struct np_xdp_slot *vals,
			size_t nkeys, size_t ncpu, const struct np_xdp_slot *misc, size_t top,
			struct np_xdp_sources *out)
{
	struct np_xdp_source *all;
	size_t n = 0;

	memset(out, 0, sizeof(*out));
	if (nkeys && (!keys || !vals || !ncpu))
		return -EINVAL;
	out->on = true;
	out->cap = NP_XDP_MAX_SOURCES;
	for (size_t c = 0; misc && c < ncpu; c++) {
		slot_add(&out->unkeyed, &misc[NP_XDP_SRC_UNKEYED * ncpu + c]);
		slot_add(&out->non_ip, &misc[NP_XDP_SRC_NON_IP * ncpu + c]);
	}
	out->other = out->unkeyed;
	out->keys = nkeys;
	all = calloc(nkeys ? nkeys : 1, sizeof(*all));
	if (!all) {
		memset(out, 0, sizeof(*out));
		return -ENOMEM;
	}
	for (size_t i = 0; i < nkeys; i++) {
		struct np_xdp_slot sum = { 0 };

		for (size_t c = 0; c < ncpu; c++)
			slot_add(&sum, &vals[i * ncpu + c]);
		if (!sum.packets)
			continue;
		if (keys[i].family != 4 && keys[i].family != 6) {
			slot_add(&out->non_ip, &sum);
			continue;
		}
		all[n].family = keys[i].family;
		memcpy(all[n].addr, keys[i].addr, sizeof(all[n].addr));
		all[n].packets = sum.packets;
		all[n++].bytes = sum.bytes;
	}
	n = merge(all, n);
	qsort(all, n, sizeof(*all), by_packets);
	for (size_t i = top; i < n; i++) {
		out->other.packets += all[i].packets;
		out->other.bytes += all[i].bytes;
	}
	out->n = n < top ? n : top;
	out->top = all;
	return 0;
}

void np_xdp_sources_free(struct np_xdp_sources *s)
{
	free(s->top);
	memset(s, 0, sizeof(*s));
}

const char *np_xdp_source_addr(const struct np_xdp_source *s, char *buf, size_t size)
{
	if (!inet_ntop(s->family == 6 ? AF_INET6 : AF_INET, s->addr, buf, (socklen_t)size))
		buf[0] = '\0';
	return buf;
}
