// SPDX-License-Identifier: GPL-2.0-only
/* Pure parsers for SIOCETHTOOL replies (driver info, private stats, legacy rings/channels). */
#include "ethtool_ioctl_parse.h"
#include "strcopy.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Copies a fixed-size, NUL-padded kernel field without reading past it. */
static void copy_field(char *dst, size_t dsize, const char *src, size_t ssize)
{
	size_t n = strnlen(src, ssize);

	if (n >= dsize)
		n = dsize - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

void np_ethtool_drvinfo_parse(const struct ethtool_drvinfo *di, struct np_ethtool *e)
{
	copy_field(e->driver, sizeof(e->driver), di->driver, sizeof(di->driver));
	copy_field(e->version, sizeof(e->version), di->version, sizeof(di->version));
	copy_field(e->fw_version, sizeof(e->fw_version), di->fw_version, sizeof(di->fw_version));
	copy_field(e->bus_info, sizeof(e->bus_info), di->bus_info, sizeof(di->bus_info));
}

struct stat_name {
	char name[NP_COUNTER_NAME_MAX];
	size_t idx;		/* position in the driver's list: names and values pair by it */
};

static int cmp_name_idx(const void *a, const void *b)
{
	const struct stat_name *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int cmp_name(const void *key, const void *elt)
{
	return strcmp(key, ((const struct stat_name *)elt)->name);
}

/*
 * Renames the 2nd, 3rd, ... occurrence of a name to "name#2", "name#3", ... A suffix that the
 * driver itself already uses as a name is skipped, so every final name is unique.
 */
static void dedup_names(struct stat_name *sorted, size_t n, char (*final)[NP_COUNTER_NAME_MAX])
{
	size_t i = 0;

	while (i < n) {
		size_t j = i + 1;
		unsigned k = 2;

		np_strcopy(final[sorted[i].idx], NP_COUNTER_NAME_MAX, sorted[i].name);
		for (; j < n && strcmp(sorted[j].name, sorted[i].name) == 0; j++) {
			char cand[NP_COUNTER_NAME_MAX];

			do {
				snprintf(cand, sizeof(cand), "%.*s#%u", ETH_GSTRING_LEN,
					 sorted[i].name, k++);
			} while (bsearch(cand, sorted, n, sizeof(*sorted), cmp_name));
			np_strcopy(final[sorted[j].idx], NP_COUNTER_NAME_MAX, cand);
		}
		i = j;
	}
}

int np_ethtool_stats_parse(const char *strings, size_t n_strings, const uint64_t *values,
			   size_t n_values, struct np_counters *out)
{
	struct np_counters tmp = { 0 };
	struct stat_name *names = NULL;
	char (*final)[NP_COUNTER_NAME_MAX] = NULL;
	size_t n = 0;
	int err = 0;

	if (n_strings != n_values)
		return -EAGAIN;
	if (n_strings > NP_ETHTOOL_MAX_STATS || (n_strings && (!strings || !values)))
		return -EINVAL;
	if (n_strings) {
		names = calloc(n_strings, sizeof(*names));
		final = calloc(n_strings, sizeof(*final));
		if (!names || !final) {
			err = -ENOMEM;
			goto out;
		}
	}
	for (size_t i = 0; i < n_strings; i++) {
		copy_field(names[n].name, sizeof(names[n].name), strings + i * ETH_GSTRING_LEN,
			   ETH_GSTRING_LEN);
		/* A blank label names nothing a report could show; its value is dropped. */
		if (!names[n].name[0])
			continue;
		names[n].idx = i;
		n++;
	}
	if (n > 1)
		qsort(names, n, sizeof(*names), cmp_name_idx);
	dedup_names(names, n, final);
	for (size_t i = 0; i < n_strings; i++) {
		if (!final[i][0])
			continue;
		err = np_counters_append(&tmp, final[i], values[i]);
		if (err)
			goto out;
	}
	np_counters_sort(&tmp);
	np_counters_free(out);
	*out = tmp;
	tmp = (struct np_counters){ 0 };
out:
	np_counters_free(&tmp);
	free(names);
	free(final);
	return err;
}

/* Netlink leaves a ring kind out when the driver's maximum is 0; so does the fallback. */
static void pair(uint64_t *cur, uint64_t *max, uint32_t cur_v, uint32_t max_v)
{
	if (!max_v)
		return;
	*cur = cur_v;
	*max = max_v;
}

void np_ethtool_rings_parse(const struct ethtool_ringparam *rp, struct np_rings *r)
{
	pair(&r->rx, &r->rx_max, rp->rx_pending, rp->rx_max_pending);
	pair(&r->rx_mini, &r->rx_mini_max, rp->rx_mini_pending, rp->rx_mini_max_pending);
	pair(&r->rx_jumbo, &r->rx_jumbo_max, rp->rx_jumbo_pending, rp->rx_jumbo_max_pending);
	pair(&r->tx, &r->tx_max, rp->tx_pending, rp->tx_max_pending);
	/* rx_buf_len exists only in netlink (5.17+): it stays NP_NA here. */
}

void np_ethtool_channels_parse(const struct ethtool_channels *ch, struct np_channels *c)
{
	pair(&c->rx, &c->rx_max, ch->rx_count, ch->max_rx);
	pair(&c->tx, &c->tx_max, ch->tx_count, ch->max_tx);
	pair(&c->other, &c->other_max, ch->other_count, ch->max_other);
	pair(&c->combined, &c->combined_max, ch->combined_count, ch->max_combined);
}

void np_ethtool_coalesce_parse(const struct ethtool_coalesce *ec, struct np_coalesce *c)
{
	/* The ioctl cannot say "not supported": a driver without coalescing reports zeros. */
	c->rx_usecs = ec->rx_coalesce_usecs;
	c->rx_max_frames = ec->rx_max_coalesced_frames;
	c->tx_usecs = ec->tx_coalesce_usecs;
	c->tx_max_frames = ec->tx_max_coalesced_frames;
	c->adaptive_rx = ec->use_adaptive_rx_coalesce ? 1 : 0;
	c->adaptive_tx = ec->use_adaptive_tx_coalesce ? 1 : 0;
}
