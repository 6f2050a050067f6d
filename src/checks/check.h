/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The check table. A check is pure: it reads the analysis (two snapshots, the interval and the
 * user's options) and emits findings into the report. No I/O, no printing. The same table
 * drives doctor, `netpath explain`, `netpath checks` and the man page.
 */
#ifndef NP_CHECK_H
#define NP_CHECK_H

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "finding.h"
#include "snapshot.h"

struct np_drv_class;

/* The check table's capacity (registry.c). */
#define NP_MAX_CHECKS 256

/*
 * The user's thresholds for one check, from a config file `threshold` line or --threshold.
 * A level not given keeps the table's value. All zero: no override.
 */
struct np_threshold {
	bool has_warn, has_crit;
	double warn, crit;
};

/* Threshold overrides by table index (np_check_index). A zeroed struct overrides nothing. */
struct np_overrides {
	struct np_threshold t[NP_MAX_CHECKS];
};

struct np_options {
	double interval;	/* seconds between the two snapshots; 0 = no sampling */
	double rtt_ms;		/* --rtt; NAN when not given */
	double bandwidth_bps;	/* --bandwidth; NAN when not given (use the link speed) */
	int verbose;
};

struct np_analysis {
	const struct np_snapshot *prev;	/* NULL when --interval 0 */
	const struct np_snapshot *cur;
	double dt;			/* seconds between prev and cur; 0 when prev is NULL */
	const struct np_options *opt;
	const struct np_overrides *ovr;	/* the user's thresholds; NULL: the table's */
	/* Derived once by the engine for the BDP checks. */
	double bw_bps;			/* NAN when neither --bandwidth nor a link speed */
	const char *bw_source;		/* "--bandwidth", "link speed", ... */
	double rtt_ms;			/* NAN when unknown */
	const char *rtt_source;
	/* The devices directly beneath this one (a bond's members, a bridge's ports), each
	 * with its own snapshots; none when doctor judges a device alone. */
	const struct np_analysis *const *lower;
	size_t nlower;
	/* Set by np_analyze() for its run: the class of each of cur's driver counters, which a
	 * dozen checks would each recompute (np_drv_classify: thousands of instructions a
	 * counter, and NICs have hundreds). np_nv_drv_class() reads it, or classifies on the
	 * spot outside np_analyze() or for another snapshot (a lower device, plan's probe). */
	const struct np_drv_class *drv_cls;
	const struct np_counters *drv_cls_of;
};

struct np_check {
	const char *id;			/* stable: "softnet.backlog-drops" */
	enum np_stage stage;
	enum np_scope scope;		/* whose values it judges: the interface, netns or host */
	const char *title;
	const char *looks_at;		/* what it reads */
	const char *why;		/* why it matters, and when it does not */
	const char *fix;		/* the remedy in general terms, with its cost */
	const char *related;		/* sysctls/ethtool settings, comma separated */
	const char *kernel_notes;	/* version differences, may be NULL */
	/* Documented thresholds for counter-driven checks (NAN if the check has none). */
	double warn, crit;
	const char *thr_unit;		/* "drops/s", "% of packets", ... */
	void (*run)(const struct np_analysis *a, struct np_report *r);
};

/* The whole table in receive-path order (registry.c). */
const struct np_check *const *np_check_table(size_t *n);
const struct np_check *np_check_find(const char *id);
/* Position of c in the table, -1 if it is not in it. */
int np_check_index(const struct np_check *c);

/* Run the checks of the table for which want() is true (NULL: all) over the analysis into r,
 * which the caller frees with np_report_free(). Checks not wanted stay NP_CHECK_NOT_RUN. */
typedef bool (*np_check_filter)(const struct np_check *c, void *arg);
int np_analyze(const struct np_analysis *a, struct np_report *r, np_check_filter want, void *arg);
/* Fill the derived fields (bandwidth, RTT and their sources) from options and snapshots. */
void np_analysis_derive(struct np_analysis *a);

/* ---- what checks use to report ---- */

/* Start a finding for the running check; the summary is printf-formatted. */
struct np_finding *np_emit(struct np_report *r, enum np_severity sev, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Mark the running check as skipped: the evidence it needs could not be read. */
void np_skip(struct np_report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Mark it skipped because it does not apply here (a veth-only check on a NIC, no PCIe on a
 * virtual device, a counter this driver or kernel does not have, no interval sampled). */
void np_not_applicable(struct np_report *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

void np_ev_value(struct np_finding *f, const char *key, const char *unit, double value);
void np_ev_text(struct np_finding *f, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
struct np_counter_view;
void np_ev_counter(struct np_finding *f, const char *key, const char *unit,
		   const struct np_counter_view *v);
/* Mark the last added evidence as verbose-only in text output. */
void np_ev_verbose(struct np_finding *f);
/* What only this machine shows: numbers, devices, the concrete commands. The entry's .why and
 * .fix are not copied here; renderers join them (np_finding_why, np_finding_fix). */
void np_detail(struct np_finding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void np_remedy(struct np_finding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* More of the summary, printf-formatted and cut as snprintf cuts at NP_SUMMARY_SIZE (no word
 * kept whole, no cut counted): a figure the summary's sentence ends with. */
void np_summary_append(struct np_finding *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- what renderers print: the finding's facts joined with its entry's static text ---- */

/* The explanation: the finding's detail, then its check's .why (into buf, truncated to size). */
const char *np_finding_why(const struct np_finding *f, char *buf, size_t size);
/* The remedy: the finding's concrete steps when the check gave them, else its entry's .fix. */
const char *np_finding_fix(const struct np_finding *f);

/* ---- counters over the interval ---- */

/* A counter seen since boot and, when sampled, over the interval. */
struct np_counter_view {
	bool present;		/* the counter exists in the current snapshot */
	uint64_t total;		/* since boot (current value) */
	uint64_t delta;		/* over the interval (0 when not sampled) */
	double rate;		/* per second (0 when not sampled) */
	bool sampled;		/* the analysis has an interval and prev had the counter */
};

/* 64-bit counters: a decrease (counter reset, device re-created) gives delta 0, not a wrap. */
struct np_counter_view np_view_u64(const struct np_analysis *a, uint64_t prev, uint64_t cur);
/* 32-bit counters (softnet_stat): cur < prev means one wrap. */
struct np_counter_view np_view_u32(const struct np_analysis *a, uint64_t prev, uint64_t cur);
/* A MIB counter by nstat name ("TcpExtListenOverflows"). */
struct np_counter_view np_view_mib(const struct np_analysis *a, const char *name);
/* Sum of views (for "drops = A + B"). */
struct np_counter_view np_view_sum(struct np_counter_view x, struct np_counter_view y);

/*
 * The usual verdict for a drop counter: with an interval, rate >= crit → critical, >= warn →
 * warning, > 0 → info; no change over the interval but a since-boot total → info ("in the
 * past"); never seen → OK. Without an interval, since-boot totals alone give at most `info`,
 * never critical: a counter that grew once since boot is not an incident.
 */
enum np_severity np_verdict(const struct np_counter_view *v, double warn, double crit);

/* Thresholds of the running check: the user's override (a->ovr) if any, else the table's.
 * Every threshold a check documents in its table entry must be read through these. */
double np_thr_warn(const struct np_report *r);
double np_thr_crit(const struct np_report *r);
/* The thresholds c runs with under the overrides o (NULL: the table's); NAN: none. */
double np_check_warn(const struct np_check *c, const struct np_overrides *o);
double np_check_crit(const struct np_check *c, const struct np_overrides *o);

/* ---- formatting helpers for summaries ---- */
/* "6 MiB", "208 KiB", "1.9 MB" style with binary units. */
const char *np_fmt_bytes(double bytes, char *buf, size_t size);
/* "10 Gbit/s", "500 Mbit/s". */
const char *np_fmt_bps(double bps, char *buf, size_t size);

/* Bandwidth-delay product in bytes; NAN if either is unknown. */
double np_bdp_bytes(double bw_bps, double rtt_ms);
/* The RTT (ms) up to which a buffer of 'bytes' keeps a 'bw_bps' link full. */
double np_rtt_covered_ms(double bytes, double bw_bps);

#endif
