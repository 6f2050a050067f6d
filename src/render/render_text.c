// SPDX-License-Identifier: GPL-2.0-only
/* Human text renderer for doctor: findings along the path, then the funnel and what was skipped. */
#include "render.h"
#include "render_recflows.h"
#include "render_sockets.h"
#include "text_wrap.h"
#include "check_util.h"

#include <math.h>
#include <string.h>

#include "origin.h"
#include "when.h"

#define C_RESET "\033[0m"
#define C_BOLD "\033[1m"
#define C_DIM "\033[2m"

static const char *sev_color(enum np_severity s)
{
	switch (s) {
	case NP_SEV_CRITICAL: return "\033[1;31m";
	case NP_SEV_WARNING: return "\033[1;33m";
	case NP_SEV_INFO: return "\033[36m";
	case NP_SEV_OK: return "\033[32m";
	}
	return "";
}

static void evidence(FILE *out, const struct np_evidence *e)
{
	char a[48], b[48];

	fprintf(out, "      %-28s ", e->key);
	switch (e->kind) {
	case NP_EV_TEXT:
		fprintf(out, "%s\n", e->text);
		break;
	case NP_EV_VALUE:
		fprintf(out, "%s %s\n", np_fmt_count(e->value, a, sizeof(a)), e->unit);
		break;
	case NP_EV_COUNTER:
		if (e->sampled)
			fprintf(out, "%s/s over the sample (%s %s since boot)\n",
				np_fmt_count(e->rate, a, sizeof(a)),
				np_fmt_count(e->value, b, sizeof(b)), e->unit);
		else
			fprintf(out, "%s %s since boot\n", np_fmt_count(e->value, a, sizeof(a)),
				e->unit);
		break;
	}
}

static void stack_lines(FILE *out, const struct np_stack *st);

/* why/fix prose: the terminal's width, or the 100 columns it always had when there is none. */
static int prose_width(const struct np_render_opts *o)
{
	return o->width > 0 ? o->width : 100;
}

static void finding(FILE *out, const struct np_finding *f, const struct np_render_opts *o,
		    const char *primary)
{
	const char *col = o->color ? sev_color(f->severity) : "";
	const char *reset = o->color ? C_RESET : "";
	char sev[16], dev[24] = "";

	snprintf(sev, sizeof(sev), "%s", np_severity_name(f->severity));
	for (char *p = sev; *p; p++)
		*p = (char)(*p - 32 * (*p >= 'a' && *p <= 'z'));
	/* Findings about a device beneath the interface (or another --all interface) name it. */
	if (f->dev[0] && strcmp(f->dev, primary))
		snprintf(dev, sizeof(dev), "[%s] ", f->dev);
	fprintf(out, "  %s%-8s%s %s%s%s%s\n", col, sev, reset, o->color ? C_BOLD : "", dev,
		f->summary, reset);
	fprintf(out, "      %s[%s]%s %s%s\n", o->color ? C_DIM : "", f->check->id, reset,
		f->check->title,
		f->check->scope == NP_SCOPE_HOST ? " (host-wide)" : "");
	for (size_t i = 0; i < f->nev; i++)
		if (!f->ev[i].verbose || o->verbose)
			evidence(out, &f->ev[i]);
	fputs("    why: ", out);
	if (o->verbose) {
		char both[1700];

		np_wrap_prose(out, np_finding_why(f, both, sizeof(both)), 9, 9, prose_width(o));
	} else {
		/* Short form: this machine's facts stand in for the general text. */
		np_wrap_prose(out, f->detail[0] ? f->detail : f->check->why, 9, 9,
			      prose_width(o));
	}
	fputs("    fix: ", out);
	np_wrap_prose(out, np_finding_fix(f), 9, 9, prose_width(o));
	fputc('\n', out);
}

