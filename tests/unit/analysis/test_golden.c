// SPDX-License-Identifier: GPL-2.0-only
/*
 * Golden tests: the whole analysis of `netpath doctor --root AFTER --before BEFORE` (collectors on
 * two captured trees, rates between them, every check, the funnel, the JSON and text renderers)
 * over each tree of tests/fixtures/trees. Each tree's findings must equal its expected.txt (one
 * "id severity" line per finding, sorted), and facts specific to the fixture prove that the
 * collectors and checks are right, not merely stable.
 *
 * NP_GOLDEN_UPDATE=1 rewrites expected.txt instead of comparing: read every changed line and
 * make sure the fixture justifies it before committing.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "collect.h"
#include "ctx.h"
#include "funnel.h"
#include "opts.h"
#include "render.h"

/* One tree's analysis, done exactly as cmd_doctor.c does it for --root/--before. */
struct golden {
	char after[1024], before[1024], expected[1024];
	struct np_options opt;
	struct np_snapshot prev, cur;
	struct np_analysis a;
	struct np_report rep;
	struct np_funnel fn;
	int exit_code;
};

static int exit_for(enum np_severity worst)
{
	return worst == NP_SEV_CRITICAL ? NP_EXIT_CRITICAL :
	       worst == NP_SEV_WARNING ? NP_EXIT_WARNING : NP_EXIT_OK;
}

/* The result lands in *state first, so that teardown frees it even when an assertion fails. */
static struct golden *golden_run(void **state, const char *tree, const char *ifname)
{
	struct golden *g = calloc(1, sizeof(*g));
	struct np_ctx ctx, bctx;

	assert_non_null(g);
	*state = g;
	snprintf(g->after, sizeof(g->after), "%s/trees/%s/after", NP_FIXTURES, tree);
	snprintf(g->before, sizeof(g->before), "%s/trees/%s/before", NP_FIXTURES, tree);
	snprintf(g->expected, sizeof(g->expected), "%s/trees/%s/expected.txt", NP_FIXTURES, tree);

	assert_int_equal(np_ctx_open(&ctx, g->after), 0);
	assert_false(ctx.live);
	assert_int_equal(np_iface_check(&ctx, ifname), 0);
	assert_int_equal(np_ctx_open(&bctx, g->before), 0);
	assert_int_equal(np_collect(&bctx, ifname, &g->prev), 0);
	np_ctx_close(&bctx);
	assert_int_equal(np_collect(&ctx, ifname, &g->cur), 0);
	np_ctx_close(&ctx);
	/* The captures' instants come from their proc/uptime. */
	assert_true(g->cur.t > g->prev.t);

	/* A captured tree is one instant: doctor sets --interval 0 and takes dt from the pair. */
	g->opt.interval = 0;
	g->opt.rtt_ms = NAN;
	g->opt.bandwidth_bps = NAN;
	g->a.prev = &g->prev;
	g->a.cur = &g->cur;
	g->a.dt = g->cur.t - g->prev.t;
	g->a.opt = &g->opt;
	np_analysis_derive(&g->a);
	assert_int_equal(np_analyze(&g->a, &g->rep, NULL, NULL), 0);
	np_funnel_build(&g->a, &g->fn);
	g->exit_code = exit_for(np_report_worst(&g->rep));
	return g;
}

static int golden_teardown(void **state)
{
	struct golden *g = *state;

	if (g) {
		np_report_free(&g->rep);
		np_snapshot_free(&g->cur);
		np_snapshot_free(&g->prev);
		free(g);
	}
	*state = NULL;
	return 0;
}

/* ---- the expected set of findings ---- */

static int cmp_str(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

struct lines {
	size_t n;
	char **v;
};

static void lines_free(struct lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->n = 0;
	l->v = NULL;
}

static void lines_add(struct lines *l, const char *s, size_t len)
{
	char **nv = realloc(l->v, (l->n + 1) * sizeof(*nv));

	assert_non_null(nv);
	l->v = nv;
	l->v[l->n] = strndup(s, len);
	assert_non_null(l->v[l->n]);
	l->n++;
}

/* "id severity", one per finding, sorted. */
static void produced_lines(const struct np_report *r, struct lines *out)
{
	char buf[160];

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < r->n; i++) {
		int len = snprintf(buf, sizeof(buf), "%s %s", r->f[i].check->id,
				   np_severity_name(r->f[i].severity));

		lines_add(out, buf, (size_t)len);
	}
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), cmp_str);
}

