// SPDX-License-Identifier: GPL-2.0-only
/*
 * A finding's texts and evidence in its report's store (finding_store.c): each text cut exactly
 * where the fixed buffers it replaced cut it (the same textcut calls on the same sizes, the same
 * cuts counted), evidence keys, units and texts cut at their old sizes, the 16-slot limit, many
 * findings written out of order, merging into another report whose copy outlives the source,
 * and out of memory reported rather than a finding half written.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "check.h"
#include "finding_store.h"
#include "report_merge.h"
#include "textcut.h"

/* malloc failing on demand: the nth call from now (0: never). */
static int fail_in;
void *__real_malloc(size_t n);
void *__wrap_malloc(size_t n)
{
	if (fail_in && --fail_in == 0)
		return NULL;
	return __real_malloc(n);
}

static struct np_check chk = { .id = "nic.test", .stage = NP_STAGE_NIC };

static void report_init(struct np_report *r, struct np_check_result *res)
{
	memset(r, 0, sizeof(*r));
	memset(res, 0, sizeof(*res));
	res->check = &chk;
	r->res = NULL;
	r->cur = res;
	snprintf(r->dev, sizeof(r->dev), "eth0");
}

/* ---- the fixed buffers as np_detail() and np_remedy() wrote them before the store ---- */

static void old_detail(char *buf, size_t size, const char *text)
{
	size_t len = strlen(buf);

	if (len + 2 >= size) {
		np_textcut_lost();
		return;
	}
	if (len) {
		buf[len++] = ' ';
		buf[len] = '\0';
	}
	np_textcut_append(buf, size, "%s", text);
}

static void old_remedy(char *buf, size_t size, const char *text)
{
	size_t len = strlen(buf);

	if (len && len + 1 < size) {
		buf[len++] = '\n';
		buf[len] = '\0';
	}
	np_textcut_append(buf, size, "%s", text);
}

/* Sentences of varied length, some with words longer than a line, one that is empty. */
static const char *sentence(unsigned i)
{
	static char s[400];
	size_t n = (i * 37u) % 190, k = 0;

	if (i % 11 == 5)
		return "";
	while (k < n) {
		size_t w = 1 + (i + k) % (i % 7 == 3 ? 60 : 9);

		for (size_t j = 0; j < w && k < n; j++)
			s[k++] = (char)('a' + (i + j) % 26);
		if (k < n) {
			char sep = (i + k) % 13 ? ' ' : ',';

			s[k++] = sep;
		}
	}
	s[k] = '\0';
	return s;
}

static void test_texts_cut_as_fixed_buffers(void **state)
{
	(void)state;
	for (unsigned seed = 0; seed < 40; seed++) {
		struct np_report r;
		struct np_check_result res;
		char sum[NP_SUMMARY_SIZE] = "", det[NP_DETAIL_SIZE] = "", rem[NP_REMEDY_SIZE] = "";
		char longsum[700];
		unsigned long cuts0, cuts1;
		struct np_finding *f;
		size_t fi;

		report_init(&r, &res);
		/* Another finding first, so that texts are not always the store's last. */
		assert_non_null(np_emit(&r, NP_SEV_INFO, "%s", "first"));
		memset(longsum, 'w', sizeof(longsum) - 1);
		longsum[sizeof(longsum) - 1] = '\0';
		for (size_t i = 5; i < sizeof(longsum) - 1; i += 4 + seed % 9)
			longsum[i] = ' ';
		longsum[seed * 17 % (sizeof(longsum) - 1)] = '\0';
		cuts0 = np_textcut_count();
		np_textcut_append(sum, sizeof(sum), "%s: %u", longsum, seed);
		cuts1 = np_textcut_count();
		f = np_emit(&r, NP_SEV_WARNING, "%s: %u", longsum, seed);
		assert_non_null(f);
		fi = r.n - 1;
		assert_string_equal(f->summary, sum);
		assert_int_equal(np_textcut_count() - cuts1, cuts1 - cuts0);
		for (unsigned i = 0; i < 30; i++) {
			const char *t = sentence(seed * 31 + i);

			f = &r.f[fi];
			cuts0 = np_textcut_count();
			if (i % 2)
				old_detail(det, sizeof(det), t);
			else
				old_remedy(rem, sizeof(rem), t);
			cuts1 = np_textcut_count();
			if (i % 2)
				np_detail(f, "%s", t);
			else
				np_remedy(f, "%s", t);
			assert_int_equal(np_textcut_count() - cuts1, cuts1 - cuts0);
			assert_string_equal(f->detail, det);
			assert_string_equal(f->remedy, rem);
			if (i % 5 == 4)	/* something else stored between two lines */
				np_ev_value(&r.f[0], "other", "x", i);
			if (i % 7 == 6)
				assert_non_null(np_emit(&r, NP_SEV_OK, "%s", "between"));
		}
		assert_true(strlen(r.f[fi].detail) < NP_DETAIL_SIZE);
		assert_true(strlen(r.f[fi].remedy) < NP_REMEDY_SIZE);
		assert_false(np_store_failed(r.store));
		np_report_free(&r);
	}
}

