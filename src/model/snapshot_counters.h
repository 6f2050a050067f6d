/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A snapshot's counters as a flat vector of named u64 (the flight recorder's frames,
 * doc/netpath-record-format.md "Counter names"), and back; and a digest of everything in a
 * snapshot that is configuration, not a counter (what the recorder stores again when it
 * changes). Pure code: no I/O.
 *
 * The recorder keeps configuration and counters apart: at read time a snapshot rebuilt from
 * the configuration has the right settings but counters of another moment, and
 * np_snapcnt_apply() puts the frame's in. Every counter a check turns into a rate, or reads as
 * since-boot context, is in the frame; apply leaves every setting as it is.
 */
#ifndef NP_SNAPSHOT_COUNTERS_H
#define NP_SNAPSHOT_COUNTERS_H

#include <stddef.h>
#include <stdint.h>

#include "snapshot.h"

/* A growable frame: n values and their names back to back, as np_rec_sample wants. */
struct np_named_counters {
	size_t n, cap;
	uint64_t *v;
	char *names;
	size_t names_len, names_cap;
};

/* Bounds on the ids a frame's names may carry: a hostile name cannot make apply allocate
 * more than this many rows (CPU ids as NP_MAX_CPUS). */
#define NP_SNAPCNT_MAX_QUEUES 4096
/* Longest name the encoder writes or apply accepts (with its NUL). */
#define NP_SNAPCNT_NAME_MAX 160

void np_named_counters_init(struct np_named_counters *c);
void np_named_counters_free(struct np_named_counters *c);
/* n = 0, keep memory. */
void np_named_counters_reset(struct np_named_counters *c);
/* Append one; the name is printf-formatted. 0 or -ENOMEM (-ENAMETOOLONG: not appended). */
int np_named_counters_add(struct np_named_counters *c, uint64_t v, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Append the host-wide counters of s (softnet rows per CPU, softirqs NET_RX/NET_TX per CPU,
 * the SNMP/netstat MIB, conntrack stats, sockstat, meminfo). 0 or -ENOMEM.
 */
int np_snapcnt_host(const struct np_snapshot *s, struct np_named_counters *out);
/*
 * Append the device's counters of s, every name prefixed "IFNAME/" (s->dev.name, else
 * s->ifname): sysfs link stats, rtnetlink stats64, carrier changes, the device's IRQ counts per
 * CPU, ethtool standard stats, driver stats, netdev qstats per queue, qdisc stats, pause frame
 * counts, PCIe AER totals, the socket summary's counters. 0 or -ENOMEM.
 */
int np_snapcnt_dev(const struct np_snapshot *s, struct np_named_counters *out);
/*
 * Overwrite s's counters (the host-wide ones, in s->hs, and the device ones of its name) with
 * the frame's values. Counters s has but the frame lacks become NP_NA or absent,
 * never a stale value; a section the frame lacks entirely marks its source NP_SRC_ABSENT
 * ("not in the recorded frame") when it was read. Per-CPU and per-queue arrays (softnet,
 * softirqs, IRQ columns, qstats) and the socket lists are rebuilt from the frame; lines and
 * qdiscs s does not have are ignored (they are configuration). Unknown or malformed names are
 * ignored; ids are bounded (NP_MAX_CPUS, NP_SNAPCNT_MAX_QUEUES). 0 or -ENOMEM (s then holds
 * no stale counter, but may lack some of the frame's).
 */
int np_snapcnt_apply(struct np_snapshot *s, const char *const *names, const uint64_t *v,
		     size_t n);
/* The same for the device's counters only: the other devices of a sample, whose host snapshot
 * (shared) takes the frame once, through the first device's np_snapcnt_apply(). */
int np_snapcnt_apply_dev(struct np_snapshot *s, const char *const *names, const uint64_t *v,
			 size_t n);

/*
 * Where a frame's counters go in s, for a run of frames with the same names (history's scan):
 * np_snapcnt_plan() applies the frame (names, v) as np_snapcnt_apply() does and records where
 * each counter of the link statistics, stats64, softnet rows, MIB and conntrack landed;
 * np_snapcnt_patch() then writes another frame's values of those counters (same names, same
 * order) into s as apply would, without rebuilding anything. Every other counter of s keeps
 * the planned frame's value: only readers of those sections (the funnel) may use a patched
 * snapshot. The plan holds pointers into s: apply or free s, and it is void.
 */
struct np_snapcnt_plan {
	size_t n, cap;		/* covered slots */
	void **loc;		/* where each goes in s */
	uint32_t *idx;		/* which counter of the frame */
	size_t n_frame;		/* the frame's count of counters */
};

int np_snapcnt_plan(struct np_snapshot *s, struct np_snapcnt_plan *p, const char *const *names,
		    const uint64_t *v, size_t n);
void np_snapcnt_patch(const struct np_snapcnt_plan *p, const uint64_t *v);
void np_snapcnt_plan_free(struct np_snapcnt_plan *p);
/* Narrows a plan of s to the MIB and conntrack counters at keep[0..n) (places in s's tables,
 * NULL entries ignored): a reader of a few of those (history's funnel, funnel.h) spares
 * copying the rest. Every other section stays covered. */
void np_snapcnt_plan_narrow(struct np_snapcnt_plan *p, const struct np_snapshot *s,
			    const uint64_t *const *keep, size_t n);

/*
 * A digest of s's configuration: sysctls, the device's settings and state, ethtool settings,
 * rtnetlink's link and qdisc tree, IRQ lines (number, name, affinity) and columns, host
 * facts, PCIe link, source statuses. Never a counter. FNV-1a 64, stable within one build.
 */
uint64_t np_snapshot_config_digest(const struct np_snapshot *s, uint64_t seed);

#endif
