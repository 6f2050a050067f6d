/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The flows that dropped most in a past window of a `record --drops` recording (the recorder
 * keeps the top ones of every minute, record_drops.h): what doctor --at and history show.
 */
#ifndef NP_RECFLOWS_H
#define NP_RECFLOWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* At most this many flows are shown: the recorder keeps as many a minute. */
#define NP_REC_FLOWS_MAX 10

struct np_rec_flow {
	char iface[16];
	char reason[48];		/* the kernel's drop reason ("SOCKET_RCVBUFF") */
	char flow[128];			/* "198.18.0.1:40000 > 198.18.0.2:9000 udp" */
	char proto[16];			/* "udp", "" for non-IP */
	char src[48], dst[48];		/* "" for non-IP */
	int sport, dport;		/* -1: none (non-IP, fragments, no ports); ICMP type, code */
	uint64_t drops;			/* over the minutes summed */
};

struct np_rec_flows {
	bool recorded;			/* the recording holds top flows for these minutes */
	unsigned minutes;		/* how many minutes' top flows were summed */
	int64_t from, to;		/* the period they were counted over, unix seconds */
	size_t n;
	struct np_rec_flow f[NP_REC_FLOWS_MAX];	/* by drops, most first */
};

#endif
