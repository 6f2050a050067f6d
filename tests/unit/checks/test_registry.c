// SPDX-License-Identifier: GPL-2.0-only
/*
 * The check table as a whole (registry.c): every entry complete (id, stage, scope, title, why,
 * fix, run), ids unique and grouped by stage in receive-path order, and each id's stage the one
 * its prefix names, so that `netpath checks` and the report walk the path front to back; and a
 * finding's text joined with its entry's (np_finding_why, np_finding_fix).
 */
#include "check.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

static void test_every_entry_is_whole(void **state)
{
	size_t n;
	const struct np_check *const *t = np_check_table(&n);

	(void)state;
	assert_true(n > 0);
	assert_true(n <= NP_MAX_CHECKS);
	for (size_t i = 0; i < n; i++) {
		const struct np_check *c = t[i];

		assert_non_null(c);
		assert_non_null(c->id);
		/* A forgotten .scope is NP_SCOPE_UNSET and would print as "?". */
		if (c->scope == NP_SCOPE_UNSET)
			fail_msg("%s: no .scope in its table entry", c->id);
		assert_string_not_equal(np_scope_name(c->scope), "?");
		assert_non_null(c->title);
		assert_non_null(c->looks_at);
		assert_non_null(c->why);
		assert_non_null(c->fix);
		assert_non_null(c->run);
		assert_ptr_equal(np_check_find(c->id), c);
		assert_int_equal(np_check_index(c), (int)i);
	}
}

static void test_stage_order_and_prefixes(void **state)
{
	size_t n;
	const struct np_check *const *t = np_check_table(&n);

	(void)state;
	for (size_t i = 0; i < n; i++) {
		const char *stage = np_stage_name(t[i]->stage);
		size_t l = strlen(stage);

		if (strncmp(t[i]->id, stage, l) != 0 || t[i]->id[l] != '.')
			fail_msg("%s is in stage %s", t[i]->id, stage);
		if (i > 0)
			assert_true(t[i - 1]->stage <= t[i]->stage);
		for (size_t k = 0; k < i; k++)
			assert_string_not_equal(t[k]->id, t[i]->id);
	}
	assert_null(np_check_find("no.such-check"));
}

/* A finding holds only this machine's facts; the entry's text is joined when printed. */
static void test_finding_joins_entry_text(void **state)
{
	const struct np_check *c = np_check_find("softnet.backlog-drops");
	struct np_finding f;
	char buf[2048], want[2048];

	(void)state;
	assert_non_null(c);
	memset(&f, 0, sizeof(f));
	f.check = c;
	f.summary = f.detail = f.remedy = "";
	assert_string_equal(np_finding_why(&f, buf, sizeof(buf)), c->why);
	assert_ptr_equal(np_finding_fix(&f), c->fix);
	f.detail = "CPU 3 dropped 12 packets.";
	f.remedy = "sysctl -w net.core.netdev_max_backlog=4096";
	snprintf(want, sizeof(want), "CPU 3 dropped 12 packets. %s", c->why);
	assert_string_equal(np_finding_why(&f, buf, sizeof(buf)), want);
	assert_string_equal(np_finding_fix(&f), "sysctl -w net.core.netdev_max_backlog=4096");
	/* Truncated to the caller's buffer, never past it. */
	assert_int_equal(strlen(np_finding_why(&f, buf, 10)), 9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_entry_is_whole),
		cmocka_unit_test(test_stage_order_and_prefixes),
		cmocka_unit_test(test_finding_joins_entry_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
