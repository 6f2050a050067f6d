/* SPDX-License-Identifier: GPL-2.0-only */
/* Findings: what a check concluded, with its evidence, ready for any renderer. */
#ifndef NP_FINDING_H
#define NP_FINDING_H

#include <stdbool.h>
#include <stddef.h>

/* The fixed stage vocabulary, in receive-path order (design.md). */
enum np_stage {
	NP_STAGE_LINK,
	NP_STAGE_PCIE,
	NP_STAGE_NIC,
	NP_STAGE_IRQ,
	NP_STAGE_SOFTNET,
	NP_STAGE_INGRESS,
	NP_STAGE_IP,
	NP_STAGE_TRANSPORT,
	NP_STAGE_SOCKET,
	NP_STAGE_CONGESTION,
	NP_STAGE__COUNT
};

/* Whose values a check judges or a funnel row counts: the interface, this network namespace, or
 * the whole host. It matters with --netns: softnet_stat, IRQs and tcp_mem/udp_mem are host-wide.
 * 0 is no scope, so that a table entry that forgets to say is caught (test_registry.c). */
enum np_scope { NP_SCOPE_UNSET, NP_SCOPE_INTERFACE, NP_SCOPE_NETNS, NP_SCOPE_HOST };

enum np_severity { NP_SEV_OK, NP_SEV_INFO, NP_SEV_WARNING, NP_SEV_CRITICAL };

const char *np_stage_name(enum np_stage st);
const char *np_severity_name(enum np_severity sev);
const char *np_scope_name(enum np_scope sc);

static inline enum np_severity np_sev_max(enum np_severity x, enum np_severity y)
{
	return x > y ? x : y;
}
int np_stage_from_name(const char *name);	/* -1 if unknown */

#define NP_MAX_EVIDENCE 16

/* A finding's texts are cut to fit these, their NUL included (textcut.h says how). */
#define NP_SUMMARY_SIZE 320
#define NP_DETAIL_SIZE 640
#define NP_REMEDY_SIZE 1024
#define NP_EV_KEY_SIZE 48
#define NP_EV_UNIT_SIZE 24
#define NP_EV_TEXT_SIZE 160

/* One named value. A counter carries its since-boot total and, when sampled, its rate. The
 * texts are never NULL. */
struct np_evidence {
	const char *key;
	const char *unit;
	const char *text;	/* TEXT; "" for the others */
	double value;		/* VALUE: the value; COUNTER: the since-boot total */
	double delta;		/* COUNTER: change over the interval */
	double rate;		/* COUNTER: per second over the interval */
	enum { NP_EV_VALUE, NP_EV_COUNTER, NP_EV_TEXT } kind;
	bool sampled;		/* COUNTER: delta/rate are meaningful */
	bool verbose;		/* shown in text only with -v (always in JSON) */
};

struct np_check;
struct np_finding_store;

/*
 * A finding is a small record; its texts and evidence live in its report's store
 * (finding_store.c), packed one after another as they are written, so that a pass's findings
 * fill a page or two instead of 6 KB each. The texts are NUL-terminated and never NULL ("" when
 * not given). Checks write them through np_emit, np_detail, np_remedy and np_ev_*; a record
 * copied by value reads the same texts and must only be read: appending to the copy grows the
 * original's text in place or shifts its evidence (np_report_add makes a copy of its own).
 */
struct np_finding {
	const struct np_check *check;
	struct np_finding_store *store;	/* where its texts and evidence grow (its report's) */
	char dev[16];			/* the device it is about (IF_NAMESIZE) */
	enum np_severity severity;
	double rank;			/* tie-break within a severity: drops per second, higher first */
	const char *summary;		/* < NP_SUMMARY_SIZE bytes */
	const char *detail;		/* run-specific explanation added to the check's static text */
	const char *remedy;		/* the exact commands for this host, with their cost */
	size_t nev;			/* <= NP_MAX_EVIDENCE */
	struct np_evidence *ev;
};

enum np_check_state { NP_CHECK_NOT_RUN, NP_CHECK_PASSED, NP_CHECK_FLAGGED, NP_CHECK_SKIPPED };

struct np_check_result {
	const struct np_check *check;
	enum np_check_state state;
	enum np_severity worst;
	double warn, crit;		/* thresholds applied: the user's or the table's (NAN: none) */
	/* SKIPPED because the check does not apply here (not a veth, no PCIe, no interval),
	 * as opposed to evidence that should exist and could not be read: only the latter
	 * makes a stage "not judged" (coverage.c). */
	bool not_applicable;
	char skip_reason[160];
};

/* Everything a run produced: findings plus the per-check outcome (ran clean, flagged, skipped). */
struct np_report {
	size_t n, cap;
	struct np_finding *f;
	struct np_finding_store *store;	/* the findings' texts and evidence (NULL: none yet) */
	bool oom;			/* a finding or part of one was lost for want of memory */
	size_t nres;
	struct np_check_result *res;	/* one per check of the table, in table order */
	struct np_check_result *cur;	/* the check now running (set by the engine) */
	char dev[16];			/* the device being judged: each finding names it */
};

/*
 * Is f about a device worth naming beside its stage (Nagios long output, --brief)? Yes for
 * the hardware stages (link .. irq: that NIC's link, slot, rings and IRQs), for checks that
 * judge an interface's own values (a qdisc, an ingress hook), and for any finding on another
 * device than primary (a bond's member, another --all interface); no for the namespace's and
 * the host's own values (softnet backlog, sockets), which no device owns.
 */
bool np_finding_names_device(const struct np_finding *f, const char *primary);

void np_report_free(struct np_report *r);
/* Append a copy of f, texts and evidence, to r (its store): 0, or -1 out of memory (r as it was). */
int np_report_add(struct np_report *r, const struct np_finding *f);
/* Sort findings by stage, then severity (worst first), then rank, then check id; equal ones
 * keep their order. np_finding_cmp is that order, for qsort. */
void np_report_sort(struct np_report *r);
int np_finding_cmp(const void *a, const void *b);
enum np_severity np_report_worst(const struct np_report *r);

#endif
