// SPDX-License-Identifier: GPL-2.0-only
/* The option tables at work: getopt_long()'s table, value checks and --help from one entry. */
#include <getopt.h>
#include <math.h>
#include <string.h>

#include "npfloor.h"
#include "config.h"
#include "optable.h"
#include "opts.h"
#include "termwidth.h"
#include "text_wrap.h"
#include "textenc.h"

/* Options per command: doctor has 22; the tables are checked against it by the unit test. */
#define NP_OPTS_MAX 40
/* --help's description column. */
#define HELP_COL 25

const struct np_opt *np_opts_find(const struct np_cmd_spec *spec, int id)
{
	for (const struct np_opt *o = spec->opts; o->name; o++)
		if (o->id == id)
			return o;
	return NULL;
}

int np_opt_short(const struct np_opt *o)
{
	return o->id > 0 && o->id < 256 ? o->id : 0;
}

enum np_complete np_opt_complete(const struct np_opt *o)
{
	return o->kind == NP_ARG_CHOICE ? NP_COMPLETE_WORDS : o->complete;
}

/* getopt_long()'s tables: the long options and the short ones ("i:jo:vh"). */
static void build(const struct np_cmd_spec *spec, struct option *lo, char *so)
{
	size_t n = 0;

	for (const struct np_opt *o = spec->opts; o->name && n < NP_OPTS_MAX; o++, n++) {
		lo[n] = (struct option){ o->name, o->arg ? required_argument : no_argument, NULL,
					 o->id };
		if (np_opt_short(o)) {
			*so++ = (char)o->id;
			if (o->arg)
				*so++ = ':';
		}
	}
	lo[n] = (struct option){ 0 };
	*so = '\0';
}

/* The n-th word of a blank-separated list, matched against s: its index, or -1. */
static int choice_index(const char *words, const char *s)
{
	size_t len = strlen(s);
	int i = 0;

	for (const char *w = words; *w; i++) {
		size_t wl = strcspn(w, " ");

		if (wl == len && strncmp(w, s, len) == 0)
			return i;
		w += wl;
		w += strspn(w, " ");
	}
	return -1;
}

static int check_value(const struct np_opt *o, const char *s, struct np_optval *v,
		       struct np_status *st)
{
	int bad = 0;

	*v = (struct np_optval){ .s = s, .num = NAN, .choice = -1 };
	switch (o->kind) {
	case NP_ARG_NUMBER:
		bad = np_parse_number(s, o->min, o->max, &v->num) < 0 ||
		      (o->whole && v->num != np_floor(v->num));
		break;
	case NP_ARG_BANDWIDTH:
		bad = np_parse_bandwidth(s, &v->num) < 0;
		break;
	case NP_ARG_CHOICE:
		v->choice = choice_index(o->words, s);
		bad = v->choice < 0;
		break;
	case NP_ARG_NONE:
	case NP_ARG_STRING:
		break;
	}
	return bad ? np_usage(st, "invalid --%s '%s' (%s)", o->name, s, o->hint) : 0;
}

int np_opts_exact(const struct np_cmd_spec *spec, int argc, char **argv, struct np_status *st)
{
	struct option lo[NP_OPTS_MAX + 1];
	char so[2 * NP_OPTS_MAX + 1];
	const char *bad;

	build(spec, lo, so);
	bad = spec->exact ? np_opts_inexact(argc, argv, so, lo) : NULL;

	/* Abbreviations hide typos and change meaning when options are added. */
	if (bad) {
		size_t len = strcspn(bad, "=");

		return np_usage(st, "unknown option '%.*s' (long options are spelled out in full)",
				(int)(len < 64 ? len : 64), bad);
	}
	return 0;
}

/* The option (of the table) that argv element el names in its long form, or NULL. */
static const struct np_opt *long_form(const struct np_cmd_spec *spec, const char *el)
{
	size_t len;

	if (strncmp(el, "--", 2) || !el[2])
		return NULL;
	len = strcspn(el + 2, "=");
	for (const struct np_opt *o = spec->opts; o->name; o++)
		if (strlen(o->name) == len && !strncmp(o->name, el + 2, len))
			return o;
	return NULL;
}

