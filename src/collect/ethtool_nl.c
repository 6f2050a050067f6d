// SPDX-License-Identifier: GPL-2.0-only
/* Placeholder until the ethtool netlink collector lands. */
#include "collect.h"

void np_collect_ethtool_nl(struct np_snapshot *s) { (void)s; }
