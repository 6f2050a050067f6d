// SPDX-License-Identifier: GPL-2.0-only
/*
 * mangen --bash, --zsh, --fish: the shell completions from the commands' option tables and the
 * check table. The templates (completion/netpath.{bash,zsh,fish}.in) hold the logic; this fills
 * in the lists and the lookup tables, as case arms: bash and zsh share the syntax
 * ("a | b)\n echo 'x' ;;"), fish has its own ("case a b\n printf '%s\n' 'x'").
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mangen.h"
#include "specs.h"

/* The kinds of completion/netpath.bash.in's _netpath_value. */
static const char *const kind_names[] = {
	[NP_COMPLETE_NONE] = "none",		[NP_COMPLETE_FILE] = "file",
	[NP_COMPLETE_DIR] = "dir",		[NP_COMPLETE_NETNS] = "netns",
	[NP_COMPLETE_IFACE] = "iface",		[NP_COMPLETE_CHECK] = "check",
	[NP_COMPLETE_THRESHOLD] = "threshold",	[NP_COMPLETE_IDLIST] = "idlist",
	[NP_COMPLETE_WORDS] = "words",
};

static bool fish;	/* the dialect of the case arms */

/* One case arm: the patterns (n of them), then the value the arm prints. */
static void arm(FILE *out, const char *const *pat, size_t n, const char *value)
{
	fputs(fish ? "\tcase " : "\t", out);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%s", i ? (fish ? " " : " | ") : "", pat[i]);
	if (fish)
		fprintf(out, "\n\t\tprintf '%%s\\n' '%s'\n", value);
	else
		fprintf(out, ")\n\t\techo '%s' ;;\n", value);
}

/* Everything written into the script must be a plain word: no quoting, no expansion. */
static bool plain(const char *s)
{
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._:,=/+- ")
	       == strlen(s);
}

/* The options the shell offers: every one the command accepts, but those it only refuses. */
static bool offered(const struct np_opt *o)
{
	return !o->undocumented;
}

static void options_block(FILE *out)
{
	for (size_t i = 0; i < NP_CMD__COUNT; i++) {
		const struct np_cmd_spec *c = np_cmd_specs[i];
		char words[4096];
		FILE *w = fmemopen(words, sizeof(words), "w");
		const char *sep = "";

		if (!w) {
			perror("mangen");
			exit(1);
		}
		for (const struct np_opt *o = c->opts; o->name; o++) {
			if (!offered(o))
				continue;
			if (np_opt_short(o))
				fprintf(w, "%s-%c", sep, np_opt_short(o));
			fprintf(w, "%s--%s", np_opt_short(o) ? " " : sep, o->name);
			sep = " ";
		}
		if (fclose(w) != 0 || !memchr(words, '\0', sizeof(words))) {
			fputs("mangen: too many options\n", stderr);
			exit(1);
		}
		arm(out, &c->name, 1, words);
	}
}

static void optargs_block(FILE *out)
{
	for (size_t i = 0; i < NP_CMD__COUNT; i++) {
		const struct np_cmd_spec *c = np_cmd_specs[i];

		for (const struct np_opt *o = c->opts; o->name; o++) {
			enum np_complete k = np_opt_complete(o);

			if (!o->arg || !offered(o))
				continue;
			char pat[2][256], value[1024];
			const char *pats[2] = { pat[0], pat[1] };
			size_t n = 0;

			if (np_opt_short(o))
				snprintf(pat[n++], sizeof(pat[0]), "%s:-%c", c->name, np_opt_short(o));
			snprintf(pat[n++], sizeof(pat[0]), "%s:--%s", c->name, o->name);
			snprintf(value, sizeof(value), "%s%s%s", kind_names[k],
				 k == NP_COMPLETE_WORDS ? " " : "",
				 k == NP_COMPLETE_WORDS ? o->words : "");
			arm(out, pats, n, value);
		}
	}
}

static void operands_block(FILE *out)
{
	for (size_t i = 0; i < NP_CMD__COUNT; i++) {
		const struct np_cmd_spec *c = np_cmd_specs[i];

		for (size_t k = 0; k < sizeof(c->operands) / sizeof(c->operands[0]) &&
				   c->operands[k].name; k++) {
			char pat[256];
			const char *pats[1] = { pat };

			snprintf(pat, sizeof(pat), "%s:%zu", c->name, k);
			arm(out, pats, 1, kind_names[c->operands[k].complete]);
		}
	}
}

/* Does a exclude b: a conflict declared on either row (np_opt_rule). */
static bool excludes(const struct np_opt *a, const struct np_opt *b)
{
	for (size_t i = 0; i < 2; i++)
		if ((a->conflicts[i].other && a->conflicts[i].other == b->id) ||
		    (b->conflicts[i].other && b->conflicts[i].other == a->id))
			return true;
	return false;
}

/* For each option of each command that excludes others: the forms (-o --output) the shell
 * stops offering once it is on the line, so the completion follows the declared rules. */
