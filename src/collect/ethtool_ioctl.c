// SPDX-License-Identifier: GPL-2.0-only
/* Placeholder until the SIOCETHTOOL collector lands. */
#include "collect.h"

void np_collect_ethtool_drvinfo(struct np_snapshot *s) { (void)s; }
void np_collect_ethtool_fallbacks(struct np_snapshot *s) { (void)s; }
void np_collect_driver_stats(struct np_snapshot *s) { (void)s; }
