// SPDX-License-Identifier: GPL-2.0-only
/* Stage, scope and severity names, a finding's text joined with its entry's, the report. */
#include "finding.h"
#include "check.h"

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
	free(r->res);
	memset(r, 0, sizeof(*r));
}

static int cmp_finding(const void *pa, const void *pb)
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

void np_report_sort(struct np_report *r)
{
	if (r->n > 1)
		qsort(r->f, r->n, sizeof(*r->f), cmp_finding);
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