/* The file's non-empty lines (trailing whitespace ignored), sorted. -errno if unreadable. */
static int expected_lines(const char *path, struct lines *out)
{
	char line[256];
	FILE *f = fopen(path, "r");

	memset(out, 0, sizeof(*out));
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		size_t len = strlen(line);

		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r' ||
			       line[len - 1] == ' ' || line[len - 1] == '\t'))
			len--;
		if (len)
			lines_add(out, line, len);
	}
	fclose(f);
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), cmp_str);
	return 0;
}

static void write_expected(const char *path, const struct lines *l)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	for (size_t i = 0; i < l->n; i++)
		fprintf(f, "%s\n", l->v[i]);
	assert_int_equal(fclose(f), 0);
}

/* Compare the produced findings with expected.txt; on mismatch print a diff and fail. */
static void compare_expected(const struct golden *g, const char *tree)
{
	const char *upd = getenv("NP_GOLDEN_UPDATE");
	struct lines want, got;
	size_t i = 0, j = 0;
	bool same;
	int r;

	produced_lines(&g->rep, &got);
	if (upd && strcmp(upd, "1") == 0) {
		write_expected(g->expected, &got);
		print_message("[ golden ] %s: rewrote %s (%zu findings): review every line\n",
			      tree, g->expected, got.n);
		lines_free(&got);
		return;
	}
	r = expected_lines(g->expected, &want);
	if (r < 0) {
		lines_free(&got);
		fail_msg("%s: cannot read %s: %s (NP_GOLDEN_UPDATE=1 writes it)", tree,
			 g->expected, strerror(-r));
	}
	same = want.n == got.n;
	for (size_t k = 0; same && k < want.n; k++)
		same = strcmp(want.v[k], got.v[k]) == 0;
	if (!same) {
		print_error("%s: findings differ from %s\n"
			    "  '-' expected but not produced, '+' produced but not expected:\n",
			    tree, g->expected);
		while (i < want.n || j < got.n) {
			int c = i == want.n ? 1 : j == got.n ? -1 : strcmp(want.v[i], got.v[j]);

			if (c == 0) {
				print_error("    %s\n", want.v[i]);
				i++;
				j++;
			} else if (c < 0) {
				print_error("  - %s\n", want.v[i++]);
			} else {
				print_error("  + %s\n", got.v[j++]);
			}
		}
		print_error("  (after checking that each new line is right for the fixture: "
			    "NP_GOLDEN_UPDATE=1 meson test -C BUILD golden)\n");
	}
	lines_free(&want);
	lines_free(&got);
	if (!same)
		fail_msg("%s: findings differ from expected.txt", tree);
}

/* What design.md promises of every finding: a summary with the numbers, evidence, a remedy. */
static void check_findings_complete(const struct golden *g)
{
	for (size_t i = 0; i < g->rep.n; i++) {
		const struct np_finding *f = &g->rep.f[i];

		if (!f->summary[0] || !f->nev || !f->remedy[0])
			fail_msg("%s: finding without summary, evidence or remedy", f->check->id);
		assert_true(f->check->stage < NP_STAGE__COUNT);
	}
	for (size_t i = 0; i < g->rep.nres; i++)
		assert_int_not_equal(g->rep.res[i].state, NP_CHECK_NOT_RUN);
}

/* ---- lookups ---- */

static const struct np_finding *finding(const struct golden *g, const char *id)
{
	for (size_t i = 0; i < g->rep.n; i++)
		if (strcmp(g->rep.f[i].check->id, id) == 0)
			return &g->rep.f[i];
	fail_msg("no finding %s", id);
	return NULL;
}

static const struct np_check_result *result(const struct golden *g, const char *id)
{
	for (size_t i = 0; i < g->rep.nres; i++)
		if (strcmp(g->rep.res[i].check->id, id) == 0)
			return &g->rep.res[i];
	fail_msg("no check %s in the table", id);
	return NULL;
}

