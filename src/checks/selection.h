/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The user's say over the check table: which checks run (--check, --skip, the config file's
 * `check` and `skip` lines) and with which thresholds (--threshold, `threshold` lines). Pure:
 * strings in, tables and one-line error messages out; the commands and the config file parser
 * share it so that both accept exactly the same syntax.
 */
#ifndef NP_SELECTION_H
#define NP_SELECTION_H

#include <stdbool.h>
#include <stddef.h>

#include "check.h"

enum np_sel_kind { NP_SEL_CHECK, NP_SEL_SKIP };

/* Which checks run, by table index (np_check_index). A zeroed struct runs every check. */
struct np_selection {
	bool has_check;			/* a check list was given: only its checks run */
	bool has_skip;			/* a skip list was given */
	bool check[NP_MAX_CHECKS];	/* matched by a check pattern */
	bool skip[NP_MAX_CHECKS];	/* matched by a skip pattern (wins over check) */
};

/*
 * Whether pattern names c: the id itself ("softnet.backlog-drops"), a glob over ids with * ? [...]
 * ("softnet.*", "socket.tcp-*"), or a bare stage name ("softnet", the same as "softnet.*").
 */
bool np_pattern_match(const char *pattern, const struct np_check *c);

/*
 * "Did you mean": the check id closest to a mistyped one (suggest.h), among the checks with
 * thresholds only when thresholds is true, and the stage names too when stages is true (they
 * are patterns of their own); NULL when none is close or word is a glob.
 */
const char *np_check_suggest(const char *word, bool stages, bool thresholds);

/*
 * Add the comma-separated patterns of arg ("softnet.*,socket.udp-*") to the check or skip list.
 * Blanks around a pattern are ignored. 0, or -EINVAL with a one-line reason in err for an empty
 * pattern or one that matches no check (a typo must not silently select nothing).
 */
int np_selection_parse(struct np_selection *s, enum np_sel_kind kind, const char *arg,
		       char *err, size_t errlen);
/* -EINVAL with a reason when s leaves no check to run, else 0. */
int np_selection_validate(const struct np_selection *s, char *err, size_t errlen);
/*
 * Layer src (the command line) over dst (the config file): each list src has replaces dst's,
 * so `--check X` runs X whatever the file's `check` lines say, and `--skip` likewise replaces
 * the file's `skip` lines. Then validates dst.
 */
int np_selection_merge(struct np_selection *dst, const struct np_selection *src, char *err,
		       size_t errlen);
/* An np_check_filter for np_analyze(); arg is a const struct np_selection * (NULL: run all). */
bool np_selection_want(const struct np_check *c, void *arg);
/* How many checks of the table s runs. */
size_t np_selection_count(const struct np_selection *s);

/*
 * --threshold ID:warn=N,crit=N. Either level may be left out; a level given again later (or
 * over a config file's) replaces the earlier value. Values are plain numbers >= 0 in the unit
 * the check documents (netpath explain ID). Errors (-EINVAL, reason in err): not ID:LEVELS, an
 * unknown id, a check without thresholds, a level the check does not have, a value that is not
 * a number >= 0, and a warning above the critical threshold (for checks whose two levels are on
 * one scale, i.e. whose defaults have warn <= crit).
 */
int np_overrides_parse_option(struct np_overrides *o, const char *arg, char *err,
			      size_t errlen);
/* The same with the id and the levels apart (a config `threshold ID warn=N crit=N` line): the
 * levels are separated by commas or blanks. */
int np_overrides_set(struct np_overrides *o, const char *id, const char *levels, char *err,
		     size_t errlen);

#endif
