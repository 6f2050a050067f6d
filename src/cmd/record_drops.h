/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * record --drops: trace's tracepoint programs on every recorded interface, their counts into
 * each frame (doc/netpath-record-format.md "Drop counters"):
 *   drops/REASON            every traced interface's drops of that reason, summed
 *   drops/lost              events the programs could not count (a map was full)
 *   ifdrops/IFNAME/REASON   one interface's, when more than one is traced
 *   reason/REASON           the kernel's enum skb_drop_reason value of that name
 *   traced/IFNAME           the ifindex each program counts for
 *   flows/minute, flows/from, flows/to, flows/K/{drops,ifindex,key0..key5}
 *                           the NP_RECORD_TOP_FLOWS flows that dropped most in the last whole
 *                           wall-clock minute (minute: its start; from..to: the period
 *                           actually counted, unix seconds), K = 0.. by drops, the key the
 *                           programs' struct np_flow_key as six words in host order; the
 *                           same values in every frame until the next minute ends.
 */
#ifndef NP_RECORD_DROPS_H
#define NP_RECORD_DROPS_H

#include <net/if.h>
#include <stddef.h>
#include <stdint.h>

#include "snapshot_counters.h"
#include "stack.h"
#include "trace.h"

/* At most this many flows are kept a minute: the frame's size stays fixed. */
#define NP_RECORD_TOP_FLOWS 10
#define NP_RECORD_FLOW_WORDS (sizeof(struct np_flow_key) / sizeof(uint64_t))

struct np_record_reason {
	char name[48];
	uint32_t code;
	uint64_t count[NP_STACK_MAX];	/* by traced interface */
};

struct np_record_top {
	struct np_flow_key key;
	uint64_t drops;
	int ifindex;
};

struct np_record_drops {
	struct np_tracer *t[NP_STACK_MAX];
	char ifname[NP_STACK_MAX][IF_NAMESIZE];
	size_t n;
	uint64_t lost[NP_STACK_MAX];
	struct np_record_reason *reason;	/* in the order first seen: stable names */
	size_t nreason, reason_cap;
	int64_t minute, from;			/* the minute being counted, since when (s) */
	struct np_record_top top[NP_RECORD_TOP_FLOWS];
	size_t ntop;
	int64_t top_minute, top_from, top_to;
};

/* Attach the programs for each of the n interfaces (counting flows too). 0, or -errno with
 * err saying which interface and why; nothing stays attached then. */
int np_record_drops_start(struct np_record_drops *d, const char (*names)[IF_NAMESIZE], size_t n,
			  char *err, size_t errlen);
/* The counts so far into nc; the minute's top flows taken when the wall clock (wall_ns) has
 * left the minute being counted. 0 or -ENOMEM. */
int np_record_drops_add(struct np_record_drops *d, struct np_named_counters *nc, int64_t wall_ns);
/* After the devices were found again: when the names or their ifindexes changed, the
 * programs are attached again (0; -errno with err, nothing attached then). */
int np_record_drops_follow(struct np_record_drops *d, const char (*names)[IF_NAMESIZE], size_t n,
			   char *err, size_t errlen);
void np_record_drops_stop(struct np_record_drops *d);
/* The flows/ counters of d's last minute (part of np_record_drops_add; tests call it alone). */
int np_record_flows_add(const struct np_record_drops *d, struct np_named_counters *nc);

#endif