/* np_summary_append: snprintf into what is left of the old 320 bytes, cut anywhere. */
static void test_summary_append_as_snprintf(void **state)
{
	(void)state;
	for (size_t base = 0; base < NP_SUMMARY_SIZE + 20; base += 13) {
		struct np_report r;
		struct np_check_result res;
		char want[NP_SUMMARY_SIZE], text[NP_SUMMARY_SIZE + 40];
		struct np_finding *f;
		size_t len;

		report_init(&r, &res);
		memset(text, 'x', base);
		text[base] = '\0';
		want[0] = '\0';
		np_textcut_append(want, sizeof(want), "%s", text);
		len = strlen(want);
		if (len + 1 < sizeof(want))
			snprintf(want + len, sizeof(want) - len, " (%.2f%% of received packets)", 12.5);
		f = np_emit(&r, NP_SEV_INFO, "%s", text);
		assert_non_null(f);
		np_ev_value(f, "between", "", 1);
		np_summary_append(f, " (%.2f%% of received packets)", 12.5);
		assert_string_equal(f->summary, want);
		np_report_free(&r);
	}
}

static void test_evidence_limits(void **state)
{
	struct np_report r;
	struct np_check_result res;
	struct np_finding *f;
	char key[100], unit[100], text[300], want[NP_EV_TEXT_SIZE] = "";

	(void)state;
	report_init(&r, &res);
	memset(key, 'k', sizeof(key) - 1);
	key[sizeof(key) - 1] = '\0';
	memset(unit, 'u', sizeof(unit) - 1);
	unit[sizeof(unit) - 1] = '\0';
	for (size_t i = 0; i + 1 < sizeof(text); i++)
		text[i] = i % 6 == 5 ? ' ' : 't';
	text[sizeof(text) - 1] = '\0';
	np_textcut_append(want, sizeof(want), "%s", text);
	f = np_emit(&r, NP_SEV_INFO, "e");
	assert_non_null(f);
	for (int i = 0; i < NP_MAX_EVIDENCE + 3; i++) {
		struct np_counter_view v = { .present = true, .total = (uint64_t)i, .delta = 2,
					     .rate = 0.5, .sampled = true };

		if (i % 3 == 0)
			np_ev_value(f, key, unit, i);
		else if (i % 3 == 1)
			np_ev_text(f, key, "%s", text);
		else
			np_ev_counter(f, key, NULL, &v);
		if (i % 4 == 0 && i < NP_MAX_EVIDENCE)	/* past 16 it marks the 16th, as ever */
			np_ev_verbose(f);
		np_detail(f, "d%d", i);	/* a text stored between two evidence */
	}
	assert_int_equal(f->nev, NP_MAX_EVIDENCE);
	for (int i = 0; i < NP_MAX_EVIDENCE; i++) {
		const struct np_evidence *e = &f->ev[i];

		assert_int_equal(strlen(e->key), NP_EV_KEY_SIZE - 1);
		assert_int_equal(e->verbose, i % 4 == 0);
		if (i % 3 == 0) {
			assert_int_equal(e->kind, NP_EV_VALUE);
			assert_int_equal(strlen(e->unit), NP_EV_UNIT_SIZE - 1);
			assert_true(e->value == i);
			assert_string_equal(e->text, "");
		} else if (i % 3 == 1) {
			assert_int_equal(e->kind, NP_EV_TEXT);
			assert_string_equal(e->text, want);
			assert_string_equal(e->unit, "");
		} else {
			assert_int_equal(e->kind, NP_EV_COUNTER);
			assert_string_equal(e->unit, "");
			assert_true(e->value == i && e->delta == 2 && e->rate == 0.5 && e->sampled);
		}
	}
	np_report_free(&r);
}

/* Many findings, written in turns (as no check does, but nothing forbids): the store grows
 * chunk after chunk and every finding reads back what was written to it. */
static void check_many(const struct np_report *r, size_t n)
{
	assert_int_equal(r->n, n);
	for (size_t i = 0; i < n; i++) {
		const struct np_finding *f = &r->f[i];
		char want[64];

		snprintf(want, sizeof(want), "finding %zu", i);
		assert_string_equal(f->summary, want);
		snprintf(want, sizeof(want), "line a%zu\nline b%zu", i, i);
		assert_string_equal(f->remedy, want);
		snprintf(want, sizeof(want), "why %zu", i);
		assert_string_equal(f->detail, want);
		assert_int_equal(f->nev, i % (NP_MAX_EVIDENCE + 1));
		for (size_t e = 0; e < f->nev; e++) {
			snprintf(want, sizeof(want), "k%zu.%zu", i, e);
			assert_string_equal(f->ev[e].key, want);
			assert_true(f->ev[e].value == (double)(i * 1000 + e));
		}
	}
}

