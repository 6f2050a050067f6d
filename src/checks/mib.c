// SPDX-License-Identifier: GPL-2.0-only
/* MIB counter groups (nstat names summed into one view) and the drop-counter finding over them. */
#include "check_util.h"

#include <stdio.h>
#include <string.h>

struct np_counter_view np_mib_sum(const struct np_analysis *a, const char *const *names)
{
	struct np_counter_view v = { 0 };

	for (size_t i = 0; names[i]; i++)
		v = np_view_sum(v, np_view_mib(a, names[i]));
	return v;
}

void np_mib_evidence(struct np_finding *f, const struct np_analysis *a, const char *const *names,
		     const char *unit)
{
	for (size_t i = 0; names[i]; i++) {
		struct np_counter_view v = np_view_mib(a, names[i]);

		if (v.present)
			np_ev_counter(f, names[i], unit, &v);
	}
}

const char *np_mib_missing(const struct np_analysis *a, const struct np_counter_view *v)
{
	/* snmp and netstat split the names between them: either one may hold the list. */
	if (!np_src_ok(a->cur, NP_SRC_SNMP) && !np_src_ok(a->cur, NP_SRC_NETSTAT))
		return a->cur->captured ? "/proc/net/snmp and /proc/net/netstat not in this capture" :
		       "/proc/net/snmp and /proc/net/netstat not readable";
	/* Counters read from net-tools text (sos netstat_-s, a paste): it leaves zeros out and
	 * -su/-st print only some sections, so an absent name says nothing about the kernel. */
	if (!v->present && strstr(np_srcp(a->cur, NP_SRC_SNMP)->detail, "netstat_-s"))
		return "not in the netstat -s text (it leaves out zero counters; -su/-st print only "
		       "some sections)";
	if (!v->present)
		return "counters not reported by this kernel";
	return NULL;
}

void np_rate_text(const struct np_counter_view *v, char *buf, size_t size)
{
	if (v->sampled && v->delta)
		snprintf(buf, size, "%s/s (%llu since boot)", np_fmt_rate(v->rate),
			 (unsigned long long)v->total);
	else
		snprintf(buf, size, "%llu since boot%s", (unsigned long long)v->total,
			 v->sampled ? ", none during the sample" : "");
}

bool np_mib_read(const struct np_analysis *a, struct np_report *r, const char *const *names,
		 struct np_counter_view *v)
{
	const char *why;

	*v = np_mib_sum(a, names);
	why = np_mib_missing(a, v);
	/* Both files read and the counter in neither: this kernel lacks it. One file missing
	 * (TcpExt lives only in netstat) is missing evidence. */
	if (why && !v->present && np_src_ok(a->cur, NP_SRC_SNMP) &&
	    np_src_ok(a->cur, NP_SRC_NETSTAT))
		np_not_applicable(r, "%s", why);
	else if (why)
		np_skip(r, "%s", why);
	if (why)
		return false;
	return true;
}

enum np_severity np_mib_verdict(const struct np_analysis *a, struct np_report *r,
				const char *const *names, struct np_counter_view *v)
{
	if (!np_mib_read(a, r, names, v))
		return NP_SEV_OK;
	return np_verdict(v, np_thr_warn(r), np_thr_crit(r));
}

struct np_finding *np_mib_drop_finding(const struct np_analysis *a, struct np_report *r,
				       const char *const *names, const char *unit,
				       const char *what)
{
	struct np_counter_view v;
	enum np_severity sev = np_mib_verdict(a, r, names, &v);
	struct np_finding *f;
	char rate[96];

	if (sev == NP_SEV_OK)
		return NULL;
	np_rate_text(&v, rate, sizeof(rate));
	f = np_emit(r, sev, "%s: %s", what, rate);
	if (!f)
		return NULL;
	f->rank = v.rate;
	np_mib_evidence(f, a, names, unit);
	return f;
}
