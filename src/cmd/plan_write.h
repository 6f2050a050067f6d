/* SPDX-License-Identifier: GPL-2.0-only */
/* `netpath plan --write DIR`: the plan's files beneath DIR only, whole or not at all. */
#ifndef NP_PLAN_WRITE_H
#define NP_PLAN_WRITE_H

#include <stddef.h>

#include "plan.h"

/*
 * Is DIR a place netpath may write a plan? Refused: empty, "/" or anything under /etc (after
 * resolving what exists of it, so "/tmp/../etc" and a symbolic link to /etc are refused too);
 * an existing DIR that is not a directory, or is a symbolic link however spelled ("link",
 * "link/", "link/." are all the link); an existing DIR not owned by root or the caller, or
 * writable by its group or others. 0, or -1 with a one-line reason in err. np_plan_write()
 * applies the same rules again to DIR once opened, which is what makes them hold.
 */
int np_plan_dir_check(const char *dir, char *err, size_t errlen);
/*
 * Write each of p's files beneath DIR (DIR/etc/sysctl.d/90-netpath.conf, ...), all or none.
 * DIR is opened once (created 0755 when missing) without following a link, and everything
 * beneath it is reached from that descriptor one name at a time with O_NOFOLLOW: the
 * directories (created 0755 when missing; each held to DIR's rules), the temporary files
 * (O_CREAT | O_EXCL, synced) and the renames. A link, directory or other non-file where a file
 * goes is refused, never followed or replaced; a regular file is replaced. Any failure undoes
 * the run: temporary files removed, replaced files put back (a second link keeps each until
 * the end), directories it created removed. SIGINT, SIGTERM, SIGHUP and SIGQUIT are held
 * until then. The names written go to out, one per line, when out is not NULL and all is in
 * place. 0, or -1 with a one-line reason in err (DIR then as it was).
 */
int np_plan_write(const struct np_plan *p, const char *dir, FILE *out, char *err, size_t errlen);

#endif
