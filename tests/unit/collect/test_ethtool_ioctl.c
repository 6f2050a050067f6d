// SPDX-License-Identifier: GPL-2.0-only
/* The SIOCETHTOOL parsers on hand-built replies, and the collector's rules that need no device. */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "collect.h"
#include "ethtool_ioctl_parse.h"

/* A GSTRINGS data area exactly as the kernel lays it out: n fixed 32-byte NUL-padded slots,
 * with no byte to spare after the last one (so ASan catches any read past it). */
static char *gstrings(const char *const *names, size_t n)
{
	char *buf = calloc(n ? n : 1, ETH_GSTRING_LEN);

	assert_non_null(buf);
	for (size_t i = 0; i < n; i++)
		memcpy(buf + i * ETH_GSTRING_LEN, names[i], strnlen(names[i], ETH_GSTRING_LEN));
	return buf;
}

static uint64_t *gvalues(size_t n, uint64_t base)
{
	uint64_t *v = calloc(n ? n : 1, sizeof(*v));

	assert_non_null(v);
	for (size_t i = 0; i < n; i++)
		v[i] = base + i;
	return v;
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* A slice of what mlx5e prints: global SW stats, per-port (_phy) PPCNT, per-channel rxN_. */
static const char *const mlx5_names[] = {
	"rx_packets", "rx_bytes", "tx_packets", "tx_bytes", "rx_xdp_drop",
	"rx_buff_alloc_err", "rx_out_of_buffer", "rx_if_down_packets",
	"rx_oversize_pkts_sw_drop", "rx_discards_phy", "tx_discards_phy",
	"rx_buffer_passed_thres_phy", "rx_crc_errors_phy", "rx_symbol_err_phy",
	"rx_pause_ctrl_phy", "tx_pause_ctrl_phy", "rx_prio0_discards",
	"rx_oversize_pkts_buffer", "rx0_packets", "rx0_xdp_drop", "rx0_buff_alloc_err",
	"rx1_packets", "rx1_xdp_drop", "rx1_buff_alloc_err", "tx0_dropped", "tx1_dropped",
};

static void test_mlx5_list(void **state)
{
	size_t n = N(mlx5_names);
	char *str = gstrings(mlx5_names, n);
	uint64_t *val = gvalues(n, 100);
	struct np_counters c = { 0 };

	(void)state;
	assert_int_equal(np_ethtool_stats_parse(str, n, val, n, &c), 0);
	assert_int_equal(c.n, n);
	assert_true(c.sorted);
	/* Each name carries the value at its own position. */
	assert_int_equal(np_counters_get(&c, "rx_packets"), 100);
	assert_int_equal(np_counters_get(&c, "rx_out_of_buffer"), 106);
	assert_int_equal(np_counters_get(&c, "rx_discards_phy"), 109);
	assert_int_equal(np_counters_get(&c, "tx_pause_ctrl_phy"), 115);
	assert_int_equal(np_counters_get(&c, "rx0_buff_alloc_err"), 120);
	assert_int_equal(np_counters_get(&c, "rx1_buff_alloc_err"), 123);
	assert_int_equal(np_counters_get(&c, "tx1_dropped"), 125);
	assert_true(np_counters_get(&c, "rx_missed_errors") == NP_NA);
	np_counters_free(&c);
	free(str);
	free(val);
}

static void test_virtio_lists(void **state)
{
	/* <= 6.9 and >= 6.10 spellings of the same per-queue counters. */
	static const char *const old[] = { "rx_queue_0_packets", "rx_queue_0_bytes",
					   "rx_queue_0_drops", "rx_queue_0_xdp_drops",
					   "rx_queue_1_drops", "tx_queue_0_packets" };
	static const char *const new[] = { "rx_drops", "rx_xdp_drops", "rx_kicks", "rx0_drops",
					   "rx0_xdp_drops", "rx0_kicks", "rx1_drops",
					   "tx0_kicks", "rx0_hw_drops" };
	char *str = gstrings(old, N(old));
	uint64_t val[N(old)] = { 10, 20, 3, 4, 5, 6 };
	struct np_counters c = { 0 };

	(void)state;
	assert_int_equal(np_ethtool_stats_parse(str, N(old), val, N(old), &c), 0);
	assert_int_equal(c.n, N(old));
	assert_int_equal(np_counters_get(&c, "rx_queue_0_drops"), 3);
	assert_int_equal(np_counters_get(&c, "rx_queue_1_drops"), 5);
	free(str);

	/* A second parse replaces the table; nothing of the old one survives. */
	str = gstrings(new, N(new));
	uint64_t *v2 = gvalues(N(new), 0);
	assert_int_equal(np_ethtool_stats_parse(str, N(new), v2, N(new), &c), 0);
	assert_int_equal(c.n, N(new));
	assert_true(np_counters_get(&c, "rx_queue_0_drops") == NP_NA);
	assert_int_equal(np_counters_get(&c, "rx0_drops"), 3);
	assert_int_equal(np_counters_get(&c, "rx0_hw_drops"), 8);
	np_counters_free(&c);
	free(str);
	free(v2);
}

static void test_duplicate_names(void **state)
{
	/* The same label for three queues, plus a literal "rx_err#2" that must not be reused. */
	static const char *const names[] = { "rx_err", "tx_ok", "rx_err", "rx_err#2", "rx_err",
					     "tx_ok" };
	char *str = gstrings(names, N(names));
	uint64_t val[N(names)] = { 1, 2, 3, 4, 5, 6 };
	struct np_counters c = { 0 };

	(void)state;
	assert_int_equal(np_ethtool_stats_parse(str, N(names), val, N(names), &c), 0);
	assert_int_equal(c.n, N(names));
	/* First occurrence keeps the plain name; later ones are numbered in driver order. */
	assert_int_equal(np_counters_get(&c, "rx_err"), 1);
	assert_int_equal(np_counters_get(&c, "rx_err#2"), 4);	/* the driver's own name */
	assert_int_equal(np_counters_get(&c, "rx_err#3"), 3);
	assert_int_equal(np_counters_get(&c, "rx_err#4"), 5);
	assert_int_equal(np_counters_get(&c, "tx_ok"), 2);
	assert_int_equal(np_counters_get(&c, "tx_ok#2"), 6);
	/* Every name in the table is unique. */
	for (size_t i = 1; i < c.n; i++)
		assert_true(strcmp(c.e[i - 1].name, c.e[i].name) < 0);
	np_counters_free(&c);
	free(str);
}

static void test_count_changed(void **state)
{
	static const char *const names[] = { "rx_packets", "rx0_drops", "rx1_drops" };
	char *str = gstrings(names, N(names));
	uint64_t *val = gvalues(4, 7);
	struct np_counters c = { 0 };

	(void)state;
	np_counters_set(&c, "previous", 42);
	/* A channel appeared between GSTRINGS and GSTATS: positions no longer pair up. */
	assert_int_equal(np_ethtool_stats_parse(str, 3, val, 4, &c), -EAGAIN);
	assert_int_equal(np_ethtool_stats_parse(str, 3, val, 2, &c), -EAGAIN);
	/* The caller's table is untouched on failure. */
	assert_int_equal(c.n, 1);
	assert_int_equal(np_counters_get(&c, "previous"), 42);
	/* Once the counts agree, the table is replaced. */
	assert_int_equal(np_ethtool_stats_parse(str, 3, val, 3, &c), 0);
	assert_int_equal(c.n, 3);
	assert_true(np_counters_get(&c, "previous") == NP_NA);
	assert_int_equal(np_counters_get(&c, "rx1_drops"), 9);
	np_counters_free(&c);
	free(str);
	free(val);
}

static void test_odd_strings(void **state)
{
	/* 32 characters with no NUL (the slot is full), an empty slot, and an ordinary name. */
	static const char *const names[] = { "abcdefghijklmnopqrstuvwxyz012345", "",
					     "rx_dropped" };
	char *str = gstrings(names, N(names));
	uint64_t val[N(names)] = { 1, 2, 3 };
	struct np_counters c = { 0 };

	(void)state;
	assert_int_equal(np_ethtool_stats_parse(str, N(names), val, N(names), &c), 0);
	assert_int_equal(c.n, 2);
	assert_int_equal(np_counters_get(&c, "abcdefghijklmnopqrstuvwxyz012345"), 1);
	assert_int_equal(np_counters_get(&c, "rx_dropped"), 3);
	/* Zero statistics is a valid, empty table. */
	assert_int_equal(np_ethtool_stats_parse(NULL, 0, NULL, 0, &c), 0);
	assert_int_equal(c.n, 0);
	/* Absurd counts and missing buffers are refused. */
	assert_int_equal(np_ethtool_stats_parse(NULL, 2, NULL, 2, &c), -EINVAL);
	assert_int_equal(np_ethtool_stats_parse(str, NP_ETHTOOL_MAX_STATS + 1, val,
						NP_ETHTOOL_MAX_STATS + 1, &c), -EINVAL);
	np_counters_free(&c);
	free(str);
}

static void test_many_duplicates(void **state)
{
	/* 64 queues x 40 per-queue labels printed without an index (a buggy driver): 2560
	 * entries, all kept, all unique, and still fast (sort-based, not quadratic). */
	const size_t nq = 64, nl = 40, n = nq * nl;
	char *str = calloc(n, ETH_GSTRING_LEN);
	uint64_t *val = gvalues(n, 0);
	struct np_counters c = { 0 };

	(void)state;
	assert_non_null(str);
	for (size_t q = 0; q < nq; q++)
		for (size_t l = 0; l < nl; l++)
			snprintf(str + (q * nl + l) * ETH_GSTRING_LEN, ETH_GSTRING_LEN,
				 "queue_stat_%zu", l);
	assert_int_equal(np_ethtool_stats_parse(str, n, val, n, &c), 0);
	assert_int_equal(c.n, n);
	assert_int_equal(np_counters_get(&c, "queue_stat_3"), 3);
	assert_int_equal(np_counters_get(&c, "queue_stat_3#2"), nl + 3);
	assert_int_equal(np_counters_get(&c, "queue_stat_3#64"), 63 * nl + 3);
	assert_true(np_counters_get(&c, "queue_stat_3#65") == NP_NA);
	np_counters_free(&c);
	free(str);
	free(val);
}

static void test_drvinfo(void **state)
{
	struct ethtool_drvinfo di;
	struct np_ethtool e;

	(void)state;
	np_ethtool_init(&e);
	memset(&di, 0, sizeof(di));
	snprintf(di.driver, sizeof(di.driver), "mlx5_core");
	snprintf(di.version, sizeof(di.version), "6.8.0-45-generic");
	snprintf(di.fw_version, sizeof(di.fw_version), "22.39.1002 (MT_0000000359)");
	snprintf(di.bus_info, sizeof(di.bus_info), "0000:3b:00.0");
	np_ethtool_drvinfo_parse(&di, &e);
	assert_string_equal(e.driver, "mlx5_core");
	assert_string_equal(e.version, "6.8.0-45-generic");
	assert_string_equal(e.fw_version, "22.39.1002 (MT_0000000359)");
	assert_string_equal(e.bus_info, "0000:3b:00.0");

	/* Fields filled to the last byte without a NUL are cut, never overrun. */
	memset(di.driver, 'd', sizeof(di.driver));
	memset(di.fw_version, 'f', sizeof(di.fw_version));
	np_ethtool_drvinfo_parse(&di, &e);
	assert_int_equal(strlen(e.driver), sizeof(e.driver) - 1);
	assert_int_equal(strlen(e.fw_version), sizeof(di.fw_version));
	np_ethtool_free(&e);
}

static void test_rings_channels(void **state)
{
	struct ethtool_ringparam rp = { .cmd = ETHTOOL_GRINGPARAM, .rx_max_pending = 4096,
					.rx_pending = 512, .tx_max_pending = 4096,
					.tx_pending = 1024 };
	struct ethtool_channels ch = { .cmd = ETHTOOL_GCHANNELS, .max_combined = 16,
				       .combined_count = 4, .max_other = 1, .other_count = 1 };
	struct np_ethtool e;

	(void)state;
	np_ethtool_init(&e);
	np_ethtool_rings_parse(&rp, &e.rings);
	assert_int_equal(e.rings.rx, 512);
	assert_int_equal(e.rings.rx_max, 4096);
	assert_int_equal(e.rings.tx, 1024);
	/* Kinds whose maximum is 0 are not supported: not reported, not "a ring of 0". */
	assert_true(e.rings.rx_mini == NP_NA && e.rings.rx_mini_max == NP_NA);
	assert_true(e.rings.rx_jumbo == NP_NA && e.rings.rx_jumbo_max == NP_NA);
	assert_true(e.rings.rx_buf_len == NP_NA);

	np_ethtool_channels_parse(&ch, &e.channels);
	assert_int_equal(e.channels.combined, 4);
	assert_int_equal(e.channels.combined_max, 16);
	assert_int_equal(e.channels.other, 1);
	assert_true(e.channels.rx == NP_NA && e.channels.rx_max == NP_NA);
	assert_true(e.channels.tx == NP_NA && e.channels.tx_max == NP_NA);
	np_ethtool_free(&e);
}

static void test_coalesce(void **state)
{
	struct ethtool_coalesce ec = { .cmd = ETHTOOL_GCOALESCE, .rx_coalesce_usecs = 50,
				       .rx_max_coalesced_frames = 0, .tx_coalesce_usecs = 8,
				       .tx_max_coalesced_frames = 128,
				       .use_adaptive_rx_coalesce = 1 };
	struct np_coalesce c = { NP_NA, NP_NA, NP_NA, NP_NA, -1, -1 };

	(void)state;
	np_ethtool_coalesce_parse(&ec, &c);
	assert_int_equal(c.rx_usecs, 50);
	assert_int_equal(c.rx_max_frames, 0);	/* the ioctl cannot say "not reported" */
	assert_int_equal(c.tx_usecs, 8);
	assert_int_equal(c.tx_max_frames, 128);
	assert_int_equal(c.adaptive_rx, 1);
	assert_int_equal(c.adaptive_tx, 0);
}

/* A simulated driver behind the transport: counts[k] is how many statistics it has at its k-th
 * request (the last entry repeats). Like the kernel, it writes as many entries as it has at that
 * moment, whatever length the caller passed. */
struct fake_drv {
	uint32_t counts[12];
	size_t ncounts;
	int calls, sset_calls;
	bool no_stats;
	uint32_t fail_cmd;
	int fail_err;
};

static int fake_xfer(void *arg, void *cmd, size_t size)
{
	struct fake_drv *d = arg;
	uint32_t c = *(uint32_t *)cmd;
	uint32_t n = d->counts[(size_t)d->calls < d->ncounts ? (size_t)d->calls : d->ncounts - 1];

	(void)size;	/* the simulated driver writes what it has, like the kernel */

	d->calls++;
	if (c == d->fail_cmd)
		return d->fail_err;
	if (c == ETHTOOL_GSSET_INFO) {
		struct ethtool_sset_info *si = cmd;

		d->sset_calls++;
		assert_true(si->sset_mask == 1ULL << ETH_SS_STATS);
		if (d->no_stats)
			si->sset_mask = 0;
		else
			si->data[0] = n;
	} else if (c == ETHTOOL_GSTRINGS) {
		struct ethtool_gstrings *gs = cmd;

		assert_int_equal(gs->string_set, ETH_SS_STATS);
		gs->len = n;
		for (uint32_t i = 0; i < n; i++)
			snprintf((char *)gs->data + i * ETH_GSTRING_LEN, ETH_GSTRING_LEN,
				 "stat_%u", i);
	} else if (c == ETHTOOL_GSTATS) {
		struct ethtool_stats *st = cmd;

		st->n_stats = n;
		for (uint32_t i = 0; i < n; i++)
			st->data[i] = 1000 + i;
	} else {
		fail_msg("unexpected ethtool command %#x", c);
	}
	return 0;
}

#define FAKE(...) { .counts = { __VA_ARGS__ }, .ncounts = N(((uint32_t[]){ __VA_ARGS__ })) }

static void test_read_stable(void **state)
{
	struct fake_drv d = FAKE(5);
	struct np_counters c = { 0 };
	uint32_t n;

	(void)state;
	assert_int_equal(np_ethtool_stats_read(fake_xfer, &d, &c, &n), 0);
	assert_int_equal(d.calls, 3);
	assert_int_equal(n, 5);
	assert_int_equal(c.n, 5);
	assert_int_equal(np_counters_get(&c, "stat_4"), 1004);
	np_counters_free(&c);
}

static void test_read_count_moves(void **state)
{
	/* Grew between GSSET_INFO and GSTRINGS, between GSTRINGS and GSTATS, shrank, and grew to
	 * the very edge of the headroom: each time one retry gives a consistent table. */
	struct fake_drv grow1 = FAKE(5, 7), grow2 = FAKE(5, 5, 6), shrink = FAKE(8, 8, 3),
			edge = FAKE(5, NP_ETHTOOL_STATS_ROOM(5));
	struct fake_drv *cases[] = { &grow1, &grow2, &shrink, &edge };
	const uint32_t final[] = { 7, 6, 3, NP_ETHTOOL_STATS_ROOM(5) };
	char last[32];

	(void)state;
	for (size_t i = 0; i < N(cases); i++) {
		struct np_counters c = { 0 };
		uint32_t n;

		assert_int_equal(np_ethtool_stats_read(fake_xfer, cases[i], &c, &n), 0);
		assert_int_equal(cases[i]->sset_calls, 2);
		assert_int_equal(cases[i]->calls, 6);
		assert_int_equal(n, final[i]);
		assert_int_equal(c.n, final[i]);
		snprintf(last, sizeof(last), "stat_%u", final[i] - 1);
		assert_int_equal(np_counters_get(&c, last), 1000 + final[i] - 1);
		np_counters_free(&c);
	}
}

static void test_read_never_settles(void **state)
{
	struct fake_drv d = FAKE(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
	struct np_counters c = { 0 };
	uint32_t n;

	(void)state;
	np_counters_set(&c, "kept", 1);
	assert_int_equal(np_ethtool_stats_read(fake_xfer, &d, &c, &n), -EAGAIN);
	/* Bounded: three attempts, then give up without touching the table. */
	assert_int_equal(d.sset_calls, NP_ETHTOOL_STATS_TRIES);
	assert_int_equal(c.n, 1);
	assert_int_equal(np_counters_get(&c, "kept"), 1);
	np_counters_free(&c);
}

static void test_read_errors(void **state)
{
	struct fake_drv none = FAKE(0), nomask = FAKE(4), gone = FAKE(4), absurd = FAKE(1u << 30);
	struct np_counters c = { 0 };
	uint32_t n;

	(void)state;
	/* A driver without statistics: data, not an error, and asked once. */
	assert_int_equal(np_ethtool_stats_read(fake_xfer, &none, &c, &n), -EOPNOTSUPP);
	assert_int_equal(none.calls, 1);
	nomask.no_stats = true;
	assert_int_equal(np_ethtool_stats_read(fake_xfer, &nomask, &c, &n), -EOPNOTSUPP);
	/* The device vanished mid-read: reported as is, not retried. */
	gone.fail_cmd = ETHTOOL_GSTATS;
	gone.fail_err = -ENODEV;
	assert_int_equal(np_ethtool_stats_read(fake_xfer, &gone, &c, &n), -ENODEV);
	assert_int_equal(gone.calls, 3);
	/* A count nobody could allocate is refused before any buffer is sized from it. */
	assert_int_equal(np_ethtool_stats_read(fake_xfer, &absurd, &c, &n), -E2BIG);
	assert_int_equal(absurd.calls, 1);
	assert_int_equal(c.n, 0);
}

/* No device needed: an interface name that cannot exist gives ENODEV from every request. */
#define NO_IFACE "np-noiface-0"

static void test_collect_missing_iface(void **state)
{
	struct np_snapshot s;

	(void)state;
	np_snapshot_init(&s);
	snprintf(s.ifname, sizeof(s.ifname), NO_IFACE);
	np_collect_ethtool_drvinfo(NULL, &s);
	assert_int_equal(np_srcp(&s, NP_SRC_ETHTOOL_DRVINFO)->status, NP_SRC_ABSENT);
	assert_string_equal(np_srcp(&s, NP_SRC_ETHTOOL_DRVINFO)->detail, "no such interface");
	assert_string_equal(s.eth.driver, "");
	np_collect_driver_stats(NULL, &s);
	assert_int_equal(np_srcp(&s, NP_SRC_DRIVER_STATS)->status, NP_SRC_ABSENT);
	assert_int_equal(s.eth.drv_stats.n, 0);
	np_snapshot_free(&s);
}

static void test_fallback_never_overrides(void **state)
{
	struct np_snapshot s;

	(void)state;
	np_snapshot_init(&s);
	snprintf(s.ifname, sizeof(s.ifname), NO_IFACE);
	/* Netlink answered rings and coalescing (one with data, one "unsupported")... */
	np_src_set(&s, NP_SRC_ETHTOOL_RINGS, 0, NULL);
	s.eth.rings.rx = 512;
	np_src_set(&s, NP_SRC_ETHTOOL_COALESCE, -EOPNOTSUPP, "driver does not report coalescing");
	/* ...but the channels command is missing on this (pre-5.7) kernel. */
	np_src_set(&s, NP_SRC_ETHTOOL_CHANNELS, -ENOENT, "ethtool netlink has no CHANNELS_GET");
	np_collect_ethtool_fallbacks(NULL, &s);
	assert_int_equal(np_srcp(&s, NP_SRC_ETHTOOL_RINGS)->status, NP_SRC_OK);
	assert_string_equal(np_srcp(&s, NP_SRC_ETHTOOL_RINGS)->detail, "");
	assert_int_equal(s.eth.rings.rx, 512);
	assert_int_equal(np_srcp(&s, NP_SRC_ETHTOOL_COALESCE)->status, NP_SRC_UNSUPPORTED);
	assert_string_equal(np_srcp(&s, NP_SRC_ETHTOOL_COALESCE)->detail,
			    "driver does not report coalescing");
	/* Only the absent one was tried over the ioctl, and it says so. */
	assert_int_equal(np_srcp(&s, NP_SRC_ETHTOOL_CHANNELS)->err, ENODEV);
	assert_non_null(strstr(np_srcp(&s, NP_SRC_ETHTOOL_CHANNELS)->detail, "(ioctl fallback)"));
	assert_true(s.eth.channels.combined == NP_NA);
	np_snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mlx5_list),
		cmocka_unit_test(test_virtio_lists),
		cmocka_unit_test(test_duplicate_names),
		cmocka_unit_test(test_count_changed),
		cmocka_unit_test(test_odd_strings),
		cmocka_unit_test(test_many_duplicates),
		cmocka_unit_test(test_drvinfo),
		cmocka_unit_test(test_rings_channels),
		cmocka_unit_test(test_coalesce),
		cmocka_unit_test(test_read_stable),
		cmocka_unit_test(test_read_count_moves),
		cmocka_unit_test(test_read_never_settles),
		cmocka_unit_test(test_read_errors),
		cmocka_unit_test(test_collect_missing_iface),
		cmocka_unit_test(test_fallback_never_overrides),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
