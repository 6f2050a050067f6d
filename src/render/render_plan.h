/* SPDX-License-Identifier: GPL-2.0-only */
/* `netpath plan`'s output: the files an admin installs, a summary, or the plan as JSON. */
#ifndef NP_RENDER_PLAN_H
#define NP_RENDER_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "plan.h"

/* The files a plan may hold, in the order they are shown. */
enum np_plan_file {
	NP_PLAN_FILE_SYSCTL,	/* etc/sysctl.d/90-netpath.conf */
	NP_PLAN_FILE_LINK,	/* etc/systemd/network/10-netpath-IF.link */
	NP_PLAN_FILE_UDEV,	/* etc/udev/rules.d/70-netpath-IF.rules (the .link's alternative) */
	NP_PLAN_FILE_MODULES,	/* etc/modules-load.d/netpath.conf */
	NP_PLAN_FILE_NOW,	/* netpath-apply-now.sh: the same, now, without a reboot */
	NP_PLAN_FILE__COUNT
};

/* How many files of kind f: one per device (p->dev) for the .link file and the udev rule, else
 * one. */
size_t np_plan_file_count(const struct np_plan *p, enum np_plan_file f);
/* Where the dev-th file of kind f installs, relative to / ("etc/sysctl.d/90-netpath.conf"), in
 * buf; NULL when the plan puts nothing in it. dev counts only for the per-device files. */
const char *np_plan_file_path(const struct np_plan *p, enum np_plan_file f, size_t dev,
			      char *buf, size_t size);
/* One file's content. */
void np_render_plan_file(FILE *out, const struct np_plan *p, enum np_plan_file f, size_t dev);
/* What the plan changes per stage, what it resolves, and what it keeps and why. */
void np_render_plan_summary(FILE *out, const struct np_plan *p);
/* The text output: each file under a "==> /path <==" header, then the summary. */
void np_render_plan_text(FILE *out, const struct np_plan *p, int width);
/* Schema netpath/plan (doc/netpath-plan.schema.json). */
void np_render_plan_json(FILE *out, const struct np_plan *p);

#endif
