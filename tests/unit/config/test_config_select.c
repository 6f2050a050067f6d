// SPDX-License-Identifier: GPL-2.0-only
/*
 * Check selection patterns and threshold overrides: a pattern or id that names no check is an
 * error rather than a silent no-op, --threshold takes a check's levels, and every check with
 * thresholds accepts its own defaults back while every check without refuses.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "doctor_config.h"
#include "config_fixture.h"

/* ---- patterns ---- */

static void test_patterns(void **state)
{
	size_t n, nsoft = 0, ntcp = 0;
	const struct np_check *const *t = np_check_table(&n);

	(void)state;
	for (size_t i = 0; i < n; i++) {
		bool soft = strncmp(t[i]->id, "softnet.", 8) == 0;
		bool tcp = strncmp(t[i]->id, "socket.tcp-", 11) == 0;

		/* A stage name means every check of that stage, like its glob. */
		assert_int_equal(np_pattern_match("softnet.*", t[i]), soft);
		assert_int_equal(np_pattern_match("softnet", t[i]),
				 t[i]->stage == NP_STAGE_SOFTNET);
		assert_int_equal(np_pattern_match("socket.tcp-*", t[i]), tcp);
		assert_true(np_pattern_match("*", t[i]));
		assert_true(np_pattern_match(t[i]->id, t[i]));
		nsoft += soft;
		ntcp += tcp;
	}
	assert_int_equal(nsoft, stage_count(NP_STAGE_SOFTNET));
	assert_true(ntcp >= 3);		/* tcp-mem, tcp-rmem-bdp, tcp-wmem-bdp */
	assert_true(np_pattern_match("socket.tcp-mem", chk("socket.tcp-mem")));
	assert_false(np_pattern_match("socket.tcp-mem", chk("socket.udp-mem")));
	assert_true(np_pattern_match("socket.?dp-mem", chk("socket.udp-mem")));
	assert_true(np_pattern_match("nic.[mr]*", chk("nic.missed")));
	assert_true(np_pattern_match("nic.[mr]*", chk("nic.rx-dropped")));
	/* No implicit prefix matching: a partial id is a typo, not a selection. */
	assert_false(np_pattern_match("softnet.backlog", chk("softnet.backlog-drops")));
	assert_false(np_pattern_match("soft", chk("softnet.backlog-drops")));
	assert_false(np_pattern_match("SOFTNET.*", chk("softnet.backlog-drops")));
}

