/* SPDX-License-Identifier: GPL-2.0-only */
/* Parsing of option values shared by the commands; all return 0 or -EINVAL. */
#ifndef NP_OPTS_H
#define NP_OPTS_H

#include <stdbool.h>
#include <stdio.h>

/* "10G", "500M", "2.5g", "100k", "1000000" (bits per second); optional "bit", "bps", "b/s". */
int np_parse_bandwidth(const char *s, double *bps);
/* A decimal number of seconds/milliseconds within [min, max]. */
int np_parse_number(const char *s, double min, double max, double *out);

enum np_color { NP_COLOR_AUTO, NP_COLOR_ALWAYS, NP_COLOR_NEVER };
int np_parse_color(const char *s, enum np_color *out);
bool np_color_enabled(enum np_color c, FILE *out);

struct option;
/*
 * getopt_long() takes any unambiguous prefix of a long option ("--all" for "--all-counters"),
 * which hides typos and breaks scripts when a longer option is added. Returns the first
 * "--name" of argv (before "--") that is no option's exact name, or NULL when all are.
 */
const char *np_opts_inexact(int argc, char **argv, const char *shortopts,
			    const struct option *longopts);

/* Exit codes (design.md): Nagios-style. */
enum { NP_EXIT_OK = 0, NP_EXIT_WARNING = 1, NP_EXIT_CRITICAL = 2, NP_EXIT_UNKNOWN = 3 };

#endif
