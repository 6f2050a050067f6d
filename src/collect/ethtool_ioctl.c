// SPDX-License-Identifier: GPL-2.0-only
/* SIOCETHTOOL: driver info, driver-private statistics, and rings/channels/coalescing fallbacks. */
#include "collect.h"
#include "ethtool_ioctl_parse.h"
#include "log.h"

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

/* One SIOCETHTOOL request; cmd points at the ethtool struct whose first u32 is the command. */
static int eth_ioctl(int fd, const char *ifname, void *cmd)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = cmd;
	return ioctl(fd, SIOCETHTOOL, &ifr) < 0 ? -errno : 0;
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

void np_collect_ethtool_drvinfo(struct np_snapshot *s)
{
	struct ethtool_drvinfo di;
	int fd = eth_socket(), err;

	if (fd < 0) {
		src_from_err(s, NP_SRC_ETHTOOL_DRVINFO, fd, "driver info", "");
		return;
	}
	memset(&di, 0, sizeof(di));
	di.cmd = ETHTOOL_GDRVINFO;
	err = eth_ioctl(fd, s->ifname, &di);
	close(fd);
	if (err) {
		np_dbg("ethtool GDRVINFO %s: %s", s->ifname, strerror(-err));
		src_from_err(s, NP_SRC_ETHTOOL_DRVINFO, err, "driver info", "");
		return;
	}
	np_ethtool_drvinfo_parse(&di, &s->eth);
	np_src_set(s, NP_SRC_ETHTOOL_DRVINFO, 0, NULL);
}

/* The transport for the statistics reader: one SIOCETHTOOL on a socket and an interface. */
struct eth_dev {
	int fd;
	const char *ifname;
};

static int eth_xfer(void *arg, void *cmd)
{
	const struct eth_dev *d = arg;

	return eth_ioctl(d->fd, d->ifname, cmd);
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
	err = xfer(arg, &sset);
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
	size_t cap;
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
	gs = calloc(1, sizeof(*gs) + cap * ETH_GSTRING_LEN);
	st = calloc(1, sizeof(*st) + cap * sizeof(uint64_t));
	if (!gs || !st) {
		err = -ENOMEM;
		goto out;
	}
	gs->cmd = ETHTOOL_GSTRINGS;
	gs->string_set = ETH_SS_STATS;
	gs->len = n;
	err = xfer(arg, gs);
	if (err)
		goto out;
	st->cmd = ETHTOOL_GSTATS;
	st->n_stats = n;
	err = xfer(arg, st);
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

void np_collect_driver_stats(struct np_snapshot *s)
{
	char detail[128];
	uint32_t n = 0;
	int fd = eth_socket(), err;
	struct eth_dev dev = { fd, s->ifname };

	if (fd < 0) {
		src_from_err(s, NP_SRC_DRIVER_STATS, fd, "statistics", "");
		return;
	}
	err = np_ethtool_stats_read(eth_xfer, &dev, &s->eth.drv_stats, &n);
	close(fd);
	if (!err) {
		np_src_set(s, NP_SRC_DRIVER_STATS, 0, NULL);
		return;
	}
	if (err == -EAGAIN) {
		snprintf(detail, sizeof(detail),
			 "statistics count kept changing (%d reads, last %u): not read",
			 NP_ETHTOOL_STATS_TRIES, n);
		np_src_set(s, NP_SRC_DRIVER_STATS, err, detail);
		s->src[NP_SRC_DRIVER_STATS].status = NP_SRC_MALFORMED;
		return;
	}
	if (err == -E2BIG) {
		snprintf(detail, sizeof(detail), "driver claims %u statistics: ignored", n);
		np_src_set(s, NP_SRC_DRIVER_STATS, err, detail);
		s->src[NP_SRC_DRIVER_STATS].status = NP_SRC_MALFORMED;
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
	return s->src[id].status == NP_SRC_ABSENT || s->src[id].status == NP_SRC_UNREAD;
}

void np_collect_ethtool_fallbacks(struct np_snapshot *s)
{
	static const char suffix[] = " (ioctl fallback)";
	static const char read_ok[] = "read over SIOCETHTOOL (ioctl fallback)";
	/* The ioctl has no "not supported" marker: say so next to the zeros. */
	static const char coalesce_ok[] =
		"read over SIOCETHTOOL (ioctl fallback; unsupported fields read 0)";
	int fd, err;

	if (!needs_fallback(s, NP_SRC_ETHTOOL_RINGS) &&
	    !needs_fallback(s, NP_SRC_ETHTOOL_CHANNELS) &&
	    !needs_fallback(s, NP_SRC_ETHTOOL_COALESCE))
		return;
	fd = eth_socket();
	if (fd < 0)
		return;	/* leave the netlink collector's verdict */
	if (needs_fallback(s, NP_SRC_ETHTOOL_RINGS)) {
		struct ethtool_ringparam rp = { .cmd = ETHTOOL_GRINGPARAM };

		err = eth_ioctl(fd, s->ifname, &rp);
		if (!err) {
			np_ethtool_rings_parse(&rp, &s->eth.rings);
			np_src_set(s, NP_SRC_ETHTOOL_RINGS, 0, read_ok);
		} else {
			src_from_err(s, NP_SRC_ETHTOOL_RINGS, err, "rings", suffix);
		}
	}
	if (needs_fallback(s, NP_SRC_ETHTOOL_CHANNELS)) {
		struct ethtool_channels ch = { .cmd = ETHTOOL_GCHANNELS };

		err = eth_ioctl(fd, s->ifname, &ch);
		if (!err) {
			np_ethtool_channels_parse(&ch, &s->eth.channels);
			np_src_set(s, NP_SRC_ETHTOOL_CHANNELS, 0, read_ok);
		} else {
			src_from_err(s, NP_SRC_ETHTOOL_CHANNELS, err, "channels", suffix);
		}
	}
	if (needs_fallback(s, NP_SRC_ETHTOOL_COALESCE)) {
		struct ethtool_coalesce ec = { .cmd = ETHTOOL_GCOALESCE };

		err = eth_ioctl(fd, s->ifname, &ec);
		if (!err) {
			np_ethtool_coalesce_parse(&ec, &s->eth.coalesce);
			np_src_set(s, NP_SRC_ETHTOOL_COALESCE, 0, coalesce_ok);
		} else {
			src_from_err(s, NP_SRC_ETHTOOL_COALESCE, err, "coalescing", suffix);
		}
	}
	close(fd);
}
