// SPDX-License-Identifier: GPL-2.0-only
/* SIOCETHTOOL: driver info, driver-private statistics, and rings/channels/coalescing fallbacks. */
#include "collect.h"
#include "ethtool_ioctl_parse.h"
#include "ktape.h"
#include "log.h"
#include "strjoin.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <linux/sockios.h>

/* Any socket reaches dev_ioctl(); AF_INET is the usual one, and like ethtool(8) we fall back to
 * a generic netlink socket where IPv4 is compiled out. */
static int eth_socket(void)
{
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	return fd < 0 ? -errno : fd;
}

/* Where SIOCETHTOOL requests go: a socket on the live system (recorded into tape when
 * capturing), or a capture's tape alone (fd -1). */
struct eth_dev {
	int fd;
	const char *ifname;
	struct np_ktape *tape;
};

static int eth_open(const struct np_ctx *ctx, const char *ifname, struct eth_dev *d)
{
	d->ifname = ifname;
	d->tape = ctx ? ctx->tape : NULL;
	d->fd = -1;
	if (d->tape && !d->tape->recording)
		return 0;
	d->fd = eth_socket();
	return d->fd < 0 ? d->fd : 0;
}

static void eth_close(struct eth_dev *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

/*
 * One SIOCETHTOOL request; cmd points at the size-byte ethtool buffer whose first u32 is the
 * command. On tape the key is the interface name and the buffer as sent, the answer the buffer
 * as the kernel left it.
 */
static int eth_ioctl(const struct eth_dev *d, void *cmd, size_t size)
{
	size_t klen = IFNAMSIZ + size;
	struct np_ktape_play play;
	uint8_t *key = NULL;
	struct ifreq ifr;
	int err;

	memset(&ifr, 0, sizeof(ifr));
	np_strjoin(ifr.ifr_name, sizeof(ifr.ifr_name), d->ifname);
	if (d->tape) {
		key = malloc(klen);
		if (!key)
			return -ENOMEM;
		memcpy(key, ifr.ifr_name, IFNAMSIZ);
		memcpy(key + IFNAMSIZ, cmd, size);
	}
	if (d->tape && !d->tape->recording) {
		err = np_ktape_find(d->tape, NP_KT_ETHTOOL_IOCTL, key, klen, &play);
		free(key);
		/* -ENODATA: the capture did not ask this. */
		return err < 0 ? -ENODATA : np_ktape_ioctl(&play, cmd, size);
	}
	ifr.ifr_data = cmd;
	err = ioctl(d->fd, SIOCETHTOOL, &ifr) < 0 ? -errno : 0;
	if (d->tape) {
		np_ktape_begin(d->tape, NP_KT_ETHTOOL_IOCTL, key, klen);
		if (!err)
			np_ktape_chunk(d->tape, cmd, size);
		np_ktape_end(d->tape, err);
	}
	free(key);
	return err;
}

/* ENODEV and friends: what to say. EOPNOTSUPP is data: the driver does not implement it. */
static void src_from_err(struct np_snapshot *s, enum np_source id, int err, const char *what,
			 const char *suffix)
{
	char detail[128];

	if (err == -EOPNOTSUPP || err == -ENOTSUP)
		snprintf(detail, sizeof(detail), "driver does not report %s%s", what, suffix);
	else if (err == -ENODEV)
		snprintf(detail, sizeof(detail), "no such interface%s", suffix);
	else
		snprintf(detail, sizeof(detail), "SIOCETHTOOL %s: %s%s", what, strerror(-err),
			 suffix);
	np_src_set(s, id, err, detail);
}

void np_collect_ethtool_drvinfo(const struct np_ctx *ctx, struct np_snapshot *s)
{
	struct ethtool_drvinfo di;
	struct eth_dev dev;
	int err = eth_open(ctx, s->ifname, &dev);

	if (err < 0) {
		src_from_err(s, NP_SRC_ETHTOOL_DRVINFO, err, "driver info", "");
		return;
	}
	memset(&di, 0, sizeof(di));
	di.cmd = ETHTOOL_GDRVINFO;
	err = eth_ioctl(&dev, &di, sizeof(di));
	eth_close(&dev);
	if (err) {
		np_dbg("ethtool GDRVINFO %s: %s", s->ifname, strerror(-err));
		src_from_err(s, NP_SRC_ETHTOOL_DRVINFO, err, "driver info", "");
		return;
	}
	np_ethtool_drvinfo_parse(&di, &s->eth);
	np_src_set(s, NP_SRC_ETHTOOL_DRVINFO, 0, NULL);
}

/* The transport for the statistics reader: one SIOCETHTOOL on a socket and an interface. */
static int eth_xfer(void *arg, void *cmd, size_t size)
{
	return eth_ioctl(arg, cmd, size);
}

/* The number of ETH_SS_STATS strings: 0 when the driver has none, else > 0, or -errno. */
static int stats_count(np_ethtool_xfer_fn xfer, void *arg, uint32_t *n)
{
	/* Room for the one u32 count that follows the header for the one set asked. */
	union {
		struct ethtool_sset_info hdr;
		uint8_t raw[sizeof(struct ethtool_sset_info) + sizeof(uint32_t)];
	} sset;
	int err;

	memset(&sset, 0, sizeof(sset));
	sset.hdr.cmd = ETHTOOL_GSSET_INFO;
	sset.hdr.sset_mask = 1ULL << ETH_SS_STATS;
	err = xfer(arg, &sset, sizeof(sset));
	if (err)
		return err;
	/* The kernel clears the bit of a set the driver does not have. */
	*n = (sset.hdr.sset_mask & (1ULL << ETH_SS_STATS)) ? sset.hdr.data[0] : 0;
	return 0;
}

/*
 * One attempt: count, names, values. The kernel writes as many entries as the driver has *now*,
 * ignoring the length we pass, so both buffers get headroom for a count that grew since
 * GSSET_INFO; the lengths it returns tell whether the three replies agree.
 * Returns 0, -EAGAIN (count moved: retry), -EOPNOTSUPP (no stats) or -errno.
 */
static int stats_try(np_ethtool_xfer_fn xfer, void *arg, struct np_counters *out,
		     uint32_t *last_n)
{
	struct ethtool_gstrings *gs = NULL;
	struct ethtool_stats *st = NULL;
	uint32_t n = 0;
	size_t cap, gs_size, st_size;
	int err;

	err = stats_count(xfer, arg, &n);
	if (err)
		return err;
	*last_n = n;
	if (!n)
		return -EOPNOTSUPP;
	if (n > NP_ETHTOOL_MAX_STATS)
		return -E2BIG;
	cap = NP_ETHTOOL_STATS_ROOM(n);
	gs_size = sizeof(*gs) + cap * ETH_GSTRING_LEN;
	st_size = sizeof(*st) + cap * sizeof(uint64_t);
	gs = calloc(1, gs_size);
	st = calloc(1, st_size);
	if (!gs || !st) {
		err = -ENOMEM;
		goto out;
	}
	gs->cmd = ETHTOOL_GSTRINGS;
	gs->string_set = ETH_SS_STATS;
	gs->len = n;
	err = xfer(arg, gs, gs_size);
	if (err)
		goto out;
	st->cmd = ETHTOOL_GSTATS;
	st->n_stats = n;
	err = xfer(arg, st, st_size);
	if (err)
		goto out;
	if (gs->len != n || st->n_stats != n) {
		/* Beyond cap the kernel has already written past our headroom; nothing to do
		 * about that here but to not use what it wrote. */
		np_dbg("ethtool stats: count moved %u -> %u names, %u values", n, gs->len,
		       st->n_stats);
		err = -EAGAIN;
		goto out;
	}
	err = np_ethtool_stats_parse((const char *)gs->data, gs->len,
				     (const uint64_t *)st->data, st->n_stats, out);
out:
	free(gs);
	free(st);
	return err;
}

int np_ethtool_stats_read(np_ethtool_xfer_fn xfer, void *arg, struct np_counters *out,
			  uint32_t *last_n)
{
	int err = -EAGAIN;

	*last_n = 0;
	for (int i = 0; i < NP_ETHTOOL_STATS_TRIES && err == -EAGAIN; i++)
		err = stats_try(xfer, arg, out, last_n);
	return err;
}

void np_collect_driver_stats(const struct np_ctx *ctx, struct np_snapshot *s)
{
	char detail[128];
	uint32_t n = 0;
	struct eth_dev dev;
	int err = eth_open(ctx, s->ifname, &dev);

	if (err < 0) {
		src_from_err(s, NP_SRC_DRIVER_STATS, err, "statistics", "");
		return;
	}
	err = np_ethtool_stats_read(eth_xfer, &dev, &s->eth.drv_stats, &n);
	eth_close(&dev);
	if (!err) {
		np_src_set(s, NP_SRC_DRIVER_STATS, 0, NULL);
		return;
	}
	if (err == -EAGAIN) {
		snprintf(detail, sizeof(detail),
			 "statistics count kept changing (%d reads, last %u): not read",
			 NP_ETHTOOL_STATS_TRIES, n);
		np_src_set(s, NP_SRC_DRIVER_STATS, err, detail);
		np_srcp(s, NP_SRC_DRIVER_STATS)->status = NP_SRC_MALFORMED;
		return;
	}
	if (err == -E2BIG) {
		snprintf(detail, sizeof(detail), "driver claims %u statistics: ignored", n);
		np_src_set(s, NP_SRC_DRIVER_STATS, err, detail);
		np_srcp(s, NP_SRC_DRIVER_STATS)->status = NP_SRC_MALFORMED;
		return;
	}
	src_from_err(s, NP_SRC_DRIVER_STATS, err, "statistics", "");
}

/*
 * Kernels before 5.7 have no ethtool netlink rings/channels/coalesce: the netlink collector
 * then leaves the source ABSENT (UNREAD if it never ran), and only then does the ioctl fill it.
 * Data that netlink delivered, or an answer it got from the driver, is never overridden.
 */
static bool needs_fallback(const struct np_snapshot *s, enum np_source id)
{
	return np_srcp(s, id)->status == NP_SRC_ABSENT || np_srcp(s, id)->status == NP_SRC_UNREAD;
}

void np_collect_ethtool_fallbacks(const struct np_ctx *ctx, struct np_snapshot *s)
{
	static const char suffix[] = " (ioctl fallback)";
	static const char read_ok[] = "read over SIOCETHTOOL (ioctl fallback)";
	/* The ioctl has no "not supported" marker: say so next to the zeros. */
	static const char coalesce_ok[] =
		"read over SIOCETHTOOL (ioctl fallback; unsupported fields read 0)";
	struct eth_dev dev;
	int err;

	if (!needs_fallback(s, NP_SRC_ETHTOOL_RINGS) &&
	    !needs_fallback(s, NP_SRC_ETHTOOL_CHANNELS) &&
	    !needs_fallback(s, NP_SRC_ETHTOOL_COALESCE))
		return;
	if (eth_open(ctx, s->ifname, &dev) < 0)
		return;	/* leave the netlink collector's verdict */
	if (needs_fallback(s, NP_SRC_ETHTOOL_RINGS)) {
		struct ethtool_ringparam rp = { .cmd = ETHTOOL_GRINGPARAM };

		err = eth_ioctl(&dev, &rp, sizeof(rp));
		if (!err) {
			np_ethtool_rings_parse(&rp, &s->eth.rings);
			np_src_set(s, NP_SRC_ETHTOOL_RINGS, 0, read_ok);
		} else {
			src_from_err(s, NP_SRC_ETHTOOL_RINGS, err, "rings", suffix);
		}
	}
	if (needs_fallback(s, NP_SRC_ETHTOOL_CHANNELS)) {
		struct ethtool_channels ch = { .cmd = ETHTOOL_GCHANNELS };

		err = eth_ioctl(&dev, &ch, sizeof(ch));
		if (!err) {
			np_ethtool_channels_parse(&ch, &s->eth.channels);
			np_src_set(s, NP_SRC_ETHTOOL_CHANNELS, 0, read_ok);
		} else {
			src_from_err(s, NP_SRC_ETHTOOL_CHANNELS, err, "channels", suffix);
		}
	}
	if (needs_fallback(s, NP_SRC_ETHTOOL_COALESCE)) {
		struct ethtool_coalesce ec = { .cmd = ETHTOOL_GCOALESCE };

		err = eth_ioctl(&dev, &ec, sizeof(ec));
		if (!err) {
			np_ethtool_coalesce_parse(&ec, &s->eth.coalesce);
			np_src_set(s, NP_SRC_ETHTOOL_COALESCE, 0, coalesce_ok);
		} else {
			src_from_err(s, NP_SRC_ETHTOOL_COALESCE, err, "coalescing", suffix);
		}
	}
	eth_close(&dev);
}
