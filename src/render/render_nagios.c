// SPDX-License-Identifier: GPL-2.0-only
/* Nagios/Icinga plugin output: one status line with perfdata, the findings as long output. */
#include "render_monitor.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* How many findings the status line names, and how much of each summary it keeps: monitoring
 * UIs show the first line in a table cell, the long output holds the rest. */
#define NAGIOS_TOP 3
#define NAGIOS_SUMMARY_MAX 110

static const char *const state_names[] = { "OK", "WARNING", "CRITICAL", "UNKNOWN" };

/* Copy text that must stay on one line and must not open the perfdata: '|' would end the
 * text for every parser, a newline would end the status line. */
static void plugin_text(const char *in, char *out, size_t size, size_t max)
{
	size_t o = 0;

	if (max >= size)
		max = size - 1;
	for (; *in && o < max; in++) {
		if (*in == '|')
			out[o++] = '/';
		else
			out[o++] = *in == '\n' || *in == '\r' || *in == '\t' ? ' ' : *in;
	}
	out[o] = '\0';
	if (!*in)
		return;
	/* Shortened: room for "...", then cut at the last space if that keeps most of it. */
	if (o + 4 > size)
		o = size - 4;
	max = o;
	while (o > max / 2 && out[o - 1] != ' ')
		o--;
	if (o <= max / 2)
		o = max > 3 ? max - 3 : 0;
	while (o && out[o - 1] == ' ')
		o--;
	/* Never split a UTF-8 character (the summaries may hold "≥", "×"). */
	while (o && ((unsigned char)out[o] & 0xc0) == 0x80)
		o--;
	snprintf(out + o, size - o, "...");
}

/* Perfdata numbers: plain decimals (some graphers reject exponents), no trailing zeros. */
static void perf_num(double v, char *buf, size_t size)
{
	size_t len;

	if (!isfinite(v)) {
		buf[0] = '\0';
		return;
	}
	snprintf(buf, size, "%.3f", v + 0.0);
	len = strlen(buf);
	while (len && buf[len - 1] == '0')
		buf[--len] = '\0';
	if (len && buf[len - 1] == '.')
		buf[--len] = '\0';
	if (!strcmp(buf, "-0"))
		snprintf(buf, size, "0");
}

/*
 * netpath's level "alert when the value is at or above T" in the Monitoring Plugins range
 * syntax. A bare "T" would mean "alert outside 0..T", i.e. above T: off by the value T itself,
 * which is exactly where a count of 1 sits. "@T:" means "alert inside T..infinity", both ends
 * included: at or above T, as netpath judges. No level (NaN): "".
 */
void np_nagios_range_at_least(double t, char *buf, size_t size)
{
	char num[32];

	perf_num(t, num, sizeof(num));
	if (!*num) {
		if (size)
			buf[0] = '\0';
		return;
	}
	snprintf(buf, size, "@%s:", num);
}

/* 'label'=value[UOM];[warn];[crit];[min] (max omitted: trailing fields may be dropped); warn
 * and crit are netpath levels (alert at or above), NaN for none. */
static void perf(FILE *out, const char *label, const char *value, const char *uom, double warn,
		 double crit)
{
	char w[40], c[40];

	np_nagios_range_at_least(warn, w, sizeof(w));
	np_nagios_range_at_least(crit, c, sizeof(c));
	fprintf(out, " '%s'=%s%s;%s;%s;0", label, value, uom, w, c);
}

/* Per-stage drops: per second when sampled, else the since-boot counter (UOM c). The labels
 * differ so a grapher never mixes the two. The softnet row is softnet_stat's dropped column,
 * exactly what softnet.backlog-drops judges: it carries that check's thresholds (the user's
 * override if any). */
static void perfdata(FILE *out, const struct np_doctor_view *v)
{
	const struct np_check *bl = np_check_find("softnet.backlog-drops");
	double bl_warn = bl ? np_check_warn(bl, v->a->ovr) : NAN;
	double bl_crit = bl ? np_check_crit(bl, v->a->ovr) : NAN;
	size_t ncrit = 0, nwarn = 0, ninfo = 0;
	char num[48], label[64];

	fprintf(out, " |");
	perf_num(v->a->prev ? v->a->dt : 0, num, sizeof(num));
	perf(out, "interval", num, "s", NAN, NAN);
	for (size_t i = 0; i < v->funnel->n; i++) {
		const struct np_funnel_row *r = &v->funnel->rows[i];
		const char *st = np_stage_name(r->stage);
		bool softnet = r->stage == NP_STAGE_SOFTNET && bl;

		if (!r->drop.present)
			continue;
		if (r->drop.sampled) {
			snprintf(label, sizeof(label), "%s_drops_per_s", st);
			perf_num(r->drop.rate, num, sizeof(num));
			perf(out, label, num, "", softnet ? bl_warn : NAN, softnet ? bl_crit : NAN);
		} else {
			snprintf(label, sizeof(label), "%s_drops", st);
			snprintf(num, sizeof(num), "%" PRIu64, r->drop.total);
			perf(out, label, num, "c", NAN, NAN);
		}
	}
	for (size_t i = 0; i < v->r->nres; i++) {
		const struct np_check_result *c = &v->r->res[i];

		if (c->state == NP_CHECK_NOT_RUN || c->state == NP_CHECK_SKIPPED)
			continue;
		ncrit += c->worst == NP_SEV_CRITICAL;
		nwarn += c->worst == NP_SEV_WARNING;
		ninfo += c->worst == NP_SEV_INFO;
	}
	snprintf(num, sizeof(num), "%zu", ncrit);
	perf(out, "checks_critical", num, "", NAN, 1);
	snprintf(num, sizeof(num), "%zu", nwarn);
	perf(out, "checks_warning", num, "", 1, NAN);
	snprintf(num, sizeof(num), "%zu", ninfo);
	perf(out, "checks_info", num, "", NAN, NAN);
}

