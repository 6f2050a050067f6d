// SPDX-License-Identifier: GPL-2.0-only
/*
 * Nagios plugin mode over the golden trees: the status word and exit code follow the worst
 * finding (info stays OK), the status line names the worst findings with their numbers on one
 * line, and the perfdata follows the plugin guidelines' syntax.
 */
#include <math.h>
#include <regex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "check_util.h"
#include "render_monitor.h"
#include "tree.h"

#define assert_contains(hay, needle) do { \
	if (!strstr((hay), (needle))) \
		fail_msg("'%s' not in '%s'", (needle), (hay)); \
} while (0)
#define assert_lacks(hay, needle) do { \
	if (strstr((hay), (needle))) \
		fail_msg("'%s' unexpectedly in '%s'", (needle), (hay)); \
} while (0)

/* 'label'=value[UOM];[warn];[crit];[min];[max] with the guidelines' units, plain decimals;
 * warn and crit are ranges ([@][start:][end], start may be ~). */
#define NUM "-?[0-9]+(\\.[0-9]+)?"
#define RANGE "@?((" NUM "|~):)?(" NUM ")?"
static const char perf_re[] =
	"^'[^'=]+'=" NUM "(s|%|B|KB|MB|TB|c)?(;(" RANGE ")(;(" RANGE ")(;(" NUM ")?(;(" NUM ")?)?)?)?)?$";

struct nagios_out {
	char *buf;
	char status[1024];	/* the text before " | " */
	char perf[2048];	/* after it */
	size_t nperf;
	char labels[32][64];
	double values[32];
	const char *long_output;	/* the lines after the first */
};