static const struct np_evidence *evidence(const struct np_finding *f, const char *key)
{
	for (size_t i = 0; i < f->nev; i++)
		if (strcmp(f->ev[i].key, key) == 0)
			return &f->ev[i];
	return NULL;
}

static const struct np_evidence *need_ev(const struct np_finding *f, const char *key)
{
	const struct np_evidence *e = evidence(f, key);

	if (!e)
		fail_msg("%s: no evidence '%s'", f->check->id, key);
	return e;
}

static const struct np_funnel_row *funnel_row(const struct golden *g, enum np_stage st)
{
	for (size_t i = 0; i < g->fn.n; i++)
		if (g->fn.rows[i].stage == st)
			return &g->fn.rows[i];
	fail_msg("no funnel row for stage %s", np_stage_name(st));
	return NULL;
}

static const struct np_irq_line *irq_line(const struct np_snapshot *s, unsigned irq)
{
	for (size_t i = 0; i < s->irqs.n; i++)
		if (s->irqs.lines[i].irq == irq)
			return &s->irqs.lines[i];
	fail_msg("IRQ %u not collected", irq);
	return NULL;
}

#define assert_near(x, want) assert_true(fabs((double)(x) - (double)(want)) < 1e-6 * \
					 (fabs((double)(want)) + 1))
#define assert_contains(hay, needle) do { \
	if (!strstr((hay), (needle))) \
		fail_msg("'%s' not in '%s'", (needle), (hay)); \
} while (0)
#define assert_lacks(hay, needle) do { \
	if (strstr((hay), (needle))) \
		fail_msg("'%s' unexpectedly in '%s'", (needle), (hay)); \
} while (0)

/* ---- JSON: a strict recursive-descent syntax check (no python in unit tests) ---- */

struct jp {
	const char *p, *end;
	int depth;
};

static void j_ws(struct jp *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

static bool j_lit(struct jp *j, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(j->end - j->p) < n || memcmp(j->p, lit, n))
		return false;
	j->p += n;
	return true;
}

static bool j_digits(struct jp *j)
{
	const char *s = j->p;

	while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
		j->p++;
	return j->p > s;
}

static bool j_number(struct jp *j)
{
	if (j->p < j->end && *j->p == '-')
		j->p++;
	if (j->p < j->end && *j->p == '0')
		j->p++;
	else if (!j_digits(j))
		return false;
	if (j->p < j->end && *j->p == '.') {
		j->p++;
		if (!j_digits(j))
			return false;
	}
	if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
		j->p++;
		if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
			j->p++;
		if (!j_digits(j))
			return false;
	}
	return true;
}

static bool j_string(struct jp *j)
{
	if (j->p >= j->end || *j->p != '"')
		return false;
	for (j->p++; j->p < j->end; j->p++) {
		unsigned char c = (unsigned char)*j->p;

		if (c == '"') {
			j->p++;
			return true;
		}
		if (c < 0x20)
			return false;
		if (c != '\\')
			continue;
		if (++j->p >= j->end)
			return false;
		if (*j->p == 'u') {
			for (int k = 0; k < 4; k++)
				if (++j->p >= j->end || !strchr("0123456789abcdefABCDEF", *j->p))
					return false;
		} else if (!strchr("\"\\/bfnrt", *j->p)) {
			return false;
		}
	}
	return false;
}

static bool j_value(struct jp *j);

static bool j_container(struct jp *j, char open, char close, bool object)
{
	if (j->p >= j->end || *j->p != open || ++j->depth > 64)
		return false;
	j->p++;
	j_ws(j);
	if (j->p < j->end && *j->p == close) {
		j->p++;
		j->depth--;
		return true;
	}
	for (;;) {
		j_ws(j);
		if (object) {
			if (!j_string(j))
				return false;
			j_ws(j);
			if (j->p >= j->end || *j->p++ != ':')
				return false;
		}
		if (!j_value(j))
			return false;
		j_ws(j);
		if (j->p >= j->end)
			return false;
		if (*j->p == ',') {
			j->p++;
			continue;
		}
		if (*j->p++ != close)
			return false;
		j->depth--;
		return true;
	}
}

