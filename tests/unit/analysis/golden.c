// SPDX-License-Identifier: GPL-2.0-only
/*
 * The machinery of the golden tests (test_golden.c, test_golden_field.c): the whole analysis of
 * `netpath doctor --root AFTER --before BEFORE` over a tree of tests/fixtures/trees, the
 * comparison with its expected.txt, lookups, and a strict JSON syntax check of the renderers'
 * output. NP_GOLDEN_UPDATE=1 rewrites expected.txt instead of comparing.
 */
#include "golden.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int exit_for(enum np_severity worst)
{
	return worst == NP_SEV_CRITICAL ? NP_EXIT_CRITICAL :
	       worst == NP_SEV_WARNING ? NP_EXIT_WARNING : NP_EXIT_OK;
}

/* The result lands in *state first, so that teardown frees it even when an assertion fails. */
struct golden *golden_run_path(void **state, const char *tree, const char *ifname,
			       double rtt_ms, double bw_bps)
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
	assert_int_equal(np_collect(&bctx, ifname, NULL, &g->prev), 0);
	np_ctx_close(&bctx);
	assert_int_equal(np_collect(&ctx, ifname, NULL, &g->cur), 0);
	np_ctx_close(&ctx);
	/* The captures' instants come from their proc/uptime. */
	assert_true(g->cur.t > g->prev.t);

	/* A captured tree is one instant: doctor sets --interval 0 and takes dt from the pair. */
	g->opt.interval = 0;
	g->opt.rtt_ms = rtt_ms;		/* --rtt, NAN when not given */
	g->opt.bandwidth_bps = bw_bps;	/* --bandwidth */
	g->a.prev = &g->prev;
	g->a.cur = &g->cur;
	g->a.dt = g->cur.t - g->prev.t;
	g->a.opt = &g->opt;
	np_analysis_derive(&g->a);
	assert_int_equal(np_analyze(&g->a, &g->rep, NULL, NULL), 0);
	np_funnel_build(&g->a, &g->fn);
	np_coverage_build(&g->a, &g->rep, &g->cov);
	g->exit_code = np_coverage_unknown(&g->cov) ? 3 : exit_for(np_report_worst(&g->rep));
	return g;
}

struct golden *golden_run_single(void **state, const char *dir, const char *ifname)
{
	struct golden *g = calloc(1, sizeof(*g));
	struct np_ctx ctx;

	assert_non_null(g);
	*state = g;
	if (dir[0] == '/')
		snprintf(g->after, sizeof(g->after), "%s", dir);
	else
		snprintf(g->after, sizeof(g->after), "%s/%s", NP_FIXTURES, dir);
	assert_int_equal(np_ctx_open(&ctx, g->after), 0);
	assert_false(ctx.live);
	np_collect(&ctx, ifname, NULL, &g->cur);
	np_ctx_close(&ctx);
	g->opt.interval = 0;
	g->opt.rtt_ms = NAN;
	g->opt.bandwidth_bps = NAN;
	g->a.cur = &g->cur;
	g->a.opt = &g->opt;
	np_analysis_derive(&g->a);
	assert_int_equal(np_analyze(&g->a, &g->rep, NULL, NULL), 0);
	np_funnel_build(&g->a, &g->fn);
	np_coverage_build(&g->a, &g->rep, &g->cov);
	g->exit_code = np_coverage_unknown(&g->cov) ? 3 : exit_for(np_report_worst(&g->rep));
	return g;
}

int golden_teardown(void **state)
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
void compare_expected(const struct golden *g, const char *tree)
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
void check_findings_complete(const struct golden *g)
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

const struct np_finding *finding(const struct golden *g, const char *id)
{
	for (size_t i = 0; i < g->rep.n; i++)
		if (strcmp(g->rep.f[i].check->id, id) == 0)
			return &g->rep.f[i];
	fail_msg("no finding %s", id);
	return NULL;
}

const struct np_check_result *result(const struct golden *g, const char *id)
{
	for (size_t i = 0; i < g->rep.nres; i++)
		if (strcmp(g->rep.res[i].check->id, id) == 0)
			return &g->rep.res[i];
	fail_msg("no check %s in the table", id);
	return NULL;
}

const struct np_evidence *evidence(const struct np_finding *f, const char *key)
{
	for (size_t i = 0; i < f->nev; i++)
		if (strcmp(f->ev[i].key, key) == 0)
			return &f->ev[i];
	return NULL;
}

const struct np_evidence *need_ev(const struct np_finding *f, const char *key)
{
	const struct np_evidence *e = evidence(f, key);

	if (!e)
		fail_msg("%s: no evidence '%s'", f->check->id, key);
	return e;
}

const struct np_funnel_row *funnel_row(const struct golden *g, enum np_stage st)
{
	for (size_t i = 0; i < g->fn.n; i++)
		if (g->fn.rows[i].stage == st)
			return &g->fn.rows[i];
	fail_msg("no funnel row for stage %s", np_stage_name(st));
	return NULL;
}

const struct np_irq_line *irq_line(const struct np_snapshot *s, unsigned irq)
{
	for (size_t i = 0; i < s->irqs.n; i++)
		if (s->irqs.lines[i].irq == irq)
			return &s->irqs.lines[i];
	fail_msg("IRQ %u not collected", irq);
	return NULL;
}


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
void assert_json(const char *buf, size_t len)
{
	struct jp j = { buf, buf + len, 0 };
	bool ok = j_value(&j);

	j_ws(&j);
	if (!ok || j.p != j.end)
		fail_msg("invalid JSON at byte %td: '%.40s'", j.p - buf, j.p);
}

/* Render the report as doctor --json and as text; check the JSON's syntax and outline. */
void check_renderers(const struct golden *g)
{
	struct np_doctor_view v = {
		.a = &g->a, .r = &g->rep, .funnel = &g->fn, .cov = &g->cov, .root = g->after,
		.live = false, .exit_code = g->exit_code,
	};
	struct np_render_opts ro = { .color = false, .verbose = 1, .width = 80 };
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
	snprintf(needle, sizeof(needle), "\"status\": \"%s\"", g->exit_code == 3 ? "unknown" :
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

struct golden *golden_run(void **state, const char *tree, const char *ifname)
{
	return golden_run_path(state, tree, ifname, NAN, NAN);
}
