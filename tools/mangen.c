// SPDX-License-Identifier: GPL-2.0-only
/* Build-time generator of the man pages and the bash completion from the check table, so the
 * reference cannot drift from the code.
 *   mangen TEMPLATE OUTPUT                 troff: expands @CHECKS@, @CHECK_LIST@ and
 *                                          @OPTIONS command@ (the command's option table)
 *   mangen --bash|--zsh|--fish TEMPLATE OUTPUT   shell completion (mangen_bash.c) */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "conffile.h"
#include "mangen.h"
#include "specs.h"

#define WRAP 78

/* One output line; a continuation that starts with '.' or '\'' would read as a request. */
static void line_out(FILE *out, const char *s, size_t len, bool first)
{
	if (!first && len && (s[0] == '.' || s[0] == '\''))
		fputs("\\&", out);
	fwrite(s, 1, len, out);
	fputc('\n', out);
}

/* Text lines of at most WRAP columns (mandoc -Tlint asks for 80), broken at spaces. */
static void wrapped(FILE *out, const char *s, size_t len)
{
	bool first = true;

	while (len > WRAP) {
		size_t cut = WRAP;

		while (cut > 0 && s[cut] != ' ')
			cut--;
		if (cut == 0)
			break;
		line_out(out, s, cut, first);
		first = false;
		s += cut + 1;
		len -= cut + 1;
	}
	line_out(out, s, len, first);
}

/* The non-ASCII characters the check texts use, as troff glyph names. */
static const struct {
	const char *utf8, *glyph;
} glyphs[] = {
	{ "\u00d7", "\\(mu" }, { "\u2248", "\\(~~" }, { "\u2265", "\\(>=" },
	{ "\u2264", "\\(<=" }, { "\u2212", "\\-" }, { "\u2014", "\\(em" },
	{ "\u2013", "\\(en" }, { "\u00b5", "\\(mc" }, { "\u2192", "\\(->" },
	{ "\u2026", "..." }, { "\u2018", "\\(oq" }, { "\u2019", "\\(cq" },
	{ "\u201c", "\\(lq" }, { "\u201d", "\\(rq" }, { "\u00b1", "\\(+-" },
};

/* One character (or UTF-8 sequence) of s as troff into buf; returns the input bytes used.
 * '-' becomes \- so that ids, sysctls and options copied from the page are ASCII hyphens
 * under every groff (1.23 renders a bare '-' as U+2010). */
static size_t roff_char(const char *s, char *buf, size_t size, size_t *n)
{
	if (*s == '\\') {
		*n += (size_t)snprintf(buf + *n, size - *n, "\\e");
		return 1;
	}
	if (*s == '-') {
		*n += (size_t)snprintf(buf + *n, size - *n, "\\-");
		return 1;
	}
	if ((unsigned char)*s >= 0x80) {
		for (size_t g = 0; g < sizeof(glyphs) / sizeof(glyphs[0]); g++) {
			size_t l = strlen(glyphs[g].utf8);

			if (strncmp(s, glyphs[g].utf8, l) == 0) {
				*n += (size_t)snprintf(buf + *n, size - *n, "%s", glyphs[g].glyph);
				return l;
			}
		}
	}
	buf[(*n)++] = *s;
	return 1;
}

/* Escape for troff (a leading '.' or '\'' would read as a request), wrap lines, and turn the
 * table's newlines into line breaks. */
static void roff(FILE *out, const char *s)
{
	char buf[8192];
	size_t n = 0;

	if (!s)
		return;
	while (true) {
		if (*s == '\n' || *s == '\0' || n + 8 >= sizeof(buf)) {
			wrapped(out, buf, n);
			n = 0;
			if (*s == '\0')
				break;
			if (*s == '\n')
				fputs(".br\n", out);
			if (*s == '\n')
				s++;
			continue;
		}
		if (n == 0 && (*s == '.' || *s == '\''))
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "\\&");
		if (n == 0 && *s == ' ') {
			s++;
			continue;
		}
		s += roff_char(s, buf, sizeof(buf), &n);
	}
}

/* A short string (an id, a command) escaped on one line, without wrapping. */
static void roff_id(FILE *out, const char *s)
{
	char buf[512];
	size_t n = 0;

	while (*s && n + 8 < sizeof(buf))
		s += roff_char(s, buf, sizeof(buf), &n);
	fwrite(buf, 1, n, out);
}

/* The same in running text: \% keeps troff from hyphenating it at a line end (an id broken
 * in two cannot be copied). */
static void roff_word(FILE *out, const char *s)
{
	fputs("\\%", out);
	roff_id(out, s);
}

static void section(FILE *out, const char *head, const char *text)
{
	if (!text || !*text)
		return;
	fprintf(out, ".TP\n.B %s\n", head);
	roff(out, text);
}