static bool j_value(struct jp *j)
{
	j_ws(j);
	if (j->p >= j->end)
		return false;
	switch (*j->p) {
	case '{': return j_container(j, '{', '}', true);
	case '[': return j_container(j, '[', ']', false);
	case '"': return j_string(j);
	case 't': return j_lit(j, "true");
	case 'f': return j_lit(j, "false");
	case 'n': return j_lit(j, "null");
	default: return j_number(j);
	}
}

/* The whole text is one JSON value; on failure, where it broke. */
static void assert_json(const char *buf, size_t len)
{
	struct jp j = { buf, buf + len, 0 };
	bool ok = j_value(&j);

	j_ws(&j);
	if (!ok || j.p != j.end)
		fail_msg("invalid JSON at byte %td: '%.40s'", j.p - buf, j.p);
}

/* Render the report as doctor --json and as text; check the JSON's syntax and outline. */
static void check_renderers(const struct golden *g)
{
	struct np_doctor_view v = {
		.a = &g->a, .r = &g->rep, .funnel = &g->fn, .root = g->after, .live = false,
		.exit_code = g->exit_code,
	};
	struct np_render_opts ro = { .color = false, .verbose = 1 };
	char *buf = NULL, needle[128];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	np_render_doctor_json(f, &v);
	assert_int_equal(fclose(f), 0);
	assert_non_null(buf);
	assert_true(len > 0 && buf[0] == '{');
	assert_json(buf, len);
	assert_contains(buf, "\"schema\": \"" NP_JSON_SCHEMA "\"");
	snprintf(needle, sizeof(needle), "\"exit_code\": %d", g->exit_code);
	assert_contains(buf, needle);
	snprintf(needle, sizeof(needle), "\"status\": \"%s\"",
		 np_severity_name(np_report_worst(&g->rep)));
	assert_contains(buf, needle);
	for (size_t i = 0; i < g->rep.n; i++) {
		snprintf(needle, sizeof(needle), "\"id\": \"%s\"", g->rep.f[i].check->id);
		assert_contains(buf, needle);
	}
	free(buf);

	buf = NULL;
	len = 0;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	np_render_doctor_text(f, &v, &ro);
	assert_int_equal(fclose(f), 0);
	assert_non_null(buf);
	assert_true(len > 0);
	free(buf);
}

/* ---- x710-server: generated, 16 CPUs, i40e at 10G, 4 queues pinned to CPUs 0-3 ---- */