static void excludes_block(FILE *out)
{
	for (size_t i = 0; i < NP_CMD__COUNT; i++) {
		const struct np_cmd_spec *c = np_cmd_specs[i];

		for (const struct np_opt *o = c->opts; o->name; o++) {
			char pat[2][256], value[1024] = "";
			const char *pats[2] = { pat[0], pat[1] };
			size_t n = 0, len = 0;

			for (const struct np_opt *p = c->opts; p->name; p++) {
				if (!excludes(o, p) || !offered(p))
					continue;
				if (np_opt_short(p))
					len += (size_t)snprintf(value + len, sizeof(value) - len, "%s-%c",
								len ? " " : "", np_opt_short(p));
				if (len < sizeof(value))
					len += (size_t)snprintf(value + len, sizeof(value) - len,
								"%s--%s", len ? " " : "", p->name);
				if (len >= sizeof(value)) {
					fputs("mangen: too many excluded options\n", stderr);
					exit(1);
				}
			}
			if (!len)
				continue;
			if (np_opt_short(o))
				snprintf(pat[n++], sizeof(pat[0]), "%s:-%c", c->name, np_opt_short(o));
			snprintf(pat[n++], sizeof(pat[0]), "%s:--%s", c->name, o->name);
			arm(out, pats, n, value);
		}
	}
}

static void levels_block(FILE *out)
{
	size_t n;
	const struct np_check *const *t = np_check_table(&n);

	for (size_t i = 0; i < n; i++) {
		if (isnan(t[i]->warn) && isnan(t[i]->crit))
			continue;
		arm(out, &t[i]->id, 1,
		    isnan(t[i]->warn) ? "crit" : isnan(t[i]->crit) ? "warn" : "warn crit");
	}
}

/* A placeholder alone on its line: a case block. 1 when name is none. */
static int block(FILE *out, const char *name)
{
	if (strcmp(name, "OPTIONS") == 0)
		options_block(out);
	else if (strcmp(name, "OPTARGS") == 0)
		optargs_block(out);
	else if (strcmp(name, "OPERANDS") == 0)
		operands_block(out);
	else if (strcmp(name, "LEVELS") == 0)
		levels_block(out);
	else if (strcmp(name, "EXCLUDES") == 0)
		excludes_block(out);
	else
		return 1;
	return 0;
}

static int word_list(FILE *out, const char *name)
{
	size_t n;
	const struct np_check *const *t = np_check_table(&n);
	const char *sep = "";

	if (strcmp(name, "COMMANDS") == 0) {
		for (size_t i = 0; i < NP_CMD__COUNT; i++, sep = " ")
			fprintf(out, "%s%s", sep, np_cmd_specs[i]->name);
	} else if (strcmp(name, "CHECK_IDS") == 0) {
		for (size_t i = 0; i < n; i++, sep = " ")
			fprintf(out, "%s%s", sep, t[i]->id);
	} else if (strcmp(name, "THRESHOLD_IDS") == 0) {
		for (size_t i = 0; i < n; i++) {
			if (isnan(t[i]->warn) && isnan(t[i]->crit))
				continue;
			fprintf(out, "%s%s", sep, t[i]->id);
			sep = " ";
		}
	} else if (strcmp(name, "STAGES") == 0) {
		for (int i = 0; i < NP_STAGE__COUNT; i++, sep = " ")
			fprintf(out, "%s%s", sep, np_stage_name((enum np_stage)i));
	} else {
		return -1;
	}
	return 0;
}

/* Refuse names that would need quoting in the script. */
static int check_names(void)
{
	size_t n;
	const struct np_check *const *t = np_check_table(&n);

	for (size_t i = 0; i < n; i++)
		if (!plain(t[i]->id) || strchr(t[i]->id, ' '))
			goto bad;
	for (size_t i = 0; i < NP_CMD__COUNT; i++) {
		const struct np_cmd_spec *c = np_cmd_specs[i];

		if (!plain(c->name) || strchr(c->name, ' '))
			goto bad;
		for (const struct np_opt *o = c->opts; o->name; o++)
			if (!plain(o->name) || strchr(o->name, ' ') ||
			    (o->kind == NP_ARG_CHOICE && (!o->words || !plain(o->words))))
				goto bad;
	}
	return 0;
bad:
	fputs("mangen: a command, option, choice or check id needs shell quoting\n", stderr);
	return -1;
}

static int expand(FILE *in, FILE *out)
{
	char line[1024];

	while (fgets(line, sizeof(line), in)) {
		char *p = line, *at, *end;
		int r;

		/* A placeholder alone on its line is a case block; inside a line, a word list. */
		at = p + strspn(p, "\t ");
		if (at[0] == '@' && (end = strchr(at + 1, '@')) && strcmp(end, "@\n") == 0) {
			*end = '\0';
			r = block(out, at + 1);
			if (r == 0)
				continue;
			*end = '@';
		}
		while ((at = strchr(p, '@')) && (end = strchr(at + 1, '@'))) {
			*end = '\0';
			if (strspn(at + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_") != strlen(at + 1) ||
			    end == at + 1) {
				*end = '@';
				fwrite(p, 1, (size_t)(end - p), out);
				p = end;
				continue;
			}
			fwrite(p, 1, (size_t)(at - p), out);
			if (word_list(out, at + 1) < 0) {
				fprintf(stderr, "mangen: unknown placeholder @%s@\n", at + 1);
				return -1;
			}
			p = end + 1;
		}
		fputs(p, out);
	}
	return 0;
}

int np_mangen_completion(const char *shell, const char *tmpl, const char *outpath)
{
	FILE *in = NULL, *out = NULL;
	int ret = 1;

	if (strcmp(shell, "bash") && strcmp(shell, "zsh") && strcmp(shell, "fish")) {
		fprintf(stderr, "mangen: no completion for shell %s\n", shell);
		return 1;
	}
	fish = !strcmp(shell, "fish");
	if (check_names() < 0)
		return 1;
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
	ret = expand(in, out) < 0;
	fclose(in);
	if (fclose(out) != 0)
		ret = 1;
	if (ret)
		remove(outpath);
	return ret;
}
