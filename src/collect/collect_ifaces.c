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

struct cand {
	char name[IF_NAMESIZE];
	bool physical;
};

/* Physical devices first (the NICs a host is judged on), then by name: the order does not
 * depend on readdir's, so which interfaces are kept past max is stable. */
static int cmp_cand(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->physical != y->physical)
		return x->physical ? -1 : 1;
	return strcmp(x->name, y->name);
}

size_t np_collect_busy_ifaces(const struct np_ctx *ctx, char (*names)[IF_NAMESIZE], size_t max,
			      size_t *more)
{
	struct cand *c = NULL;
	size_t n = 0, cap = 0, keep;
	struct dirent *de;
	DIR *d;

	*more = 0;
	if (np_opendir(ctx, NP_SYS, "class/net", &d) < 0)
		return 0;
	/* Every candidate first (a name and a flag: 17 bytes each), then the choice: keeping
	 * the first max in readdir order could drop a NIC for veths when more than max are
	 * busy. */
	while ((de = readdir(d))) {
		char path[96], name[IF_NAMESIZE];

		if (!np_ifname_ok(de->d_name) || !strcmp(de->d_name, "lo"))
			continue;
		snprintf(name, sizeof(name), "%.15s", de->d_name);
		/* Members of a bond or ports of a bridge: judged beneath their master. */
		snprintf(path, sizeof(path), "class/net/%s/master", name);
		if (np_exists(ctx, NP_SYS, path) || !carries_traffic(ctx, name))
			continue;
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 64;
			struct cand *nc = realloc(c, ncap * sizeof(*nc));

			if (!nc) {
				++*more;	/* out of memory: still counted, never dropped silently */
				continue;
			}
			c = nc;
			cap = ncap;
		}
		memcpy(c[n].name, name, IF_NAMESIZE);
		snprintf(path, sizeof(path), "class/net/%s/device", name);
		c[n++].physical = np_exists(ctx, NP_SYS, path);
	}
	closedir(d);
	if (n)
		qsort(c, n, sizeof(*c), cmp_cand);
	keep = n < max ? n : max;
	for (size_t i = 0; i < keep; i++)
		memcpy(names[i], c[i].name, IF_NAMESIZE);
	*more += n - keep;	/* said in the report, never dropped silently */
	free(c);
	return keep;
}
