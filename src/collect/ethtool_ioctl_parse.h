/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The testable parts of the SIOCETHTOOL collector: pure parsers that take the structs and
 * buffers the kernel filled and produce the snapshot's model, and the statistics reader behind
 * a one-function transport, so unit tests feed hand-built replies and simulated drivers.
 */
#ifndef NP_ETHTOOL_IOCTL_PARSE_H
#define NP_ETHTOOL_IOCTL_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include <linux/ethtool.h>

#include "nic.h"

/* Upper bound on a driver's statistics count we agree to handle (mlx5 with hundreds of channels
 * has a few tens of thousands); beyond it the reply is treated as nonsense. */
#define NP_ETHTOOL_MAX_STATS (1u << 20)

/* ETHTOOL_GDRVINFO -> e->driver/version/fw_version/bus_info. The kernel's strings are
 * NUL-padded fixed fields; a field without a NUL is cut at its size, never read past. */
void np_ethtool_drvinfo_parse(const struct ethtool_drvinfo *di, struct np_ethtool *e);

/*
 * ETHTOOL_GSTRINGS(ETH_SS_STATS) + ETHTOOL_GSTATS -> name/value counters.
 * strings: n_strings names of ETH_GSTRING_LEN bytes each; values: n_values u64.
 * The two replies are positional, so when the driver's count changed between the calls
 * (n_strings != n_values) no name can be trusted to belong to its value: returns -EAGAIN and
 * leaves *out untouched (the caller retries). A name that repeats (some drivers print the same
 * label for several queues) is kept distinct as "name#2", "name#3", ... in driver order; empty
 * names are skipped. On success *out is replaced by the new table, sorted. -ENOMEM, -EINVAL.
 */
int np_ethtool_stats_parse(const char *strings, size_t n_strings, const uint64_t *values,
			   size_t n_values, struct np_counters *out);

/* How often the statistics are re-read when the driver's count moves under us (a channel
 * reconfiguration or a link reset while we read), and the entries allocated for a count of n:
 * the kernel writes as many as the driver has at that moment, whatever length we pass. */
#define NP_ETHTOOL_STATS_TRIES 3
#define NP_ETHTOOL_STATS_ROOM(n) ((size_t)(n) * 2 + 64)

/* One SIOCETHTOOL request (cmd is the ethtool struct): 0 or -errno. The collector passes the
 * ioctl; tests pass a simulated driver. */
typedef int (*np_ethtool_xfer_fn)(void *arg, void *cmd, size_t size);

/*
 * GSSET_INFO + GSTRINGS + GSTATS with headroom, re-read (at most NP_ETHTOOL_STATS_TRIES times)
 * while the three replies disagree on the count. *out is replaced only on success; *last_n is
 * the last count the driver announced. 0, -EOPNOTSUPP (the driver has no statistics), -EAGAIN
 * (the count never settled), -E2BIG (an absurd count), or the request's -errno.
 */
int np_ethtool_stats_read(np_ethtool_xfer_fn xfer, void *arg, struct np_counters *out,
			  uint32_t *last_n);

/*
 * The legacy replies for rings/channels/coalescing. As the netlink replies do, a ring or
 * channel kind whose maximum is 0 is "not supported by this driver": both its maximum and its
 * current value stay NP_NA. Coalescing has no such marker in the ioctl: every field is filled.
 */
void np_ethtool_rings_parse(const struct ethtool_ringparam *rp, struct np_rings *r);
void np_ethtool_channels_parse(const struct ethtool_channels *ch, struct np_channels *c);
void np_ethtool_coalesce_parse(const struct ethtool_coalesce *ec, struct np_coalesce *c);

#endif
