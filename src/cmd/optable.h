/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Options declared once per command (as xdp-tools' DEFINE_OPTION): each command's table is
 * the single source of its getopt_long() table, its --help text, the OPTIONS list of
 * netpath(8) and the bash completion (tools/mangen*.c read the same tables).
 */
#ifndef NP_OPTABLE_H
#define NP_OPTABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "status.h"

/* What an option's value is; the parser checks it before the command sees it. */
enum np_arg {
	NP_ARG_NONE,		/* a flag */
	NP_ARG_STRING,		/* taken as given (a path, a name, a list the command parses) */
	NP_ARG_NUMBER,		/* plain decimal within [min, max], whole if asked */
	NP_ARG_BANDWIDTH,	/* "10G", "500M" (np_parse_bandwidth) */
	NP_ARG_CHOICE,		/* one of words; the value is its index */
};

/* How the shell completes a value (completion/netpath.bash.in's kinds). */
enum np_complete {
	NP_COMPLETE_NONE,	/* a number, or free text */
	NP_COMPLETE_FILE,
	NP_COMPLETE_DIR,
	NP_COMPLETE_NETNS,	/* a name under /run/netns, a path, or a PID */
	NP_COMPLETE_IFACE,
	NP_COMPLETE_CHECK,	/* one check id */
	NP_COMPLETE_THRESHOLD,	/* ID:warn=N,crit=N */
	NP_COMPLETE_IDLIST,	/* ID,...: ids, globs and stage names */
	NP_COMPLETE_WORDS,	/* the choice's words (automatic for NP_ARG_CHOICE) */
};

/* Where the parser stores an option's value in the command's configuration (as xdp-tools'
 * DEFINE_OPTION and systemd's gperf tables): at np_opt.off from the start of the struct given
 * to np_opts_parse(). NP_DEST_NONE: the command's callback takes it. */
enum np_dest {
	NP_DEST_NONE,
	NP_DEST_TRUE,		/* bool: set */
	NP_DEST_COUNT,		/* int: once more each time (-vv) */
	NP_DEST_STRING,		/* const char *: the value as given */
	NP_DEST_DOUBLE,		/* double: NP_ARG_NUMBER, NP_ARG_BANDWIDTH */
	NP_DEST_INT,		/* int (or unsigned): a whole NP_ARG_NUMBER */
	NP_DEST_LONG,		/* long (or unsigned long): a whole NP_ARG_NUMBER */
	NP_DEST_CHOICE,		/* int (or an enum listed in the words' order): the word's index */
};

/* .dest and .off of a row: NP_TO(NP_DEST_DOUBLE, struct doctor_args, every). */
#define NP_TO(dest_, type_, member_) .dest = (dest_), .off = offsetof(type_, member_)

/*
 * A rule between two options of one table (as ethtool's parser alt_group): declared on the
 * option's row, checked by np_opts_parse() once every option is read (rows in table order,
 * needs before conflicts), printed in netpath(8) ("Needs --every.", "Not with --root.").
 */
struct np_opt_rule {
	int other;		/* the other option's id; 0 ends the list */
	const char *msg;	/* the one-line error when the rule is broken (exit 3) */
};

struct np_opt {
	int id;			/* the short letter, or a number >= 256 for a long-only option */
	const char *name;	/* the long name, without "--" */
	const char *arg;	/* the value's name in the help ("SEC"); NULL for a flag */
	const char *help;	/* --help text; '\n' starts an indented continuation line */
	const char *man;	/* netpath(8)'s paragraph (troff); NULL: the help text */
	enum np_arg kind;
	double min, max;	/* NP_ARG_NUMBER */
	bool whole;		/* NP_ARG_NUMBER: no fraction */
	const char *words;	/* NP_ARG_CHOICE: "auto always never" */
	const char *hint;	/* the reason of "invalid --NAME 'VALUE' (HINT)" */
	enum np_complete complete;
	bool undocumented;	/* accepted (to refuse it with a reason) but not offered */
	enum np_dest dest;
	size_t off;
	struct np_opt_rule needs[2];	/* this option means nothing without the other */
	struct np_opt_rule conflicts[2];	/* this option and the other exclude each other */
};

/* One table entry: NP_OPT('i', "interval", "SEC", "help", .kind = NP_ARG_NUMBER, ...). */
#define NP_OPT(id_, name_, arg_, help_, ...) \
	{ .id = (id_), .name = (name_), .arg = (arg_), .help = (help_), __VA_ARGS__ }

struct np_cmd_spec {
	const char *name;	/* "doctor" */
	/* The command's entry (commands.h), which main dispatches to: a weak reference in
	 * spec_*.c, so NULL in mangen and the unit tests, which read the tables without linking
	 * the commands. */
	int (*run)(int argc, char **argv);
	const char *summary;	/* its line in `netpath --help` */
	const char *synopsis;	/* --help's text before the options ("Usage: ...") */
	const char *epilogue;	/* --help's text after them */
	bool list_options;	/* false: the synopsis names them all (checks, explain) */
	/* Long options must be spelled out (np_opts_inexact), with an error naming the command. */
	bool exact;
	struct np_operand {
		const char *name;		/* "IFACE"; "CHECK-ID"; "BEFORE" */
		enum np_complete complete;
	} operands[4];			/* in order; the list ends at a NULL name */
	const struct np_opt *opts;	/* ends with an entry whose name is NULL */
};

/* The value of one option, checked against its kind. */
struct np_optval {
	const char *s;		/* as given (NULL for a flag) */
	double num;		/* NP_ARG_NUMBER, NP_ARG_BANDWIDTH */
	int choice;		/* NP_ARG_CHOICE: the index of the word */
};

/* Called for each option without a destination, in command-line order; 0 to go on, -1 (status
 * set) to stop. NULL when every option has one. */
typedef int (*np_opt_fn)(void *arg, int id, const struct np_optval *v, struct np_status *st);

/*
 * getopt_long() over spec's table: inexact long options refused (spec->exact), values
 * checked ("invalid --NAME 'VALUE' (HINT)"), -h/--help and -V/--version ("netpath VERSION")
 * printed to stdout (a stop, exit 0: a caller in Nagios mode makes it 3). Every
 * error of the command line (unknown option, missing or invalid value, a value the callback
 * refuses) is a usage failure (np_usage: one line, then the --help hint; exit 3). 0 with optind
 * at the first operand, or -1 with st set.
 */
int np_opts_parse(const struct np_cmd_spec *spec, int argc, char **argv, np_opt_fn fn,
		  void *arg, struct np_status *st);
/* With spec->exact: an abbreviated or unknown long option is a failure naming the command.
 * np_opts_parse() checks it first; doctor also before its configuration file. 0 or -1. */
int np_opts_exact(const struct np_cmd_spec *spec, int argc, char **argv, struct np_status *st);
/*
 * A quiet first pass, for what must be known before the others are judged (doctor's
 * --config): *value is the last value of option id (unchanged if absent). Errors are left to
 * np_opts_parse. Returns true when --help or --version was asked for.
 */
bool np_opts_prescan(const struct np_cmd_spec *spec, int argc, char **argv, int id,
		     const char **value);
/* --help's text, wrapped at width columns (0: as written). */
void np_opts_help(const struct np_cmd_spec *spec, FILE *out, int width);
/* Is any of the words (NULL-terminated) an argument before "--"? (--json before parsing.) */
bool np_argv_has(int argc, char **argv, const char *const *words);

/* The option with this id, or NULL. */
const struct np_opt *np_opts_find(const struct np_cmd_spec *spec, int id);
/* The option's short letter, or 0. */
int np_opt_short(const struct np_opt *o);
/* How the shell completes its value. */
enum np_complete np_opt_complete(const struct np_opt *o);

#endif
