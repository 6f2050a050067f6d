// SPDX-License-Identifier: GPL-2.0-only
/* The interfaces of a namespace worth judging on their own (doctor --all, capture --all). */
#include "collect.h"

#include <dirent.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"

/* Up (or "unknown" with carrier) and carried packets since boot. */
static bool carries_traffic(const struct np_ctx *ctx, const char name[IF_NAMESIZE])
{
	char path[96], st[16] = "";
	uint64_t rx = 0, tx = 0, carrier = 0;

	snprintf(path, sizeof(path), "class/net/%.15s/operstate", name);
	if (np_read_str(ctx, NP_SYS, path, st, sizeof(st)) < 0)
		return false;
	snprintf(path, sizeof(path), "class/net/%.15s/carrier", name);
	np_read_u64(ctx, NP_SYS, path, &carrier);
	if (strcmp(st, "up") && !(strcmp(st, "unknown") == 0 && carrier == 1))
		return false;
	snprintf(path, sizeof(path), "class/net/%.15s/statistics/rx_packets", name);
	np_read_u64(ctx, NP_SYS, path, &rx);
	snprintf(path, sizeof(path), "class/net/%.15s/statistics/tx_packets", name);
	np_read_u64(ctx, NP_SYS, path, &tx);
	return rx + tx > 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

size_t np_collect_busy_ifaces(const struct np_ctx *ctx, char (*names)[IF_NAMESIZE], size_t max,
			      size_t *more)
{
	struct dirent *de;
	size_t n = 0;
	DIR *d;

	*more = 0;
	if (np_opendir(ctx, NP_SYS, "class/net", &d) < 0)
		return 0;
	while ((de = readdir(d))) {
		char path[96], name[IF_NAMESIZE];

		if (!np_ifname_ok(de->d_name) || !strcmp(de->d_name, "lo"))
			continue;
		snprintf(name, sizeof(name), "%.15s", de->d_name);
		/* Members of a bond or ports of a bridge: judged beneath their master. */
		snprintf(path, sizeof(path), "class/net/%s/master", name);
		if (np_exists(ctx, NP_SYS, path) || !carries_traffic(ctx, name))
			continue;
		if (n < max)
			memcpy(names[n++], name, IF_NAMESIZE);
		else
			++*more;	/* said in the report, never dropped silently */
	}
	closedir(d);
	qsort(names, n, IF_NAMESIZE, cmp_name);
	return n;
}