static void test_x710_server(void **state)
{
	struct golden *g = golden_run(state, "x710-server", "eth0");
	const struct np_snapshot *s = &g->cur;
	const struct np_finding *f;
	const struct np_funnel_row *row;
	const struct np_evidence *e;

	compare_expected(g, "x710-server");
	assert_near(g->a.dt, 10.0);
	assert_string_equal(s->host.kernel, "5.15.0-91-generic");
	assert_int_equal(s->host.ncpu_online, 16);
	assert_string_equal(s->dev.driver, "i40e");
	assert_string_equal(s->dev.bus_id, "0000:3b:00.0");
	/* 15-column softnet_stat (6.4+ layout): CPU ids from column 13. */
	assert_int_equal(s->softnet.ncols, 15);
	assert_true(s->softnet.cpu_from_column);
	assert_int_equal(s->softnet.n, 16);

	/* PCIe: link attributes and the config space's PCI Express capability (at 0xa0, behind
	 * PM, MSI and MSI-X): MPS 256 of 512, MRRS 512. 256 is not the 128 pcie.mps is about. */
	assert_true(np_src_ok(s, NP_SRC_PCIE_LINK));
	assert_true(np_src_ok(s, NP_SRC_PCIE_CONFIG));
	assert_int_equal(s->pcie.cur_speed, 8000);
	assert_int_equal(s->pcie.cur_width, 8);
	assert_int_equal(s->pcie.mps, 256);
	assert_int_equal(s->pcie.mps_supported, 512);
	assert_int_equal(s->pcie.mrrs, 512);
	assert_int_equal(result(g, "pcie.mps")->state, NP_CHECK_PASSED);
	assert_int_equal(result(g, "pcie.link-degraded")->state, NP_CHECK_PASSED);

	/* Backlog drops: 3,000/s on each of CPUs 0-3, nowhere else. */
	f = finding(g, "softnet.backlog-drops");
	assert_int_equal(f->severity, NP_SEV_CRITICAL);
	assert_contains(f->summary, "12,000 packets/s");
	assert_contains(f->summary, "CPU 0: 3,000/s");
	assert_contains(f->summary, "CPU 1: 3,000/s");
	assert_contains(f->summary, "CPU 2: 3,000/s");
	assert_contains(f->summary, "CPU 3: 3,000/s");
	assert_lacks(f->summary, "CPU 4");
	assert_contains(f->summary, "netdev_max_backlog=1000");
	e = need_ev(f, "dropped");
	assert_true(e->sampled);
	assert_near(e->rate, 12000);
	assert_near(e->delta, 120000);
	assert_near(need_ev(f, "cpu0.dropped")->rate, 3000);
	assert_null(evidence(f, "cpu4.dropped"));

	/* The four queue IRQs (not the misc vector 99) sit on the four dropping CPUs. */
	f = finding(g, "irq.affinity");
	assert_int_equal(f->severity, NP_SEV_CRITICAL);
	assert_string_equal(need_ev(f, "irq_cpu_list")->text, "0-3");
	assert_near(need_ev(f, "queue_irqs")->value, 4);
	assert_near(need_ev(f, "softnet_drops_on_irq_cpus")->value, 12000);
	/* Each queue IRQ already owns its CPU: echo lines would change nothing. The fix is more
	 * queues or RPS to the other CPUs. */
	for (unsigned irq = 99; irq <= 103; irq++) {
		char needle[64];

		snprintf(needle, sizeof(needle), "/proc/irq/%u/", irq);
		assert_lacks(f->remedy, needle);
	}
	assert_contains(f->detail, "pinning will not help");
	assert_contains(f->remedy, "rps_cpus");
	assert_contains(f->remedy, "ethtool -L eth0 combined 8");
	assert_int_equal(irq_line(s, 99)->role, NP_IRQ_OTHER);
	assert_int_equal(irq_line(s, 100)->role, NP_IRQ_TXRX);

	/* NIC ring overflow: 9,000 missed/s of 1.65 Mpps. */
	f = finding(g, "nic.missed");
	assert_int_equal(f->severity, NP_SEV_CRITICAL);
	assert_near(need_ev(f, "rx_missed_errors")->rate, 9000);

	/* ~294 packets per NET_RX run against a budget of 300: the packet budget binds; both
	 * sysctls were read (no "_assumed" keys). */
	f = finding(g, "softnet.time-squeeze");
	assert_int_equal(f->severity, NP_SEV_WARNING);
	assert_contains(f->summary, "packet budget");
	assert_near(need_ev(f, "netdev_budget_usecs")->value, 2000);
	assert_null(evidence(f, "netdev_budget_usecs_assumed"));
	assert_near(need_ev(f, "time_squeeze")->rate, 1600);

	/* The funnel: per second over the 10 s between the captures. */
	row = funnel_row(g, NP_STAGE_SOFTNET);
	assert_true(row->drop.sampled);
	assert_near(row->drop.rate, 12000);
	assert_near(row->in.rate, 4 * 400000 + 12 * 100);
	row = funnel_row(g, NP_STAGE_NIC);
	assert_near(row->drop.rate, 9000);
	assert_near(row->in.rate, 1650000);
	row = funnel_row(g, NP_STAGE_IP);
	assert_near(row->in.rate, 1600000);
	assert_near(row->drop.rate, 0);
	/* No conntrack in this tree: no ingress drop counters, both checks skipped. */
	assert_false(funnel_row(g, NP_STAGE_INGRESS)->drop.present);
	assert_int_equal(result(g, "ingress.conntrack-full")->state, NP_CHECK_SKIPPED);

	assert_int_equal(g->exit_code, NP_EXIT_CRITICAL);
	check_findings_complete(g);
	check_renderers(g);
}

/* ---- vm-virtio: a real capture of a 2-CPU VM's virtio_net eth0, idle ---- */

