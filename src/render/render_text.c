// SPDX-License-Identifier: GPL-2.0-only
/* Human text renderer for doctor: findings along the path, then the funnel and what was skipped.
 * Every part, the sockets, ledger and sender blocks of other files too, writes through one buffer
 * (outbuf.h) rather than ~150 fprintf calls (issue #35), wrapped as it is flushed. */
#include "render.h"
#include "render_recflows.h"
#include "render_sockets.h"
#include "outbuf.h"
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

static void evidence(struct np_ob *out, const struct np_evidence *e)
{
	char a[48];

	np_ob_puts(out, "      ");
	np_ob_pad(out, e->key, -28);
	np_ob_putc(out, ' ');
	switch (e->kind) {
	case NP_EV_TEXT:
		np_ob_puts(out, e->text);
		np_ob_putc(out, '\n');
		break;
	case NP_EV_VALUE:
		np_ob_puts(out, np_fmt_count(e->value, a, sizeof(a)));
		np_ob_putc(out, ' ');
		np_ob_puts(out, e->unit);
		np_ob_putc(out, '\n');
		break;
	case NP_EV_COUNTER:
		if (e->sampled) {
			np_ob_puts(out, np_fmt_count(e->rate, a, sizeof(a)));
			np_ob_puts(out, "/s over the sample (");
		}
		np_ob_puts(out, np_fmt_count(e->value, a, sizeof(a)));
		np_ob_putc(out, ' ');
		np_ob_puts(out, e->unit);
		np_ob_puts(out, e->sampled ? " since boot)\n" : " since boot\n");
		break;
	}
}

static void stack_lines(struct np_ob *out, const struct np_stack *st);

/* why/fix prose: the terminal's width, or the 100 columns it always had when there is none. */
static int prose_width(const struct np_render_opts *o)
{
	return o->width > 0 ? o->width : 100;
}

static void finding(struct np_ob *out, const struct np_finding *f,
		    const struct np_render_opts *o, const char *primary)
{
	const char *col = o->color ? sev_color(f->severity) : "";
	const char *reset = o->color ? C_RESET : "";
	const char *name = np_severity_name(f->severity);
	char sev[16], dev[24] = "";
	size_t k = 0;

	for (; name[k] && k + 1 < sizeof(sev); k++)	/* upper case, cut as snprintf would */
		sev[k] = (char)(name[k] - 32 * (name[k] >= 'a' && name[k] <= 'z'));
	sev[k] = '\0';
	/* Findings about a device beneath the interface (or another --all interface) name it. */
	if (f->dev[0] && strcmp(f->dev, primary))
		snprintf(dev, sizeof(dev), "[%s] ", f->dev);
	np_ob_puts(out, "  ");
	np_ob_puts(out, col);
	np_ob_pad(out, sev, -8);
	np_ob_puts(out, reset);
	np_ob_putc(out, ' ');
	np_ob_puts(out, o->color ? C_BOLD : "");
	np_ob_puts(out, dev);
	np_ob_puts(out, f->summary);
	np_ob_puts(out, reset);
	np_ob_puts(out, "\n      ");
	np_ob_puts(out, o->color ? C_DIM : "");
	np_ob_putc(out, '[');
	np_ob_puts(out, f->check->id);
	np_ob_putc(out, ']');
	np_ob_puts(out, reset);
	np_ob_putc(out, ' ');
	np_ob_puts(out, f->check->title);
	np_ob_puts(out, f->check->scope == NP_SCOPE_HOST ? " (host-wide)\n" : "\n");
	for (size_t i = 0; i < f->nev; i++)
		if (!f->ev[i].verbose || o->verbose)
			evidence(out, &f->ev[i]);
	np_ob_puts(out, "    why: ");
	if (o->verbose) {
		char both[1700];

		np_wrap_prose_ob(out, np_finding_why(f, both, sizeof(both)), 9, 9,
				 prose_width(o));
	} else {
		/* Short form: this machine's facts stand in for the general text. */
		np_wrap_prose_ob(out, f->detail[0] ? f->detail : f->check->why, 9, 9,
				 prose_width(o));
	}
	np_ob_puts(out, "    fix: ");
	np_wrap_prose_ob(out, np_finding_fix(f), 9, 9, prose_width(o));
	np_ob_putc(out, '\n');
}