/* One funnel cell: "1,234/s [5,678]" sampled, "5,678" since boot, "-" unknown. */
static void funnel_cell(const struct np_funnel_row *r, bool drops, char *buf, size_t size)
{
	const struct np_counter_view *c = drops ? &r->drop : &r->in;
	char a[40], b[40];

	if (!c->present)
		snprintf(buf, size, "-");
	else if (c->sampled)
		snprintf(buf, size, "%s/s [%s]", np_fmt_count(c->rate, a, sizeof(a)),
			 np_fmt_count((double)c->total, b, sizeof(b)));
	else
		snprintf(buf, size, "%s", np_fmt_count((double)c->total, a, sizeof(a)));
}

/* The number columns are as wide as their widest number, not a fixed 30: the table fits 80
 * columns and numbers are never cut. */
static void funnel(FILE *out, const struct np_funnel *fn, bool sampled, const struct np_render_opts *o)
{
	int wi = (int)strlen("packets"), wd = (int)strlen("drops");
	char cell[64];

	for (size_t i = 0; i < fn->n; i++) {
		funnel_cell(&fn->rows[i], false, cell, sizeof(cell));
		wi = (int)strlen(cell) > wi ? (int)strlen(cell) : wi;
		funnel_cell(&fn->rows[i], true, cell, sizeof(cell));
		wd = (int)strlen(cell) > wd ? (int)strlen(cell) : wd;
	}
	fprintf(out, "%sPacket funnel%s (%s)\n", o->color ? C_BOLD : "", o->color ? C_RESET : "",
		sampled ? "per second over the sample; since boot in brackets" : "since boot");
	fprintf(out, "  %-11s %-10s %*s  %*s\n", "stage", "scope", wi, "packets", wd, "drops");
	for (size_t i = 0; i < fn->n; i++) {
		const struct np_funnel_row *r = &fn->rows[i];
		char in[64], drop[64];

		funnel_cell(r, false, in, sizeof(in));
		funnel_cell(r, true, drop, sizeof(drop));
		fprintf(out, "  %-11s %-10s %*s  %*s\n", np_stage_name(r->stage),
			np_scope_name(r->scope), wi, in, wd, drop);
	}
	fputc('\n', out);
}

/* One line of what the NIC reported, so the reader knows what the checks saw. */
static void nic_line(FILE *out, const struct np_snapshot *s)
{
	const struct np_ethtool *e = &s->eth;
	bool any = false;

	if (np_src_ok(s, NP_SRC_ETHTOOL_RINGS) && np_has(e->rings.rx)) {
		fprintf(out, "rx ring %llu", (unsigned long long)e->rings.rx);
		if (np_has(e->rings.rx_max))
			fprintf(out, " of %llu", (unsigned long long)e->rings.rx_max);
		any = true;
	}
	if (np_src_ok(s, NP_SRC_ETHTOOL_CHANNELS)) {
		uint64_t q = np_has(e->channels.combined) ? e->channels.combined : e->channels.rx;
		uint64_t m = np_has(e->channels.combined_max) ? e->channels.combined_max :
			     e->channels.rx_max;

		if (np_has(q)) {
			fprintf(out, "%s%llu queue%s", any ? ", " : "", (unsigned long long)q,
				q == 1 ? "" : "s");
			if (np_has(m))
				fprintf(out, " of %llu", (unsigned long long)m);
			any = true;
		}
	}
	for (size_t i = 0; np_src_ok(s, NP_SRC_RTNL_QDISC) && i < s->rtnl.nqdisc; i++) {
		if (s->rtnl.qdiscs[i].root) {
			fprintf(out, "%sroot qdisc %s", any ? ", " : "", s->rtnl.qdiscs[i].kind);
			any = true;
		}
	}
	if (any)
		fputc('\n', out);
}

/* A capture or a sosreport says what it is and what it lacks; a plain tree and the live
 * system print nothing here (their header is the line above). */
