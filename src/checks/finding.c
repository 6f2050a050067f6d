// SPDX-License-Identifier: GPL-2.0-only
/* Stage, scope and severity names, a finding's text joined with its entry's, the report. */
#include "finding.h"
#include "check.h"
#include "finding_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const stage_names[NP_STAGE__COUNT] = {
	"link", "pcie", "nic", "irq", "softnet", "ingress", "ip", "transport", "socket", "congestion",
};

const char *np_stage_name(enum np_stage st)
{
	return st < NP_STAGE__COUNT ? stage_names[st] : "?";
}

int np_stage_from_name(const char *name)
{
	for (int i = 0; i < NP_STAGE__COUNT; i++)
		if (strcmp(stage_names[i], name) == 0)
			return i;
	return -1;
}

bool np_finding_names_device(const struct np_finding *f, const char *primary)
{
	if (!f->dev[0])
		return false;
	return f->check->scope == NP_SCOPE_INTERFACE || f->check->stage <= NP_STAGE_IRQ ||
	       strcmp(f->dev, primary) != 0;
}

const char *np_scope_name(enum np_scope sc)
{
	switch (sc) {
	case NP_SCOPE_UNSET: break;
	case NP_SCOPE_INTERFACE: return "interface";
	case NP_SCOPE_NETNS: return "netns";
	case NP_SCOPE_HOST: return "host";
	}
	return "?";
}

const char *np_severity_name(enum np_severity sev)
{
	switch (sev) {
	case NP_SEV_OK: return "ok";
	case NP_SEV_INFO: return "info";
	case NP_SEV_WARNING: return "warning";
	case NP_SEV_CRITICAL: return "critical";
	}
	return "?";
}

void np_report_free(struct np_report *r)
{
	free(r->f);
	np_store_free(r->store);
	free(r->res);
	memset(r, 0, sizeof(*r));
}

int np_finding_cmp(const void *pa, const void *pb)
{
	const struct np_finding *a = pa, *b = pb;

	if (a->check->stage != b->check->stage)
		return a->check->stage < b->check->stage ? -1 : 1;
	if (a->severity != b->severity)
		return a->severity > b->severity ? -1 : 1;
	if (a->rank != b->rank)
		return a->rank > b->rank ? -1 : 1;
	return strcmp(a->check->id, b->check->id);
}

/* Top-down merge sort of pointers, the left run winning ties: glibc's qsort on elements this
 * large (msort.c, indirect) compares the same pairs in the same order, so the order comes out
 * the same even for ranks that do not compare (NaN). */
static void msort_ptrs(const struct np_finding **b, const struct np_finding **t, size_t n)
{
	size_t n1 = n / 2, n2 = n - n1, k = 0;
	const struct np_finding **b1 = b, **b2 = b + n1;

	if (n <= 1)
		return;
	msort_ptrs(b1, t, n1);
	msort_ptrs(b2, t, n2);
	while (n1 > 0 && n2 > 0) {
		if (np_finding_cmp(*b1, *b2) <= 0)
			t[k++] = *b1++, n1--;
		else
			t[k++] = *b2++, n2--;
	}
	while (n1 > 0)
		t[k++] = *b1++, n1--;
	memcpy(b, t, k * sizeof(*t));
}

/*
 * Pointers sorted (on the stack for up to 32 findings), then the records out of place moved
 * along each cycle of the permutation with one aside: a record is ~100 bytes, its texts and
 * evidence stay where they are, and findings emitted in order move not at all.
 */
void np_report_sort(struct np_report *r)
{
	const struct np_finding *stackp[2 * 32], **p = stackp, **t;
	size_t n = r->n;

	if (n <= 1)
		return;
	if (n > 32 && !(p = malloc(2 * n * sizeof(*p)))) {
		qsort(r->f, n, sizeof(*r->f), np_finding_cmp);
		return;
	}
	t = p + n;
	for (size_t i = 0; i < n; i++)
		p[i] = &r->f[i];
	msort_ptrs(p, t, n);
	/* Slot i gets *p[i]. */
	for (size_t i = 0; i < n; i++) {
		struct np_finding tmp;
		size_t j = i, k;

		if (p[i] == &r->f[i])
			continue;
		tmp = r->f[i];
		for (;;) {
			k = (size_t)(p[j] - r->f);
			p[j] = &r->f[j];
			if (k == i) {
				r->f[j] = tmp;
				break;
			}
			r->f[j] = r->f[k];
			j = k;
		}
	}
	if (p != stackp)
		free(p);
}

enum np_severity np_report_worst(const struct np_report *r)
{
	enum np_severity w = NP_SEV_OK;

	for (size_t i = 0; i < r->n; i++)
		if (r->f[i].severity > w)
			w = r->f[i].severity;
	return w;
}

const char *np_finding_why(const struct np_finding *f, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s%s", f->detail, f->detail[0] ? " " : "", f->check->why);
	return buf;
}

const char *np_finding_fix(const struct np_finding *f)
{
	return f->remedy[0] ? f->remedy : f->check->fix;
}
