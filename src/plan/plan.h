/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * `netpath plan`: the persistent configuration a profile and a path call for, as lines an admin
 * reviews and installs (sysctl.d, a networkd .link file or udev rule, modules-load.d, tc).
 * Pure: built from doctor's analysis (snapshots, derived path, findings) and what the kernel
 * ships (kmods.h), sized by the same functions as doctor's remedies (sizing.h). Never applied.
 */
#ifndef NP_PLAN_H
#define NP_PLAN_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>

#include "check.h"
#include "kmods.h"

enum np_profile {
	NP_PROFILE_LAN,		/* a sub-millisecond to ~1 ms network of this site */
	NP_PROFILE_LONG_HAUL,	/* transfers over tens of ms (WAN, between POPs) */
	NP_PROFILE_BUSY_SERVER,	/* many clients on the Internet: queues, listen backlog, keepalive */
	NP_PROFILE_LOW_LATENCY,	/* latency before throughput: no deep queues, no coalescing */
	NP_PROFILE__COUNT
};

/* "lan", "long-haul", "busy-server", "low-latency" (in this order: the option's words). */
const char *np_profile_name(enum np_profile p);
#define NP_PROFILE_WORDS "lan long-haul busy-server low-latency"
/* The RTT (ms) a profile assumes when neither --rtt nor live sockets give one. */
double np_profile_rtt_ms(enum np_profile p);

/* Where a line goes. */
enum np_plan_kind {
	NP_PLAN_SYSCTL,		/* /etc/sysctl.d/90-netpath.conf */
	NP_PLAN_LINK,		/* the .link file's [Link] key, or the udev rule's command */
	NP_PLAN_MODULE,		/* /etc/modules-load.d/netpath.conf */
	NP_PLAN_QDISC,		/* tc qdisc replace on the live interface */
	NP_PLAN_NOTE,		/* nothing to install: kept as it is, or done by hand, and why */
	NP_PLAN_KIND__COUNT
};
const char *np_plan_kind_name(enum np_plan_kind k);

#define NP_PLAN_CHECKS 4
/* The key of the note naming the settings this data did not hold (plan_sysctl.c). */
#define NP_PLAN_UNREAD "not read"

struct np_plan_line {
	enum np_plan_kind kind;
	enum np_stage stage;
	/* SYSCTL: the dotted key; LINK: the .link key ("RxBufferSize"); MODULE: the module;
	 * QDISC: the device; NOTE: what it is about (a key or a topic). */
	char key[64];
	char current[128];	/* the value now ("" not known) */
	char planned[128];	/* the value planned ("" for a note) */
	/* LINK: the command of the udev alternative ("ethtool -G $name rx 4096"); QDISC: the tc
	 * command; MODULE: the modprobe to load it now. */
	char command[160];
	char why[480];
	char moot[400];		/* when it does not matter */
	char cost[320];
	const char *checks[NP_PLAN_CHECKS];	/* the checks it answers (NULL-ended) */
	char dev[IF_NAMESIZE];	/* the device it was planned for (LINK and QDISC lines: theirs) */
	bool host_wide;		/* SYSCTL: exists in the initial namespace only */
};

/* The devices a plan has NIC settings and a qdisc for: one, or every one with --all. */
#define NP_PLAN_DEVS 32

struct np_plan_dev {
	char name[IF_NAMESIZE];
	char bus_id[32];	/* PCI address of the NIC ("" none): the .link/udev match */
};

struct np_plan {
	enum np_profile profile;
	char ifname[IF_NAMESIZE];	/* the primary device: the path and sysctls are sized for it */
	char bus_id[32];
	size_t ndev;
	struct np_plan_dev dev[NP_PLAN_DEVS];	/* dev[0] is the primary */
	bool pace;		/* fq pacing planned or in force: each device's qdisc follows */
	char kernel[64];
	double bw_bps, rtt_ms, bdp;	/* the path planned for (NAN unknown) */
	const char *bw_source, *rtt_source;
	bool rtt_assumed;	/* the profile's RTT: neither --rtt nor live sockets gave one */
	struct np_kmods kmods;
	size_t n, cap;
	struct np_plan_line *l;
	bool oom;		/* a line could not be added: np_plan_build fails */
	/* Filled by np_plan_verify(): the checks whose findings the plan's settings make pass
	 * when doctor judges the same snapshot with them applied, and those that still fire. */
	size_t nresolved, nremaining;
	const char *resolved[64], *remaining[64];
};

/*
 * Build the plan for a's interface: a->cur (and a->prev) as doctor collected them, a's path
 * (np_plan_path() first), rep doctor's findings over a, kmods what the kernel ships (NULL:
 * unknown). 0, or -ENOMEM. Free with np_plan_free().
 */
int np_plan_build(const struct np_analysis *a, const struct np_report *rep,
		  enum np_profile profile, const struct np_kmods *kmods, struct np_plan *p);
void np_plan_free(struct np_plan *p);
/*
 * --all: the NIC settings and qdisc of one more device (a, rep: doctor's analysis of it) into
 * p, whose sysctls stay the primary's. 0, -ENOSPC beyond NP_PLAN_DEVS devices, -ENOMEM.
 */
int np_plan_add_device(struct np_plan *p, const struct np_analysis *a, const struct np_report *rep);
/* The path to plan for: a's derived RTT, else the profile's (a->rtt_ms set, *assumed true).
 * Call after np_analysis_derive() and before np_analyze(), so doctor judges the same path. */
void np_plan_path(struct np_analysis *a, enum np_profile profile, bool *assumed);

/*
 * The plan applied to a snapshot, as the kernel would show it after `sysctl -p` and the .link
 * file: its sysctl values and NIC settings replaced. Pure, for verification (np_plan_verify).
 */
int np_plan_apply(const struct np_plan *p, struct np_snapshot *s);
/*
 * Apply the plan to s (doctor's current snapshot of one of its devices, changed in place: the
 * sysctls, and that device's NIC and qdisc lines), judge it again with the same options, and
 * add to p->resolved (checks that fired before and not after) and p->remaining (checks the
 * plan answers that still fire). before: doctor's findings before. 0 or -ENOMEM.
 */
int np_plan_verify(struct np_plan *p, const struct np_analysis *a, const struct np_report *before,
		   struct np_snapshot *s);

/* Lines of one kind, in plan order: the i-th, or NULL. */
const struct np_plan_line *np_plan_nth(const struct np_plan *p, enum np_plan_kind k, size_t i);
size_t np_plan_count(const struct np_plan *p, enum np_plan_kind k);

#endif