static void origin_lines(FILE *out, const struct np_origin *o)
{
	if (!o || o->kind == NP_ORIGIN_LIVE || o->kind == NP_ORIGIN_TREE)
		return;
	fprintf(out, "%s", np_origin_kind_name(o->kind));
	if (o->tool_version[0])
		fprintf(out, " (%s)", o->tool_version);
	if (o->hostname[0])
		fprintf(out, " of host %s", o->hostname);
	if (o->kernel[0])
		fprintf(out, ", kernel %s", o->kernel);
	if (o->taken[0])
		fprintf(out, ", taken %s", o->taken);
	fputc('\n', out);
	if (o->lacks[0])
		fprintf(out, "it lacks: %s\n", o->lacks);
}

static void header(FILE *out, const struct np_doctor_view *v, const struct np_render_opts *o)
{
	const struct np_snapshot *s = v->a->cur;
	char bw[32];

	fprintf(out, "%snetpath doctor %s%s", o->color ? C_BOLD : "", s->ifname,
		o->color ? C_RESET : "");
	if (s->dev.driver[0])
		fprintf(out, " (%s)", s->dev.driver);
	if (v->a->dt > 0)
		fprintf(out, ", %.1f s sample", v->a->dt);
	else
		fputs(", configuration and since-boot counters only", out);
	if (s->hs->host.kernel[0])
		fprintf(out, ", kernel %s", s->hs->host.kernel);
	if (s->hs->host.ncpu_online)
		fprintf(out, ", %u CPU%s", s->hs->host.ncpu_online,
			s->hs->host.ncpu_online == 1 ? "" : "s");
	else
		fputs(", CPU count unknown", out);
	if (!v->live)
		fprintf(out, ", %s %s", v->origin ? np_origin_kind_name(v->origin->kind) : "tree",
			v->root);
	fputc('\n', out);
	origin_lines(out, v->origin);
	if (v->netns)
		fprintf(out, "network namespace %s: interface, IP/TCP/UDP counters and most net.ipv4 "
			"sysctls are this namespace's; softnet, IRQs, netdev_* and tcp_mem/udp_mem "
			"are host-wide\n", v->netns);
	nic_line(out, s);
	stack_lines(out, v->stack);
	if (isnan(v->a->bw_bps))
		fputs("bandwidth unknown (--bandwidth RATE), RTT ", out);
	else
		fprintf(out, "bandwidth %s (%s), RTT ", np_fmt_bps(v->a->bw_bps, bw, sizeof(bw)),
			v->a->bw_source);
	if (isnan(v->a->rtt_ms))
		fputs("not given (--rtt MS for BDP checks)\n\n", out);
	else
		fprintf(out, "%.3g ms (%s)\n\n", v->a->rtt_ms, v->a->rtt_source);
}

/* Which stages were judged, and why the others were not: a verdict without its evidence is
 * no verdict. */
static void coverage(FILE *out, const struct np_coverage *c)
{
	const char *sep = "";

	fputs("stages judged:", out);
	for (int st = 0; st < NP_STAGE__COUNT; st++)
		if (c->st[st].status == NP_COV_JUDGED || c->st[st].status == NP_COV_PARTIAL) {
			fprintf(out, "%s %s%s", sep, np_stage_name((enum np_stage)st),
				c->st[st].status == NP_COV_PARTIAL ? " (partly)" : "");
			sep = ",";
		}
	fputs(*sep ? "\n" : " none\n", out);
	for (int st = 0; st < NP_STAGE__COUNT; st++) {
		const struct np_stage_cov *sc = &c->st[st];

		if (sc->status == NP_COV_NOT_JUDGED)
			fprintf(out, "  %s: not judged - %s\n", np_stage_name((enum np_stage)st),
				sc->reason);
	}
}

/* "bond0.100 (vlan) -> bond0 (bond) -> eno1, eno2 (physical)": a device, then what it sits on. */
static void stack_dev(FILE *out, const struct np_stack *st, size_t idx, int depth)
{
	const char *sep = " → ";
	bool first = true;

	fprintf(out, "%s (%s)", st->dev[idx].name, np_dev_kind_name(st->dev[idx].kind));
	if (depth > NP_STACK_MAX)
		return;
	for (unsigned k = 0; k < st->dev[idx].nlower; k++) {
		fputs(first ? sep : ", ", out);
		first = false;
		stack_dev(out, st, st->dev[idx].lower[k], depth + 1);
	}
}

