// SPDX-License-Identifier: GPL-2.0-only
/* The check table: every stage's checks joined in receive-path order. */
#include "check.h"

#include <string.h>

static const struct np_check *const *const stage_lists[NP_STAGE__COUNT] = {
	[NP_STAGE_LINK] = np_checks_link,
	[NP_STAGE_PCIE] = np_checks_pcie,
	[NP_STAGE_NIC] = np_checks_nic,
	[NP_STAGE_IRQ] = np_checks_irq,
	[NP_STAGE_SOFTNET] = np_checks_softnet,
	[NP_STAGE_INGRESS] = np_checks_ingress,
	[NP_STAGE_IP] = np_checks_ip,
	[NP_STAGE_TRANSPORT] = np_checks_transport,
	[NP_STAGE_SOCKET] = np_checks_socket,
	[NP_STAGE_CONGESTION] = np_checks_congestion,
};

static const struct np_check *table[NP_MAX_CHECKS + 1];
static size_t ntable;

const struct np_check *const *np_check_table(size_t *n)
{
	if (!ntable) {
		for (int st = 0; st < NP_STAGE__COUNT; st++)
			for (size_t i = 0; stage_lists[st][i] && ntable < NP_MAX_CHECKS; i++)
				table[ntable++] = stage_lists[st][i];
	}
	if (n)
		*n = ntable;
	return table;
}

const struct np_check *np_check_find(const char *id)
{
	size_t n;
	const struct np_check *const *t = np_check_table(&n);

	for (size_t i = 0; i < n; i++)
		if (strcmp(t[i]->id, id) == 0)
			return t[i];
	return NULL;
}

int np_check_index(const struct np_check *c)
{
	size_t n;
	const struct np_check *const *t = np_check_table(&n);

	for (size_t i = 0; i < n; i++)
		if (t[i] == c)
			return (int)i;
	return -1;
}