/* Split the first line at its only '|' and check every perfdata item against the syntax. */
static void parse(struct nagios_out *o)
{
	char *nl = strchr(o->buf, '\n'), *bar, *tok, *save = NULL;
	regex_t re;

	assert_non_null(nl);
	o->long_output = nl + 1;
	*nl = '\0';
	bar = strchr(o->buf, '|');
	assert_non_null(bar);
	if (strchr(bar + 1, '|'))
		fail_msg("more than one '|' in the status line: %s", o->buf);
	assert_true(bar > o->buf && bar[-1] == ' ');
	snprintf(o->status, sizeof(o->status), "%.*s", (int)(bar - o->buf - 1), o->buf);
	snprintf(o->perf, sizeof(o->perf), "%s", bar + 1);
	*nl = '\n';
	assert_int_equal(regcomp(&re, perf_re, REG_EXTENDED | REG_NOSUB), 0);
	for (tok = strtok_r(o->perf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');

		if (regexec(&re, tok, 0, NULL, 0))
			fail_msg("perfdata item '%s' does not follow the guidelines", tok);
		assert_true(o->nperf < 32);
		snprintf(o->labels[o->nperf], sizeof(o->labels[0]), "%.*s", (int)(eq - tok - 2),
			 tok + 1);
		o->values[o->nperf++] = strtod(eq + 1, NULL);
	}
	regfree(&re);
	assert_true(o->nperf > 0);
}

/* The whole perfdata item for a label, from the original line. */
static const char *perf_item(const struct nagios_out *o, const char *label, char *buf,
			     size_t size)
{
	char needle[80];
	const char *p, *end;

	snprintf(needle, sizeof(needle), "'%s'=", label);
	p = strstr(o->buf, needle);
	if (!p)
		fail_msg("no perfdata '%s'", label);
	end = strpbrk(p, " \n");
	snprintf(buf, size, "%.*s", (int)(end - p), p);
	return buf;
}

static void test_x710_critical(void **state)
{
	struct tree_run *t = tree_run(state, "x710-server", "eth0", true);
	struct nagios_out o = { 0 };
	char item[128];
	size_t len;
	int code;

	o.buf = render_nagios(t, &code, &len);
	parse(&o);
	assert_int_equal(code, 2);
	assert_int_equal(code, t->v.exit_code);
	assert_true(strncmp(o.status, "NETPATH CRITICAL - eth0: ", 25) == 0);
	/* The worst findings, with their numbers, at most three. */
	assert_contains(o.status, "softnet.backlog-drops: ");
	assert_contains(o.status, "12,000");
	assert_contains(o.status, "nic.missed: ");
	assert_contains(o.status, "irq.affinity: ");
	assert_lacks(o.status, "softnet.time-squeeze");	/* a warning, below the worst */
	assert_true(strlen(o.status) < 500);
	/* Long output: every warning and critical finding, info left out. */
	assert_contains(o.long_output, "CRITICAL softnet.backlog-drops [softnet]: ");
	assert_contains(o.long_output, "WARNING softnet.time-squeeze [softnet]: ");
	/* The device a finding is about, where it has one (not the host's softnet backlog). */
	assert_contains(o.long_output, "CRITICAL nic.missed [eth0 nic]: ");
	assert_contains(o.long_output, "CRITICAL irq.affinity [eth0 irq]: ");
	assert_lacks(o.long_output, "socket.rmem-max");

	/* Drop rates per stage; softnet's with softnet.backlog-drops' thresholds. */
	assert_string_equal(perf_item(&o, "softnet_drops_per_s", item, sizeof(item)),
			    "'softnet_drops_per_s'=12000;@1:;@100:;0");
	assert_string_equal(perf_item(&o, "nic_drops_per_s", item, sizeof(item)),
			    "'nic_drops_per_s'=9000;;;0");
	assert_string_equal(perf_item(&o, "interval", item, sizeof(item)), "'interval'=10s;;;0");
	assert_string_equal(perf_item(&o, "checks_critical", item, sizeof(item)),
			    "'checks_critical'=3;;@1:;0");
	/* no conntrack counters in the tree; the IPv4 balance says nothing vanished */
	assert_string_equal(perf_item(&o, "ingress_drops_per_s", item, sizeof(item)),
			    "'ingress_drops_per_s'=0;;;0");
	free(o.buf);
}

/* Every rate in the status and detail lines reads alike, as netpath's Nagios mode runs them (no
 * digit groups, main() leaves them off outside human text): "12000 packets/s", "0.5/s", never
 * "9000.0 packets/s" beside "12,000/s". */
static void test_rates_one_format(void **state)
{
	struct tree_run *t;
	struct nagios_out o = { 0 };
	regex_t rate, grouped;
	regmatch_t m[2];
	size_t len, nrates = 0;
	int code;

	np_fmt_set_group_sep("");
	t = tree_run(state, "x710-server", "eth0", true);
	o.buf = render_nagios(t, &code, &len);
	np_fmt_set_group_sep(",");
	parse(&o);
	assert_int_equal(regcomp(&rate, "([0-9][0-9.,]*)( [a-z]+)?/s", REG_EXTENDED), 0);
	assert_int_equal(regcomp(&grouped, "[0-9],[0-9]{3}", REG_EXTENDED | REG_NOSUB), 0);
	for (const char *p = o.status; !regexec(&rate, p, 2, m, 0); p += m[0].rm_eo) {
		char num[32];
		regex_t one;

		snprintf(num, sizeof(num), "%.*s", (int)(m[1].rm_eo - m[1].rm_so), p + m[1].rm_so);
		assert_int_equal(regcomp(&one, "^([0-9]+|[0-9]\\.[0-9])$", REG_EXTENDED | REG_NOSUB), 0);
		if (regexec(&one, num, 0, NULL, 0))
			fail_msg("rate '%s' in '%s'", num, o.status);
		regfree(&one);
		nrates++;
	}
	for (const char *p = o.long_output; !regexec(&rate, p, 2, m, 0); p += m[0].rm_eo) {
		char num[32];
		regex_t one;

		snprintf(num, sizeof(num), "%.*s", (int)(m[1].rm_eo - m[1].rm_so), p + m[1].rm_so);
		assert_int_equal(regcomp(&one, "^([0-9]+|[0-9]\\.[0-9])$", REG_EXTENDED | REG_NOSUB), 0);
		if (regexec(&one, num, 0, NULL, 0))
			fail_msg("rate '%s' in the long output", num);
		regfree(&one);
		nrates++;
	}
	assert_true(nrates >= 6);
	assert_int_not_equal(regexec(&grouped, o.buf, 0, NULL, 0), 0);
	assert_contains(o.status, "9000 packets/s");
	assert_contains(o.status, "12000 packets/s");
	regfree(&rate);
	regfree(&grouped);
	free(o.buf);
}

static void test_vm_virtio_ok(void **state)
{
	static const char ok_line[] = "NETPATH OK - eth0: no warning or critical finding (";
	struct tree_run *t = tree_run(state, "vm-virtio", "eth0", true);
	struct nagios_out o = { 0 };
	size_t len;
	int code;

	/* Info findings only: they do not raise the status. */
	assert_int_equal(np_report_worst(&t->rep), NP_SEV_INFO);
	o.buf = render_nagios(t, &code, &len);
	parse(&o);
	assert_int_equal(code, 0);
	if (strncmp(o.status, ok_line, strlen(ok_line)))
		fail_msg("status line: %s", o.status);
	assert_contains(o.status, " info, ");
	assert_string_equal(o.long_output, "");
	free(o.buf);
}

/* Without sampling: since-boot counters with UOM c, under other labels than the rates. */
static void test_unsampled_counters(void **state)
{
	struct tree_run *t = tree_run(state, "x710-server", "eth0", false);
	struct nagios_out o = { 0 };
	char item[128];
	size_t len;
	int code;

	o.buf = render_nagios(t, &code, &len);
	parse(&o);
	assert_lacks(o.buf, "_per_s");
	assert_contains(perf_item(&o, "softnet_drops", item, sizeof(item)), "c;;;0");
	assert_string_equal(perf_item(&o, "interval", item, sizeof(item)), "'interval'=0s;;;0");
	/* Since-boot totals alone never make a critical: at most info, so OK. */
	assert_true(code <= 1);
	free(o.buf);
}

/* Summaries are copied onto one line: a '|' or newline would break every parser. */
static void test_hostile_summary(void **state)
{
	struct tree_run *t = tree_run(state, "x710-server", "eth0", true);
	struct nagios_out o = { 0 };
	size_t len;
	int code;
	static char hostile[NP_SUMMARY_SIZE];	/* the longest summary a finding holds */

	memset(hostile, 'x', sizeof(hostile) - 1);
	memcpy(hostile, "a|b\nc ", 6);
	for (size_t i = 0; i < t->rep.n; i++) {
		struct np_finding *f = &t->rep.f[i];

		if (f->severity != NP_SEV_CRITICAL)
			continue;
		f->summary = hostile;
	}
	o.buf = render_nagios(t, &code, &len);
	parse(&o);	/* exactly one '|' in the first line */
	assert_contains(o.status, "a/b c xxx");
	assert_contains(o.status, "...");
	assert_true(strlen(o.status) < 500);
	assert_int_equal(code, 2);
	free(o.buf);
}

static void test_unknown(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	np_render_nagios_unknown(f, "no such interface 'a|b'\nsecond");
	np_render_nagios_unknown(f, NULL);
	assert_int_equal(fclose(f), 0);
	assert_string_equal(buf, "NETPATH UNKNOWN - no such interface 'a/b' second\n"
				 "NETPATH UNKNOWN - could not diagnose\n");
	free(buf);
}

/*
 * A Monitoring Plugins range ([@][start:][end]; "~" start is minus infinity; a missing end is
 * infinity; a bare "end" is 0..end) applied to v: true when it alerts. Written from the
 * guidelines' table, independently of the code under test.
 */
static bool range_alerts(const char *r, double v)
{
	bool inside = *r == '@';
	double lo = 0, hi = INFINITY;
	const char *colon;

	if (inside)
		r++;
	colon = strchr(r, ':');
	if (colon) {
		if (*r == '~')
			lo = -INFINITY;
		else if (r != colon)
			lo = strtod(r, NULL);
		if (colon[1])
			hi = strtod(colon + 1, NULL);
	} else {
		hi = strtod(r, NULL);
	}
	return inside ? (v >= lo && v <= hi) : (v < lo || v > hi);
}

/* netpath's levels mean "at or above": so must the perfdata ranges, at the level itself too. */
static void test_range_strings(void **state)
{
	static const struct { double t; const char *want; } cases[] = {
		{ 1, "@1:" }, { 100, "@100:" }, { 0.5, "@0.5:" }, { 0, "@0:" },
		{ 1000000, "@1000000:" }, { 0.125, "@0.125:" },
	};
	char buf[40];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double t = cases[i].t;

		np_nagios_range_at_least(t, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].want);
		assert_true(range_alerts(buf, t));
		assert_true(range_alerts(buf, t + 1));
		assert_true(range_alerts(buf, 1e12));
		if (t > 0) {
			assert_false(range_alerts(buf, t - 0.001));
			assert_false(range_alerts(buf, 0));
		}
	}
	/* No level, no range. */
	np_nagios_range_at_least(NAN, buf, sizeof(buf));
	assert_string_equal(buf, "");
	/* The old form said "above": a count of 1 against a level of 1 did not alert. */
	assert_false(range_alerts("1", 1));
	assert_true(range_alerts("@1:", 1));
	assert_true(range_alerts("~:0", 1));
}

