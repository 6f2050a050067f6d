/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers shared by several stage files: MIB counter groups and the standard "drop counter"
 * finding (ip, transport, socket), and per-CPU softnet_stat views (irq, softnet, nic). Each was
 * copied into every file that needed it; one copy keeps the skip reasons, summaries and
 * per-CPU matching the same everywhere.
 */
#ifndef NP_CHECK_UTIL_H
#define NP_CHECK_UTIL_H

#include "check.h"

#include <stddef.h>

/* ---- MIB counter groups: NULL-terminated lists of nstat names (mib.c) ---- */

/* Sum of the MIB counters named in names[]; absent ones are left out. */
struct np_counter_view np_mib_sum(const struct np_analysis *a, const char *const *names);
/* Evidence for each present counter of names[], in list order. */
void np_mib_evidence(struct np_finding *f, const struct np_analysis *a, const char *const *names,
		     const char *unit);
/* Skip reason when the MIB files are unreadable or the kernel lacks every counter; NULL if ok. */
const char *np_mib_missing(const struct np_analysis *a, const struct np_counter_view *v);
/* Summary tail: "12.0/s (340 since boot)" or "340 since boot, none during the sample". */
void np_rate_text(const struct np_counter_view *v, char *buf, size_t size);

/* *v = the sum of names[]; false after skipping the check when the counters are missing. */
bool np_mib_read(const struct np_analysis *a, struct np_report *r, const char *const *names,
		 struct np_counter_view *v);
/* np_mib_read, then np_verdict with the running check's thresholds (NP_SEV_OK when skipped). */
enum np_severity np_mib_verdict(const struct np_analysis *a, struct np_report *r,
				const char *const *names, struct np_counter_view *v);
/*
 * The standard drop-counter finding: the verdict of np_mib_verdict, summary "<what>: <rate
 * text>", ranked by the rate, with one evidence line per present counter in 'unit'. Returns the
 * finding for the check's own evidence, detail and remedies, or NULL when there is nothing to
 * report (skipped, OK, or the report is full).
 */
struct np_finding *np_mib_drop_finding(const struct np_analysis *a, struct np_report *r,
				       const char *const *names, const char *unit,
				       const char *what);

/* ---- sysctls, sources and the kernel: why evidence is missing (absence.c) ---- */

/* Skip the running check for want of sysctl key, saying why: absent on this kernel, denied,
 * or a host-wide key read from inside a network namespace (where it has no file). */
void np_skip_sysctl(const struct np_analysis *a, struct np_report *r, enum np_sysctl_id id);
/* Why a sysctl file is absent, the same words everywhere: "not in this capture", host-wide
 * inside a namespace, or not on this kernel (naming the release when it is known). */
const char *np_sysctl_absence(const struct np_snapshot *s, enum np_sysctl_id id, char *buf,
			      size_t size);
/* The same in a few words, for summaries: "not in this capture", "host-wide, not visible in
 * this network namespace", "not on this kernel", "not readable". */
const char *np_sysctl_absence_short(const struct np_snapshot *s, enum np_sysctl_id id);
/* A live run inside a child network namespace (host-wide sysctls have no files there). */
bool np_in_child_netns(const struct np_snapshot *s);
/* A source's state in words for a skip reason: "not in this capture", "refused: row 3 has 7
 * fields, row 1 has 11", "denied: ...". */
const char *np_src_why(const struct np_snapshot *s, enum np_source id, char *buf, size_t size);
/* The kernel release "MAJOR.MINOR..." of the snapshot; false when it is not known. */
bool np_kernel_version(const struct np_snapshot *s, unsigned *major, unsigned *minor);
/* True only when the release is known and older than major.minor. */
bool np_kernel_before(const struct np_snapshot *s, unsigned major, unsigned minor);

/* ---- per-CPU softnet_stat (softnet_view.c) ---- */

