// SPDX-License-Identifier: GPL-2.0-only
/* The plan profiles: their names and the RTT each assumes when none is known. */
#include "plan_priv.h"

#include <math.h>

static const char *const profile_names[NP_PROFILE__COUNT] = {
	[NP_PROFILE_LAN] = "lan",
	[NP_PROFILE_LONG_HAUL] = "long-haul",
	[NP_PROFILE_BUSY_SERVER] = "busy-server",
	[NP_PROFILE_LOW_LATENCY] = "low-latency",
};

const char *np_profile_name(enum np_profile p)
{
	return p < NP_PROFILE__COUNT ? profile_names[p] : "?";
}

double np_profile_rtt_ms(enum np_profile p)
{
	switch (p) {
	case NP_PROFILE_LAN:
		return 1;	/* a site's network: well under a millisecond, with margin */
	case NP_PROFILE_LONG_HAUL:
		return 50;	/* across a continent */
	case NP_PROFILE_BUSY_SERVER:
		return 20;	/* clients on the Internet, the near half of them */
	case NP_PROFILE_LOW_LATENCY:
		return 0.2;	/* one switch away */
	case NP_PROFILE__COUNT:
		break;
	}
	return NAN;
}
