// SPDX-License-Identifier: GPL-2.0-only
/* One report from the runs over the devices of a stack. */
#include "report_merge.h"

#include <stdlib.h>
#include <string.h>

static void merge_result(struct np_check_result *d, const struct np_check_result *s)
{
	if (s->state == NP_CHECK_NOT_RUN)
		return;
	if (d->state == NP_CHECK_NOT_RUN) {
		*d = *s;
		return;
	}
	if (s->state == NP_CHECK_FLAGGED) {
		if (d->state != NP_CHECK_FLAGGED || s->worst > d->worst)
			d->worst = s->worst;
		d->state = NP_CHECK_FLAGGED;
	} else if (s->state == NP_CHECK_PASSED && d->state == NP_CHECK_SKIPPED) {
		d->state = NP_CHECK_PASSED;
	} else if (s->state == NP_CHECK_SKIPPED && d->state == NP_CHECK_SKIPPED &&
		   d->not_applicable && !s->not_applicable) {
		/* Evidence missing on one device outweighs "does not apply" on another. */
		d->not_applicable = false;
		memcpy(d->skip_reason, s->skip_reason, sizeof(d->skip_reason));
	}
}

int np_report_merge(struct np_report *dst, const struct np_report *src)
{
	size_t n = dst->n;

	/* Copied, texts and evidence, into dst's store: src is freed on its own. */
	for (size_t i = 0; i < src->n; i++)
		if (np_report_add(dst, &src->f[i]) < 0) {
			dst->n = n;
			return -1;
		}
	for (size_t i = 0; i < dst->nres && i < src->nres; i++)
		merge_result(&dst->res[i], &src->res[i]);
	np_report_sort(dst);
	return 0;
}

void np_coverage_merge(struct np_coverage *dst, const struct np_coverage *src)
{
	dst->judged = dst->applicable = 0;
	for (int st = 0; st < NP_STAGE__COUNT; st++) {
		struct np_stage_cov *d = &dst->st[st];
		const struct np_stage_cov *s = &src->st[st];
		bool dj = d->status == NP_COV_JUDGED || d->status == NP_COV_PARTIAL;
		bool sj = s->status == NP_COV_JUDGED || s->status == NP_COV_PARTIAL;

		if (s->status == NP_COV_NOT_APPLICABLE) {
			/* nothing to add */
		} else if (d->status == NP_COV_NOT_APPLICABLE) {
			*d = *s;
		} else {
			if (dj && !sj)		/* why the other device was not judged */
				memcpy(d->reason, s->reason, sizeof(d->reason));
			else if (dj && sj && s->status == NP_COV_PARTIAL &&
				 d->status == NP_COV_JUDGED)
				memcpy(d->reason, s->reason, sizeof(d->reason));
			if (dj != sj || s->status == NP_COV_PARTIAL)
				d->status = NP_COV_PARTIAL;
			else if (!dj && !sj)
				d->status = NP_COV_NOT_JUDGED;
			d->ran += s->ran;
			d->missing += s->missing;
		}
		dst->judged += d->status == NP_COV_JUDGED || d->status == NP_COV_PARTIAL;
		dst->applicable += d->status != NP_COV_NOT_APPLICABLE;
	}
}
