/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Where a report's findings keep their texts and evidence: chunks filled from both ends, texts
 * upward and evidence arrays downward, each as long as it is and no longer. A pass's findings
 * then touch a page or two however long the texts may grow, and sorting moves small records.
 */
#ifndef NP_FINDING_STORE_H
#define NP_FINDING_STORE_H

#include <stdbool.h>
#include <stddef.h>

#include "finding.h"

struct np_finding_store *np_store_new(void);
void np_store_free(struct np_finding_store *st);
/* Whether anything asked of st failed for want of memory (a finding lost part of itself). */
bool np_store_failed(const struct np_finding_store *st);

/* A copy of s[0..len) with a NUL ("" for len 0): NULL out of memory (counted as failed). */
const char *np_store_str(struct np_finding_store *st, const char *s, size_t len);
/*
 * *text becomes buf[0..len] (NUL included), whose first keep bytes are *text's already: grown
 * in place when *text is the last text stored and there is room, else copied. 0, or -1 out of
 * memory (*text unchanged, counted as failed).
 */
int np_store_text(struct np_finding_store *st, const char **text, const char *buf, size_t keep,
		  size_t len);
/* A slot after f's last evidence (f->nev counts it, f->ev may move): NULL out of memory. The
 * slot's fields are not set. */
struct np_evidence *np_store_ev(struct np_finding *f);

/* The record np_emit() or np_report_add() fills next (r->n not yet counted), the report's store
 * made on first use: NULL out of memory. */
struct np_finding *np_report_slot(struct np_report *r);

#endif
