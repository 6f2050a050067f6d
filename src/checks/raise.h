/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Remedies that raise a value (a sysctl, a ring, a channel count, a buffer): one rule for all.
 * A fix never proposes a value at or below the one in force; where the value in force is not in
 * the evidence, the line says so instead of pretending to know the box.
 */
#ifndef NP_RAISE_H
#define NP_RAISE_H

#include "check.h"

#include <stdbool.h>
#include <stdint.h>

enum np_raise {
	NP_RAISE_ALREADY,	/* the value in force is at or above the proposal: nothing to do */
	NP_RAISE_UP,		/* known and lower: the line raises it */
	NP_RAISE_UNKNOWN,	/* not in the evidence: the line says so */
};

enum np_raise np_raise_cmp(bool have, int64_t cur, int64_t want);

/*
 * The remedy "PREFIX<want>   # NOTE" when it raises 'name'. At or above: no line, a detail that
 * says the value is already there, NP_RAISE_ALREADY. Unknown: the note begins "<name> is not in
 * this capture (not read, live): raise to at least <want> if lower". note may be NULL.
 */
enum np_raise np_remedy_raise(struct np_finding *f, const struct np_snapshot *s,
			      const char *name, const char *prefix, bool have, int64_t cur,
			      int64_t want, const char *note);

#endif