static void test_selection(void **state)
{
	struct np_selection file = { 0 }, cli = { 0 }, none = { 0 };
	char err[256];
	size_t n;

	(void)state;
	np_check_table(&n);
	assert_true(np_selection_want(chk("link.duplex"), NULL));
	assert_int_equal(np_selection_count(&none), n);

	assert_int_equal(np_selection_parse(&file, NP_SEL_CHECK, " softnet , nic.missed ", err,
					    sizeof(err)), 0);
	assert_int_equal(np_selection_parse(&file, NP_SEL_SKIP, "softnet.flow-limit", err,
					    sizeof(err)), 0);
	assert_int_equal(np_selection_count(&file), stage_count(NP_STAGE_SOFTNET));
	/* Command line --skip replaces the file's skip list, keeps its check list. */
	assert_int_equal(np_selection_parse(&cli, NP_SEL_SKIP, "nic.missed", err, sizeof(err)), 0);
	assert_int_equal(np_selection_merge(&file, &cli, err, sizeof(err)), 0);
	assert_true(np_selection_want(chk("softnet.flow-limit"), &file));
	assert_false(np_selection_want(chk("nic.missed"), &file));
	assert_true(np_selection_want(chk("softnet.backlog-drops"), &file));
	assert_false(np_selection_want(chk("link.duplex"), &file));
	/* ... and --check its check list. */
	memset(&cli, 0, sizeof(cli));
	assert_int_equal(np_selection_parse(&cli, NP_SEL_CHECK, "link.*", err, sizeof(err)), 0);
	assert_int_equal(np_selection_merge(&file, &cli, err, sizeof(err)), 0);
	assert_true(np_selection_want(chk("link.duplex"), &file));
	assert_false(np_selection_want(chk("softnet.backlog-drops"), &file));
	/* An empty command line changes nothing. */
	memset(&cli, 0, sizeof(cli));
	assert_int_equal(np_selection_merge(&file, &cli, err, sizeof(err)), 0);
	assert_true(np_selection_want(chk("link.duplex"), &file));
	/* Layered into nothing: an error. */
	assert_int_equal(np_selection_parse(&cli, NP_SEL_SKIP, "link", err, sizeof(err)), 0);
	assert_int_equal(np_selection_merge(&file, &cli, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "the check and skip lists leave no check to run");

	/* A pattern matching nothing is reported by name, and nothing is half-applied
	 * beyond the patterns before it. */
	memset(&cli, 0, sizeof(cli));
	assert_int_equal(np_selection_parse(&cli, NP_SEL_CHECK, "ip.*,ipv6.*", err, sizeof(err)),
			 -EINVAL);
	assert_contains(err, "'ipv6.*' matches no check");
}

/* ---- --threshold ---- */

static void test_threshold_option(void **state)
{
	struct np_overrides *o = calloc(1, sizeof(*o));
	const struct np_check *b = chk("softnet.backlog-drops");
	char err[256];

	(void)state;
	assert_non_null(o);
	assert_int_equal(np_overrides_parse_option(o, "softnet.backlog-drops:warn=10,crit=1000",
						   err, sizeof(err)), 0);
	assert_true(np_check_warn(b, o) == 10 && np_check_crit(b, o) == 1000);
	/* A later option replaces only the level it names (the command line over the file). */
	assert_int_equal(np_overrides_parse_option(o, "softnet.backlog-drops:crit=0.5e4", err,
						   sizeof(err)), 0);
	assert_true(np_check_warn(b, o) == 10 && np_check_crit(b, o) == 5000);
	/* Zero is a threshold: every drop during the sample reaches the level. */
	assert_int_equal(np_overrides_parse_option(o, "nic.missed:warn=0", err, sizeof(err)), 0);
	assert_true(np_check_warn(chk("nic.missed"), o) == 0);
	/* Blanks around the id and between levels are fine. */
	assert_int_equal(np_overrides_parse_option(o, " link.rx-errors : warn=2, crit=20", err,
						   sizeof(err)), 0);
	assert_true(np_check_crit(chk("link.rx-errors"), o) == 20);

	assert_int_equal(np_overrides_parse_option(o, "softnet.backlog-drops", err, sizeof(err)),
			 -EINVAL);
	assert_contains(err, "'softnet.backlog-drops' is not ID:warn=N,crit=N (e.g. ");
	assert_int_equal(np_overrides_parse_option(o, "softnet.backlog-drops:", err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "softnet.backlog-drops: no threshold given (warn=N and/or "
			    "crit=N)");
	assert_int_equal(np_overrides_parse_option(o, "softnet.*:warn=1", err, sizeof(err)),
			 -EINVAL);
	assert_contains(err, "no check 'softnet.*'");
	assert_int_equal(np_overrides_parse_option(o, "softnet.backlog-drops:warn=6000", err,
						   sizeof(err)), -EINVAL);
	assert_contains(err, "warn=6000 is above crit=5000 (set earlier)");
	/* A failed option changes nothing. */
	assert_true(np_check_warn(b, o) == 10 && np_check_crit(b, o) == 5000);
	/* Raising both together is fine. */
	assert_int_equal(np_overrides_parse_option(o, "softnet.backlog-drops:warn=6000,crit=9000",
						   err, sizeof(err)), 0);
	assert_true(np_check_warn(b, o) == 6000 && np_check_crit(b, o) == 9000);
	/* No overrides: the table's values. */
	assert_true(np_check_warn(b, NULL) == b->warn && np_check_crit(b, NULL) == b->crit);
	free(o);
}

/* Every check with thresholds accepts its own defaults back, and every check without refuses:
 * the catalogue's override example (netpath explain) is always valid. */
static void test_every_check(void **state)
{
	struct np_overrides *o = calloc(1, sizeof(*o));
	size_t n;
	const struct np_check *const *t = np_check_table(&n);
	char arg[256], err[256];

	(void)state;
	assert_non_null(o);
	for (size_t i = 0; i < n; i++) {
		const struct np_check *c = t[i];
		int len = snprintf(arg, sizeof(arg), "%s:", c->id);
		int r;

		if (!isnan(c->warn))
			len += snprintf(arg + len, sizeof(arg) - (size_t)len, "warn=%g,", c->warn);
		if (!isnan(c->crit))
			len += snprintf(arg + len, sizeof(arg) - (size_t)len, "crit=%g", c->crit);
		if (isnan(c->warn) && isnan(c->crit))
			snprintf(arg + len, sizeof(arg) - (size_t)len, "warn=1");
		r = np_overrides_parse_option(o, arg, err, sizeof(err));
		if (isnan(c->warn) && isnan(c->crit)) {
			assert_int_equal(r, -EINVAL);
			assert_contains(err, "has no thresholds to override");
		} else if (r != 0) {
			fail_msg("%s: %s", arg, err);
		} else {
			assert_true(np_check_warn(c, o) == c->warn || isnan(c->warn));
			/* A documented threshold comes with its unit. */
			if (!c->thr_unit || !c->thr_unit[0])
				fail_msg("%s has thresholds but no unit", c->id);
		}
		assert_int_equal(np_check_index(c), (int)i);
	}
	free(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_patterns),
		cmocka_unit_test(test_selection),
		cmocka_unit_test(test_threshold_option),
		cmocka_unit_test(test_every_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