static void fill_many(struct np_report *r, struct np_check_result *res, size_t n)
{
	report_init(r, res);
	for (size_t i = 0; i < n; i++) {
		assert_non_null(np_emit(r, NP_SEV_WARNING, "finding %zu", i));
		np_remedy(&r->f[i], "line a%zu", i);
	}
	for (size_t round = 0; round < NP_MAX_EVIDENCE; round++)
		for (size_t i = 0; i < n; i++)
			if (round < i % (NP_MAX_EVIDENCE + 1)) {
				char key[32];

				snprintf(key, sizeof(key), "k%zu.%zu", i, round);
				np_ev_value(&r->f[i], key, "u", (double)(i * 1000 + round));
			}
	for (size_t i = 0; i < n; i++) {
		np_detail(&r->f[i], "why %zu", i);
		np_remedy(&r->f[i], "line b%zu", i);
	}
	assert_false(np_store_failed(r->store));
}

static void test_many_findings(void **state)
{
	struct np_report r;
	struct np_check_result res;

	(void)state;
	fill_many(&r, &res, 700);
	check_many(&r, 700);
	np_report_sort(&r);	/* all equal: the order stays */
	check_many(&r, 700);
	np_report_free(&r);
}

/* Merged findings are copies in the destination's store: the source freed, they read the same,
 * and the destination sorts them among its own. */
static void test_merge_copies(void **state)
{
	struct np_report a, b;
	struct np_check_result ra, rb;
	static struct np_check link = { .id = "link.first", .stage = NP_STAGE_LINK };

	(void)state;
	fill_many(&a, &ra, 40);
	fill_many(&b, &rb, 50);
	for (size_t i = 0; i < b.n; i++)
		if (i % 2)
			b.f[i].check = &link;
	assert_int_equal(np_report_merge(&a, &b), 0);
	np_report_free(&b);
	assert_int_equal(a.n, 90);
	for (size_t i = 0; i < 25; i++) {
		char want[32];

		assert_ptr_equal(a.f[i].check, &link);	/* link first, in emitted order */
		snprintf(want, sizeof(want), "finding %zu", 2 * i + 1);
		assert_string_equal(a.f[i].summary, want);
		assert_ptr_equal(a.f[i].store, a.store);
	}
	for (size_t i = 25; i < 90; i++)
		assert_ptr_equal(a.f[i].check, &chk);
	/* The copies grow in their own store like any finding. */
	np_remedy(&a.f[0], "one more");
	assert_non_null(strstr(a.f[0].remedy, "\none more"));
	np_report_free(&a);
}

/* Out of memory: no finding half written without the report knowing. */
static void test_out_of_memory(void **state)
{
	struct np_report r;
	struct np_check_result res;
	struct np_finding *f;
	char big[NP_REMEDY_SIZE];

	(void)state;
	report_init(&r, &res);
	fail_in = 1;	/* the store itself */
	assert_null(np_emit(&r, NP_SEV_INFO, "lost"));
	assert_true(r.oom);
	assert_int_equal(r.n, 0);
	fail_in = 0;
	np_report_free(&r);

	report_init(&r, &res);
	f = np_emit(&r, NP_SEV_INFO, "kept");
	assert_non_null(f);
	memset(big, 'r', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	/* Fill the first chunk, then fail the next one. */
	for (int i = 0; i < 3 && !np_store_failed(r.store); i++)
		np_remedy(f, "%.300s", big);
	fail_in = 1;
	for (int i = 0; i < 40 && !np_store_failed(r.store); i++)
		np_ev_text(f, "k", "%.150s", big);
	fail_in = 0;
	assert_true(np_store_failed(r.store));
	assert_true(f->nev <= NP_MAX_EVIDENCE);
	/* A copy that cannot be made leaves the destination as it was. */
	{
		struct np_report d;
		struct np_check_result rd;

		report_init(&d, &rd);
		assert_non_null(np_emit(&d, NP_SEV_INFO, "own"));
		fail_in = 1;
		for (int i = 0; i < 20 && np_report_add(&d, f) == 0; i++)
			fail_in = 1 + (i > 2);
		fail_in = 0;
		assert_false(np_store_failed(d.store));
		for (size_t i = 1; i < d.n; i++)
			assert_string_equal(d.f[i].summary, "kept");
		np_report_free(&d);
	}
	np_report_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_texts_cut_as_fixed_buffers),
		cmocka_unit_test(test_summary_append_as_snprintf),
		cmocka_unit_test(test_evidence_limits),
		cmocka_unit_test(test_many_findings),
		cmocka_unit_test(test_merge_copies),
		cmocka_unit_test(test_out_of_memory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