/* The stack line, when there is more than a physical interface alone; and, for a container's
 * veth, where its NIC is to be diagnosed. */
static void stack_lines(FILE *out, const struct np_stack *st)
{
	if (!st || !st->n || (st->n == 1 && st->dev[0].kind == NP_KIND_PHYSICAL))
		return;
	fputs("stack: ", out);
	for (size_t i = 0, tops = 0; i < st->n; i++)
		if (st->dev[i].upper < 0) {
			fputs(tops++ ? "; " : "", out);
			stack_dev(out, st, i, 0);
		}
	fputs(st->truncated ? " (more devices than netpath judges at once)\n" : "\n", out);
	for (size_t i = 0; i < st->n; i++) {
		const struct np_stack_dev *d = &st->dev[i];

		if (d->kind != NP_KIND_VETH || d->upper >= 0 || !d->peer_other_netns)
			continue;
		if (d->peer_in_start && d->peer_name[0])
			fprintf(out, "%s is a veth whose peer is %s in the namespace netpath was "
				"started in: the NIC behind %s is diagnosed there (netpath doctor "
				"%s)\n", d->name, d->peer_name, d->peer_name, d->peer_name);
		else if (d->peer_netns[0] && d->peer_name[0])
			fprintf(out, "%s is a veth whose peer is %s in network namespace %s: what "
				"lies behind it is diagnosed there (netpath doctor --netns %s %s)\n",
				d->name, d->peer_name, d->peer_netns, d->peer_netns, d->peer_name);
		else if (d->peer_name[0])
			fprintf(out, "%s is a veth whose peer is %s (ifindex %d) in another network "
				"namespace (nsid %d, not one under /run/netns): what lies behind it is "
				"diagnosed from there\n", d->name, d->peer_name, d->peer_ifindex,
				d->peer_nsid);
		else if (d->peer_nsid >= 0)
			fprintf(out, "%s is a veth whose peer is ifindex %d in another network "
				"namespace (nsid %d): what lies behind it is diagnosed from there\n",
				d->name, d->peer_ifindex, d->peer_nsid);
		else
			fprintf(out, "%s is a veth whose peer (ifindex %d) is in another network "
				"namespace: the NIC is diagnosed from there (netpath doctor IFACE on "
				"the host, or netpath doctor --netns NS %s from the host)\n", d->name,
				d->peer_ifindex, d->name);
	}
}

