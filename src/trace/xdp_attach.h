/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trace --xdp: the XDP packet counter and the rules that make attaching it safe. The policy
 * (xdp_policy.c) is pure: driver, mode and flags in, a decision and the words for it out. The
 * session (xdp_attach.c) does the I/O: it checks IFLA_XDP, loads the counter and holds it only
 * through a bpf_link owned by this process, so the kernel detaches it when the process ends,
 * however it ends (exit, Ctrl-C, SIGTERM, SIGKILL). Nothing is ever pinned.
 */
#ifndef NP_XDP_ATTACH_H
#define NP_XDP_ATTACH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "xdp_sources.h"

enum np_xdp_mode {
	NP_XDP_MODE_AUTO,	/* native when the driver has it, else generic */
	NP_XDP_MODE_NATIVE,	/* in the driver's poll, before any skb exists */
	NP_XDP_MODE_GENERIC,	/* in the stack (netif_receive_skb), on skbs */
};

/* What attaching a program does to a driver's traffic. */
enum np_xdp_risk {
	NP_XDP_RISK_NONE,	/* software devices: nothing is reset */
	NP_XDP_RISK_DISRUPTS,	/* rings rebuilt or device reset: traffic is lost */
	NP_XDP_RISK_UNKNOWN,	/* a driver we know nothing about: assume the worst */
};

struct np_xdp_driver {
	const char *name;	/* as ETHTOOL_GDRVINFO spells it; "" for the unknown entry */
	enum np_xdp_risk risk;
	int native;		/* 1 has native XDP, 0 generic only, -1 unknown (try native) */
	const char *effect;	/* what attaching does: "attaching an XDP program <effect>" */
};

/* The knowledge entry for DRIVER ("" or NULL = unknown); never NULL. */
const struct np_xdp_driver *np_xdp_driver_lookup(const char *driver);
/* Every known entry (for the tests and the man page), terminated by the unknown entry. */
const struct np_xdp_driver *np_xdp_driver_table(size_t *n);

/* "native" / "generic" / "auto"; and the reverse (-EINVAL for anything else). */
const char *np_xdp_mode_name(enum np_xdp_mode m);
int np_xdp_mode_parse(const char *s, enum np_xdp_mode *m);
/* One sentence on what the counts of a mode mean (for the text output and the man page). */
const char *np_xdp_mode_explain(enum np_xdp_mode m);

/* The decision's inputs: all facts, no I/O. */
struct np_xdp_plan_in {
	const char *ifname;
	const char *driver;	/* "" / NULL when it could not be read */
	enum np_xdp_mode mode;	/* as asked */
	bool accept_reset;	/* --xdp-accept-reset */
	int lro, gro_hw;	/* active offloads: 1 on, 0 off, -1 unknown */
};

struct np_xdp_plan {
	bool allowed;
	enum np_xdp_mode first;		/* the mode to try first (never AUTO when allowed) */
	enum np_xdp_mode fallback;	/* tried when the driver has no native XDP; AUTO = none */
	bool acknowledged;	/* allowed only because of --xdp-accept-reset */
	char msg[1024];	/* refused: why, in plain words; allowed: notes for the report */
};

/* Decide whether (and in which modes) the counter may be attached. Returns 0 when allowed,
 * -ECANCELED when refused (out->msg says why and what --xdp-accept-reset would do),
 * -EOPNOTSUPP when native mode was asked of a driver that has none. */
int np_xdp_plan(const struct np_xdp_plan_in *in, struct np_xdp_plan *out);

/* IFLA_XDP as the rtnl collector read it (attached: XDP_ATTACHED_*, -1 unknown). 0 when no
 * program is attached; -EEXIST when one is (msg names its id and mode: netpath never replaces
 * it); -ENODATA when the kernel did not say (then nothing may be attached either). */
int np_xdp_check_existing(const char *ifname, int attached, uint32_t prog_id, char *msg,
			  size_t len);

/* Counts since the counter was attached. per_queue[i] / per_cpu[i] list only rows with
 * packets, in queue / CPU order; cells are the non-zero (cpu, queue) pairs. */
struct np_xdp_cell {
	int cpu;	/* -1 in per_queue rows */
	int queue;	/* -1 in per_cpu rows; NP_XDP_QUEUE_OVERFLOW = a queue index >= 256 */
	uint64_t packets, bytes;
};
#define NP_XDP_QUEUE_OVERFLOW 256

struct np_xdp_counts {
	uint64_t packets, bytes;
	size_t nqueue, ncpu, ncell;
	struct np_xdp_cell *per_queue, *per_cpu, *cells;
	struct np_xdp_sources sources;	/* the top sources (sources.on false: not counted) */
};

/* Fold per-CPU map values into counts: vals[slot * ncpu + i] is slot's value on the i-th
 * possible CPU, whose id is cpu_ids[i]. Pure. 0, -ENOMEM (out emptied), -EINVAL. */
struct np_xdp_slot;
int np_xdp_counts_fold(const struct np_xdp_slot *vals, size_t nslots, const int *cpu_ids,
		       size_t ncpu, struct np_xdp_counts *out);
void np_xdp_counts_free(struct np_xdp_counts *c);

/* The session: the loaded counter and the link that holds it. */
struct np_xdp_opts {
	enum np_xdp_mode mode;
	bool accept_reset;
	size_t top_sources;	/* sources reported; 0 leaves them uncounted in the kernel */
};

struct np_xdp_info {
	enum np_xdp_mode mode;	/* the mode really attached: NATIVE or GENERIC */
	uint32_t program_id;	/* ours (bpf_prog_info), checked against IFLA_XDP */
	bool acknowledged;	/* the disruption was accepted with --xdp-accept-reset */
	char driver[32];	/* "" when unknown */
	char notes[1536];	/* the plan's notes plus the mode's explanation */
};

struct np_xdp_session;

/*
 * Attach the counter to IFNAME (IFINDEX) in the current network namespace. Returns 0 and the
 * session, or a negative errno with err filled in (one line, plain words) and nothing left
 * attached: -EEXIST another XDP program is there (or appeared meanwhile; it is untouched),
 * -ECANCELED refused by policy (driver resets, no acknowledgement), -ENODATA the current XDP
 * state could not be read, -EOPNOTSUPP native mode asked but the driver has none, or the kernel
 * cannot hold XDP through a bpf_link (before 5.9), -EPERM not privileged, -ENOTSUP (the
 * same number on Linux) built without BPF, other -errno from the kernel. The caller prints
 * err and exits 3 on any of them.
 */
int np_xdp_start(const char *ifname, int ifindex, const struct np_xdp_opts *o,
		 struct np_xdp_session **out, char *err, size_t errlen);
const struct np_xdp_info *np_xdp_session_info(const struct np_xdp_session *s);
/* Read the counters at the end of the window (sum per queue and per CPU over the possible
 * CPUs, and the top sources): detaches the program first, so that the per-queue and
 * per-source counts cover the same frames. Call it once. 0 or -errno. */
int np_xdp_read(struct np_xdp_session *s, struct np_xdp_counts *out);
/* Detach (close the link) and unload. NULL is fine. */
void np_xdp_stop(struct np_xdp_session *s);

#endif