static void test_vm_virtio(void **state)
{
	struct golden *g = golden_run(state, "vm-virtio", "eth0");
	const struct np_snapshot *s = &g->cur;
	size_t rx = 0, tx = 0;

	compare_expected(g, "vm-virtio");
	assert_true(g->a.dt > 1 && g->a.dt < 60);
	/* The device is a virtio bus device; its PCI function is the parent directory. */
	assert_true(s->dev.has_device);
	assert_string_equal(s->dev.driver, "virtio_net");
	assert_string_equal(s->dev.bus_id, "0000:00:03.0");
	assert_int_equal(s->dev.n_rxq, 1);
	/* virtio reports speed -1 (unknown): not a fake number, no bandwidth. */
	assert_false(np_has(s->dev.speed_mbps));
	assert_true(isnan(g->a.bw_bps));

	/* Emulated PCI: no link attributes, no PCI Express capability; checks skip, never
	 * guess. */
	assert_int_equal(s->src[NP_SRC_PCIE_LINK].status, NP_SRC_ABSENT);
	assert_false(np_src_ok(s, NP_SRC_PCIE_CONFIG));
	assert_false(np_has(s->pcie.mps));
	assert_int_equal(result(g, "pcie.link-degraded")->state, NP_CHECK_SKIPPED);
	assert_int_equal(result(g, "pcie.mps")->state, NP_CHECK_SKIPPED);
	assert_int_equal(result(g, "socket.tcp-rmem-bdp")->state, NP_CHECK_SKIPPED);

	/* IRQs from msi_irqs, classified by their virtio names. */
	assert_int_equal(s->irqs.n, 3);
	for (size_t i = 0; i < s->irqs.n; i++) {
		rx += s->irqs.lines[i].role == NP_IRQ_RX;
		tx += s->irqs.lines[i].role == NP_IRQ_TX;
	}
	assert_int_equal(rx, 1);
	assert_int_equal(tx, 1);
	assert_true(np_src_ok(s, NP_SRC_IRQ_AFFINITY));

	/* A current kernel: CPU ids from softnet_stat itself. */
	assert_int_equal(s->softnet.n, 2);
	assert_true(s->softnet.cpu_from_column);
	assert_int_equal(s->host.ncpu_online, 2);

	/* Idle and healthy: nothing above info. */
	assert_true(np_report_worst(&g->rep) <= NP_SEV_INFO);
	assert_int_equal(g->exit_code, NP_EXIT_OK);
	assert_true(funnel_row(g, NP_STAGE_SOFTNET)->drop.sampled);
	check_findings_complete(g);
	check_renderers(g);
}

/* ---- old-kernel-5.4: generated, 8 CPUs with CPU 3 offline, 11-column softnet, igb ---- */