/* "warn=1<sep>crit=100": the levels as --threshold and the config file write them. */
static void levels(FILE *out, const struct np_check *c, const char *sep)
{
	if (!isnan(c->warn))
		fprintf(out, "warn=%g", c->warn);
	if (!isnan(c->crit))
		fprintf(out, "%scrit=%g", isnan(c->warn) ? "" : sep, c->crit);
}

/* The default levels with their unit, and how to override them (selection.h syntax). */
static void thresholds(FILE *out, const struct np_check *c)
{
	char text[1024];
	int n = 0;

	fputs(".TP\n.B Thresholds\n", out);
	if (isnan(c->warn) && isnan(c->crit)) {
		fputs("Configuration check, no thresholds. To leave it out:\n.B \\-\\-skip ", out);
		roff_word(out, c->id);
		fputs("\nor a\n.B skip ", out);
		roff_word(out, c->id);
		fputs("\nline in\n.IR " NP_CONFIG_PATH " .\n", out);
		return;
	}
	if (!isnan(c->warn))
		n += snprintf(text + n, sizeof(text) - (size_t)n, "warning at %g", c->warn);
	if (!isnan(c->crit))
		n += snprintf(text + n, sizeof(text) - (size_t)n, "%scritical at %g",
			      isnan(c->warn) ? "" : ", ", c->crit);
	if (c->thr_unit)
		n += snprintf(text + n, sizeof(text) - (size_t)n,
			      c->thr_unit[0] == '(' ? " %s" : " (%s)", c->thr_unit);
	snprintf(text + n, sizeof(text) - (size_t)n, ".");
	roff(out, text);
	fputs(".br\nIn " NP_CONFIG_PATH " (or the file of \\-\\-config):\n.br\n", out);
	fputs(".B \"threshold ", out);
	roff_word(out, c->id);
	fputc(' ', out);
	levels(out, c, " ");
	fputs("\"\n.br\nFor one run:\n.br\n.B \"netpath doctor \\-\\-threshold ", out);
	roff_word(out, c->id);
	fputc(':', out);
	levels(out, c, ",");
	fputs("\"\n.br\n", out);
	if (!isnan(c->warn) && !isnan(c->crit))
		fputs("Either level may be given alone; the other keeps its default.\n", out);
}

/* A template line with @CONFIG_PATH@ (the main settings file, /etc's) or @SYSCONFDIR@ (meson's
 * sysconfdir, the second directory read when it is not /etc). */
static void config_path(FILE *out, const char *line)
{
	static const struct { const char *at, *value; } subst[] = {
		{ "@CONFIG_PATH@", NP_CONFIG_PATH }, { "@SYSCONFDIR@", NP_CONFIG_SYSCONFDIR },
	};

	for (;;) {
		const char *at = NULL, *value = NULL, *p;
		size_t skip = 0;

		for (size_t i = 0; i < sizeof(subst) / sizeof(subst[0]); i++)
			if ((p = strstr(line, subst[i].at)) && (!at || p < at)) {
				at = p;
				value = subst[i].value;
				skip = strlen(subst[i].at);
			}
		if (!at)
			break;
		fwrite(line, 1, (size_t)(at - line), out);
		fputs(value, out);
		line = at + skip;
	}
	fputs(line, out);
}

/* @CHECKS@: every check in full, by stage (netpath-checks(7)). */
static void checks(FILE *out)
{
	size_t n;
	const struct np_check *const *t = np_check_table(&n);
	int stage = -1;

	for (size_t i = 0; i < n; i++) {
		const struct np_check *c = t[i];

		if ((int)c->stage != stage) {
			stage = (int)c->stage;
			fprintf(out, ".SS Stage: %s\n", np_stage_name(c->stage));
		}
		/* The .B line is the heading tests/docs/man-check.sh looks for. */
		fputs(".TP\n.B ", out);
		roff_id(out, c->id);
		fputc('\n', out);
		roff(out, c->title);
		fprintf(out, "(stage\n.BR %s ).\n.RS\n", np_stage_name(c->stage));
		section(out, "What it looks at", c->looks_at);
		section(out, "Why it matters, and when it does not", c->why);
		section(out, "Fix and its cost", c->fix);
		section(out, "Related settings", c->related);
		section(out, "Kernel versions", c->kernel_notes);
		thresholds(out, c);
		fputs(".RE\n", out);
	}
}

/* @CHECK_LIST@: the ids by stage, for netpath(8) (the text lives in netpath-checks(7)). */
static void check_list(FILE *out)
{
	size_t n;
	const struct np_check *const *t = np_check_table(&n);

	fputs(".na\n", out);	/* ragged right: justified, long ids leave wide gaps */
	for (size_t i = 0; i < n; i++) {
		bool first = i == 0 || t[i - 1]->stage != t[i]->stage;
		bool last = i + 1 == n || t[i + 1]->stage != t[i]->stage;

		if (first)
			fprintf(out, ".TP\n.B %s\n", np_stage_name(t[i]->stage));
		roff_word(out, t[i]->id);
		fputs(last ? "\n" : ",\n", out);
	}
	fputs(".ad\n", out);
}

