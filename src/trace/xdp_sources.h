/* SPDX-License-Identifier: GPL-2.0-only */
/* trace --xdp: the per-source counts, from the kernel's per-CPU map to the top N. Pure. */
#ifndef NP_XDP_SOURCES_H
#define NP_XDP_SOURCES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "xdp_count.h"

struct np_xdp_source {
	uint8_t family;		/* 4 or 6 */
	uint8_t addr[16];	/* network order; IPv4 in the first 4 bytes */
	uint64_t packets, bytes;
};

struct np_xdp_sources {
	bool on;		/* counted (--top > 0); all else is empty when false */
	size_t cap;		/* the kernel map's capacity, NP_XDP_MAX_SOURCES */
	size_t keys;		/* distinct sources it held at the end */
	size_t n;
	struct np_xdp_source *top;	/* the N largest by packets (then bytes, then address) */
	struct np_xdp_slot other;	/* every IP frame not in top: smaller sources + unkeyed */
	struct np_xdp_slot unkeyed;	/* IP frames whose source found the map full */
	struct np_xdp_slot non_ip;	/* frames without an IPv4/IPv6 source */
};

/*
 * Sum the per-CPU values and keep the TOP largest sources. keys[i]'s value on the c-th
 * possible CPU is vals[i * ncpu + c]; misc holds the NP_XDP_SRC__COUNT slots the same way
 * (NULL: none). Keys with no packets are skipped, a key given twice is merged, keys of an
 * unknown family are counted as non-IP. Returns 0, -EINVAL or -ENOMEM (out emptied).
 * Afterwards sum(top) + other + non_ip == every frame the program counted.
 */
int np_xdp_sources_fold(const struct np_xdp_src_key *keys, const struct np_xdp_slot *vals,
			size_t nkeys, size_t ncpu, const struct np_xdp_slot *misc, size_t top,
			struct np_xdp_sources *out);
void np_xdp_sources_free(struct np_xdp_sources *s);
/* "198.18.0.1", "2001:db8::1". Returns buf. */
const char *np_xdp_source_addr(const struct np_xdp_source *s, char *buf, size_t size);

#endif