/* softnet_stat fields, as offsets into struct np_softnet_row. */
#define NP_SN_DROPPED offsetof(struct np_softnet_row, dropped)
#define NP_SN_SQUEEZE offsetof(struct np_softnet_row, time_squeeze)
#define NP_SN_PROCESSED offsetof(struct np_softnet_row, processed)
#define NP_SN_FLOWLIM offsetof(struct np_softnet_row, flow_limit_count)

/* One CPU's view of one softnet_stat field. */
struct np_sn_cpu {
	int cpu;
	struct np_counter_view v;
	double key;		/* what the CPUs are ranked by: delta when sampled, else total */
};

/* The analysis has a previous softnet_stat to take deltas from. */
bool np_sn_sampled(const struct np_analysis *a);
/*
 * Per-CPU views of one field (32-bit, wrapping; rows matched by CPU id) and their sum in
 * *total. The array is in row order unless 'sorted' (then biggest first); the caller frees it.
 * NULL on allocation failure or without rows.
 */
struct np_sn_cpu *np_sn_views(const struct np_analysis *a, size_t off, bool sorted,
			      struct np_counter_view *total);
const struct np_sn_cpu *np_sn_find(const struct np_sn_cpu *c, size_t n, int cpu);

/* ---- the CPUs serving the interface (cpus.c) ---- */

/* An IRQ of one of the device's receive queues (RX or TxRx). */
bool np_irq_is_rxq(const struct np_irq_line *l);
/* Where an IRQ is delivered: effective affinity (4.13+) when known, else the configured one;
 * NULL when neither is. */
const struct np_cpuset *np_irq_cpus(const struct np_irq_line *l);
/*
 * The CPUs that serve the interface's receive path: where its queue IRQs are delivered (*irq)
 * and its RPS targets (*rps). False when neither the IRQ placement nor an RPS target is known,
 * so nothing can be said about a CPU not serving it.
 */
bool np_rx_cpus(const struct np_snapshot *s, struct np_cpuset *irq, struct np_cpuset *rps);

/* Online CPUs; without that file, the CPUs softnet_stat has rows for. */
struct np_cpuset np_online_cpus(const struct np_snapshot *s);
/* How many: host.ncpu_online, else the size of np_online_cpus(). */
unsigned np_ncpu_online(const struct np_snapshot *s);

/* ---- numbers for people (format.c) ---- */

/* The kernel's cpumask text for rps_cpus and smp_affinity: 32-bit hex groups, most
 * significant first ("ff,fffffffe"); "0" for the empty set. */
void np_fmt_cpumask(const struct np_cpuset *m, char *buf, size_t size);

/* "1,234" (integers with the group separator below), "0.5" below 10. */
const char *np_fmt_num(double v, char *buf, size_t size);
/* printf's "%.0f" of v by hand, when v is integral and below 2^53 in magnitude (not -0):
 * false otherwise, and when it does not fit in size. */
bool np_fmt_integral(double v, char *out, size_t size);
/* np_fmt_num into one of 8 rotating buffers, for a rate inside an np_emit() argument list
 * ("%s/s"): valid until the 8th call after it. Rates in summaries all take this one form, so
 * every line that quotes them (the Nagios status line too) reads alike. */
const char *np_fmt_rate(double v);
/* The digit group separator: "," by default, "" for none (machine-facing output). main() sets
 * it from the locale for human text (render/textenc.h). */
void np_fmt_set_group_sep(const char *sep);
const char *np_fmt_group_sep(void);
/* "-1234567" -> "-1,234,567" with that separator. */
const char *np_fmt_group(const char *digits, char *buf, size_t size);

/* Whether a space-separated list (tcp_available_congestion_control: "reno cubic bbr") holds
 * word. */
bool np_word_in(const char *list, const char *word);

/* The RPS remedy (irq_queue_kind.c) for traffic the NIC cannot spread over its queues: rps_cpus
 * over the CPUs the device's IRQs may use but busy_cpu (-1: none), or, when some queue has
 * rps_cpus set already, a detail saying so and no remedy (never the setting in force). */
void np_rps_remedy(struct np_finding *f, const struct np_snapshot *s, int busy_cpu);

#endif
