/* SPDX-License-Identifier: GPL-2.0-only */
/* `netpath plan --write DIR`: the plan's files beneath DIR, never into the system itself. */
#ifndef NP_PLAN_WRITE_H
#define NP_PLAN_WRITE_H

#include <stddef.h>

#include "plan.h"

/*
 * Is DIR a place netpath may write a plan? Refused: empty, "/" or anything under /etc (after
 * resolving what exists of it, so "/tmp/../etc" and a symbolic link to /etc are refused too),
 * and an existing DIR that is not a directory. 0, or -1 with a one-line reason in err.
 */
int np_plan_dir_check(const char *dir, char *err, size_t errlen);
/*
 * Write each of p's files beneath DIR (DIR/etc/sysctl.d/90-netpath.conf, ...), creating DIR and
 * the directories beneath it (0755) and refusing a symbolic link among those, each file
 * atomically (core/atomic_file.h). The names written go to out, one per line, when out is
 * not NULL. 0, or -1 with a one-line reason in err (files already written stay).
 */
int np_plan_write(const struct np_plan *p, const char *dir, FILE *out, char *err, size_t errlen);

#endif