static void footer(FILE *out, const struct np_doctor_view *v, const struct np_render_opts *o)
{
	const struct np_report *r = v->r;
	const struct np_snapshot *s = v->a->cur;
	size_t passed = 0, flagged = 0, skipped = 0;
	enum np_severity worst = np_report_worst(r);
	int wid = 30;

	for (size_t i = 0; i < r->nres; i++) {
		passed += r->res[i].state == NP_CHECK_PASSED;
		flagged += r->res[i].state == NP_CHECK_FLAGGED;
		skipped += r->res[i].state == NP_CHECK_SKIPPED;
	}
	/* The id column as wide as the longest id skipped (at least 30, as it always was), so
	 * the reason is a column of its own that wraps under itself. */
	for (size_t i = 0; i < r->nres; i++)
		if (r->res[i].state == NP_CHECK_SKIPPED && (int)strlen(r->res[i].check->id) > wid)
			wid = (int)strlen(r->res[i].check->id);
	fprintf(out, "checks: %zu passed, %zu flagged, %zu skipped\n", passed, flagged, skipped);
	for (size_t i = 0; i < r->nres; i++) {
		const struct np_check_result *c = &r->res[i];

		/* "n/a": does not apply here; "skipped": its evidence could not be read. */
		if (c->state == NP_CHECK_SKIPPED)
			fprintf(out, "  %-7s %-*s  %s\n", c->not_applicable ? "n/a" : "skipped",
				wid, c->check->id, c->skip_reason);
		else if (o->verbose && c->state == NP_CHECK_PASSED)
			fprintf(out, "  passed  %s\n", c->check->id);
	}
	for (int i = 0; i < NP_SRC__COUNT; i++) {
		const struct np_src *src = np_srcp(s, i);

		if (src->status == NP_SRC_OK)
			continue;
		fprintf(out, "  unavailable %-18s %s%s%s\n", np_source_name((enum np_source)i),
			np_src_status_name(src->status), src->detail[0] ? ": " : "", src->detail);
	}
	coverage(out, v->cov);
	if (np_coverage_unknown(v->cov)) {
		fprintf(out, "\nresult: %sUNKNOWN%s (no stage of the receive path could be judged)\n",
			o->color ? C_BOLD : "", o->color ? C_RESET : "");
		return;
	}
	fprintf(out, "\nresult: %s%s%s", o->color ? sev_color(worst) : "",
		worst == NP_SEV_OK ? "OK" : np_severity_name(worst), o->color ? C_RESET : "");
	if (v->cov->judged < v->cov->applicable)
		fprintf(out, " (on %u of %u stages)", v->cov->judged, v->cov->applicable);
	fputc('\n', out);
}

/* doctor --at over a `record --drops` recording: the flows that dropped most then. */
static void recorded_flows(FILE *out, const struct np_rec_flows *f, bool color)
{
	char a[40], b[40];

	np_when_format((double)f->from, a, sizeof(a));
	np_when_format((double)f->to, b, sizeof(b));
	fprintf(out, "%sTop dropped flows%s (recorded a minute at a time, %u minute%s, %s to %s):\n",
		color ? C_BOLD : "", color ? C_RESET : "", f->minutes, f->minutes == 1 ? "" : "s",
		a, b);
	if (!f->n)
		fputs("  none: no flow was dropped then\n", out);
	np_render_recflows_text(out, f, "  ");
	fputc('\n', out);
}

static void doctor_text(FILE *out, const struct np_doctor_view *v,
			const struct np_render_opts *o)
{
	int last_stage = -1;

	header(out, v, o);
	np_render_sockets_text(out, v->a->cur, v->sockets_top);
	if (v->r->n == 0 && np_coverage_unknown(v->cov))
		fputs("No verdict: no stage of the receive path could be judged (see below).\n\n",
		      out);
	else if (v->r->n == 0 && v->cov->judged < v->cov->applicable)
		fprintf(out, "No findings in the %u of %u stages that could be judged (the others "
			"are listed below).\n\n", v->cov->judged, v->cov->applicable);
	else if (v->r->n == 0)
		fputs("No findings: nothing along the receive path looks limiting.\n\n", out);
	for (size_t i = 0; i < v->r->n; i++) {
		const struct np_finding *f = &v->r->f[i];

		if ((int)f->check->stage != last_stage) {
			last_stage = (int)f->check->stage;
			fprintf(out, "%s== %s ==%s\n", o->color ? C_BOLD : "",
				np_stage_name(f->check->stage), o->color ? C_RESET : "");
		}
		finding(out, f, o, v->a->cur->ifname);
	}
	funnel(out, v->funnel, v->a->dt > 0, o);
	np_render_ledger_text(out, v->ledger, o->color, o->verbose);
	if (v->origin && v->origin->flows && v->origin->flows->recorded)
		recorded_flows(out, v->origin->flows, o->color);
	np_render_sender_text(out, v, o->color);
	footer(out, v, o);
}

void np_render_doctor_text(FILE *out, const struct np_doctor_view *v,
			   const struct np_render_opts *o)
{
	struct np_wrap_stream w;

	doctor_text(np_wrap_open(&w, out, o->width), v, o);
	np_wrap_close(&w);
}