/* The thresholds in the perfdata of a run alert exactly where its findings do. */
static void test_perf_ranges_agree(void **state)
{
	struct tree_run *t = tree_run(state, "x710-server", "eth0", true);
	struct nagios_out o = { 0 };
	char item[128], warn[40], crit[40];
	double v;
	size_t len;
	int code;

	o.buf = render_nagios(t, &code, &len);
	parse(&o);
	/* softnet: 12000 drops/s against warn 1 and crit 100, both reached: critical, as found. */
	perf_item(&o, "softnet_drops_per_s", item, sizeof(item));
	assert_int_equal(sscanf(item, "'softnet_drops_per_s'=%lf;%39[^;];%39[^;];", &v, warn, crit), 3);
	assert_true(range_alerts(crit, v));
	assert_true(range_alerts(warn, v));
	/* One critical check is enough for the critical range, none is not. */
	perf_item(&o, "checks_critical", item, sizeof(item));
	assert_int_equal(sscanf(item, "'checks_critical'=%lf;;%39[^;];", &v, crit), 2);
	assert_true(range_alerts(crit, 1));
	assert_false(range_alerts(crit, 0));
	free(o.buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_x710_critical, tree_teardown),
		cmocka_unit_test_teardown(test_rates_one_format, tree_teardown),
		cmocka_unit_test_teardown(test_vm_virtio_ok, tree_teardown),
		cmocka_unit_test_teardown(test_unsampled_counters, tree_teardown),
		cmocka_unit_test_teardown(test_hostile_summary, tree_teardown),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_range_strings),
		cmocka_unit_test_teardown(test_perf_ranges_agree, tree_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
