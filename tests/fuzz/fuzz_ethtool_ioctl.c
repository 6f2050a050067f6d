// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz the SIOCETHTOOL parsers: driver info, legacy rings/channels/coalescing structs, the
 * private statistics table (names deduplicated as name#2, ...), and the statistics reader over a
 * simulated driver whose announced counts come from the input.
 *
 * Input: a little-endian u16 count n, n names of ETH_GSTRING_LEN bytes, n u64 values; what is
 * left fills the drvinfo/ringparam/channels/coalesce structs and the simulated driver's counts.
 */
#include "fuzz.h"
#include "ethtool_ioctl_parse.h"
#include "nic.h"

#define MAX_N 2048

struct sim {
	uint32_t counts[4];	/* the driver's count at each request (the last repeats) */
	unsigned calls;
	const char *names;	/* names for the first n stats; the rest "stat_<i>" */
	size_t n;
};

static int sim_xfer(void *arg, void *cmd, size_t size)
{
	struct sim *d = arg;
	uint32_t c = *(uint32_t *)cmd, n = d->counts[d->calls < 4 ? d->calls : 3];

	(void)size;

	d->calls++;
	if (c == ETHTOOL_GSSET_INFO) {
		struct ethtool_sset_info *si = cmd;

		if (n == 0)
			si->sset_mask = 0;
		else
			si->data[0] = n;
	} else if (c == ETHTOOL_GSTRINGS) {
		struct ethtool_gstrings *gs = cmd;
		/* The kernel writes the driver's count whatever len says; the reader's headroom
		 * is the contract, so the simulation stays inside it. */
		size_t room = NP_ETHTOOL_STATS_ROOM(gs->len);

		if (n > room)
			n = (uint32_t)room;
		gs->len = n;
		for (uint32_t i = 0; i < n; i++) {
			size_t off = (size_t)i * ETH_GSTRING_LEN;
			char *dst = (char *)gs->data + off;

			if (i < d->n)
				memcpy(dst, d->names + off, ETH_GSTRING_LEN);
			else
				snprintf(dst, ETH_GSTRING_LEN, "stat_%u", i);
		}
	} else if (c == ETHTOOL_GSTATS) {
		struct ethtool_stats *st = cmd;
		size_t room = NP_ETHTOOL_STATS_ROOM(st->n_stats);

		if (n > room)
			n = (uint32_t)room;
		st->n_stats = n;
		for (uint32_t i = 0; i < n; i++)
			st->data[i] = i;
	} else {
		return -EOPNOTSUPP;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct np_counters c = { 0 };
	struct ethtool_drvinfo di;
	struct ethtool_ringparam rp;
	struct ethtool_channels ch;
	struct ethtool_coalesce ec;
	struct np_ethtool e;
	struct sim d = { 0 };
	uint16_t n16;
	uint32_t last;
	size_t n;
	char *names;
	uint64_t *values;
	int err;

	fuzz_take(&data, &size, &n16, sizeof(n16));
	n = n16 % MAX_N;
	if (size < n * (ETH_GSTRING_LEN + sizeof(uint64_t)))
		n = size / (ETH_GSTRING_LEN + sizeof(uint64_t));
	names = fuzz_copy(data, n * ETH_GSTRING_LEN);
	data += n * ETH_GSTRING_LEN;
	size -= n * ETH_GSTRING_LEN;
	values = malloc(n ? n * sizeof(uint64_t) : 1);
	FUZZ_CHECK(values);
	if (n)
		memcpy(values, data, n * sizeof(uint64_t));
	data += n * sizeof(uint64_t);
	size -= n * sizeof(uint64_t);

	err = np_ethtool_stats_parse(names, n, values, n, &c);
	FUZZ_CHECK(err == 0 || err == -ENOMEM);
	if (!err) {
		FUZZ_CHECK(c.n <= n);
		/* Names are unique after deduplication. */
		for (size_t i = 1; i < c.n; i++)
			FUZZ_CHECK(strcmp(c.e[i - 1].name, c.e[i].name) < 0);
	}
	FUZZ_CHECK(np_ethtool_stats_parse(names, n, values, n + 1, &c) == -EAGAIN);

	np_ethtool_init(&e);
	fuzz_take(&data, &size, &di, sizeof(di));
	np_ethtool_drvinfo_parse(&di, &e);
	FUZZ_CHECK(strlen(e.driver) < sizeof(e.driver) && strlen(e.bus_info) < sizeof(e.bus_info));
	fuzz_take(&data, &size, &rp, sizeof(rp));
	np_ethtool_rings_parse(&rp, &e.rings);
	fuzz_take(&data, &size, &ch, sizeof(ch));
	np_ethtool_channels_parse(&ch, &e.channels);
	fuzz_take(&data, &size, &ec, sizeof(ec));
	np_ethtool_coalesce_parse(&ec, &e.coalesce);
	np_ethtool_free(&e);

	/* The reader over a driver whose count moves (or is absurd) between requests. */
	fuzz_take(&data, &size, d.counts, sizeof(d.counts));
	/* Mostly plausible counts; a top nibble of 0xf keeps an absurd one (-E2BIG). */
	for (int i = 0; i < 4; i++)
		if (d.counts[i] >> 28 != 0xf)
			d.counts[i] %= 4096;
	d.names = names;
	d.n = n;
	err = np_ethtool_stats_read(sim_xfer, &d, &c, &last);
	FUZZ_CHECK(err == 0 || err == -EAGAIN || err == -EOPNOTSUPP || err == -E2BIG ||
		   err == -ENOMEM);
	np_counters_free(&c);
	free(names);
	free(values);
	return 0;
}