/* One funnel cell: "1,234/s [5,678]" sampled, "5,678" since boot, "-" unknown. */
static void funnel_cell(const struct np_funnel_row *r, bool drops, char *buf, size_t size)
{
	const struct np_counter_view *c = drops ? &r->drop : &r->in;
	char a[40], b[40];
	const char *part[4] = { "-", "", "", "" };
	size_t o = 0;

	if (c->present && c->sampled) {
		part[0] = np_fmt_count(c->rate, a, sizeof(a));
		part[1] = "/s [";
		part[2] = np_fmt_count((double)c->total, b, sizeof(b));
		part[3] = "]";
	} else if (c->present) {
		part[0] = np_fmt_count((double)c->total, a, sizeof(a));
	}
	/* The parts joined, cut at size - 1 as snprintf would (a call per cell was most of the
	 * funnel's cost). */
	for (size_t i = 0; i < 4; i++)
		for (const char *p = part[i]; *p && o + 1 < size; p++)
			buf[o++] = *p;
	buf[o] = '\0';
}

/* "  %-11s %-10s %*s  %*s\n" */
static void funnel_line(struct np_ob *out, const char *stage, const char *scope, int wi,
			const char *in, int wd, const char *drop)
{
	np_ob_puts(out, "  ");
	np_ob_pad(out, stage, -11);
	np_ob_putc(out, ' ');
	np_ob_pad(out, scope, -10);
	np_ob_putc(out, ' ');
	np_ob_pad(out, in, wi);
	np_ob_puts(out, "  ");
	np_ob_pad(out, drop, wd);
	np_ob_putc(out, '\n');
}

/* The number columns are as wide as their widest number, not a fixed 30: the table fits 80
 * columns and numbers are never cut. */
static void funnel(struct np_ob *out, const struct np_funnel *fn, bool sampled,
		   const struct np_render_opts *o)
{
	int wi = (int)strlen("packets"), wd = (int)strlen("drops");
	char cell[64];

	for (size_t i = 0; i < fn->n; i++) {
		funnel_cell(&fn->rows[i], false, cell, sizeof(cell));
		wi = (int)strlen(cell) > wi ? (int)strlen(cell) : wi;
		funnel_cell(&fn->rows[i], true, cell, sizeof(cell));
		wd = (int)strlen(cell) > wd ? (int)strlen(cell) : wd;
	}
	np_ob_puts(out, o->color ? C_BOLD : "");
	np_ob_puts(out, "Packet funnel");
	np_ob_puts(out, o->color ? C_RESET : "");
	np_ob_puts(out, sampled ? " (per second over the sample; since boot in brackets)\n" :
		   " (since boot)\n");
	funnel_line(out, "stage", "scope", wi, "packets", wd, "drops");
	for (size_t i = 0; i < fn->n; i++) {
		const struct np_funnel_row *r = &fn->rows[i];
		char in[64], drop[64];

		funnel_cell(r, false, in, sizeof(in));
		funnel_cell(r, true, drop, sizeof(drop));
		funnel_line(out, np_stage_name(r->stage), np_scope_name(r->scope), wi, in, wd,
			    drop);
	}
	np_ob_putc(out, '\n');
}

/* One line of what the NIC reported, so the reader knows what the checks saw. */
static void nic_line(struct np_ob *out, const struct np_snapshot *s)
{
	const struct np_ethtool *e = &s->eth;
	bool any = false;

	if (np_src_ok(s, NP_SRC_ETHTOOL_RINGS) && np_has(e->rings.rx)) {
		np_ob_puts(out, "rx ring ");
		np_ob_u64(out, e->rings.rx);
		if (np_has(e->rings.rx_max)) {
			np_ob_puts(out, " of ");
			np_ob_u64(out, e->rings.rx_max);
		}
		any = true;
	}
	if (np_src_ok(s, NP_SRC_ETHTOOL_CHANNELS)) {
		uint64_t q = np_has(e->channels.combined) ? e->channels.combined : e->channels.rx;
		uint64_t m = np_has(e->channels.combined_max) ? e->channels.combined_max :
			     e->channels.rx_max;

		if (np_has(q)) {
			np_ob_puts(out, any ? ", " : "");
			np_ob_u64(out, q);
			np_ob_puts(out, q == 1 ? " queue" : " queues");
			if (np_has(m)) {
				np_ob_puts(out, " of ");
				np_ob_u64(out, m);
			}
			any = true;
		}
	}
	for (size_t i = 0; np_src_ok(s, NP_SRC_RTNL_QDISC) && i < s->rtnl.nqdisc; i++) {
		if (s->rtnl.qdiscs[i].root) {
			np_ob_cat(out, any ? ", " : "", "root qdisc ", s->rtnl.qdiscs[i].kind, NULL);
			any = true;
		}
	}
	if (any)
		np_ob_putc(out, '\n');
}

