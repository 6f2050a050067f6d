// SPDX-License-Identifier: GPL-2.0-only
/* Stage "ingress": netfilter connection tracking (table fill, drops, insert races). */
#include "check.h"
#include "raise.h"
#include "check_util.h"

#include <stdio.h>

/* The tc ingress / XDP side of this stage comes from the rtnetlink collector (a later part). */

/* A conntrack statistics column ("drop", "early_drop", ...) summed over CPUs, as a view. */
static struct np_counter_view ct_view(const struct np_analysis *a, const char *name)
{
	uint64_t prev = NP_NA;

	if (a->prev && np_src_ok(a->prev, NP_SRC_CONNTRACK))
		prev = np_counters_get(&a->prev->hs->conntrack, name);
	if (!np_src_ok(a->cur, NP_SRC_CONNTRACK))
		return np_view_u64(a, NP_NA, NP_NA);
	return np_view_u64(a, prev, np_counters_get(&a->cur->hs->conntrack, name));
}

/* Severity of a conntrack drop column: any change while sampling is `sev`, history is info. */
static enum np_severity ct_sev(const struct np_counter_view *v, enum np_severity sev)
{
	if (!v->present || v->total == 0)
		return NP_SEV_OK;
	if (v->sampled && v->delta > 0)
		return sev;
	return NP_SEV_INFO;
}

static void run_conntrack_full(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	struct np_counter_view drop, early, invalid;
	enum np_severity sev = NP_SEV_OK, fill_sev = NP_SEV_OK;
	int64_t count, max, buckets;
	bool have_count, have_max, have_buckets;
	double pct = NAN;
	char fill[64];
	struct np_finding *f;

	max = np_sysctl_int(s, NP_SYSCTL_NF_CONNTRACK_MAX, 0, &have_max);
	count = np_sysctl_int(s, NP_SYSCTL_NF_CONNTRACK_COUNT, 0, &have_count);
	buckets = np_sysctl_int(s, NP_SYSCTL_NF_CONNTRACK_BUCKETS, 0, &have_buckets);
	if (!have_max) {
		if (s->captured)
			np_skip_sysctl(a, r, NP_SYSCTL_NF_CONNTRACK_MAX);
		else
			np_not_applicable(r, "connection tracking is not loaded (no "
					  "net.netfilter.nf_conntrack_max)");
		return;
	}
	if (have_count && max > 0) {
		pct = 100.0 * (double)count / (double)max;
		if (pct >= np_thr_crit(r))
			fill_sev = NP_SEV_CRITICAL;
		else if (pct >= np_thr_warn(r))
			fill_sev = NP_SEV_WARNING;
	}
	drop = ct_view(a, "drop");
	early = ct_view(a, "early_drop");
	invalid = ct_view(a, "invalid");
	/* "drop": a new connection found no slot even after early drop; "early_drop": an
	 * unassured entry was evicted to make room. Both mean the table is full. */
	sev = np_sev_max(fill_sev, np_sev_max(ct_sev(&drop, NP_SEV_CRITICAL),
					ct_sev(&early, NP_SEV_WARNING)));
	if (sev == NP_SEV_OK)
		return;

	if (have_count)
		snprintf(fill, sizeof(fill), "%lld of %lld entries", (long long)count,
			 (long long)max);
	else
		snprintf(fill, sizeof(fill), "max %lld entries, count unknown", (long long)max);
	if (drop.sampled && (drop.delta || early.delta))
		f = np_emit(r, sev, "conntrack table full: %s drops/s, %s early drops/s (%s)",
			    np_fmt_rate(drop.rate), np_fmt_rate(early.rate), fill);
	else if (fill_sev != NP_SEV_OK)
		f = np_emit(r, sev, "conntrack table %.0f%% full (%s)", pct, fill);
	else
		f = np_emit(r, sev, "conntrack dropped packets since boot (drop %llu, early_drop "
			    "%llu)%s", (unsigned long long)drop.total,
			    (unsigned long long)early.total,
			    drop.sampled ? ", none during the sample" : "");
	if (!f)
		return;
	f->rank = drop.rate + early.rate;
	if (have_count)
		np_ev_value(f, "nf_conntrack_count", "entries", (double)count);
	np_ev_value(f, "nf_conntrack_max", "entries", (double)max);
	if (!isnan(pct))
		np_ev_value(f, "fill", "%", pct);
	if (have_buckets)
		np_ev_value(f, "nf_conntrack_buckets", "buckets", (double)buckets);
	if (drop.present)
		np_ev_counter(f, "drop", "packets", &drop);
	if (early.present)
		np_ev_counter(f, "early_drop", "entries", &early);
	if (invalid.present) {
		np_ev_counter(f, "invalid", "packets", &invalid);
		np_ev_verbose(f);
	}
	np_detail(f, "Every tracked flow holds an entry until it times out (an established TCP "
		     "entry lives 5 days by default, UDP 30-120 s). When the table is full the "
		     "kernel first evicts entries that never saw a reply (early_drop) and then "
		     "drops the packet that would create a new entry ('nf_conntrack: table full, "
		     "dropping packet' in dmesg): new connections fail while old ones keep "
		     "working.");
	if (!np_src_ok(s, NP_SRC_CONNTRACK))
		np_detail(f, "/proc/net/stat/nf_conntrack was not readable, so only the fill level "
			     "is known.");
	np_remedy_raise(f, s, "net.netfilter.nf_conntrack_max",
			"sysctl -w net.netfilter.nf_conntrack_max=", true, max,
			max < 65536 ? 262144 : max * 2, NULL);
	np_remedy(f, "echo %lld > /sys/module/nf_conntrack/parameters/hashsize   # keep about one "
		     "bucket per entry so lookups stay short",
		  (long long)(max < 65536 ? 262144 : max * 2));
	np_remedy(f, "Or track less: a raw-table 'notrack' rule for high-volume stateless traffic "
		     "(DNS, NTP, monitoring), or shorter timeouts (net.netfilter."
		     "nf_conntrack_tcp_timeout_established, nf_conntrack_udp_timeout).");
	np_remedy(f, "Cost: about 300 bytes of unswappable kernel memory per entry (1 M entries "
		     "~ 300 MiB) plus the hash table; notrack rules disable NAT and stateful "
		     "filtering for that traffic.");
}

