// SPDX-License-Identifier: GPL-2.0-only
/* Whose values a check judges: the interface, this network namespace, or the whole host. This
 * matters with --netns: softnet_stat, IRQs, netdev_* and tcp_mem/udp_mem are host-wide. */
#include "funnel.h"

#include <string.h>

static const struct {
	const char *prefix;
	enum np_scope scope;
} scopes[] = {
	{ "link.", NP_SCOPE_INTERFACE },
	{ "pcie.", NP_SCOPE_INTERFACE },
	{ "nic.", NP_SCOPE_INTERFACE },
	{ "irq.", NP_SCOPE_HOST },
	{ "irq.rss-", NP_SCOPE_INTERFACE },
	{ "irq.coalescing", NP_SCOPE_INTERFACE },
	{ "irq.gro", NP_SCOPE_INTERFACE },
	{ "softnet.", NP_SCOPE_HOST },
	{ "ingress.", NP_SCOPE_NETNS },
	{ "ingress.xdp-", NP_SCOPE_INTERFACE },
	{ "ingress.tc-", NP_SCOPE_INTERFACE },
	{ "ip.", NP_SCOPE_NETNS },
	{ "transport.", NP_SCOPE_NETNS },
	{ "socket.", NP_SCOPE_NETNS },
	/* tcp_mem, udp_mem, rmem_max/wmem_max are global sysctls. */
	{ "socket.tcp-mem", NP_SCOPE_HOST },
	{ "socket.udp-mem", NP_SCOPE_HOST },
	{ "socket.rmem-max", NP_SCOPE_HOST },
	{ "socket.buffer-limits", NP_SCOPE_HOST },
	{ "congestion.", NP_SCOPE_NETNS },
	{ "congestion.pacing", NP_SCOPE_HOST },	/* net.core.default_qdisc is global */
	{ "congestion.qdisc-", NP_SCOPE_INTERFACE },
	{ "congestion.bbr-without-fq", NP_SCOPE_INTERFACE },
	{ "congestion.txqueuelen", NP_SCOPE_INTERFACE },
};

enum np_scope np_check_scope(const struct np_check *c)
{
	enum np_scope sc = NP_SCOPE_NETNS;
	size_t best = 0;

	for (size_t i = 0; i < sizeof(scopes) / sizeof(scopes[0]); i++) {
		size_t l = strlen(scopes[i].prefix);

		if (l > best && strncmp(c->id, scopes[i].prefix, l) == 0) {
			best = l;
			sc = scopes[i].scope;
		}
	}
	return sc;
}