/* A capture or a sosreport says what it is and what it lacks; a plain tree and the live
 * system print nothing here (their header is the line above). */
static void origin_lines(struct np_ob *out, const struct np_origin *o)
{
	if (!o || o->kind == NP_ORIGIN_LIVE || o->kind == NP_ORIGIN_TREE)
		return;
	np_ob_printf(out, "%s", np_origin_kind_name(o->kind));
	if (o->tool_version[0])
		np_ob_printf(out, " (%s)", o->tool_version);
	if (o->hostname[0])
		np_ob_printf(out, " of host %s", o->hostname);
	if (o->kernel[0])
		np_ob_printf(out, ", kernel %s", o->kernel);
	if (o->taken[0])
		np_ob_printf(out, ", taken %s", o->taken);
	np_ob_putc(out, '\n');
	if (o->lacks[0])
		np_ob_printf(out, "it lacks: %s\n", o->lacks);
}

static void header(struct np_ob *out, const struct np_doctor_view *v, const struct np_render_opts *o)
{
	const struct np_snapshot *s = v->a->cur;
	char bw[32];

	np_ob_cat(out, o->color ? C_BOLD : "", "netpath doctor ", s->ifname,
		  o->color ? C_RESET : "", NULL);
	if (s->dev.driver[0])
		np_ob_cat(out, " (", s->dev.driver, ")", NULL);
	if (v->a->dt > 0)
		np_ob_printf(out, ", %.1f s sample", v->a->dt);
	else
		np_ob_puts(out, ", configuration and since-boot counters only");
	if (s->hs->host.kernel[0])
		np_ob_cat(out, ", kernel ", s->hs->host.kernel, NULL);
	if (s->hs->host.ncpu_online) {
		np_ob_puts(out, ", ");
		np_ob_u64(out, s->hs->host.ncpu_online);
		np_ob_puts(out, s->hs->host.ncpu_online == 1 ? " CPU" : " CPUs");
	} else
		np_ob_puts(out, ", CPU count unknown");
	if (!v->live)
		np_ob_printf(out, ", %s %s", v->origin ? np_origin_kind_name(v->origin->kind) : "tree",
			v->root);
	np_ob_putc(out, '\n');
	origin_lines(out, v->origin);
	if (v->netns)
		np_ob_printf(out, "network namespace %s: interface, IP/TCP/UDP counters and most net.ipv4 "
			"sysctls are this namespace's; softnet, IRQs, netdev_* and tcp_mem/udp_mem "
			"are host-wide\n", v->netns);
	nic_line(out, s);
	stack_lines(out, v->stack);
	if (isnan(v->a->bw_bps))
		np_ob_puts(out, "bandwidth unknown (--bandwidth RATE), RTT ");
	else
		np_ob_printf(out, "bandwidth %s (%s), RTT ", np_fmt_bps(v->a->bw_bps, bw, sizeof(bw)),
			v->a->bw_source);
	if (isnan(v->a->rtt_ms))
		np_ob_puts(out, "not given (--rtt MS for BDP checks)\n\n");
	else
		np_ob_printf(out, "%.3g ms (%s)\n\n", v->a->rtt_ms, v->a->rtt_source);
}

/* Which stages were judged, and why the others were not: a verdict without its evidence is
 * no verdict. */
