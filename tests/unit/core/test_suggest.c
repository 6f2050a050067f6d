// SPDX-License-Identifier: GPL-2.0-only
/* "Did you mean": the edit distance and which candidate is suggested, or none; over the check
 * table as --check, --skip, --threshold and explain ask it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "selection.h"
#include "suggest.h"

static void distance(void **state)
{
	char longer[NP_SUGGEST_MAX + 2];

	(void)state;
	assert_int_equal(np_edit_distance("", ""), 0);
	assert_int_equal(np_edit_distance("doctor", "doctor"), 0);
	assert_int_equal(np_edit_distance("docter", "doctor"), 1);	/* substitution */
	assert_int_equal(np_edit_distance("tarce", "trace"), 1);	/* transposition */
	assert_int_equal(np_edit_distance("doctr", "doctor"), 1);	/* insertion */
	assert_int_equal(np_edit_distance("doctoor", "doctor"), 1);	/* deletion */
	assert_int_equal(np_edit_distance("DOCTOR", "doctor"), 0);	/* case */
	assert_int_equal(np_edit_distance("", "plan"), 4);
	assert_int_equal(np_edit_distance("kitten", "sitting"), 3);
	assert_int_equal(np_edit_distance("ca", "abc"), 3);	/* OSA: no edit of a transposed pair */
	memset(longer, 'a', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	assert_int_equal(np_edit_distance(longer, "a"), NP_SUGGEST_MAX + 1);
}

static const char *best(const char *word, const char *const *cands)
{
	struct np_suggest s;

	np_suggest_init(&s, word);
	for (; *cands; cands++)
		np_suggest_add(&s, *cands);
	return np_suggest_best(&s);
}

static void suggestions(void **state)
{
	static const char *const cmds[] = { "doctor", "checks", "explain", "trace", "capture",
					    "watch", "diff", "plan", NULL };
	static const char *const ids[] = { "softnet.backlog-drops", "softnet.time-squeeze",
					   "softnet.flow-limit", "nic.missed", "nic.rx-dropped",
					   NULL };
	const char *r;

	(void)state;
	assert_string_equal(best("docter", cmds), "doctor");
	assert_string_equal(best("tarce", cmds), "trace");
	assert_string_equal(best("chekcs", cmds), "checks");
	assert_string_equal(best("Plan", cmds), "plan");
	assert_string_equal(best("dif", cmds), "diff");
	/* Nothing close: no suggestion rather than a wild guess. */
	assert_null(best("bogus", cmds));
	assert_null(best("x", cmds));
	assert_null(best("", cmds));
	/* The word itself is no suggestion. */
	assert_null(best("doctor", cmds));

	assert_string_equal(best("softnet.backlog-drop", ids), "softnet.backlog-drops");
	assert_string_equal(best("softnet.backlogdrops", ids), "softnet.backlog-drops");
	assert_string_equal(best("nic.mised", ids), "nic.missed");
	/* A start of an id, typed in full for the rest. */
	assert_string_equal(best("softnet.flow", ids), "softnet.flow-limit");
	/* Equally close: the first offered wins. */
	r = best("nic.m", ids);
	assert_non_null(r);
	assert_string_equal(r, "nic.missed");
	assert_null(best("socket.udp-rcvbuf", ids));
}

static void check_ids(void **state)
{
	(void)state;
	assert_string_equal(np_check_suggest("softnet.backlog-drop", false, false),
			    "softnet.backlog-drops");
	/* Stage names are patterns of --check and --skip, not ids of explain. */
	assert_string_equal(np_check_suggest("sofnet", true, false), "softnet");
	assert_string_not_equal(np_check_suggest("sofnet", false, false) ?
				np_check_suggest("sofnet", false, false) : "", "softnet");
	/* --threshold: only checks that have thresholds are offered. */
	assert_string_equal(np_check_suggest("softnet.backlog-drop", false, true),
			    "softnet.backlog-drops");
	assert_null(np_check_suggest("link.dupl", false, true));
	/* A glob that matches nothing is no typo of one id. */
	assert_null(np_check_suggest("softnet.backlog-drop*", true, false));
	assert_null(np_check_suggest("zzz", true, false));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(distance),
		cmocka_unit_test(suggestions),
		cmocka_unit_test(check_ids),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
