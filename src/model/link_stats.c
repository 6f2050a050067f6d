// SPDX-License-Identifier: GPL-2.0-only
/* The interface-statistics field table both readers share (sysfs by name, rtnetlink by
 * position); the fields themselves are declared in link_stats.h. */
#include "link_stats.h"
#include "snapshot.h"

const struct np_link_stats_field np_link_stats_fields[] = {
#define NP_LINK_STATS_ROW(name) { #name, offsetof(struct np_link_stats, name) },
	NP_LINK_STATS_FIELDS(NP_LINK_STATS_ROW)
#undef NP_LINK_STATS_ROW
};
const size_t np_link_stats_nfields = sizeof(np_link_stats_fields) / sizeof(np_link_stats_fields[0]);

/* Every field is a u64 and the table lists them all, so the struct has no padding or extras. */
_Static_assert(sizeof(np_link_stats_fields) / sizeof(np_link_stats_fields[0]) ==
		       sizeof(struct np_link_stats) / sizeof(uint64_t),
	       "every np_link_stats member is in the field table");

void np_link_stats_init(struct np_link_stats *st)
{
	for (size_t i = 0; i < np_link_stats_nfields; i++)
		*np_link_stats_at(st, i) = NP_NA;
}