/* A paragraph of troff from a table: long text lines wrapped, requests kept as they are. */
static void troff_text(FILE *out, const char *s)
{
	while (*s) {
		size_t len = strcspn(s, "\n");

		if (s[0] != '.' && len > WRAP)
			wrapped(out, s, len);
		else
			line_out(out, s, len, true);
		s += len + (s[len] == '\n');
	}
}

/* The option's declared rules (np_opt_rule), after its paragraph: "Needs --every." */
static void option_rules(FILE *out, const struct np_cmd_spec *spec, const struct np_opt *o)
{
	for (int k = 0; k < 2; k++) {
		const struct np_opt_rule *r = k ? o->conflicts : o->needs;

		for (size_t i = 0; i < 2 && r[i].other; i++) {
			const struct np_opt *other = np_opts_find(spec, r[i].other);

			if (!other)
				continue;
			fprintf(out, "%s \\fB\\-\\-", k ? "Not with" : "Needs");
			roff_id(out, other->name);
			fputs("\\fR.\n", out);
		}
	}
}

/* @OPTIONS command@: the command's options from its table (src/cmd/spec_*.c), each with its
 * paragraph for this page, else its --help text. */
static int options(FILE *out, const char *name)
{
	const struct np_cmd_spec *spec = NULL;
	char help[2048];

	for (size_t i = 0; i < NP_CMD__COUNT; i++)
		if (strcmp(np_cmd_specs[i]->name, name) == 0)
			spec = np_cmd_specs[i];
	if (!spec) {
		fprintf(stderr, "mangen: @OPTIONS %s@: no such command\n", name);
		return -1;
	}
	for (const struct np_opt *o = spec->opts; o->name; o++) {
		if (o->undocumented || o->id == 'h')
			continue;
		fputs(".TP\n", out);
		if (np_opt_short(o))
			fprintf(out, "\\fB\\-%c\\fR, ", np_opt_short(o));
		fputs("\\fB\\-\\-", out);
		roff_id(out, o->name);
		fputs("\\fR", out);
		if (o->arg) {
			fputs(" \\fI", out);
			roff_id(out, o->arg);
			fputs("\\fR", out);
		}
		fputc('\n', out);
		if (o->man) {
			troff_text(out, o->man);
		} else {
			/* The help's continuation lines are one sentence for the page. */
			snprintf(help, sizeof(help), "%s%s", o->help,
				 *o->help && o->help[strlen(o->help) - 1] == '.' ? "" : ".");
			for (char *p = help; *p; p++)
				if (*p == '\n')
					*p = ' ';
			roff(out, help);
		}
		option_rules(out, spec, o);
	}
	return 0;
}

static int troff(const char *tmpl, const char *outpath)
{
	char line[4096];
	bool nofill = false;
	FILE *in, *out;

	in = fopen(tmpl, "r");
	if (!in) {
		perror(tmpl);
		return 1;
	}
	out = fopen(outpath, "w");
	if (!out) {
		perror(outpath);
		fclose(in);
		return 1;
	}
	while (fgets(line, sizeof(line), in)) {
		size_t len = strlen(line);

		/* Never re-wrap a no-fill block: its line breaks are the point. */
		if (strncmp(line, ".nf", 3) == 0)
			nofill = true;
		else if (strncmp(line, ".fi", 3) == 0)
			nofill = false;
		if (strcmp(line, "@CHECKS@\n") == 0) {
			checks(out);
		} else if (strncmp(line, "@OPTIONS ", 9) == 0 && len > 11 &&
			   strcmp(line + len - 2, "@\n") == 0) {
			line[len - 2] = '\0';
			if (options(out, line + 9) < 0) {
				fclose(in);
				fclose(out);
				remove(outpath);
				return 1;
			}
		} else if (strcmp(line, "@CHECK_LIST@\n") == 0) {
			check_list(out);
		} else if (strncmp(line, "@IF_SYSCONFDIR@ ", 16) == 0) {
			/* A line about sysconfdir's files: left out where sysconfdir is /etc. */
			if (strcmp(NP_CONFIG_SYSCONFDIR, NP_CONFIG_ETC_DIR) != 0)
				config_path(out, line + 16);
		} else if (strstr(line, "@CONFIG_PATH@") || strstr(line, "@SYSCONFDIR@")) {
			config_path(out, line);
		} else if (!nofill && line[0] != '.' && len > WRAP + 1) {
			wrapped(out, line, len - (line[len - 1] == '\n'));
		} else {
			fputs(line, out);
		}
	}
	fclose(in);
	return fclose(out) == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc == 4 && strncmp(argv[1], "--", 2) == 0)
		return np_mangen_completion(argv[1] + 2, argv[2], argv[3]);
	if (argc == 3)
		return troff(argv[1], argv[2]);
	fputs("usage: mangen TEMPLATE OUTPUT\n       mangen --bash|--zsh|--fish TEMPLATE OUTPUT\n",
	      stderr);
	return 2;
}
