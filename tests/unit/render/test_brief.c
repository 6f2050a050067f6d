// SPDX-License-Identifier: GPL-2.0-only
/*
 * doctor --brief over the golden trees: one line per stage in receive-path order, at most 100
 * bytes each, the worst finding of each stage with its device, UNKNOWN where the stage could
 * not be judged, and summaries that cannot break the line or the width.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "render.h"
#include "tree.h"

static char *brief(const struct tree_run *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	np_render_doctor_brief(f, &t->v);
	assert_int_equal(fclose(f), 0);
	assert_non_null(buf);
	return buf;
}

/* The line of stage st, copied into line; every line is checked for the width on the way. */
static void stage_line(const char *buf, enum np_stage st, char *line, size_t size)
{
	const char *p = buf;
	int n = 0;

	for (const char *nl; (nl = strchr(p, '\n')); p = nl + 1, n++) {
		size_t len = (size_t)(nl - p);

		if (len > 100)
			fail_msg("line %d is %zu bytes: %.*s", n, len, (int)len, p);
		assert_true(n < NP_STAGE__COUNT);
		assert_true(strncmp(p, np_stage_name((enum np_stage)n),
				    strlen(np_stage_name((enum np_stage)n))) == 0);
		if (n == (int)st)
			snprintf(line, size, "%.*s", (int)len, p);
	}
	assert_int_equal(n, NP_STAGE__COUNT);
	assert_int_equal(*p, '\0');
}

static void test_x710(void **state)
{
	struct tree_run *t = tree_run(state, "x710-server", "eth0", true);
	char *buf = brief(t), line[128];

	stage_line(buf, NP_STAGE_NIC, line, sizeof(line));
	assert_non_null(strstr(line, "nic        CRITICAL eth0      "));
	/* One rate form (np_fmt_rate), digits grouped as in the text report (human text; "," is
	 * the separator until np_text_locale_init). */
	assert_non_null(strstr(line, "9,000 packets/s"));
	stage_line(buf, NP_STAGE_SOFTNET, line, sizeof(line));
	/* The host's backlog: no device; its worst finding, and the others counted. */
	assert_non_null(strstr(line, "softnet    CRITICAL -         Per-CPU backlog full: 12,000"));
	stage_line(buf, NP_STAGE_IP, line, sizeof(line));
	assert_non_null(strstr(line, "ip         OK       -         no finding ("));
	free(buf);
}

static void test_not_judged(void **state)
{
	struct tree_run *t = tree_run(state, "vm-virtio", "eth0", true);
	char *buf = brief(t), line[128];

	assert_int_equal(t->cov.st[NP_STAGE_PCIE].status, NP_COV_NOT_JUDGED);
	stage_line(buf, NP_STAGE_PCIE, line, sizeof(line));
	assert_non_null(strstr(line, "pcie       UNKNOWN  -         not judged: "));
	/* Partly judged without a finding is no OK either. */
	for (int st = 0; st < NP_STAGE__COUNT; st++) {
		bool finding = false;

		for (size_t i = 0; i < t->rep.n; i++)
			finding |= t->rep.f[i].check->stage == (enum np_stage)st &&
				   t->rep.f[i].severity >= NP_SEV_INFO;
		if (t->cov.st[st].status != NP_COV_PARTIAL || finding)
			continue;
		stage_line(buf, (enum np_stage)st, line, sizeof(line));
		assert_non_null(strstr(line, " PARTIAL  -         no finding, partly judged: "));
	}
	free(buf);
}

static void test_hostile(void **state)
{
	struct tree_run *t = tree_run(state, "x710-server", "eth0", true);
	char *buf, line[128];
	static char hostile[NP_SUMMARY_SIZE];	/* the longest summary a finding holds */

	memset(hostile, 'x', sizeof(hostile) - 1);
	memcpy(hostile, "a\nb\x1b[2J \xe2\x89\xa5 ", 12);
	for (size_t i = 0; i < t->rep.n; i++) {
		struct np_finding *f = &t->rep.f[i];

		f->summary = hostile;
		if (f->check->stage == NP_STAGE_NIC)
			snprintf(f->dev, sizeof(f->dev), "%s", "averyverylong15");
	}
	buf = brief(t);
	stage_line(buf, NP_STAGE_NIC, line, sizeof(line));
	assert_null(strchr(buf, '\x1b'));
	assert_non_null(strstr(line, "CRITICAL averyverylong15 (partly judged) a b [2J \xe2\x89\xa5 xx"));
	assert_non_null(strstr(line, "..."));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_x710, tree_teardown),
		cmocka_unit_test_teardown(test_not_judged, tree_teardown),
		cmocka_unit_test_teardown(test_hostile, tree_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