/* The findings the status line names: at the worst severity, most drops per second first,
 * then in receive-path order (the report is sorted by stage). */
static int cmp_rank(const void *x, const void *y)
{
	const struct np_finding *a = *(const struct np_finding *const *)x;
	const struct np_finding *b = *(const struct np_finding *const *)y;

	if (a->rank != b->rank)
		return a->rank > b->rank ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* "; 4 of 9 stages judged (not judged: irq, pcie)" when some could not be judged. */
static void coverage_text(FILE *out, const struct np_coverage *c)
{
	const char *sep = "";

	if (c->judged == c->applicable)
		return;
	fprintf(out, "; %u of %u stages judged (not judged:", c->judged, c->applicable);
	for (int st = 0; st < NP_STAGE__COUNT; st++)
		if (c->st[st].status == NP_COV_NOT_JUDGED) {
			fprintf(out, "%s %s", sep, np_stage_name((enum np_stage)st));
			sep = ",";
		}
	fputc(')', out);
}

int np_render_doctor_nagios(FILE *out, const struct np_doctor_view *v)
{
	enum np_severity worst = np_report_worst(v->r);
	int code = worst == NP_SEV_CRITICAL ? 2 : worst == NP_SEV_WARNING ? 1 : 0;
	const struct np_finding **top = NULL;
	size_t n = 0, ninfo = 0, nskip = 0, nrun = 0;
	char text[NAGIOS_SUMMARY_MAX + 8];

	if (np_coverage_unknown(v->cov)) {
		char why[sizeof(v->cov->st[0].reason)] = "";

		for (int st = 0; st < NP_STAGE__COUNT && !why[0]; st++)
			if (v->cov->st[st].status == NP_COV_NOT_JUDGED)
				plugin_text(v->cov->st[st].reason, why, sizeof(why), 100);
		fprintf(out, "NETPATH UNKNOWN - %s: no stage of the receive path could be judged%s%s",
			v->a->cur->ifname, why[0] ? " (" : "", why);
		fputs(why[0] ? ")" : "", out);
		perfdata(out, v);
		fputc('\n', out);
		return 3;
	}
	fprintf(out, "NETPATH %s - %s: ", state_names[code], v->a->cur->ifname);
	for (size_t i = 0; i < v->r->nres; i++) {
		nrun += v->r->res[i].state != NP_CHECK_NOT_RUN;
		nskip += v->r->res[i].state == NP_CHECK_SKIPPED;
	}
	if (code) {
		top = calloc(v->r->n ? v->r->n : 1, sizeof(*top));
		for (size_t i = 0; top && i < v->r->n; i++)
			if (v->r->f[i].severity == worst)
				top[n++] = &v->r->f[i];
	}
	if (top && n) {
		qsort(top, n, sizeof(*top), cmp_rank);
		for (size_t i = 0; i < n && i < NAGIOS_TOP; i++) {
			plugin_text(top[i]->summary, text, sizeof(text), NAGIOS_SUMMARY_MAX);
			fprintf(out, "%s%s: %s", i ? "; " : "", top[i]->check->id, text);
		}
		if (n > NAGIOS_TOP)
			fprintf(out, " (+%zu more %s)", n - NAGIOS_TOP, np_severity_name(worst));
	} else if (code) {
		/* Out of memory for the ranking: still a truthful line. */
		fprintf(out, "%s findings", np_severity_name(worst));
	} else {
		for (size_t i = 0; i < v->r->n; i++)
			ninfo += v->r->f[i].severity == NP_SEV_INFO;
		fprintf(out, "no warning or critical finding (%zu checks, %zu info, %zu skipped)",
			nrun, ninfo, nskip);
	}
	free(top);
	coverage_text(out, v->cov);
	perfdata(out, v);
	fputc('\n', out);

	/* Long output: every warning and critical finding in receive-path order, each with the
	 * device it is about: "CRITICAL nic.missed [eth0 nic]: ...". */
	for (size_t i = 0; i < v->r->n; i++) {
		const struct np_finding *f = &v->r->f[i];
		char line[NP_SUMMARY_SIZE], dev[sizeof(f->dev) + 8] = "";

		if (f->severity < NP_SEV_WARNING)
			continue;
		plugin_text(f->summary, line, sizeof(line), sizeof(line) - 1);
		if (np_finding_names_device(f, v->a->cur->ifname)) {
			/* An interface name may hold '|', which would open perfdata. */
			plugin_text(f->dev, dev, sizeof(dev) - 1, sizeof(f->dev));
			strcat(dev, " ");
		}
		fprintf(out, "%s %s [%s%s]: %s\n",
			state_names[f->severity == NP_SEV_CRITICAL ? 2 : 1], f->check->id, dev,
			np_stage_name(f->check->stage), line);
	}
	return code;
}

void np_render_nagios_unknown(FILE *out, const char *reason)
{
	char text[512];

	plugin_text(reason && reason[0] ? reason : "could not diagnose", text, sizeof(text),
		    sizeof(text) - 1);
	fprintf(out, "NETPATH UNKNOWN - %s\n", text);
}