static void run_conntrack_insert_failed(const struct np_analysis *a, struct np_report *r)
{
	struct np_counter_view v, clash;
	struct np_finding *f;
	enum np_severity sev;

	if (!np_src_ok(a->cur, NP_SRC_CONNTRACK)) {
		if (a->cur->captured)
			np_skip(r, "/proc/net/stat/nf_conntrack not in this capture");
		else
			np_not_applicable(r, "/proc/net/stat/nf_conntrack not available (conntrack "
					  "not loaded?)");
		return;
	}
	v = ct_view(a, "insert_failed");
	if (!v.present) {
		np_not_applicable(r, "insert_failed not reported by this kernel");
		return;
	}
	sev = np_verdict(&v, np_thr_warn(r), np_thr_crit(r));
	/* Since boot only: the race is common and harmless at low rates; say nothing. */
	if (sev == NP_SEV_OK || !v.sampled || v.delta == 0)
		return;
	clash = ct_view(a, "clash_resolve");
	f = np_emit(r, sev, "conntrack insertions failing: %s/s (%llu since boot)", np_fmt_rate(v.rate),
		    (unsigned long long)v.total);
	if (!f)
		return;
	f->rank = v.rate;
	np_ev_counter(f, "insert_failed", "packets", &v);
	if (clash.present)
		np_ev_counter(f, "clash_resolve", "packets", &clash);
	np_detail(f, "insert_failed counts packets dropped because, between creating a conntrack "
		     "entry and confirming it, another CPU confirmed an entry for the same tuple. "
		     "The classic case is a resolver sending the A and AAAA queries of one lookup "
		     "from the same UDP socket at once (5-second DNS timeouts in containers), or "
		     "many flows racing through NAT to the same source port.");
	np_remedy(f, "Add 'options single-request-reopen' (glibc) to /etc/resolv.conf of the "
		     "affected clients, or run a local DNS cache.");
	np_remedy(f, "Exempt the traffic from tracking where no NAT is needed (raw table notrack), "
		     "or move to a kernel that resolves UDP clashes (clash_resolve counter).");
	np_remedy(f, "Cost: none for the resolver option (queries are serialised per socket); "
		     "notrack removes NAT/stateful filtering for that traffic.");
}

const struct np_check np_check_ingress_conntrack_full = {
	.id = "ingress.conntrack-full",
	.stage = NP_STAGE_INGRESS,
	.scope = NP_SCOPE_NETNS,
	.title = "Connection tracking table full",
	.looks_at = "net.netfilter.nf_conntrack_count vs nf_conntrack_max; /proc/net/stat/"
		    "nf_conntrack drop and early_drop over the interval",
	.why = "When the conntrack table is full, packets that would create a new entry are "
	       "dropped before any firewall rule sees them: new connections time out while "
	       "existing ones work, which looks like random packet loss. It only matters when "
	       "nf_conntrack is loaded (any NAT, Docker/Kubernetes, or a stateful firewall).",
	.fix = "Raise nf_conntrack_max (and the hash size with it), shorten timeouts, or exempt "
	       "high-volume stateless traffic from tracking. Costs about 300 bytes of kernel "
	       "memory per entry.",
	.related = "net.netfilter.nf_conntrack_max, net.netfilter.nf_conntrack_buckets, "
		   "/sys/module/nf_conntrack/parameters/hashsize, "
		   "net.netfilter.nf_conntrack_tcp_timeout_established",
	.kernel_notes = "Column names of /proc/net/stat/nf_conntrack changed over time; they are "
			"read by header name. nf_conntrack_buckets is writable only in the initial "
			"network namespace.",
	.warn = 80, .crit = 95,
	.thr_unit = "% of nf_conntrack_max (any drop while sampling: critical, "
		    "early_drop: warning)",
	.run = run_conntrack_full,
};

const struct np_check np_check_ingress_conntrack_insert_failed = {
	.id = "ingress.conntrack-insert-failed",
	.stage = NP_STAGE_INGRESS,
	.scope = NP_SCOPE_NETNS,
	.title = "Conntrack insert races (UDP clash)",
	.looks_at = "/proc/net/stat/nf_conntrack insert_failed over the interval",
	.why = "Two packets of one new flow processed in parallel on different CPUs race to "
	       "insert the same conntrack entry; the loser is dropped. It hits DNS (parallel A "
	       "and AAAA queries from one socket) and NAT-heavy hosts, and shows up as "
	       "5-second stalls rather than throughput loss. A few per day are harmless; only "
	       "a rate during the sample is reported.",
	.fix = "Serialise the resolver's queries (single-request-reopen), use a local DNS cache, "
	       "exempt the traffic from tracking, or use a kernel with UDP clash resolution.",
	.related = "/etc/resolv.conf options single-request-reopen, raw table notrack",
	.kernel_notes = "Newer kernels (about 5.6+) resolve most UDP clashes instead of dropping "
			"(counted in clash_resolve); insert_failed should then stay near zero.",
	.warn = 1, .crit = NAN, .thr_unit = "failed inserts/s",
	.run = run_conntrack_insert_failed,
};
