// SPDX-License-Identifier: GPL-2.0-only
/* The engine: run the table's wanted checks over one analysis into a report. */
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int np_analyze(const struct np_analysis *a, struct np_report *r, np_check_filter want, void *arg)
{
	size_t n;
	const struct np_check *const *t = np_check_table(&n);

	memset(r, 0, sizeof(*r));
	snprintf(r->dev, sizeof(r->dev), "%s", a->cur->ifname);
	r->res = calloc(n ? n : 1, sizeof(*r->res));
	if (!r->res)
		return -1;
	r->nres = n;
	for (size_t i = 0; i < n; i++) {
		r->res[i].check = t[i];
		r->res[i].warn = np_check_warn(t[i], a->ovr);
		r->res[i].crit = np_check_crit(t[i], a->ovr);
		if (want && !want(t[i], arg))
			continue;
		r->res[i].state = NP_CHECK_PASSED;
		r->cur = &r->res[i];
		t[i]->run(a, r);
	}
	r->cur = NULL;
	np_report_sort(r);
	return 0;
}
