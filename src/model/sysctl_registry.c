// SPDX-License-Identifier: GPL-2.0-only
/* The sysctl registry's table (sysctl_registry.h declares the rows). */
#include "sysctl_registry.h"

#include <string.h>

const struct np_sysctl_def np_sysctl_defs[NP_SYSCTL__COUNT] = {
#define NP_SYSCTL_ROW(id, k, u, f, o, stage) \
	[NP_SYSCTL_##id] = { .key = k, .unit = u, .files = NP_SYSCTL_FILES_##f, \
			     .owner = NP_SYSCTL_OWNER_##o },
	NP_SYSCTLS(NP_SYSCTL_ROW)
#undef NP_SYSCTL_ROW
};

int np_sysctl_id_of(const char *key)
{
	for (int i = 0; i < NP_SYSCTL__COUNT; i++)
		if (!strcmp(np_sysctl_defs[i].key, key))
			return i;
	return -1;
}
