/* SPDX-License-Identifier: GPL-2.0-only */
/* Which receive-path stage a drop reason (or a freeing function) belongs to, and what it means. */
#ifndef NP_TRACE_STAGE_H
#define NP_TRACE_STAGE_H

#include <stdbool.h>

#include "finding.h"

enum np_reason_match { NP_MATCH_EXACT, NP_MATCH_PREFIX, NP_MATCH_DEFAULT };

struct np_reason_info {
	enum np_stage stage;
	bool benign;		/* a normal free, not a loss: hidden unless --all */
	const char *explanation;	/* one line */
	enum np_reason_match match;	/* how the name was found (tests want no DEFAULT) */
};

/* A reason name without the SKB_DROP_REASON_ prefix ("SOCKET_RCVBUFF", "OPENVSWITCH:3"). Never
 * fails: an unknown name gets stage ip, a generic explanation and match NP_MATCH_DEFAULT. */
struct np_reason_info np_reason_info(const char *name);

/* Stage of a kernel function that freed an skb (kernels without drop reasons, and the
 * locations of NOT_SPECIFIED frees): by the function's subsystem prefix. */
struct np_reason_info np_symbol_info(const char *func);

/* The doctor check that judges the same loss from its counter ("transport.udp-no-ports" for
 * NO_SOCKET), so that trace and doctor rate it by one rule: that check's thresholds, and a
 * check without thresholds (not a loss) never more than info. NULL: no such check. */
const char *np_reason_check(const char *name);

#endif
