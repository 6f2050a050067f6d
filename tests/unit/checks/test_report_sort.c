// SPDX-License-Identifier: GPL-2.0-only
/*
 * np_report_sort (src/checks/finding.c) sorts pointers and moves only the records out of
 * place: it must leave exactly what qsort with np_finding_cmp leaves, equal findings in their
 * emitted order, for reports already in order, reversed, shuffled, small (pointers on the
 * stack) and large (allocated), and with ranks that do not compare (NaN).
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

static struct np_check checks[6] = {
	{ .id = "nic.b", .stage = NP_STAGE_NIC },
	{ .id = "nic.a", .stage = NP_STAGE_NIC },
	{ .id = "link.x", .stage = NP_STAGE_LINK },
	{ .id = "socket.y", .stage = NP_STAGE_SOCKET },
	{ .id = "irq.z", .stage = NP_STAGE_IRQ },
	{ .id = "nic.b", .stage = NP_STAGE_NIC },	/* another check with the same id */
};

static unsigned rnd_state = 12345;

static unsigned rnd(void)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return (rnd_state >> 16) & 0x7fff;
}

static char longdetail[NP_DETAIL_SIZE];

/* A report of n findings with few distinct keys (many ties); each summary names its slot. The
 * texts and evidence are copied into the report's store (np_report_add). */
static void fill(struct np_report *r, size_t n, bool nan)
{
	memset(r, 0, sizeof(*r));
	memset(longdetail, 'd', sizeof(longdetail) - 1);
	for (size_t i = 0; i < n; i++) {
		struct np_finding f = { 0 };
		struct np_evidence ev[NP_MAX_EVIDENCE];
		char sum[64], rem[64], keys[NP_MAX_EVIDENCE][48];

		f.check = &checks[rnd() % 6];
		f.severity = (enum np_severity)(rnd() % 4);
		f.rank = (double)(rnd() % 3);
		if (nan && rnd() % 4 == 0)
			f.rank = NAN;
		snprintf(f.dev, sizeof(f.dev), "eth%zu", i % 3);
		snprintf(sum, sizeof(sum), "emitted %zu", i);
		f.summary = sum;
		f.detail = i % 3 == 0 ? "" : i % 3 == 1 ? "dddddddddd" : longdetail;
		snprintf(rem, sizeof(rem), "fix %zu\nand then %zu", i, i * 7);
		f.remedy = rem;
		f.nev = i % (NP_MAX_EVIDENCE + 1);
		f.ev = ev;
		for (size_t e = 0; e < f.nev; e++) {
			memset(&ev[e], 0, sizeof(ev[e]));
			snprintf(keys[e], sizeof(keys[e]), "k%zu.%zu", i, e);
			ev[e].key = keys[e];
			ev[e].unit = "";
			ev[e].text = e % 2 ? "some text" : "";
			ev[e].value = (double)(i * 100 + e);
		}
		assert_int_equal(np_report_add(r, &f), 0);
	}
}

/* The same finding as far as anything reads it: head, texts, evidence in use. */
static void assert_same(const struct np_finding *a, const struct np_finding *b)
{
	assert_ptr_equal(a->check, b->check);
	assert_string_equal(a->dev, b->dev);
	assert_int_equal(a->severity, b->severity);
	assert_memory_equal(&a->rank, &b->rank, sizeof(a->rank));
	assert_string_equal(a->summary, b->summary);
	assert_string_equal(a->detail, b->detail);
	assert_string_equal(a->remedy, b->remedy);
	assert_int_equal(a->nev, b->nev);
	for (size_t e = 0; e < a->nev; e++) {
		assert_string_equal(a->ev[e].key, b->ev[e].key);
		assert_string_equal(a->ev[e].text, b->ev[e].text);
		assert_true(a->ev[e].value == b->ev[e].value);
	}
}

static void same_as_qsort(size_t n, bool nan, int order)
{
	struct np_report a, b;

	fill(&a, n, nan);
	if (order > 0 && n)	/* qsort, like memcpy, takes no NULL array */
		qsort(a.f, n, sizeof(*a.f), np_finding_cmp);
	else if (order < 0)
		for (size_t i = 0; i < n / 2; i++) {
			struct np_finding t = a.f[i];

			a.f[i] = a.f[n - 1 - i];
			a.f[n - 1 - i] = t;
		}
	b = a;	/* records copied by value: the texts are a's */
	b.f = malloc((n ? n : 1) * sizeof(*b.f));
	assert_non_null(b.f);
	if (n)	/* a.f is NULL for no findings: memcpy's source must not be */
		memcpy(b.f, a.f, n * sizeof(*a.f));
	np_report_sort(&a);
	qsort(b.f, n, sizeof(*b.f), np_finding_cmp);
	for (size_t i = 0; i < n; i++)
		assert_same(&a.f[i], &b.f[i]);
	np_report_free(&a);
	free(b.f);
}

static void test_matches_qsort(void **state)
{
	(void)state;
	for (size_t n = 0; n <= 80; n++)
		for (int order = -1; order <= 1; order++)
			same_as_qsort(n, false, order);
}

/* Ties keep the emitted order: two equal findings never swap. */
static void test_stable(void **state)
{
	struct np_report r;

	(void)state;
	fill(&r, 40, false);
	for (size_t i = 0; i < r.n; i++) {
		r.f[i].check = &checks[i % 2 ? 0 : 2];
		r.f[i].severity = NP_SEV_WARNING;
		r.f[i].rank = 1;
	}
	np_report_sort(&r);
	for (size_t i = 0; i < 20; i++) {
		char want[32];

		snprintf(want, sizeof(want), "emitted %zu", 2 * i);
		assert_string_equal(r.f[i].summary, want);	/* link first, in emitted order */
		snprintf(want, sizeof(want), "emitted %zu", 2 * i + 1);
		assert_string_equal(r.f[20 + i].summary, want);
	}
	np_report_free(&r);
}

#ifdef __GLIBC__
/* glibc's qsort is a merge sort here: the same comparisons, so the same result even when NaN
 * ranks make the order inconsistent. */
static void test_nan_ranks_as_glibc(void **state)
{
	(void)state;
	for (size_t n = 2; n <= 70; n++)
		same_as_qsort(n, true, 0);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matches_qsort),
		cmocka_unit_test(test_stable),
#ifdef __GLIBC__
		cmocka_unit_test(test_nan_ranks_as_glibc),
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