static void coverage(struct np_ob *out, const struct np_coverage *c)
{
	const char *sep = "";

	np_ob_puts(out, "stages judged:");
	for (int st = 0; st < NP_STAGE__COUNT; st++)
		if (c->st[st].status == NP_COV_JUDGED || c->st[st].status == NP_COV_PARTIAL) {
			np_ob_cat(out, sep, " ", np_stage_name((enum np_stage)st),
				  c->st[st].status == NP_COV_PARTIAL ? " (partly)" : "", NULL);
			sep = ",";
		}
	np_ob_puts(out, *sep ? "\n" : " none\n");
	for (int st = 0; st < NP_STAGE__COUNT; st++) {
		const struct np_stage_cov *sc = &c->st[st];

		if (sc->status == NP_COV_NOT_JUDGED)
			np_ob_cat(out, "  ", np_stage_name((enum np_stage)st), ": not judged - ",
				  sc->reason, "\n", NULL);
	}
}

/* "bond0.100 (vlan) -> bond0 (bond) -> eno1, eno2 (physical)": a device, then what it sits on. */
static void stack_dev(struct np_ob *out, const struct np_stack *st, size_t idx, int depth)
{
	const char *sep = " → ";
	bool first = true;

	np_ob_printf(out, "%s (%s)", st->dev[idx].name, np_dev_kind_name(st->dev[idx].kind));
	if (depth > NP_STACK_MAX)
		return;
	for (unsigned k = 0; k < st->dev[idx].nlower; k++) {
		np_ob_puts(out, first ? sep : ", ");
		first = false;
		stack_dev(out, st, st->dev[idx].lower[k], depth + 1);
	}
}

/* The stack line, when there is more than a physical interface alone; and, for a container's
 * veth, where its NIC is to be diagnosed. */
static void stack_lines(struct np_ob *out, const struct np_stack *st)
{
	if (!st || !st->n || (st->n == 1 && st->dev[0].kind == NP_KIND_PHYSICAL))
		return;
	np_ob_puts(out, "stack: ");
	for (size_t i = 0, tops = 0; i < st->n; i++)
		if (st->dev[i].upper < 0) {
			np_ob_puts(out, tops++ ? "; " : "");
			stack_dev(out, st, i, 0);
		}
	np_ob_puts(out, st->truncated ? " (more devices than netpath judges at once)\n" : "\n");
	for (size_t i = 0; i < st->n; i++) {
		const struct np_stack_dev *d = &st->dev[i];

		if (d->kind != NP_KIND_VETH || d->upper >= 0 || !d->peer_other_netns)
			continue;
		if (d->peer_in_start && d->peer_name[0])
			np_ob_printf(out, "%s is a veth whose peer is %s in the namespace netpath was "
				"started in: the NIC behind %s is diagnosed there (netpath doctor "
				"%s)\n", d->name, d->peer_name, d->peer_name, d->peer_name);
		else if (d->peer_netns[0] && d->peer_name[0])
			np_ob_printf(out, "%s is a veth whose peer is %s in network namespace %s: what "
				"lies behind it is diagnosed there (netpath doctor --netns %s %s)\n",
				d->name, d->peer_name, d->peer_netns, d->peer_netns, d->peer_name);
		else if (d->peer_name[0])
			np_ob_printf(out, "%s is a veth whose peer is %s (ifindex %d) in another network "
				"namespace (nsid %d, not one under /run/netns): what lies behind it is "
				"diagnosed from there\n", d->name, d->peer_name, d->peer_ifindex,
				d->peer_nsid);
		else if (d->peer_nsid >= 0)
			np_ob_printf(out, "%s is a veth whose peer is ifindex %d in another network "
				"namespace (nsid %d): what lies behind it is diagnosed from there\n",
				d->name, d->peer_ifindex, d->peer_nsid);
		else
			np_ob_printf(out, "%s is a veth whose peer (ifindex %d) is in another network "
				"namespace: the NIC is diagnosed from there (netpath doctor IFACE on "
				"the host, or netpath doctor --netns NS %s from the host)\n", d->name,
				d->peer_ifindex, d->name);
	}
}

