// SPDX-License-Identifier: GPL-2.0-only
/* A plan's lines: adding one, writing its text, naming the checks it answers. Shared by the
 * parts (plan_sysctl.c, plan_nic.c, plan_cc.c), which plan.c calls in stage order. */
#include "plan_priv.h"
#include "textcut.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *np_plan_kind_name(enum np_plan_kind k)
{
	static const char *const names[NP_PLAN_KIND__COUNT] = {
		[NP_PLAN_SYSCTL] = "sysctl", [NP_PLAN_LINK] = "link", [NP_PLAN_MODULE] = "module",
		[NP_PLAN_QDISC] = "qdisc", [NP_PLAN_NOTE] = "note",
	};

	return k < NP_PLAN_KIND__COUNT ? names[k] : "?";
}

struct np_plan_line *np_plan_add(struct np_plan *p, enum np_plan_kind k, enum np_stage st,
				 const char *key)
{
	struct np_plan_line *l;

	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 16;
		struct np_plan_line *nl = realloc(p->l, cap * sizeof(*nl));

		if (!nl) {
			p->oom = true;
			return NULL;
		}
		p->l = nl;
		p->cap = cap;
	}
	l = &p->l[p->n++];
	memset(l, 0, sizeof(*l));
	l->kind = k;
	l->stage = st;
	snprintf(l->dev, sizeof(l->dev), "%s", p->ndev ? p->dev[p->ndev - 1].name : "");
	snprintf(l->key, sizeof(l->key), "%s", key);
	return l;
}

void np_plan_cat(char *dst, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	np_textcut_vappend(dst, size, fmt, ap);
	va_end(ap);
}

void np_plan_checks(struct np_plan_line *l, const char *c1, const char *c2, const char *c3)
{
	const char *c[] = { c1, c2, c3 };
	size_t n = 0;

	for (size_t i = 0; i < 3; i++)
		if (c[i])
			l->checks[n++] = c[i];
}

bool np_plan_flagged(const struct np_report *rep, const char *id, enum np_severity sev)
{
	for (size_t i = 0; rep && i < rep->n; i++)
		if (!strcmp(rep->f[i].check->id, id) && rep->f[i].severity >= sev)
			return true;
	return false;
}
