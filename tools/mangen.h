/* SPDX-License-Identifier: GPL-2.0-only */
/* mangen's modes (tools/mangen.c is the troff one). */
#ifndef NP_MANGEN_H
#define NP_MANGEN_H

/*
 * Expand the completion template tmpl of shell ("bash", "zsh" or "fish") into out: the check ids, stages and threshold
 * levels from the check table; the commands, their options, option arguments and operands from
 * the commands' option tables (src/cmd/spec_*.c), so a new option or command is completed
 * without anyone editing the completion. 0, or 1 with a message on stderr.
 */
int np_mangen_completion(const char *shell, const char *tmpl, const char *out);

#endif
