// SPDX-License-Identifier: GPL-2.0-only
/* netpath diff: which stage a sysctl belongs to (the stage whose checks judge it). */
#include "diff.h"

#include <string.h>

/* The registry's stage column (sysctl_registry.h), expanded here where stages are known. */
static const enum np_stage sysctl_stage[NP_SYSCTL__COUNT] = {
#define NP_SYSCTL_STAGE(id, key, unit, files, owner, stage) [NP_SYSCTL_##id] = NP_STAGE_##stage,
	NP_SYSCTLS(NP_SYSCTL_STAGE)
#undef NP_SYSCTL_STAGE
};

enum np_stage np_diff_sysctl_stage(const char *key, bool *listed)
{
	size_t n = strlen(key);

	int id = np_sysctl_id_of(key);

	*listed = true;
	if (id >= 0)
		return sysctl_stage[id];
	/* net.ipv4.conf.IFACE.rp_filter: the interface's own (its name may hold dots). */
	if (strncmp(key, "net.ipv4.conf.", 14) == 0 && n > 24 &&
	    strcmp(key + n - 10, ".rp_filter") == 0)
		return NP_STAGE_IP;
	*listed = false;
	if (strncmp(key, "net.core.", 9) == 0)
		return NP_STAGE_SOFTNET;
	if (strncmp(key, "net.netfilter.", 14) == 0)
		return NP_STAGE_INGRESS;
	if (strncmp(key, "net.ipv4.tcp_", 13) == 0)
		return NP_STAGE_TRANSPORT;
	if (strncmp(key, "net.ipv4.ip", 11) == 0 || strncmp(key, "net.ipv4.conf.", 14) == 0)
		return NP_STAGE_IP;
	return NP_STAGE_SOCKET;
}