static void test_old_kernel(void **state)
{
	static const int cpus[] = { 0, 1, 2, 4, 5, 6, 7 };
	struct golden *g = golden_run(state, "old-kernel-5.4", "eth0");
	const struct np_snapshot *s = &g->cur;
	const struct np_sysctl *sc;
	const struct np_finding *f;
	size_t queues = 0;

	compare_expected(g, "old-kernel-5.4");
	assert_near(g->a.dt, 10.0);
	assert_string_equal(s->host.kernel, "5.4.0-150-generic");
	assert_int_equal(s->host.ncpu_online, 7);
	assert_false(np_cpuset_has(&s->host.online, 3));

	/* 11 columns, no CPU column: row i is the i-th online CPU, so the 4th row is CPU 4. */
	assert_int_equal(s->softnet.ncols, 11);
	assert_false(s->softnet.cpu_from_column);
	assert_int_equal(s->softnet.n, 7);
	for (size_t i = 0; i < 7; i++) {
		assert_int_equal(s->softnet.rows[i].cpu, cpus[i]);
		assert_false(np_has(s->softnet.rows[i].backlog_len));
		assert_int_equal(s->softnet.rows[i].dropped > 0, cpus[i] == 4);
	}
	f = finding(g, "softnet.backlog-drops");
	assert_int_equal(f->severity, NP_SEV_CRITICAL);
	assert_contains(f->summary, "CPU 4: 2,500/s");
	assert_lacks(f->summary, "CPU 3");
	assert_near(need_ev(f, "cpu4.dropped")->rate, 2500);
	assert_null(evidence(f, "cpu3.dropped"));
	assert_contains(f->detail, "1 of 7 CPUs");

	/* /proc/interrupts lists online CPUs only: columns map to CPUs 0,1,2,4,5,6,7. Affinity
	 * comes from smp_affinity_list alone: this tree has no effective_affinity_list. */
	assert_int_equal(s->irqs.ncols, 7);
	for (size_t c = 0; c < 7; c++)
		assert_int_equal(s->irqs.col_cpu[c], cpus[c]);
	for (size_t i = 0; i < s->irqs.n; i++) {
		const struct np_irq_line *l = &s->irqs.lines[i];

		if (l->role != NP_IRQ_TXRX)
			continue;
		queues++;
		assert_true(l->has_affinity);
		assert_false(l->has_effective);
		assert_int_equal(np_cpuset_count(&l->affinity), 1);
	}
	assert_int_equal(queues, 4);
	assert_int_equal(result(g, "irq.affinity")->state, NP_CHECK_PASSED);

	/* No netdev_budget_usecs on this kernel: the squeeze check assumes the default and says
	 * so in the evidence key. */
	sc = np_sysctl_find(s, "net.core.netdev_budget_usecs");
	assert_non_null(sc);
	assert_int_equal(sc->err, ENOENT);
	f = finding(g, "softnet.time-squeeze");
	assert_near(need_ev(f, "netdev_budget_usecs_assumed")->value, 2000);
	assert_null(evidence(f, "netdev_budget_usecs"));
	assert_near(need_ev(f, "netdev_budget")->value, 300);
	assert_contains(f->summary, "CPU 4: 200/s");

	/* tcp_mem typed in bytes: 16777216 pages = 64 GiB on a 16 GiB host. */
	f = finding(g, "socket.tcp-mem");
	assert_int_equal(f->severity, NP_SEV_WARNING);
	assert_contains(f->summary, "bytes");
	assert_contains(f->summary, "64 GiB");

	/* Conntrack 65000 of 65536 with drops during the sample; "entries" is the global
	 * count repeated on each of the 8 possible CPUs' rows, not summed. */
	assert_int_equal(np_counters_get(&s->conntrack, "entries"), 65000);
	f = finding(g, "ingress.conntrack-full");
	assert_int_equal(f->severity, NP_SEV_CRITICAL);
	assert_near(need_ev(f, "nf_conntrack_count")->value, 65000);
	assert_near(need_ev(f, "nf_conntrack_max")->value, 65536);
	assert_near(need_ev(f, "drop")->rate, 40);
	assert_contains(f->summary, "65000 of 65536");
	/* The funnel counts at least the 40 dropped packets/s (it also adds early_drop, which
	 * evicts entries rather than dropping packets: not asserted here). */
	assert_true(funnel_row(g, NP_STAGE_INGRESS)->drop.sampled);
	assert_true(funnel_row(g, NP_STAGE_INGRESS)->drop.rate >= 40 - 1e-9);

	/* Statistics files this kernel/driver lacks stay "not reported", not 0. */
	assert_false(np_has(s->dev.stats.rx_nohandler));
	assert_false(np_has(s->dev.stats.rx_otherhost_dropped));
	assert_true(np_has(s->dev.stats.rx_dropped));
	assert_int_equal(s->dev.speed_mbps, 1000);
	assert_string_equal(s->dev.driver, "igb");

	/* An unprivileged capture: 64 bytes of config space. The old "5 GT/s" speed format. */
	assert_int_equal(s->src[NP_SRC_PCIE_CONFIG].status, NP_SRC_DENIED);
	assert_int_equal(result(g, "pcie.mps")->state, NP_CHECK_SKIPPED);
	assert_contains(result(g, "pcie.mps")->skip_reason, "needs root");
	assert_int_equal(s->pcie.cur_speed, 5000);
	assert_int_equal(s->pcie.max_speed, 5000);

	assert_int_equal(g->exit_code, NP_EXIT_CRITICAL);
	check_findings_complete(g);
	check_renderers(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_x710_server, golden_teardown),
		cmocka_unit_test_teardown(test_vm_virtio, golden_teardown),
		cmocka_unit_test_teardown(test_old_kernel, golden_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