static void footer(struct np_ob *out, const struct np_doctor_view *v, const struct np_render_opts *o)
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
	np_ob_puts(out, "checks: ");
	np_ob_u64(out, passed);
	np_ob_puts(out, " passed, ");
	np_ob_u64(out, flagged);
	np_ob_puts(out, " flagged, ");
	np_ob_u64(out, skipped);
	np_ob_puts(out, " skipped\n");
	for (size_t i = 0; i < r->nres; i++) {
		const struct np_check_result *c = &r->res[i];

		/* "n/a": does not apply here; "skipped": its evidence could not be read. */
		if (c->state == NP_CHECK_SKIPPED) {
			np_ob_puts(out, c->not_applicable ? "  n/a     " : "  skipped ");
			np_ob_pad(out, c->check->id, -wid);
			np_ob_cat(out, "  ", c->skip_reason, "\n", NULL);
		} else if (o->verbose && c->state == NP_CHECK_PASSED)
			np_ob_cat(out, "  passed  ", c->check->id, "\n", NULL);
	}
	for (int i = 0; i < NP_SRC__COUNT; i++) {
		const struct np_src *src = np_srcp(s, i);

		if (src->status == NP_SRC_OK)
			continue;
		np_ob_puts(out, "  unavailable ");
		np_ob_pad(out, np_source_name((enum np_source)i), -18);
		np_ob_putc(out, ' ');
		np_ob_cat(out, np_src_status_name(src->status), src->detail[0] ? ": " : "",
			  src->detail, "\n", NULL);
	}
	coverage(out, v->cov);
	if (np_coverage_unknown(v->cov)) {
		np_ob_printf(out, "\nresult: %sUNKNOWN%s (no stage of the receive path could be judged)\n",
			o->color ? C_BOLD : "", o->color ? C_RESET : "");
		return;
	}
	np_ob_cat(out, "\nresult: ", o->color ? sev_color(worst) : "",
		  worst == NP_SEV_OK ? "OK" : np_severity_name(worst), o->color ? C_RESET : "", NULL);
	if (v->cov->judged < v->cov->applicable) {
		np_ob_puts(out, " (on ");
		np_ob_u64(out, v->cov->judged);
		np_ob_puts(out, " of ");
		np_ob_u64(out, v->cov->applicable);
		np_ob_puts(out, " stages)");
	}
	np_ob_putc(out, '\n');
}

/* doctor --at over a `record --drops` recording: the flows that dropped most then. */
static void recorded_flows(struct np_ob *out, const struct np_rec_flows *f, bool color)
{
	char a[40], b[40];

	np_when_format((double)f->from, a, sizeof(a));
	np_when_format((double)f->to, b, sizeof(b));
	np_ob_printf(out, "%sTop dropped flows%s (recorded a minute at a time, %u minute%s, %s to %s):\n",
		color ? C_BOLD : "", color ? C_RESET : "", f->minutes, f->minutes == 1 ? "" : "s",
		a, b);
	if (!f->n)
		np_ob_puts(out, "  none: no flow was dropped then\n");
	np_render_recflows_ob(out, f, "  ");
	np_ob_putc(out, '\n');
}

static void doctor_text(struct np_ob *out, const struct np_doctor_view *v,
			const struct np_render_opts *o)
{
	int last_stage = -1;

	header(out, v, o);
	np_render_sockets_ob(out, v->a->cur, v->sockets_top);
	if (v->r->n == 0 && np_coverage_unknown(v->cov))
		np_ob_puts(out, "No verdict: no stage of the receive path could be judged (see "
			   "below).\n\n");
	else if (v->r->n == 0 && v->cov->judged < v->cov->applicable)
		np_ob_printf(out, "No findings in the %u of %u stages that could be judged (the "
			     "others are listed below).\n\n", v->cov->judged, v->cov->applicable);
	else if (v->r->n == 0)
		np_ob_puts(out, "No findings: nothing along the receive path looks limiting.\n\n");
	for (size_t i = 0; i < v->r->n; i++) {
		const struct np_finding *f = &v->r->f[i];

		if ((int)f->check->stage != last_stage) {
			last_stage = (int)f->check->stage;
			np_ob_puts(out, o->color ? C_BOLD "== " : "== ");
			np_ob_puts(out, np_stage_name(f->check->stage));
			np_ob_puts(out, o->color ? " ==" C_RESET "\n" : " ==\n");
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
	struct np_ob ob;

	/* Every part writes into one buffer whose flushes are wrapped straight into out. */
	np_wrap_ob_open(&w, &ob, out, o->width);
	doctor_text(&ob, v, o);
	np_wrap_ob_close(&w, &ob);
}
