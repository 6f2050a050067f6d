// SPDX-License-Identifier: GPL-2.0-only
/* Sysctl lookups by id: the row at its id in a table added in the registry's order, the first
 * matching entry (as a scan finds it) in any other table. */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "snapshot.h"

static struct np_snapshot *snap(void)
{
	struct np_snapshot *s = malloc(sizeof(*s));

	assert_non_null(s);
	np_snapshot_init(s);
	return s;
}

static void done(struct np_snapshot *s)
{
	np_snapshot_free(s);
	free(s);
}

/* Each entry's first value says which add made it. */
static void add(struct np_sysctls *t, const char *key, int64_t tag)
{
	struct np_sysctl *e = np_sysctl_add(t, key);

	assert_non_null(e);
	e->nvals = 1;
	e->v[0] = tag;
}

/* The collector's shape: every row in order, then more keys; each id finds its own row. */
static void test_registry_order(void **state)
{
	struct np_snapshot *s = snap();
	struct np_sysctls *t = &s->hs->sysctl;

	(void)state;
	for (int i = 0; i < NP_SYSCTL__COUNT; i++)
		add(t, np_sysctl_def((enum np_sysctl_id)i)->key, i);
	add(t, np_sysctl_def(0)->key, -1);	/* a repeat after the rows is never the answer */
	assert_int_equal(t->in_order, NP_SYSCTL__COUNT);
	for (int i = 0; i < NP_SYSCTL__COUNT; i++) {
		const struct np_sysctl *e = np_sysctl_find(s, (enum np_sysctl_id)i);

		assert_ptr_equal(e, &t->e[i]);
		assert_int_equal(np_sysctl_int(s, (enum np_sysctl_id)i, 0, NULL), i);
	}
	assert_null(np_sysctl_find(s, NP_SYSCTL__COUNT));
	done(s);
}

/* Reversed, with a repeat and a gap: answers are a scan's (the first entry of the key). */
static void test_other_orders(void **state)
{
	struct np_snapshot *s = snap();
	struct np_sysctls *t = &s->hs->sysctl;
	const enum np_sysctl_id last = NP_SYSCTL__COUNT - 1;

	(void)state;
	for (int i = NP_SYSCTL__COUNT - 1; i >= 1; i--)
		add(t, np_sysctl_def((enum np_sysctl_id)i)->key, 100 + i);
	add(t, np_sysctl_def(last)->key, -1);
	assert_int_equal(t->in_order, 0);
	assert_null(np_sysctl_find(s, 0));	/* the gap */
	for (int i = 1; i < NP_SYSCTL__COUNT; i++)
		assert_int_equal(np_sysctl_int(s, (enum np_sysctl_id)i, 0, NULL), 100 + i);
	done(s);

	/* Row 0 twice at the start: the prefix stops at the repeat, row 1 is found by its key. */
	s = snap();
	t = &s->hs->sysctl;
	add(t, np_sysctl_def(0)->key, 7);
	add(t, np_sysctl_def(0)->key, 8);
	add(t, np_sysctl_def(1)->key, 9);
	assert_int_equal(t->in_order, 1);
	assert_int_equal(np_sysctl_int(s, 0, 0, NULL), 7);
	assert_int_equal(np_sysctl_int(s, 1, 0, NULL), 9);
	done(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry_order),
		cmocka_unit_test(test_other_orders),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