/*
 * What getopt_long() refused (opterr is off: it says nothing), in one line. c is ':' for a
 * missing value, '?' for the rest; optopt is the option's id, or 0 for a long option that is no
 * option (unknown, or ambiguous where abbreviations are taken). argv[optind - 1] is the element
 * just consumed, except for an unknown short option inside a group ("-vx"), which optopt names.
 */
static int getopt_error(const struct np_cmd_spec *spec, int c, int argc, char **argv,
			struct np_status *st)
{
	const char *el = optind > 0 && optind <= argc ? argv[optind - 1] : "";
	const struct np_opt *o = optopt ? np_opts_find(spec, optopt) : NULL;
	const struct np_opt *lf = long_form(spec, el);

	if (c == ':' && o) {
		if (lf == o)
			return np_usage(st, "option '--%s' needs a value (%s)", o->name, o->arg);
		return np_usage(st, "option '-%c' needs a value (%s)", optopt, o->arg);
	}
	if (o && lf == o)
		return np_usage(st, "option '--%s' takes no value", o->name);
	if (!optopt) {
		size_t len = strcspn(el, "="), shown = len < 64 ? len : 64, n = 0;

		/* Where prefixes are taken (watch, trace, checks), one may fit several options. */
		for (const struct np_opt *p = spec->opts; p->name && len > 2; p++)
			n += strncmp(p->name, el + 2, len - 2) == 0;
		if (n > 1)
			return np_usage(st, "ambiguous option '%.*s' (spell it out)", (int)shown,
					el);
		return np_usage(st, "unknown option '%.*s'", (int)shown, el);
	}
	if (optopt > 0 && optopt < 256)
		return np_usage(st, "unknown option '-%c'", optopt);
	return np_usage(st, "invalid option");
}

/* The value into its destination (np_dest) in the command's configuration cfg. */
static void store(const struct np_opt *o, const struct np_optval *v, void *cfg)
{
	char *at = (char *)cfg + o->off;

	switch (o->dest) {
	case NP_DEST_NONE:
		break;
	case NP_DEST_TRUE:
		*(bool *)at = true;
		break;
	case NP_DEST_COUNT:
		(*(int *)at)++;
		break;
	case NP_DEST_STRING:
		*(const char **)at = v->s;
		break;
	case NP_DEST_DOUBLE:
		*(double *)at = v->num;
		break;
	case NP_DEST_INT:
		*(int *)at = (int)v->num;
		break;
	case NP_DEST_LONG:
		*(long *)at = (long)v->num;
		break;
	case NP_DEST_CHOICE:
		*(int *)at = v->choice;
		break;
	}
}

/* The declared rules (np_opt_rule) over the options given: 0, or -1 with the first broken. */
static int check_rules(const struct np_cmd_spec *spec, const bool *given, struct np_status *st)
{
	for (const struct np_opt *o = spec->opts; o->name; o++) {
		if (!given[o - spec->opts])
			continue;
		for (size_t i = 0; i < 2 && o->needs[i].other; i++) {
			const struct np_opt *n = np_opts_find(spec, o->needs[i].other);

			if (n && !given[n - spec->opts])
				return np_fail(st, "%s", o->needs[i].msg);
		}
		for (size_t i = 0; i < 2 && o->conflicts[i].other; i++) {
			const struct np_opt *n = np_opts_find(spec, o->conflicts[i].other);

			if (n && given[n - spec->opts])
				return np_fail(st, "%s", o->conflicts[i].msg);
		}
	}
	return 0;
}

