/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Pure parsers of the command outputs a sosreport keeps (sos_commands/...): ethtool, ip, tc,
 * lscpu, lspci and sysctl -a text. No I/O: the sosreport collector (sos_nic.c) reads the files,
 * the unit tests and fuzzers feed them fixtures and garbage. Text outputs of other programs are
 * untrusted input: every parser reads within (buf, len), stops at the first NUL, never needs a
 * trailing newline and keeps "not in the output" (NP_NA / -1) distinct from 0.
 *
 * Return values, shared by all of them:
 *   0            parsed
 *   -EBADMSG     parsed, but some lines the parser knows held values it could not read (kept
 *                what parsed)
 *   -EOPNOTSUPP  the tool said the driver does not support it ("Operation not supported",
 *                "no stats available"): data, like the live collector's EOPNOTSUPP
 *   -ENODEV      the tool said there is no such device
 *   -ENODATA     empty output (sos writes an empty file when a command failed to run)
 *   -ENOENT      the interface (or PCI device) is not in the output
 *   -EINVAL      nothing in any layout we know
 *   -ENOMEM
 */
#ifndef NP_SOS_TEXT_H
#define NP_SOS_TEXT_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpuset.h"
#include "link_stats.h"
#include "nic.h"
#include "snapshot.h"

/* ethtool -i IF: driver, version, firmware-version, bus-info. */
int np_parse_ethtool_i(const char *buf, size_t len, struct np_ethtool *e);
/* ethtool -g IF: "Pre-set maximums:" / "Current hardware settings:" (a kind whose maximum is 0
 * or n/a stays NP_NA, as the netlink collector leaves it). */
int np_parse_ethtool_g(const char *buf, size_t len, struct np_rings *r);
/* ethtool -l IF: RX / TX / Other / Combined, maximums and current. */
int np_parse_ethtool_l(const char *buf, size_t len, struct np_channels *c);
/* ethtool -c IF: "Adaptive RX: on  TX: off", rx-usecs, rx-frames, tx-usecs, tx-frames. */
int np_parse_ethtool_c(const char *buf, size_t len, struct np_coalesce *c);
/* ethtool -k IF: the receive-path features' active state ("on [fixed]" is on). */
int np_parse_ethtool_k(const char *buf, size_t len, struct np_features *f);
/* ethtool -S IF: "name: value" after "NIC statistics:", leading blanks, names with blanks or
 * dots; a repeated name becomes "name#2" as the ioctl collector names it. Replaces *out. */
int np_parse_ethtool_S(const char *buf, size_t len, struct np_counters *out);
/* ethtool -a IF: "Autonegotiate:", "RX:", "TX:" on/off. */
int np_parse_ethtool_a(const char *buf, size_t len, struct np_pause *pa);
/* ethtool IF: speed, duplex, autoneg, link modes and "Link detected" (*link 1/0, -1 absent). */
int np_parse_ethtool_settings(const char *buf, size_t len, struct np_linkmodes *lm, int *link);
/* "1000baseT/Full" -> its ETHTOOL_LINK_MODE bit; -1 when the table does not know it. */
int np_ethtool_mode_bit(const char *name, size_t nl);

/* One interface of `ip -s -d link` (also `ip -s -s -d link`, `ip -s link`, `ip link`,
 * `ip -d address`). */
struct np_ip_link {
	char name[IF_NAMESIZE];
	char parent[IF_NAMESIZE];	/* "vlan10@eth0": eth0; "" none ("@NONE" too) */
	char master[IF_NAMESIZE];	/* "master bond0" */
	char qdisc[16];			/* "qdisc mq" */
	char operstate[16];		/* "state UP" lowercased, as rtnetlink names it */
	char kind[16];			/* -d: "bond", "vlan", "vxlan", "ifb"...; "" none */
	int ifindex;
	uint64_t mtu, qlen;
	int admin_up, carrier;		/* from <FLAGS>: 1/0 */
	int xdp;			/* XDP_ATTACHED_*: 0 none, 1 drv, 2 skb (generic), 3 hw */
	unsigned nvf;			/* "vf N ..." lines (SR-IOV) */
	uint64_t carrier_changes;	/* -s -s: "TX errors: ... transns" (NP_NA without) */
	bool has_stats;			/* an "RX: ..." header and its values were read */
	struct np_link_stats stats;
};

/* The block of IFNAME in the output into *out (stats NP_NA where the output has no column). */
int np_parse_ip_link(const char *buf, size_t len, const char *ifname, struct np_ip_link *out);

/* tc -s qdisc show: the qdiscs of IFNAME appended to r->qdiscs. */
int np_parse_tc_qdisc(const char *buf, size_t len, const char *ifname, struct np_rtnl *r);

/* lscpu: "CPU(s):" and "On-line CPU(s) list:" (old and util-linux 2.37+ indented layouts).
 * *ncpu 0 and an empty set when the output does not say. */
int np_parse_lscpu(const char *buf, size_t len, unsigned *ncpu, struct np_cpuset *online);

/* lspci -nnvv (or -vv, -nvv): the PCI Express link of the device at BDF ("0000:06:00.0" or
 * "06:00.0"): LnkCap/LnkSta speed and width, DevCap/DevCtl MaxPayload, MaxReadReq. */
int np_parse_lspci_link(const char *buf, size_t len, const char *bdf, struct np_pcie *p);

/* sysctl -a ("net.core.rmem_max = 212992"), walked once: fn gets each "key = value" line's key
 * and trimmed value (neither NUL-terminated), in the file's order; a nonzero return stops the
 * walk and is returned. -ENODATA for an empty text, else 0. */
typedef int (*np_sysctl_a_fn)(const char *key, size_t klen, const char *val, size_t vlen,
			      void *arg);
int np_parse_sysctl_a_each(const char *buf, size_t len, np_sysctl_a_fn fn, void *arg);
/* A value as the collector keeps it: into val, NUL-terminated, tabs kept, other control bytes
 * '?'. -ERANGE when it does not fit. */
int np_parse_sysctl_a_value(const char *v, size_t n, char *val, size_t size);
/* The value text of KEY (its first line) into val, as _value gives it. -ENOENT when the key is
 * not there. */
int np_parse_sysctl_a_find(const char *buf, size_t len, const char *key, char *val, size_t size);

#endif
