// SPDX-License-Identifier: GPL-2.0-only
/* The engine: run the table's wanted checks over one analysis into a report. */
#include "check.h"
#include "finding_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver_counter_tables.h"
#include "nic_view.h"

/* Every driver counter of cur classified once for all the checks of this run (NULL: none, or
 * out of memory, and the checks classify on the spot). */
static struct np_drv_class *classify_driver_counters(const struct np_snapshot *s)
{
	const struct np_counters *c = &s->eth.drv_stats;
	const struct np_drv_pat *tab = np_drv_patterns(np_nv_drv_name(s));
	struct np_drv_class *cls;

	if (!c->n || !(cls = malloc(c->n * sizeof(*cls))))
		return NULL;
	for (size_t i = 0; i < c->n; i++)
		np_drv_classify_in(tab, c->e[i].name, &cls[i]);
	return cls;
}

int np_analyze(const struct np_analysis *in, struct np_report *r, np_check_filter want, void *arg)
{
	size_t n;
	const struct np_check *const *t = np_check_table(&n);
	struct np_analysis run = *in;
	const struct np_analysis *a = &run;
	struct np_drv_class *cls = classify_driver_counters(in->cur);

	run.drv_cls = cls;
	run.drv_cls_of = cls ? &in->cur->eth.drv_stats : NULL;

	memset(r, 0, sizeof(*r));
	snprintf(r->dev, sizeof(r->dev), "%s", a->cur->ifname);
	/* Each result set whole below: its 160-byte reason is read only up to its NUL, and
	 * clearing the array (~16 KB) was 1% of a doctor pass. */
	r->res = malloc((n ? n : 1) * sizeof(*r->res));
	if (!r->res) {
		free(cls);
		return -1;
	}
	r->nres = n;
	for (size_t i = 0; i < n; i++) {
		r->res[i].check = t[i];
		r->res[i].state = NP_CHECK_NOT_RUN;
		r->res[i].worst = NP_SEV_OK;
		r->res[i].not_applicable = false;
		r->res[i].skip_reason[0] = '\0';
		r->res[i].warn = np_check_warn(t[i], a->ovr);
		r->res[i].crit = np_check_crit(t[i], a->ovr);
		if (want && !want(t[i], arg))
			continue;
		r->res[i].state = NP_CHECK_PASSED;
		r->cur = &r->res[i];
		t[i]->run(a, r);
	}
	r->cur = NULL;
	free(cls);
	/* A finding or part of one lost for want of memory: no report rather than a wrong one. */
	if (r->oom || np_store_failed(r->store)) {
		np_report_free(r);
		return -1;
	}
	np_report_sort(r);
	return 0;
}
