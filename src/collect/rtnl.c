// SPDX-License-Identifier: GPL-2.0-only
/* Placeholder until the rtnetlink collector lands. */
#include "collect.h"

void np_collect_rtnl(struct np_snapshot *s) { (void)s; }
