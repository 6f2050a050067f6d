// SPDX-License-Identifier: GPL-2.0-only
/* Placeholder until the netdev qstats collector lands. */
#include "collect.h"

void np_collect_qstats(struct np_snapshot *s) { (void)s; }