int np_opts_parse(const struct np_cmd_spec *spec, int argc, char **argv, np_opt_fn fn,
		  void *arg, struct np_status *st)
{
	struct option lo[NP_OPTS_MAX + 1];
	char so[2 * NP_OPTS_MAX + 2];
	bool given[NP_OPTS_MAX] = { false };
	struct np_optval v;
	int c, oerr = opterr, r = 0;

	/* Leading ':': a missing value comes back as ':', told apart from an unknown option. */
	so[0] = ':';
	build(spec, lo, so + 1);
	if (np_opts_exact(spec, argc, argv, st) < 0)
		return -1;
	/* getopt's own messages are two lines before ours; one line says it all. */
	opterr = 0;
	optind = 0;
	while (!r && (c = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		const struct np_opt *o = c == '?' || c == ':' ? NULL : np_opts_find(spec, c);

		if (!o) {
			r = getopt_error(spec, c, argc, argv, st);
		} else if (c == 'h') {
			np_opts_help(spec, stdout, np_term_width(stdout));
			r = np_stop(st, NP_EXIT_OK);
		} else if (c == 'V') {
			printf("netpath %s\n", NETPATH_VERSION);
			r = np_stop(st, NP_EXIT_OK);
		} else if (check_value(o, optarg, &v, st) < 0 ||
			   (o->dest == NP_DEST_NONE && fn && fn(arg, c, &v, st) < 0)) {
			/* A value the command refuses is the command line's fault too. */
			st->usage = np_failed(st);
			r = -1;
		} else {
			store(o, &v, arg);
			given[o - spec->opts] = true;
		}
	}
	opterr = oerr;
	return r ? r : check_rules(spec, given, st);
}

bool np_opts_prescan(const struct np_cmd_spec *spec, int argc, char **argv, int id,
		     const char **value)
{
	struct option lo[NP_OPTS_MAX + 1];
	char so[2 * NP_OPTS_MAX + 2];
	int c, oerr = opterr;
	bool help = false;

	/* Leading '-': operands come back in order (as 1), so this pass does not permute argv
	 * under the real one; errors are left to the real pass. */
	so[0] = '-';
	build(spec, lo, so + 1);
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		if (c == id)
			*value = optarg;
		help |= c == 'h' || c == 'V';
	}
	opterr = oerr;
	optind = 0;
	return help;
}

/* "  -i, --interval SEC     text", continuation lines under the text's column; the text is
 * one paragraph, its line breaks reflowed to the width. */
static void help_option(FILE *out, const struct np_opt *o, int width)
{
	char head[96], text[1024];
	int n;

	if (np_opt_short(o))
		n = snprintf(head, sizeof(head), "  -%c, --%s", o->id, o->name);
	else
		n = snprintf(head, sizeof(head), "      --%s", o->name);
	if (o->arg && n >= 0 && (size_t)n < sizeof(head))
		n += snprintf(head + n, sizeof(head) - (size_t)n, " %s", o->arg);
	fputs(head, out);
	if (n < HELP_COL)
		fprintf(out, "%*s", HELP_COL - n, "");
	else
		fprintf(out, "\n%*s", HELP_COL, "");
	snprintf(text, sizeof(text), "%s", o->help);
	for (char *p = text; *p; p++)
		if (*p == '\n')
			*p = ' ';
	np_wrap_prose(out, text, HELP_COL, HELP_COL, width);
}

/*
 * The synopsis as the terminal wants it: usage lines and indented lines as written, and each
 * paragraph of prose joined into one line for the wrapper, so that a
 * paragraph written with its own line breaks is not broken twice ("...the interface\nof\n...").
 */
static void put_text(FILE *o, const char *text)
{
	bool in_para = false;

	for (const char *l = text; *l;) {
		size_t n = strcspn(l, "\n");
		bool verbatim = n == 0 || l[0] == ' ' || l[0] == '\t' || strncmp(l, "Usage:", 6) == 0;

		if (in_para && verbatim)
			fputc('\n', o);
		else if (in_para)
			fputc(' ', o);
		fwrite(l, 1, n, o);
		in_para = !verbatim;
		if (verbatim && l[n] == '\n')
			fputc('\n', o);
		l += n + (l[n] == '\n');
	}
	if (in_para)
		fputc('\n', o);
}

void np_opts_help(const struct np_cmd_spec *spec, FILE *out, int width)
{
	struct np_wrap_stream w;
	FILE *h = np_text_stream(out);	/* wrapped first, then ASCII under a non-UTF-8 locale */
	FILE *o = np_wrap_open(&w, h, width);

	put_text(o, spec->synopsis);
	if (spec->list_options)
		for (const struct np_opt *opt = spec->opts; opt->name; opt++)
			if (!opt->undocumented)
				help_option(o, opt, width);
	if (spec->epilogue)
		fputs(spec->epilogue, o);
	np_wrap_close(&w);
	np_text_stream_done(h, out);
}

bool np_argv_has(int argc, char **argv, const char *const *words)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		for (const char *const *w = words; *w; w++)
			if (strcmp(argv[i], *w) == 0)
				return true;
	return false;
}
