/* SPDX-License-Identifier: GPL-2.0-only */
/* The per-driver counter tables (driver_counter_tables.c), read by driver_counters.c. */
#ifndef NP_DRIVER_COUNTER_TABLES_H
#define NP_DRIVER_COUNTER_TABLES_H

#include "driver_counters.h"

/*
 * Patterns match a whole counter name, case-insensitively:
 *   %  one or more digits, captured as the queue index ("rx%_xdp_drop" -> rx3_xdp_drop: queue 3)
 *   #  one or more digits that are not a queue (a priority, packet buffer or lane)
 *   *  any run of characters, possibly empty
 * The first matching entry of the driver's table decides; an entry with meaning NONE is a
 * counter we know to be harmless (it stops the generic patterns from guessing). Names the table
 * does not know fall through to the generic patterns, so new counters still get a meaning.
 */
struct np_drv_pat {
	const char *pat;
	unsigned char meaning;	/* enum np_drv_meaning */
	unsigned char stage;	/* enum np_stage */
	unsigned char dir;	/* NP_DRV_DIR_RX, _TX, or _NAME: from the name's rx/tx token */
	unsigned char len;	/* strlen(pat): its last character rejects most names at once */
};

enum { NP_DRV_DIR_RX, NP_DRV_DIR_TX, NP_DRV_DIR_NAME };

/* The driver's own table, ended by a NULL pattern; NULL for drivers without one. */
const struct np_drv_pat *np_drv_patterns(const char *driver);
/* np_drv_classify() with the driver's table already looked up (tab may be NULL): np_analyze()
 * classifies every counter of one driver and looks its table up once. */
bool np_drv_classify_in(const struct np_drv_pat *tab, const char *name, struct np_drv_class *out);

#endif
